package alkaid

import (
	"fmt"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// Chunked is a column made of several arrays of the same type.
type Chunked struct {
	typ    datatype.DataType
	chunks []array.Array
	rows   int
}

// NewChunked checks that every chunk has type t.
func NewChunked(t datatype.DataType, chunks []array.Array) (*Chunked, error) {
	c := &Chunked{typ: t, chunks: append([]array.Array(nil), chunks...)}
	for i, a := range chunks {
		if !datatype.Equal(a.DataType(), t) {
			return nil, fmt.Errorf("alkaid: chunk %d has type %s, want %s: %w", i, a.DataType(), t, datatype.ErrInvalid)
		}
		c.rows += a.Len()
	}
	return c, nil
}

// DataType is the type of every chunk.
func (c *Chunked) DataType() datatype.DataType { return c.typ }

// Len is the total number of rows.
func (c *Chunked) Len() int { return c.rows }

// NullN is the total number of nulls.
func (c *Chunked) NullN() int {
	n := 0
	for _, a := range c.chunks {
		n += a.NullN()
	}
	return n
}

// Chunks returns the arrays (a copy of the slice).
func (c *Chunked) Chunks() []array.Array { return append([]array.Array(nil), c.chunks...) }

// Slice returns rows [i, j) as chunks sharing memory with c. It panics
// when the range is out of bounds.
func (c *Chunked) Slice(i, j int) *Chunked {
	if i < 0 || j < i || j > c.rows {
		panic(fmt.Sprintf("alkaid: slice [%d:%d] of %d rows", i, j, c.rows))
	}
	out := &Chunked{typ: c.typ, rows: j - i}
	pos := 0
	for _, a := range c.chunks {
		lo, hi := max(i-pos, 0), min(j-pos, a.Len())
		if lo < hi {
			out.chunks = append(out.chunks, array.Slice(a, lo, hi))
		}
		pos += a.Len()
	}
	return out
}

// Table is a schema with one chunked column per field.
type Table struct {
	schema  *Schema
	columns []*Chunked
	rows    int
}

// NewTable checks that the columns match the schema and have equal
// lengths.
func NewTable(schema *Schema, columns []*Chunked) (*Table, error) {
	if len(columns) != schema.NumFields() {
		return nil, fmt.Errorf("alkaid: %d columns for %d fields: %w", len(columns), schema.NumFields(), datatype.ErrInvalid)
	}
	rows := 0
	for i, c := range columns {
		f := schema.Field(i)
		if !datatype.Equal(c.DataType(), f.Type) {
			return nil, fmt.Errorf("alkaid: column %d (%s) has type %s, field says %s: %w", i, f.Name, c.DataType(), f.Type, datatype.ErrInvalid)
		}
		if i == 0 {
			rows = c.Len()
		} else if c.Len() != rows {
			return nil, fmt.Errorf("alkaid: column %d (%s) has %d rows, want %d: %w", i, f.Name, c.Len(), rows, datatype.ErrInvalid)
		}
	}
	return &Table{schema: schema, columns: append([]*Chunked(nil), columns...), rows: rows}, nil
}

// TableFromRecords stacks records that share the schema.
func TableFromRecords(schema *Schema, recs []*Record) (*Table, error) {
	cols := make([]*Chunked, schema.NumFields())
	for i := range cols {
		chunks := make([]array.Array, 0, len(recs))
		for k, r := range recs {
			if !r.Schema().Equal(schema) {
				return nil, fmt.Errorf("alkaid: record %d has a different schema: %w", k, datatype.ErrInvalid)
			}
			chunks = append(chunks, r.Column(i))
		}
		c, err := NewChunked(schema.Field(i).Type, chunks)
		if err != nil {
			return nil, err
		}
		cols[i] = c
	}
	return NewTable(schema, cols)
}

// Schema is the table's schema.
func (t *Table) Schema() *Schema { return t.schema }

// NumRows is the number of rows.
func (t *Table) NumRows() int { return t.rows }

// NumCols is the number of columns.
func (t *Table) NumCols() int { return len(t.columns) }

// Column returns column i.
func (t *Table) Column(i int) *Chunked { return t.columns[i] }

// Slice returns rows [i, j) sharing memory with t.
func (t *Table) Slice(i, j int) *Table {
	if i < 0 || j < i || j > t.rows {
		panic(fmt.Sprintf("alkaid: slice [%d:%d] of %d rows", i, j, t.rows))
	}
	cols := make([]*Chunked, len(t.columns))
	for k, c := range t.columns {
		cols[k] = c.Slice(i, j)
	}
	return &Table{schema: t.schema, columns: cols, rows: j - i}
}
