package csv

import (
	"fmt"
	"sync"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/textval"
	"github.com/alkaid-go/alkaid/ndjson"
)

// The text of the types with no scalar text of their own: a dictionary or
// run-end encoded array of a scalar type is the text of its values; every
// other type (intervals, lists, structs, maps, unions, and dictionaries
// and run-end encoded arrays of those) is its JSON text, as the ndjson
// writer writes it, in one cell.

// cellSupported reports whether t has a CSV form (nil) or why not.
func cellSupported(t datatype.DataType) error {
	if textval.Supported(t) == nil {
		return nil
	}
	if v := encodedValues(t); v != nil && textval.Supported(v) == nil {
		return nil
	}
	return ndjson.Supported(t)
}

// encodedValues returns the value type of a dictionary or run-end encoded
// type, or nil.
func encodedValues(t datatype.DataType) datatype.DataType {
	switch tt := t.(type) {
	case *datatype.DictionaryType:
		return tt.Value
	case *datatype.RunEndEncodedType:
		return tt.Values().Type
	}
	return nil
}

// newCellFormatter returns the formatter of a's cells. A value whose
// JSON text cannot be written (a string that is not UTF-8) is an error
// here, before anything of the batch is written.
func newCellFormatter(a array.Array, o textval.FormatOptions) (textval.Formatter, error) {
	if textval.Supported(a.DataType()) == nil {
		return textval.NewFormatter(a, o)
	}
	switch aa := a.(type) {
	case *array.Dictionary:
		if textval.Supported(aa.Dictionary().DataType()) == nil {
			f, err := textval.NewFormatter(aa.Dictionary(), o)
			if err != nil {
				return nil, err
			}
			return func(dst []byte, i int) []byte { return f(dst, aa.ValueIndex(i)) }, nil
		}
	case *array.RunEndEncoded:
		if textval.Supported(aa.Values().DataType()) == nil {
			f, err := textval.NewFormatter(aa.Values(), o)
			if err != nil {
				return nil, err
			}
			return func(dst []byte, i int) []byte { return f(dst, aa.PhysicalIndex(i)) }, nil
		}
	}
	e, err := ndjson.ValueEncoder(a)
	if err != nil {
		return nil, err
	}
	var tmp []byte
	for i := range a.Len() {
		if tmp, err = e(tmp[:0], i); err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
	}
	// The writer formats parts of a batch on several goroutines, and an
	// encoder has scratch space: each call takes one from a pool.
	type encoder = func([]byte, int) ([]byte, error)
	pool := sync.Pool{New: func() any {
		e, _ := ndjson.ValueEncoder(a) // made once above without error
		return e
	}}
	pool.Put(e)
	return func(dst []byte, i int) []byte {
		e := pool.Get().(encoder)
		out, _ := e(dst, i) // checked above
		pool.Put(e)
		return out
	}, nil
}

// newCellAppender returns the appender of cells of type t.
func newCellAppender(t datatype.DataType, o *textval.Options) (*textval.Appender, error) {
	if textval.Supported(t) == nil {
		return textval.NewAppender(t, o)
	}
	b, err := array.TryNewBuilder(t)
	if err != nil {
		return nil, err
	}
	if v := encodedValues(t); v != nil && textval.Supported(v) == nil {
		switch bb := b.(type) {
		case *array.RunEndEncodedBuilder:
			vals, err := textval.Bind(bb.ValueBuilder(), o)
			if err != nil {
				return nil, err
			}
			return textval.NewCustomAppender(b, func(cell []byte) error {
				if err := vals.Append(cell); err != nil {
					return err
				}
				bb.Append()
				return nil
			}), nil
		case interface{ AppendArray(array.Array) error }:
			vals, err := textval.NewAppender(v, o)
			if err != nil {
				return nil, err
			}
			return textval.NewCustomAppender(b, func(cell []byte) error {
				if err := vals.Append(cell); err != nil {
					return err
				}
				return bb.AppendArray(vals.NewArray())
			}), nil
		}
	}
	dec, err := ndjson.ValueDecoder(b)
	if err != nil {
		return nil, err
	}
	return textval.NewCustomAppender(b, func(cell []byte) error {
		if err := dec(cell); err != nil {
			return fmt.Errorf("%w: %v", textval.ErrValue, err)
		}
		return nil
	}), nil
}

// nullValue reports whether slot i of a dictionary is a valid index of a
// null value (a null too).
func nullValue(a array.Array, i int) bool {
	d, ok := a.(*array.Dictionary)
	return ok && d.Dictionary().IsNull(d.ValueIndex(i))
}
