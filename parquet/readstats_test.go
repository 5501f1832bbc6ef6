package parquet

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

func TestReadStatsPagesPruned(t *testing.T) {
	const n = 20000
	xs := array.NewPrimitiveBuilder[int64](datatype.Int64)
	fs := array.NewPrimitiveBuilder[float64](datatype.Float64)
	for i := range n {
		xs.Append(int64(i))
		fs.Append(float64(i))
	}
	s := alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int64}, {Name: "f", Type: datatype.Float64}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{xs.Finish(), fs.Finish()}, n)
	require.NoError(t, err)
	data := writeFile(t, []*alkaid.Record{rec}, WithPageSize(4096), WithDictionary(false, 0), WithRowGroupRows(10000))
	f, err := NewFile(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	pages := func(g, leaf int) int {
		pi, err := f.pageIndex(g, leaf)
		require.NoError(t, err)
		require.NotNil(t, pi)
		return len(pi.rows)
	}
	px, pf := pages(1, 0), pages(1, 1)
	require.Greater(t, px, 2)
	require.Equal(t, px, pf, "same widths, same page boundaries")
	pi, err := f.pageIndex(1, 0)
	require.NoError(t, err)
	page := 0 // rows of the page of x = 15000 (row 5000 of row group 1)
	for _, r := range pi.rows {
		if r.lo <= 5000 && 5000 < r.hi {
			page = int(r.hi - r.lo)
		}
	}
	require.Positive(t, page)

	tests := []struct {
		name   string
		opts   []Option
		rows   int
		pruned int64
	}{
		// the rows of one page of row group 1 (row group 0 ruled out
		// whole by statistics): one page of each column read, the
		// others pruned
		{"both columns", []Option{WithPredicates(Predicate{Column: "x", Op: Eq, Value: int64(15000)})}, page, int64(px - 1 + pf - 1)},
		{"one column", []Option{WithColumns("x"), WithPredicates(Predicate{Column: "x", Op: Eq, Value: int64(15000)})}, page, int64(px - 1)},
		{"no predicate", nil, n, 0},
		{"nothing matches", []Option{WithPredicates(Predicate{Column: "x", Op: Gt, Value: int64(n)})}, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var st ReadStats
			got := 0
			for r, err := range records(f, append(tc.opts, WithReadStats(&st))...) {
				require.NoError(t, err)
				got += r.NumRows()
			}
			require.Equal(t, tc.rows, got)
			require.Equal(t, tc.pruned, st.PagesPruned)
		})
	}
}
