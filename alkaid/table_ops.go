package alkaid

import (
	"fmt"
	"slices"
	"strings"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// ConcatTables stacks tables with equal schemas (metadata included) into
// one whose columns hold all their chunks, without copying values.
func ConcatTables(tables ...*Table) (*Table, error) {
	if len(tables) == 0 {
		return nil, fmt.Errorf("alkaid: concatenate no tables: %w", datatype.ErrInvalid)
	}
	s := tables[0].Schema()
	cols := make([]*Chunked, s.NumFields())
	for i := range cols {
		var chunks []array.Array
		for k, t := range tables {
			if !t.Schema().Equal(s) {
				return nil, fmt.Errorf("alkaid: table %d has schema %s, want %s: %w", k, t.Schema(), s, datatype.ErrInvalid)
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
