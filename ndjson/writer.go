package ndjson

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/quote"
	"github.com/alkaid-go/alkaid/internal/textval"
)

// Writer writes record batches as newline-delimited JSON, one object per
// row, keys in schema order, nulls written as null. It is an
// alkaid.RecordWriter: every batch must have the schema it was created
// with.
type Writer struct {
	w      io.Writer
	cfg    writerConfig
	schema *alkaid.Schema
	buf    []byte
	err    error
}

// NewWriter returns a Writer of records of schema to w. A type without a
// JSON form is an error naming the field, as is a bad option (or a
// Reader's).
func NewWriter(w io.Writer, schema *alkaid.Schema, opts ...Option) (*Writer, error) {
	cfg, err := writerOptions(opts)
	if err != nil {
		return nil, err
	}
	if schema == nil {
		return nil, fmt.Errorf("ndjson: %w: NewWriter: a nil schema", ErrInvalid)
	}
	for i := range schema.NumFields() {
		f := schema.Field(i)
		if err := supported(f.Type); err != nil {
			return nil, fmt.Errorf("ndjson: %w: field %s: %v", ErrNotSupported, quote.String(f.Name), err)
		}
	}
	return &Writer{w: w, cfg: cfg, schema: schema}, nil
}

// enc appends the JSON of slot i (not null) of its array.
type enc func(dst []byte, i int) ([]byte, error)

// encoder returns the encoder of a (see the package doc for the forms).
func encoder(a array.Array, path string, cfg *writerConfig) (enc, error) {
	t := a.DataType()
	if err := supported(t); err != nil {
		return nil, fmt.Errorf("ndjson: %w: field %q: %v", ErrNotSupported, path, err)
	}
	if e, err := encodedEncoder(a, path, cfg); e != nil || err != nil {
		return e, err
	}
	switch aa := a.(type) {
	case *array.Struct:
		st := t.(*datatype.StructType)
		kids := make([]enc, aa.NumField())
		keys := make([][]byte, aa.NumField())
		for k := range kids {
			f := st.Field(k)
			e, err := encoder(aa.Field(k), path+"."+f.Name, cfg)
			if err != nil {
				return nil, err
			}
			kids[k] = e
			keys[k] = append(appendString(nil, []byte(f.Name)), ':')
		}
		return func(dst []byte, i int) ([]byte, error) {
			dst = append(dst, '{')
			for k, e := range kids {
				if k > 0 {
					dst = append(dst, ',')
				}
				dst = append(dst, keys[k]...)
				var err error
				if dst, err = cfg.nullOr(dst, aa.Field(k), e, i); err != nil {
					return nil, err
				}
			}
			return append(dst, '}'), nil
		}, nil
	case array.ListLike:
		vals := aa.ListValues()
		e, err := encoder(vals, path+"[]", cfg)
		if err != nil {
			return nil, err
		}
		return func(dst []byte, i int) ([]byte, error) {
			s, end := aa.ValueOffsets(i)
			dst = append(dst, '[')
			for j := s; j < end; j++ {
				if j > s {
					dst = append(dst, ',')
				}
				var err error
				if dst, err = cfg.nullOr(dst, vals, e, j); err != nil {
					return nil, err
				}
			}
			return append(dst, ']'), nil
		}, nil
	}
	f, err := textval.NewFormatter(a, textval.FormatOptions{})
	if err != nil {
		return nil, fmt.Errorf("ndjson: %w: field %q: %v", ErrNotSupported, path, err)
	}
	switch t.Kind() {
	case datatype.KindBool, datatype.KindInt8, datatype.KindInt16, datatype.KindInt32, datatype.KindInt64,
		datatype.KindUint8, datatype.KindUint16, datatype.KindUint32, datatype.KindUint64,
		datatype.KindDecimal32, datatype.KindDecimal64, datatype.KindDecimal128, datatype.KindDecimal256, datatype.KindDuration:
		return func(dst []byte, i int) ([]byte, error) { return f(dst, i), nil }, nil
	case datatype.KindFloat16, datatype.KindFloat32, datatype.KindFloat64:
		return func(dst []byte, i int) ([]byte, error) {
			n := len(dst)
			dst = f(dst, i)
			switch string(dst[n:]) {
			case "NaN", "+Inf", "-Inf":
				v := string(dst[n:])
				return append(append(append(dst[:n], '"'), v...), '"'), nil
			}
			return dst, nil
		}, nil
	case datatype.KindNull:
		return func(dst []byte, i int) ([]byte, error) { return append(dst, "null"...), nil }, nil
	}
	var tmp []byte
	check := textval.IsString(t)
	return func(dst []byte, i int) ([]byte, error) {
		tmp = f(tmp[:0], i)
		if check && !utf8.Valid(tmp) {
			return nil, fmt.Errorf("ndjson: %w: field %s, row %d: string is not valid UTF-8 (at byte %d)", ErrInvalid, path, i, textval.InvalidUTF8At(tmp)+1)
		}
		return appendString(dst, tmp), nil
	}, nil
}

// nullOr writes null for a null slot of a, else its value; a union with
// type codes writes its nulls itself ({"type_code": c, "value": null}).
func (c *writerConfig) nullOr(dst []byte, a array.Array, e enc, i int) ([]byte, error) {
	if a.IsNull(i) {
		if _, union := a.(*array.Union); !union || !c.unionCodes {
			return append(dst, "null"...), nil
		}
	}
	return e(dst, i)
}

const hexDigits = "0123456789abcdef"

// appendString appends s (valid UTF-8) as a JSON string.
func appendString(dst, s []byte) []byte {
	dst = append(dst, '"')
	start := 0
	for i, c := range s {
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// Write writes the rows of rec. A type without a JSON form is an error
// naming the column, before anything of rec is written; a string that is
// not UTF-8 is an error naming the column and row.
func (w *Writer) Write(rec *alkaid.Record) error {
	if w.err != nil {
		return w.err
	}
	if !rec.Schema().Equal(w.schema) {
		return fmt.Errorf("ndjson: %w: a record whose schema is not the Writer's", ErrInvalid)
	}
	n := rec.NumCols()
	encs := make([]enc, n)
	keys := make([][]byte, n)
	for i := range n {
		e, err := encoder(rec.Column(i), rec.ColumnName(i), &w.cfg)
		if err != nil {
			return err
		}
		encs[i] = e
		sep := byte(',')
		if i == 0 {
			sep = '{'
		}
		keys[i] = append(appendString([]byte{sep}, []byte(rec.ColumnName(i))), ':')
	}
	cols := rec.Columns()
	for row := range rec.NumRows() {
		start := len(w.buf)
		if n == 0 {
			w.buf = append(w.buf, '{')
		}
		for i, c := range cols {
			w.buf = append(w.buf, keys[i]...)
			b, err := w.cfg.nullOr(w.buf, c, encs[i], row)
			if err != nil {
				w.buf = w.buf[:start] // drop the partial row
				return err
			}
			w.buf = b
		}
		w.buf = append(w.buf, '}', '\n')
		if len(w.buf) >= 1<<20 {
			if err := w.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *Writer) flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	_, err := w.w.Write(w.buf)
	w.buf = w.buf[:0]
	if err != nil {
		w.err = fmt.Errorf("ndjson: writing: %w", err)
	}
	return w.err
}

// Flush writes what is buffered to the underlying writer.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	return w.flush()
}

// Close flushes; it does not close the underlying writer.
func (w *Writer) Close() error { return w.Flush() }
