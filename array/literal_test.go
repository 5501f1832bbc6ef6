package array

import "github.com/alkaid-go/alkaid/datatype"

// parseLiteral is arrayjson.Parse, handed over by the external test
// package (literal_hook_test.go): arrayjson imports array, so the tests
// of this package cannot import it themselves.
var parseLiteral func(datatype.DataType, string) (Array, error)

// appendLiteral is arrayjson.Append, handed over the same way.
var appendLiteral func(Builder, string) error

// SetLiteralParser (tests only) sets the parser of MustFromJSON and the
// tests of this package: arrayjson.Parse and arrayjson.Append.
func SetLiteralParser(parse func(datatype.DataType, string) (Array, error), appendTo func(Builder, string) error) {
	parseLiteral, appendLiteral = parse, appendTo
}

// MustFromJSON builds an array from a JSON literal for the tests of this
// package, as arrayjson.MustParse does; it panics on error.
func MustFromJSON(t datatype.DataType, literal string) Array {
	if parseLiteral == nil {
		panic("array tests: no literal parser (literal_hook_test.go sets it)")
	}
	a, err := parseLiteral(t, literal)
	if err != nil {
		panic(err)
	}
	return a
}
