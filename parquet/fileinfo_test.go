package parquet

import (
	"bytes"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/stretchr/testify/require"
)

func TestRowGroupInfo(t *testing.T) {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "a", Type: datatype.Int64, Nullable: true},
		{Name: "b", Type: datatype.String, Nullable: true},
	}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.Int64, "[0, 1, 2, 3, 4, 5, 6, 7, 8, null]"),
		arrayjson.MustParse(datatype.String, `["a", "b", "c", "d", "e", "f", "g", "h", null, "j"]`),
	}, 10)
	require.NoError(t, err)
	for _, c := range []Codec{Uncompressed, Snappy, Zstd} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, schema, WithCompression(c, 0), WithRowGroupRows(4))
		require.NoError(t, err)
		require.NoError(t, w.Write(rec))
		require.NoError(t, w.Close())
		f, err := NewFileBytes(buf.Bytes())
		require.NoError(t, err)
		require.Contains(t, f.CreatedBy(), "alkaid")
		require.Equal(t, 3, f.NumRowGroups())
		for i, rows := range []int64{4, 4, 2} {
			info := f.RowGroup(i)
			require.Equal(t, rows, info.Rows)
			require.Positive(t, info.Bytes)
			require.Equal(t, map[Codec]int{c: 2}, info.Codecs)
		}
	}
}
