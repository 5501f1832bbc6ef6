package dataset

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/ipc"
)

func TestDiscover(t *testing.T) {
	r := mkRec(t, col{"x:int64", "[1,2]"})
	pq := encode(t, files.FormatParquet, []*alkaid.Record{r})
	fsys := fstest.MapFS{
		"d/a.parquet":            {Data: pq},
		"d/sub/b.parquet":        {Data: pq},
		"d/sub/deeper/c.bin":     {Data: pq}, // found by content
		"d/_SUCCESS":             {Data: nil},
		"d/_metadata":            {Data: pq},
		"d/.hidden.parquet":      {Data: pq},
		"d/part.parquet.tmp":     {Data: pq},
		"d/_temporary/x.parquet": {Data: pq},
		"d/.git/y.parquet":       {Data: pq},
		"d/notes.txt":            {Data: []byte("hello")},
		"d/_k=1/z.parquet":       {Data: pq}, // a partition directory
	}
	tests := []struct {
		name string
		open func() (*Dataset, error)
		want []string
	}{
		{"dir", func() (*Dataset, error) { return Open(fsys, "d") }, []string{"d/_k=1/z.parquet", "d/a.parquet", "d/sub/b.parquet", "d/sub/deeper/c.bin"}},
		{"one file", func() (*Dataset, error) { return Open(fsys, "d/a.parquet") }, []string{"d/a.parquet"}},
		{"glob", func() (*Dataset, error) { return OpenGlob(fsys, "d/*.parquet") }, []string{"d/a.parquet"}},
		{"glob deep", func() (*Dataset, error) { return OpenGlob(fsys, "d/**/*.parquet") }, []string{"d/_k=1/z.parquet", "d/a.parquet", "d/sub/b.parquet"}},
		{"files", func() (*Dataset, error) { return OpenFiles(fsys, "d", []string{"d/sub/b.parquet", "d/_metadata"}) }, []string{"d/sub/b.parquet", "d/_metadata"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := tc.open()
			require.NoError(t, err)
			require.Equal(t, tc.want, d.Files())
			require.Equal(t, "x: int64", d.Schema().Field(0).String())
		})
	}
}

func TestFormats(t *testing.T) {
	r := mkRec(t, col{"x:int64", "[1,null,3]"}, col{"s:utf8", `["a","b",null]`})
	var arrowFile []byte
	{
		w := &bytesWriter{}
		fw, err := ipc.NewFileWriter(w, r.Schema(), ipc.WithArrowCompat())
		require.NoError(t, err)
		require.NoError(t, fw.Write(r))
		require.NoError(t, fw.Close())
		arrowFile = w.b
	}
	require.Equal(t, ipc.ArrowMagic, ipc.DetectMagic(arrowFile))
	tests := []struct {
		name string
		data []byte
	}{
		{"f.parquet", encode(t, files.FormatParquet, []*alkaid.Record{r})},
		{"f.ipc", encode(t, files.FormatIPCFile, []*alkaid.Record{r})},
		{"f.arrow", arrowFile},
		{"f.anything", encode(t, files.FormatIPCStream, []*alkaid.Record{r})},
		{"f.csv", encode(t, files.FormatCSV, []*alkaid.Record{r})},
		{"f.tsv", bytes.ReplaceAll(encode(t, files.FormatCSV, []*alkaid.Record{r}), []byte(","), []byte("\t"))},
		{"f.ndjson", encode(t, files.FormatNDJSON, []*alkaid.Record{r})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Open(fstest.MapFS{tc.name: {Data: tc.data}}, ".")
			require.NoError(t, err)
			got, st := scanAll(t, d)
			require.Equal(t, map[string]string{"x": "[1 (null) 3]", "s": `["a" "b" (null)]`}, got)
			require.Equal(t, 1, st.FilesRead)
			require.Equal(t, int64(3), st.Rows)
			require.Positive(t, st.BytesRead)
		})
	}
	t.Run("no magic", func(t *testing.T) {
		fsys := fstest.MapFS{"d/a.parquet": {Data: encode(t, files.FormatParquet, []*alkaid.Record{r})}, "d/b.parquet": {Data: []byte{}}}
		_, err := Open(fsys, "d")
		require.ErrorIs(t, err, ErrInvalid)
		var fe *FileError
		require.ErrorAs(t, err, &fe)
		require.Equal(t, "d/b.parquet", fe.Path)
		d, err := Open(fsys, "d", WithSkipCorrupt())
		require.NoError(t, err)
		require.Equal(t, []string{"d/a.parquet"}, d.Files())
	})
	t.Run("given format", func(t *testing.T) {
		fsys := fstest.MapFS{"f.txt": {Data: encode(t, files.FormatCSV, []*alkaid.Record{r})}}
		d, err := Open(fsys, ".")
		require.NoError(t, err)
		require.Empty(t, d.Files())
		d, err = Open(fsys, ".", WithFormat(files.FormatCSV))
		require.NoError(t, err)
		require.Equal(t, []string{"f.txt"}, d.Files())
		_, err = OpenFiles(fsys, ".", []string{"f.txt"})
		require.ErrorIs(t, err, ErrInvalid)
		require.ErrorContains(t, err, "f.txt")
	})
}

