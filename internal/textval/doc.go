// Package textval holds what the text formats (csv, ndjson) share: the
// text form of each scalar type (parsing a cell into a builder, formatting
// a slot), and type inference from cell text.
//
// The text of each scalar value is defined once, in package grammar
// (numbers, decimals, dates, times, timestamps; its doc holds the grammar
// and a table of tricky inputs); this package binds it to builders and
// arrays.
//
// Parsing is lossless: a value that does not fit its type exactly is an
// error, never a rounded or replaced value. Errors name the value; the
// callers add the line and column.
package textval
