package compute

import (
	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
)

// rowPick is a row operation worked out once per call — the rows a
// filter keeps, the positions a take or a sort gathers — to be applied
// to each column alike. The Record and Table forms of Filter, Take, Sort
// are [pickRecord] and [pickTable] of one; an operation sets the form it
// is applied to.
type rowPick struct {
	// rows is the number of rows picked.
	rows int
	// array picks the rows of one array; chunked of one chunked column.
	array   func(array.Array) (array.Array, error)
	chunked func(*alkaid.Chunked) (*alkaid.Chunked, error)
}

// atPositions is the rowPick gathering the rows at idx, in order.
func atPositions(idx []int) rowPick {
	return rowPick{
		rows:    len(idx),
		array:   func(a array.Array) (array.Array, error) { return takeArray(a, idx) },
		chunked: func(c *alkaid.Chunked) (*alkaid.Chunked, error) { return takeChunked(c, idx) },
	}
}

// pickRecord applies p to every column of r.
func pickRecord(r *alkaid.Record, p rowPick) (*alkaid.Record, error) {
	cols, err := mapColumns(r.NumCols(), r.Column, p.array)
	if err != nil {
		return nil, err
	}
	return newRecord(r.Schema(), cols, p.rows)
}

// pickTable applies p to every column of t.
func pickTable(t *alkaid.Table, p rowPick) (*alkaid.Table, error) {
	cols, err := mapColumns(t.NumCols(), t.Column, p.chunked)
	if err != nil {
		return nil, err
	}
	return newTable(t.Schema(), cols)
}

// mapColumns is f of each of n columns, in column order; the error is
// that of the first column that fails.
func mapColumns[C any](n int, col func(int) C, f func(C) (C, error)) ([]C, error) {
	out := make([]C, n)
	for i := range out {
		var err error
		if out[i], err = f(col(i)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// recordColumns and tableColumns give a record's or a table's columns
// as arrays, for the operations that read named columns (sort keys,
// group keys): a table's chunks are concatenated.
func recordColumns(r *alkaid.Record) func(int) (array.Array, error) {
	return func(i int) (array.Array, error) { return r.Column(i), nil }
}

func tableColumns(t *alkaid.Table) func(int) (array.Array, error) {
	return func(i int) (array.Array, error) { return flatten(t.Column(i)) }
}

// newRecord builds a result record; null indices that put nulls into
// a non-nullable field make it an error.
func newRecord(s *alkaid.Schema, cols []array.Array, n int) (*alkaid.Record, error) {
	r, err := alkaid.NewRecord(s, cols, n)
	if err != nil {
		return nil, errf(ErrInvalid, "%v", err)
	}
	return r, nil
}

// newTable builds a result table.
func newTable(s *alkaid.Schema, cols []*alkaid.Chunked) (*alkaid.Table, error) {
	t, err := alkaid.NewTable(s, cols)
	if err != nil {
		return nil, errf(ErrInvalid, "%v", err)
	}
	return t, nil
}

// newChunked builds a result column.
func newChunked(c *alkaid.Chunked, chunks []array.Array) (*alkaid.Chunked, error) {
	out, err := alkaid.NewChunked(c.DataType(), chunks)
	if err != nil {
		return nil, errf(ErrInvalid, "%v", err)
	}
	return out, nil
}
