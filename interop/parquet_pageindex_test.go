package interop

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet"
)

// TestParquetPageIndexArrowGo checks the page index our writer produces
// with arrow-go's page index reader: page locations start at row 0 and
// rise, and each page's min, max and null count are those of its rows;
// with data pages v1 and v2.
func TestParquetPageIndexArrowGo(t *testing.T) {
	t.Run("v1", func(t *testing.T) { testParquetPageIndexArrowGo(t) })
	t.Run("v2", func(t *testing.T) {
		testParquetPageIndexArrowGo(t, parquet.WithDataPageV2(), parquet.WithPageCRC(true))
	})
}

func testParquetPageIndexArrowGo(t *testing.T, extra ...parquet.Option) {
	const n, groupRows = 5000, 2000
	s := alkaid.NewSchema([]datatype.Field{{Name: "v", Type: datatype.Int64, Nullable: true}}, datatype.Metadata{})
	b := array.NewPrimitiveBuilder[int64](datatype.Int64)
	vals := make([]int64, n)
	for i := range n {
		vals[i] = int64((i*7919)%1000 + i/10)
		if i%7 == 3 {
			b.AppendNull()
		} else {
			b.Append(vals[i])
		}
	}
	rec, err := alkaid.NewRecord(s, []array.Array{b.Finish()}, n)
	require.NoError(t, err)
	var buf bytes.Buffer
	opts := append([]parquet.Option{parquet.WithRowGroupRows(groupRows), parquet.WithPageSize(1000), parquet.WithDictionary(false, 0)}, extra...)
	w, err := parquet.NewWriter(&buf, s, opts...)
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())

	r, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	pir := r.GetPageIndexReader()
	require.NotNil(t, pir)
	for g := range r.NumRowGroups() {
		rg, err := pir.RowGroup(g)
		require.NoError(t, err)
		ci, err := rg.GetColumnIndex(0)
		require.NoError(t, err)
		oi, err := rg.GetOffsetIndex(0)
		require.NoError(t, err)
		require.NotNil(t, ci)
		require.NotNil(t, oi)
		locs := oi.GetPageLocations()
		require.Greater(t, len(locs), 1, "row group %d", g)
		rows := min(groupRows, n-g*groupRows)
		for p, l := range locs {
			lo, hi := l.FirstRowIndex, int64(rows)
			if p+1 < len(locs) {
				hi = locs[p+1].FirstRowIndex
			}
			require.Less(t, lo, hi)
			if p == 0 {
				require.Zero(t, lo)
			}
			var nulls int64
			mn, mx := int64(1<<62), int64(-1<<62)
			for i := int64(g*groupRows) + lo; i < int64(g*groupRows)+hi; i++ {
				if i%7 == 3 {
					nulls++
					continue
				}
				mn, mx = min(mn, vals[i]), max(mx, vals[i])
			}
			require.Equal(t, nulls, ci.GetNullCounts()[p], "row group %d page %d", g, p)
			require.False(t, ci.GetNullPages()[p])
			require.Equal(t, mn, int64(binary.LittleEndian.Uint64(ci.GetMinValues()[p])), "row group %d page %d", g, p)
			require.Equal(t, mx, int64(binary.LittleEndian.Uint64(ci.GetMaxValues()[p])), "row group %d page %d", g, p)
		}
	}
}
