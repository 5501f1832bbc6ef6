package dataset

import (
	"context"
	"io"
	"io/fs"
	"path"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
)

// tailFS records, per file, whether any read reached past the first 8
// bytes (a Parquet file's leading magic): a footer or a column chunk.
type tailFS struct {
	fstest.MapFS
	mu     sync.Mutex
	beyond map[string]bool
}

func (f *tailFS) Open(name string) (fs.File, error) {
	file, err := f.MapFS.Open(name)
	if err != nil {
		return nil, err
	}
	return &tailFile{File: file, fs: f, name: name}, nil
}

type tailFile struct {
	fs.File
	fs   *tailFS
	name string
}

func (t *tailFile) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > 8 {
		t.fs.mu.Lock()
		t.fs.beyond[t.name] = true
		t.fs.mu.Unlock()
	}
	return t.File.(io.ReaderAt).ReadAt(p, off)
}

// TestGivenSchemaPrunedFilesUnread: with WithSchema, discovery reads no
// footer, and a scan whose partition filter prunes a file reads nothing
// of it past its magic; the files it keeps are read.
func TestGivenSchemaPrunedFilesUnread(t *testing.T) {
	fsys := &tailFS{MapFS: hiveSales(t), beyond: map[string]bool{}}
	s := alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int64}, {Name: "f", Type: datatype.Float64}}, datatype.Metadata{})
	d, err := Open(fsys, "sales", WithSchema(s), WithPartitioning(Partitioning{Style: Hive}))
	require.NoError(t, err)
	require.Empty(t, fsys.beyond, "discovery with a given schema read past the magic")

	n, st, err := d.CountRows(context.Background(), WithFilter(expr.And(
		expr.Eq(expr.Field("year"), expr.Lit(int64(2024))), expr.Eq(expr.Field("month"), expr.Lit(int64(2))))))
	require.NoError(t, err)
	require.Equal(t, int64(100), n)
	require.Equal(t, 5, st.FilesPruned)
	for name := range fsys.MapFS {
		kept := path.Dir(name) == "sales/year=2024/month=2"
		require.Equal(t, kept, fsys.beyond[name], name)
	}

	fsys.beyond = map[string]bool{}
	_, st = scanAll(t, d, WithColumns("f"), WithFilter(expr.Eq(expr.Field("month"), expr.Lit(int64(3)))))
	require.Equal(t, 4, st.FilesPruned)
	for name := range fsys.MapFS {
		kept := path.Base(path.Dir(name)) == "month=3"
		require.Equal(t, kept, fsys.beyond[name], name)
	}
}
