// Package arrayjson builds arrays from JSON array literals, one element per
// slot ([Parse], [MustParse]) or appends them to a builder ([Append]): a
// compact way to write arrays in tests and examples. It sits above package
// array, whose builders it drives; the core package knows nothing of JSON.
package arrayjson
