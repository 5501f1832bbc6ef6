package alkaid

import (
	"fmt"
	"strings"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// Record is a record batch: a schema and one column per field, all of the
// same length. It is immutable.
type Record struct {
	schema  *Schema
	columns []array.Array
	rows    int
}

// NewRecord checks that there is one column per field, that each column's
// type equals its field's type, that all columns have rows rows (rows < 0
// takes the first column's length, or 0 when there are none) and that a
// non-nullable field's column has no nulls — except for the null type,
// whose slots are null by definition: Arrow writers such as apache-arrow
// (JS) mark null-type fields non-nullable, and Arrow readers accept them.
func NewRecord(schema *Schema, columns []array.Array, rows int) (*Record, error) {
	if len(columns) != schema.NumFields() {
		return nil, fmt.Errorf("alkaid: %d columns for %d fields: %w", len(columns), schema.NumFields(), datatype.ErrInvalid)
	}
	if rows < 0 {
		rows = 0
		if len(columns) > 0 {
			rows = columns[0].Len()
		}
	}
	for i, c := range columns {
		f := schema.Field(i)
		if c == nil {
			return nil, fmt.Errorf("alkaid: column %d (%s) is nil: %w", i, f.Name, datatype.ErrInvalid)
		}
		if !datatype.Equal(c.DataType(), f.Type) {
			return nil, fmt.Errorf("alkaid: column %d (%s) has type %s, field says %s: %w", i, f.Name, c.DataType(), f.Type, datatype.ErrInvalid)
		}
		if c.Len() != rows {
			return nil, fmt.Errorf("alkaid: column %d (%s) has %d rows, want %d: %w", i, f.Name, c.Len(), rows, datatype.ErrInvalid)
		}
		if !f.Nullable && c.NullN() > 0 && datatype.StorageOf(f.Type).Kind() != datatype.KindNull {
			return nil, fmt.Errorf("alkaid: column %d (%s) is not nullable but has %d nulls: %w", i, f.Name, c.NullN(), datatype.ErrInvalid)
		}
	}
	return &Record{schema: schema, columns: append([]array.Array(nil), columns...), rows: rows}, nil
}

// Schema is the record's schema.
func (r *Record) Schema() *Schema { return r.schema }

// NumRows is the number of rows.
func (r *Record) NumRows() int { return r.rows }

// NumCols is the number of columns.
func (r *Record) NumCols() int { return len(r.columns) }

// Column returns column i.
func (r *Record) Column(i int) array.Array { return r.columns[i] }

// Columns returns the columns (a copy of the slice).
func (r *Record) Columns() []array.Array { return append([]array.Array(nil), r.columns...) }

// ColumnByName returns the column of the first field named name, and
// false when no field has that name (see [Schema.FieldIndex]).
func (r *Record) ColumnByName(name string) (array.Array, bool) {
	i := r.schema.FieldIndex(name)
	if i < 0 {
		return nil, false
	}
	return r.columns[i], true
}

// ColumnName returns the name of column i.
func (r *Record) ColumnName(i int) string { return r.schema.Field(i).Name }

// Slice returns rows [i, j) sharing the columns' buffers. It panics when
// the range is out of bounds (a programmer error).
func (r *Record) Slice(i, j int) *Record {
	if i < 0 || j < i || j > r.rows {
		panic(fmt.Sprintf("alkaid: slice [%d:%d] of %d rows", i, j, r.rows))
	}
	cols := make([]array.Array, len(r.columns))
	for k, c := range r.columns {
		cols[k] = array.Slice(c, i, j)
	}
	return &Record{schema: r.schema, columns: cols, rows: j - i}
}

// String prints the schema's field names and each column's values.
func (r *Record) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "record: %d rows\n", r.rows)
	for i, c := range r.columns {
		fmt.Fprintf(&b, "  %s: %s\n", r.schema.Field(i).Name, c)
	}
	return b.String()
}
