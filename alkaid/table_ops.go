package alkaid

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"
	"strings"

	"github.com/alkaid-go/alkaid/array"
)

// RecordReader is a source of record batches of one schema: Read returns
// the next one, or io.EOF after the last. The IPC stream and file readers
// are RecordReaders, and so is [Table.Reader].
type RecordReader interface {
	Schema() *Schema
	Read() (*Record, error)
}

// ConcatTables stacks tables with equal schemas (metadata included) into
// one whose columns hold all their chunks, without copying values.
func ConcatTables(tables ...*Table) (*Table, error) {
	if len(tables) == 0 {
		return nil, errors.New("alkaid: concatenate no tables")
	}
	s := tables[0].Schema()
	cols := make([]*Chunked, s.NumFields())
	for i := range cols {
		var chunks []array.Array
		for k, t := range tables {
			if !t.Schema().Equal(s) {
				return nil, fmt.Errorf("alkaid: table %d has schema %s, want %s", k, t.Schema(), s)
			}
			chunks = append(chunks, t.Column(i).chunks...)
		}
		c, err := NewChunked(s.Field(i).Type, chunks)
		if err != nil {
			return nil, err
		}
		cols[i] = c
	}
	return NewTable(s, cols)
}

// boundaries returns the row positions where some column's chunk ends,
// in order, the last being the number of rows.
func (t *Table) boundaries() []int {
	set := []int{t.rows}
	for _, c := range t.columns {
		pos := 0
		for _, a := range c.chunks {
			pos += a.Len()
			if pos > 0 && pos < t.rows {
				set = append(set, pos)
			}
		}
	}
	slices.Sort(set)
	return slices.Compact(set)
}

// Records iterates over t's rows as record batches, without copying: one
// batch per stretch of rows where no column's chunk ends. A table with no
// rows yields nothing.
func (t *Table) Records() iter.Seq[*Record] {
	return func(yield func(*Record) bool) {
		if t.rows == 0 {
			return
		}
		start := 0
		for _, end := range t.boundaries() {
			cols := make([]array.Array, len(t.columns))
			for i, c := range t.columns {
				part := c.Slice(start, end)
				cols[i] = part.chunks[0]
			}
			r := &Record{schema: t.schema, columns: cols, rows: end - start}
			if !yield(r) {
				return
			}
			start = end
		}
	}
}

// Reader returns a [RecordReader] over t's record batches (see
// [Table.Records]).
func (t *Table) Reader() RecordReader {
	next, stop := iter.Pull(t.Records())
	return &tableReader{schema: t.schema, next: next, stop: stop}
}

type tableReader struct {
	schema *Schema
	next   func() (*Record, bool)
	stop   func()
}

// Schema is the table's schema.
func (r *tableReader) Schema() *Schema { return r.schema }

// Read returns the next record batch, or io.EOF after the last.
func (r *tableReader) Read() (*Record, error) {
	rec, ok := r.next()
	if !ok {
		r.stop()
		return nil, io.EOF
	}
	return rec, nil
}

// ReadTable reads every record batch of r into a table.
func ReadTable(r RecordReader) (*Table, error) {
	var recs []*Record
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("alkaid: read table: after %d record batches: %w", len(recs), err)
		}
		recs = append(recs, rec)
	}
	return TableFromRecords(r.Schema(), recs)
}

// String prints the table as [Record.String] prints a record: the row
// count, then each column's name and values (all chunks in a row).
func (t *Table) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "table: %d rows\n", t.rows)
	for i, c := range t.columns {
		fmt.Fprintf(&b, "  %s: ", t.schema.Field(i).Name)
		all, err := array.Concatenate(c.chunks...)
		switch {
		case len(c.chunks) == 0:
			b.WriteString("[]")
		case err == nil:
			b.WriteString(all.String())
		default:
			for k, a := range c.chunks {
				if k > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(a.String())
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
