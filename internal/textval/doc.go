// Package textval holds what the text formats (csv, ndjson) share: the
// text form of each scalar type (parsing a cell into a builder, formatting
// a slot), and type inference from cell text.
//
// Parsing is lossless: a value that does not fit its type exactly is an
// error, never a rounded or replaced value. Errors name the value; the
// callers add the line and column.
package textval
