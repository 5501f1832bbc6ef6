// Package depcheck checks the package table of the README against the
// import graph: every package of the module has a row, and a package
// imports only packages in rows above its own (the table runs from the
// lowest tier to the highest). Its test runs the check on this module.
package depcheck