type bytesWriter struct{ b []byte }

func (w *bytesWriter) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }

func TestSymlinkLoop(t *testing.T) {
	dir := t.TempDir()
	r := mkRec(t, col{"x:int64", "[1]"})
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "d", "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "d", "sub", "a.parquet"), encode(t, files.FormatParquet, []*alkaid.Record{r}), 0o644))
	// A link to a directory outside the walk is followed.
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "other"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "other", "b.parquet"), encode(t, files.FormatParquet, []*alkaid.Record{r}), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(dir, "other"), filepath.Join(dir, "d", "link")))
	d, err := Open(os.DirFS(dir), "d")
	require.NoError(t, err)
	require.Equal(t, []string{"d/link/b.parquet", "d/sub/a.parquet"}, d.Files())

	tests := []struct{ name, target string }{
		{"to parent", ".."},
		{"to its directory", "."}, // an enclosing directory below the root
		{"to itself", "self"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			loop := filepath.Join(dir, "d", "sub", "self")
			os.Remove(loop)
			require.NoError(t, os.Symlink(tc.target, loop))
			defer os.Remove(loop)
			_, err := Open(os.DirFS(dir), "d")
			require.ErrorIs(t, err, ErrSymlinkLoop)
			require.ErrorIs(t, err, ErrInvalid)
			var fe *FileError
			require.ErrorAs(t, err, &fe)
			require.Equal(t, "d/sub/self", fe.Path)
		})
	}
}

// deniedFS refuses to list one directory, as a file system does for a
// directory without read permission (the tests may run as root, for whom
// chmod denies nothing).
type deniedFS struct {
	fstest.MapFS
	dir string
}

func (f deniedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == f.dir {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrPermission}
	}
	return f.MapFS.ReadDir(name)
}

func TestPermission(t *testing.T) {
	r := mkRec(t, col{"x:int64", "[1]"})
	fsys := deniedFS{MapFS: fstest.MapFS{"d/a/x.parquet": pqFile(t, r), "d/b/y.parquet": pqFile(t, r)}, dir: "d/b"}
	_, err := Open(fsys, "d")
	require.ErrorIs(t, err, fs.ErrPermission)
	var fe *FileError
	require.ErrorAs(t, err, &fe)
	require.Equal(t, "d/b", fe.Path)
	// Files are probed while the listing goes on; a listing error is
	// still the one returned, not that of a file probed before it.
	fsys.MapFS["d/a/x.parquet"] = &fstest.MapFile{Data: []byte("PAR1 not a footer PAR1")}
	_, err = Open(fsys, "d")
	require.ErrorIs(t, err, fs.ErrPermission)

	if os.Geteuid() == 0 {
		return // root reads whatever the mode says
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "x.parquet")
	require.NoError(t, os.WriteFile(p, encode(t, files.FormatParquet, []*alkaid.Record{r}), 0o000))
	_, err = Open(os.DirFS(dir), ".")
	require.True(t, errors.Is(err, fs.ErrPermission), "%v", err)
}
