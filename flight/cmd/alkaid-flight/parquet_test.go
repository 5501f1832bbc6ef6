package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/parquet"
)

// TestServeGetParquet: serve lists a .parquet file with its row count,
// and get fetches it, one batch per row group, into an IPC file.
func TestServeGetParquet(t *testing.T) {
	dir := t.TempDir()
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "id", Type: datatype.Int64},
		{Name: "name", Type: datatype.String, Nullable: true},
		{Name: "xs", Type: datatype.ListOf(datatype.Float64), Nullable: true},
	}, datatype.Metadata{})
	rec := randdata.New(5).Record(s, 50)
	f, err := os.Create(filepath.Join(dir, "t.parquet"))
	require.NoError(t, err)
	w, err := parquet.NewWriter(f, s, parquet.WithRowGroupRows(20))
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())

	ctx, url := serveDir(t, dir)

	var out bytes.Buffer
	require.NoError(t, run(ctx, []string{"list", url}, &out, nil))
	require.True(t, strings.HasPrefix(out.String(), "t.parquet\t50 rows\t"), out.String())

	dst := filepath.Join(t.TempDir(), "t.ipc")
	out.Reset()
	require.NoError(t, run(ctx, []string{"get", url, "t.parquet", "-o", dst}, &out, nil))
	require.Equal(t, dst+": 50 rows in 3 batches\n", out.String())
	fr, err := ipc.OpenFile(dst)
	require.NoError(t, err)
	require.True(t, s.Equal(fr.Schema()))
	for i, want := range []*alkaid.Record{rec.Slice(0, 20), rec.Slice(20, 40), rec.Slice(40, 50)} {
		got, err := fr.Record(i)
		require.NoError(t, err)
		require.Equal(t, want.String(), got.String(), "batch %d", i)
	}
}
