// Package quote quotes input for error messages with a bound, so that an
// error never echoes a whole hostile input (a 600 KB line, a 1 MB path).
package quote
