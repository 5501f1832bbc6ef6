package cli

import (
	"bytes"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/dataset"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
)

// byteCountFS counts the bytes read from its files at offsets.
type byteCountFS struct {
	fs.FS
	n *atomic.Int64
}

func (c byteCountFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil {
		return nil, err
	}
	ra, ok := f.(io.ReaderAt)
	if !ok {
		return f, nil
	}
	return byteCountFile{File: f, ra: ra, n: c.n}, nil
}

type byteCountFile struct {
	fs.File
	ra io.ReaderAt
	n  *atomic.Int64
}

func (f byteCountFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.ra.ReadAt(p, off)
	f.n.Add(int64(n))
	return n, err
}

// wideIPC writes an IPC file and an IPC stream of three batches of a
// small "id" column, a 1 MiB "blob" column of random bytes and a small
// "n" column.
func wideIPC(t *testing.T, dir string) (file, stream string) {
	t.Helper()
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "id", Type: datatype.Int64}, {Name: "blob", Type: datatype.Binary}, {Name: "n", Type: datatype.Int32},
	}, datatype.Metadata{})
	rng := rand.New(rand.NewPCG(3, 4))
	var recs []*alkaid.Record
	const rows = 1000
	for b := range 3 {
		ids, blobs, ns := array.NewPrimitiveBuilder[int64](datatype.Int64), array.NewBinaryBuilder[int32](datatype.Binary), array.NewPrimitiveBuilder[int32](datatype.Int32)
		chunk := make([]byte, 1<<20/rows)
		for i := range rows {
			ids.Append(int64(b*rows + i))
			for j := range chunk {
				chunk[j] = byte(rng.Uint32())
			}
			blobs.Append(chunk)
			ns.Append(int32(i % 7))
		}
		rec, err := alkaid.NewRecord(s, []array.Array{ids.Finish(), blobs.Finish(), ns.Finish()}, rows)
		require.NoError(t, err)
		recs = append(recs, rec)
	}
	for _, out := range []struct {
		name string
		w    func(io.Writer) (alkaid.RecordWriter, error)
	}{
		{"wide.arrow", func(w io.Writer) (alkaid.RecordWriter, error) { return ipc.NewFileWriter(w, s) }},
		{"wide.arrows", func(w io.Writer) (alkaid.RecordWriter, error) { return ipc.NewStreamWriter(w, s) }},
	} {
		var buf bytes.Buffer
		w, err := out.w(&buf)
		require.NoError(t, err)
		for _, rec := range recs {
			require.NoError(t, w.Write(rec))
		}
		require.NoError(t, w.Close())
		require.NoError(t, os.WriteFile(filepath.Join(dir, out.name), buf.Bytes(), 0o644))
	}
	return filepath.Join(dir, "wide.arrow"), filepath.Join(dir, "wide.arrows")
}

// TestSelectReadsOnlyNamedIPCColumns: -select (with -where) on an IPC
// file reads the columns the expressions name, not the wide one beside
// them, and prints what the unprojected read of the same stream from a
// pipe prints.
func TestSelectReadsOnlyNamedIPCColumns(t *testing.T) {
	root := t.TempDir()
	bucket := filepath.Join(root, "bucket")
	require.NoError(t, os.MkdirAll(bucket, 0o777))
	file, stream := wideIPC(t, bucket)
	var read atomic.Int64
	opts := []Option{WithFS("cnt", func(url string) (fs.FS, error) {
		return byteCountFS{FS: dataset.DirFS(filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(url, "cnt://")))), n: &read}, nil
	})}
	streamBytes, err := os.ReadFile(stream)
	require.NoError(t, err)
	st, err := os.Stat(file)
	require.NoError(t, err)
	for _, query := range [][]string{
		{"-select", "id, n * 2 AS n2"},
		{"-where", "n = 3", "-select", "id + 1 AS next"},
		{"-select", "1 AS one"},
	} {
		t.Run(strings.Join(query, " "), func(t *testing.T) {
			args := append([]string{"export", "-q", "-format", "csv"}, query...)
			// From a pipe, a stream is read whole.
			var want, errb bytes.Buffer
			code := Main(append(args, "-", "-"), WithStdio(bytes.NewReader(streamBytes), &want, &errb))
			require.Equal(t, exitOK, code, errb.String())
			require.NotEmpty(t, want.String())
			for _, in := range []string{"cnt://bucket/wide.arrow", "cnt://bucket/wide.arrows", file, stream} {
				read.Store(0)
				code, got, errs := runMain(t, opts, append(args, in, "-")...)
				require.Equal(t, exitOK, code, errs)
				require.Equal(t, want.String(), got, in)
				if strings.HasSuffix(in, ".arrow") && strings.HasPrefix(in, "cnt:") {
					t.Logf("%s: read %d of %d bytes", in, read.Load(), st.Size())
					require.Less(t, read.Load(), st.Size()/20, "bytes read of a %d-byte file", st.Size())
				}
			}
		})
	}
	// A column -select names that is not there is named, as before.
	code, _, errs := runMain(t, opts, "cat", "-select", "nope", "cnt://bucket/wide.arrow")
	require.Equal(t, exitUsage, code, errs)
	require.Contains(t, errs, "nope")
}
