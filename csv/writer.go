package csv

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/quote"
	"github.com/alkaid-go/alkaid/internal/textval"
)

// Writer writes record batches as CSV: a header (unless WithHeader(false)),
// then one line per row. It is an alkaid.RecordWriter: every batch must
// have the schema it was created with.
type Writer struct {
	w      io.Writer
	cfg    writerConfig
	schema *alkaid.Schema
	buf    []byte
	eol    []byte
	err    error
	parts  [][]byte // the buffers of parallel formatting, kept between batches
}

// NewWriter returns a Writer of records of schema to w. A type without a
// CSV form is an error naming the column, as is a bad option (or a
// Reader's). The header is written with the first Write, or by Close
// when there is none.
func NewWriter(w io.Writer, schema *alkaid.Schema, opts ...Option) (*Writer, error) {
	cfg, err := writerOptions(opts)
	if err != nil {
		return nil, err
	}
	if schema == nil {
		return nil, fmt.Errorf("csv: %w: NewWriter: a nil schema", ErrInvalid)
	}
	for i := range schema.NumFields() {
		f := schema.Field(i)
		if err := cellSupported(f.Type); err != nil {
			return nil, fmt.Errorf("csv: %w: column %s: %v", ErrNotSupported, quote.String(f.Name), err)
		}
	}
	wr := &Writer{w: w, cfg: cfg, schema: schema, eol: []byte("\n")}
	if cfg.crlf {
		wr.eol = []byte("\r\n")
	}
	if cfg.header {
		for i := range schema.NumFields() {
			if i > 0 {
				wr.buf = append(wr.buf, cfg.delim)
			}
			wr.buf = wr.appendCell(wr.buf, []byte(schema.Field(i).Name))
		}
		wr.buf = append(wr.buf, wr.eol...)
	}
	return wr, nil
}

// flushAt is the buffered size at which Write hands bytes to the
// underlying writer.
const flushAt = 1 << 20

// Write writes the rows of rec. A type without a CSV form is an error
// naming the column, before anything of rec is written.
func (w *Writer) Write(rec *alkaid.Record) error {
	if w.err != nil {
		return w.err
	}
	if !rec.Schema().Equal(w.schema) {
		return fmt.Errorf("csv: %w: a record whose schema is not the Writer's", ErrInvalid)
	}
	n := rec.NumCols()
	fmts := make([]textval.Formatter, n)
	strs := make([]bool, n)
	plain := make([]bool, n) // values that never need quotes: numbers, unless the options make them
	for i := range n {
		col := rec.Column(i)
		f, err := newCellFormatter(col, textval.FormatOptions{True: w.cfg.trueS, False: w.cfg.falseS})
		if err != nil {
			return fmt.Errorf("csv: %w: column %s: %v", ErrNotSupported, quote.String(rec.ColumnName(i)), err)
		}
		fmts[i], strs[i] = f, textval.IsString(col.DataType())
		plain[i] = w.plainNumbers() && isNumeric(col.DataType().Kind())
	}
	cols := rec.Columns()
	rows := rec.NumRows()
	parts := min(w.cfg.concurrency, rows/parallelRows)
	if parts <= 1 {
		for from := 0; from < rows; from += flushRows {
			w.buf = w.rows(w.buf, cols, fmts, strs, plain, from, min(from+flushRows, rows))
			if len(w.buf) >= flushAt {
				if err := w.flush(); err != nil {
					return err
				}
			}
		}
		return nil
	}
	// Rows are formatted in ranges on parts goroutines, a round of ranges
	// at a time, and written in order.
	if len(w.parts) < parts {
		w.parts = make([][]byte, parts)
	}
	bufs := w.parts[:parts]
	for from := 0; from < rows; {
		var wg sync.WaitGroup
		for p := range parts {
			lo := from + p*flushRows
			if lo >= rows {
				bufs[p] = bufs[p][:0]
				continue
			}
			hi := min(lo+flushRows, rows)
			wg.Add(1)
			go func() {
				defer wg.Done()
				bufs[p] = w.rows(bufs[p][:0], cols, fmts, strs, plain, lo, hi)
			}()
		}
		wg.Wait()
		for _, b := range bufs {
			w.buf = append(w.buf, b...)
		}
		if err := w.flush(); err != nil {
			return err
		}
		from += parts * flushRows
	}
	return nil
}

