package parquet

import (
	"bytes"
	"fmt"
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

// TestRowGroupWorking: RowGroup states the sizes of the column chunks
// the File reads (those WithColumns selects) and the memory decoding
// them takes besides the records: the chunks read whole in buffers at
// most 1/8 larger (none when decoding the caller's bytes), and a page
// per column decoded at once for compressed chunks.
func TestRowGroupWorking(t *testing.T) {
	fields := []datatype.Field{
		{Name: "a", Type: datatype.Int64},
		{Name: "b", Type: datatype.Int64},
		{Name: "c", Type: datatype.Int64},
	}
	schema := alkaid.NewSchema(fields, datatype.Metadata{})
	const rows = 20000
	cols := make([]array.Array, len(fields))
	for i := range cols {
		vals := make([]int64, rows)
		for j := range vals {
			vals[j] = int64(j*(i+7)) * 2654435761 // poorly compressible
		}
		b := array.NewPrimitiveBuilder[int64](datatype.Int64)
		b.AppendValues(vals, nil)
		cols[i] = b.NewArray()
	}
	rec, err := alkaid.NewRecord(schema, cols, rows)
	require.NoError(t, err)
	for _, tc := range []struct {
		codec   Codec
		bytes   bool // NewFileBytes: no chunk buffers
		columns []string
		leaves  int64
	}{
		{Uncompressed, false, nil, 3},
		{Uncompressed, false, []string{"b"}, 1},
		{Uncompressed, true, nil, 3},
		{Snappy, false, nil, 3},
		{Snappy, true, []string{"a", "c"}, 2},
	} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, schema, WithCompression(tc.codec, 0))
		require.NoError(t, err)
		require.NoError(t, w.Write(rec))
		require.NoError(t, w.Close())
		opts := []Option{WithConcurrency(2)}
		if tc.columns != nil {
			opts = append(opts, WithColumns(tc.columns...))
		}
		var f *File
		if tc.bytes {
			f, err = NewFileBytes(buf.Bytes(), opts...)
		} else {
			f, err = NewFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()), opts...)
		}
		require.NoError(t, err)
		info := f.RowGroup(0)
		name := fmt.Sprintf("%s bytes=%v columns=%v", tc.codec, tc.bytes, tc.columns)
		// each chunk: 8 bytes a value, plus page headers (and what a
		// dictionary tried first took)
		require.GreaterOrEqual(t, info.Uncompressed, tc.leaves*8*rows, name)
		require.Less(t, info.Uncompressed, tc.leaves*12*rows, name)
		if tc.codec == Uncompressed {
			require.Equal(t, info.Uncompressed, info.Compressed, name)
		} else {
			require.InDelta(t, info.Uncompressed, info.Compressed, float64(info.Uncompressed/5), name)
		}
		var least, most int64 // the largest chunk is at least the mean, at most all
		if !tc.bytes {
			least, most = info.Compressed, info.Compressed+info.Compressed/8+tc.leaves*4096
		}
		if tc.codec != Uncompressed {
			least += min(tc.leaves, 2) * info.Uncompressed / tc.leaves
			most += min(tc.leaves, 2) * info.Uncompressed
		}
		require.GreaterOrEqual(t, info.Working, least, name)
		require.LessOrEqual(t, info.Working, most, name)
		// int64 values and a validity bit each, for the columns read
		require.Equal(t, tc.leaves*(8*rows+(rows+7)/8), info.Decoded, name)
	}
}
