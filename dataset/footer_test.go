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
	"github.com/alkaid-go/alkaid/files"
)

// tailFS records, per file, whether any read reached past the first 8
// bytes (a Parquet file's leading magic): a footer or a column chunk.
// It counts the files opened too.
type tailFS struct {
	fstest.MapFS
	mu     sync.Mutex
	beyond map[string]bool
	opened int
}

func (f *tailFS) Open(name string) (fs.File, error) {
	file, err := f.MapFS.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err := file.Stat(); err == nil && !st.IsDir() {
		f.mu.Lock()
		f.opened++
		f.mu.Unlock()
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

// TestGivenSchemaAndFormatNothingOpened: given the schema and the format,
// discovery lists the files and opens none; a scan opens only the files
// its partition filter keeps.
func TestGivenSchemaAndFormatNothingOpened(t *testing.T) {
	fsys := &tailFS{MapFS: hiveSales(t), beyond: map[string]bool{}}
	s := alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int64}, {Name: "f", Type: datatype.Float64}}, datatype.Metadata{})
	d, err := Open(fsys, "sales", WithSchema(s), WithFormat(files.FormatParquet), WithPartitioning(Partitioning{Style: Hive}))
	require.NoError(t, err)
	require.Len(t, d.Files(), 6)
	require.Zero(t, fsys.opened, "discovery opened files")

	got, st := scanAll(t, d, WithColumns("f"), WithFilter(expr.And(
		expr.Eq(expr.Field("year"), expr.Lit(int64(2024))), expr.Eq(expr.Field("month"), expr.Lit(int64(2))))))
	require.Equal(t, 5, st.FilesPruned)
	require.Equal(t, 1, st.FilesRead)
	require.Equal(t, 1, fsys.opened)
	whole, err := Open(hiveSales(t), "sales", WithPartitioning(Partitioning{Style: Hive}))
	require.NoError(t, err)
	want, _ := scanAll(t, whole, WithColumns("f"), WithFilter(expr.And(
		expr.Eq(expr.Field("year"), expr.Lit(int64(2024))), expr.Eq(expr.Field("month"), expr.Lit(int64(2))))))
	require.Equal(t, want, got)

	// A file that is not Parquet after all fails the scan, named.
	fsys.MapFS["sales/year=2024/month=2/notes.parquet"] = &fstest.MapFile{Data: []byte("not parquet")}
	d, err = Open(fsys, "sales", WithSchema(s), WithFormat(files.FormatParquet), WithPartitioning(Partitioning{Style: Hive}))
	require.NoError(t, err)
	sc, err := d.Scan(context.Background(), WithFilter(expr.Eq(expr.Field("month"), expr.Lit(int64(2)))))
	require.NoError(t, err)
	var last error
	for _, err := range sc.Records() {
		if err != nil {
			last = err
		}
	}
	var fe *FileError
	require.ErrorAs(t, last, &fe)
	require.Equal(t, "sales/year=2024/month=2/notes.parquet", fe.Path)
}