const (
	// flushRows is the rows formatted between checks of the buffer size.
	flushRows = 8192
	// parallelRows is the fewest rows per goroutine worth formatting apart.
	parallelRows = 4096
)

// rows appends rows [from, to) to dst.
func (w *Writer) rows(dst []byte, cols []array.Array, fmts []textval.Formatter, strs, plain []bool, from, to int) []byte {
	var tmp []byte
	for row := from; row < to; row++ {
		for i, col := range cols {
			if i > 0 {
				dst = append(dst, w.cfg.delim)
			}
			if col.IsNull(row) || nullValue(col, row) {
				dst = append(dst, w.cfg.nulls[0]...)
				continue
			}
			if strs[i] {
				tmp = fmts[i](tmp[:0], row)
				dst = w.appendCell(dst, tmp)
				continue
			}
			start := len(dst)
			dst = fmts[i](dst, row)
			if !plain[i] && w.needsQuote(dst[start:]) {
				tmp = append(tmp[:0], dst[start:]...)
				dst = w.appendCell(dst[:start], tmp)
			}
		}
		dst = append(dst, w.eol...)
	}
	return dst
}

// numberChars are the bytes of the text of numbers (NaN and ±Inf too).
const numberChars = "0123456789+-.eEInfNa"

// plainNumbers reports whether the text of a number can never need quotes:
// the null is the empty cell and the delimiter and quote are not bytes of
// numbers.
func (w *Writer) plainNumbers() bool {
	return len(w.cfg.nulls) == 1 && w.cfg.nulls[0] == "" && !strings.ContainsRune(numberChars, rune(w.cfg.delim)) && !strings.ContainsRune(numberChars, rune(w.cfg.quote))
}

// isNumeric reports whether k's text is a number.
func isNumeric(k datatype.Kind) bool {
	switch k {
	case datatype.KindInt8, datatype.KindInt16, datatype.KindInt32, datatype.KindInt64,
		datatype.KindUint8, datatype.KindUint16, datatype.KindUint32, datatype.KindUint64,
		datatype.KindFloat16, datatype.KindFloat32, datatype.KindFloat64, datatype.KindDuration,
		datatype.KindDecimal32, datatype.KindDecimal64, datatype.KindDecimal128, datatype.KindDecimal256:
		return true
	}
	return false
}

// needsQuote reports whether a value must be quoted to read back the same.
func (w *Writer) needsQuote(v []byte) bool {
	if len(v) == 0 {
		return true
	}
	for _, n := range w.cfg.nulls {
		if string(v) == n {
			return true
		}
	}
	for _, c := range v {
		if c == w.cfg.delim || c == w.cfg.quote || c == '\n' || c == '\r' {
			return true
		}
	}
	return false
}

// appendCell appends v, quoted when needed (an empty value or one that
// spells the null is quoted too: then it reads back as a value).
func (w *Writer) appendCell(dst, v []byte) []byte {
	if !w.needsQuote(v) {
		return append(dst, v...)
	}
	q := w.cfg.quote
	dst = append(dst, q)
	for {
		i := bytes.IndexByte(v, q)
		if i < 0 {
			break
		}
		dst = append(dst, v[:i+1]...)
		dst = append(dst, q)
		v = v[i+1:]
	}
	dst = append(dst, v...)
	return append(dst, q)
}

func (w *Writer) flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	_, err := w.w.Write(w.buf)
	w.buf = w.buf[:0]
	if err != nil {
		w.err = fmt.Errorf("csv: writing: %w", err)
	}
	return w.err
}

// Flush writes what is buffered to the underlying writer. Call it (or
// Close) after the last Write.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	return w.flush()
}

// Close flushes (a Writer that wrote no batch writes the header); it does
// not close the underlying writer.
func (w *Writer) Close() error { return w.Flush() }
