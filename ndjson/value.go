package ndjson

import (
	"fmt"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/textval"
)

// Supported reports whether values of type t have a JSON form (nil) or
// why not.
func Supported(t datatype.DataType) error {
	if err := supported(t); err != nil {
		return fmt.Errorf("ndjson: %w: %v", ErrNotSupported, err)
	}
	return nil
}

// ValueEncoder returns a function that appends the JSON text of slot i of
// a (null or not), in the form the Writer writes it. It is how the csv
// writer puts a nested value in one cell.
func ValueEncoder(a array.Array) (func(dst []byte, i int) ([]byte, error), error) {
	e, err := encoder(a, "value", &writerConfig{})
	if err != nil {
		return nil, err
	}
	return func(dst []byte, i int) ([]byte, error) { return (&writerConfig{}).nullOr(dst, a, e, i) }, nil
}

// ValueDecoder returns a function that reads the JSON text of one value
// (or null) and appends it to b, the inverse of ValueEncoder. It is how
// the csv reader reads a nested value from one cell.
func ValueDecoder(b array.Builder) (func(text []byte) error, error) {
	c, err := newCol(b, "value", true, &textval.Options{})
	if err != nil {
		return nil, err
	}
	var l lexer
	return func(text []byte) error {
		l.b, l.pos = text, 0
		if err := c.value(&l, 0); err != nil {
			return fmt.Errorf("ndjson: %w: %v", ErrInvalid, err)
		}
		if l.peek() != 0 {
			return fmt.Errorf("ndjson: %w: %v", ErrInvalid, l.errf("text after the value"))
		}
		return nil
	}, nil
}
