package dataset

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"iter"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/files"
)

// recs is an alkaid.RecordReader of records, failing with err after them when err
// is not nil.
type recs struct {
	list []*alkaid.Record
	err  error
}

func (r recs) Schema() *alkaid.Schema { return r.list[0].Schema() }
func (r recs) Close() error           { return nil }
func (r recs) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		for _, x := range r.list {
			if !yield(x, nil) {
				return
			}
		}
		if r.err != nil {
			yield(nil, r.err)
		}
	}
}

func sales(t testing.TB) *alkaid.Record {
	return mkRec(t,
		col{"year:int32", "[2024, 2023, 2024, null, 2023, 2024]"},
		col{"city:utf8", `["a/b", "x", "a/b", "x", "x", "New York"]`},
		col{"amount:float64", "[1.5, 2, 3, 4, 5, 6]"},
		col{"id:int64", "[1, 2, 3, 4, 5, 6]"},
	)
}

func filesUnder(t testing.TB, fsys fs.FS, dir string) []string {
	t.Helper()
	files, err := existingFiles(fsys, dir)
	require.NoError(t, err)
	return files
}

func TestWriteHive(t *testing.T) {
	dst := DirFS(t.TempDir())
	written, err := Write(context.Background(), dst, "out", recs{list: []*alkaid.Record{sales(t), sales(t)}},
		WithPartitionBy("year", "city"), WithMaxRowsPerFile(3))
	require.NoError(t, err)
	want := []string{
		"out/year=2023/city=x/part-0.parquet",
		"out/year=2023/city=x/part-1.parquet",
		"out/year=2024/city=New%20York/part-0.parquet",
		"out/year=2024/city=a%2Fb/part-0.parquet",
		"out/year=2024/city=a%2Fb/part-1.parquet",
		"out/year=__HIVE_DEFAULT_PARTITION__/city=x/part-0.parquet",
	}
	require.ElementsMatch(t, want, written)
	require.Equal(t, want, filesUnder(t, dst, "out"))

	d, err := Open(dst, "out", WithPartitioning(Partitioning{Style: Hive}))
	require.NoError(t, err)
	got, _ := scanAll(t, d, WithColumns("id", "year", "city", "amount"))
	require.Equal(t, map[string]string{
		"id":     "[2 5 2 5 6 6 1 3 1 3 4 4]",
		"year":   "[2023 2023 2023 2023 2024 2024 2024 2024 2024 2024 (null) (null)]",
		"city":   `["x" "x" "x" "x" "New York" "New York" "a/b" "a/b" "a/b" "a/b" "x" "x"]`,
		"amount": "[2 5 2 5 6 6 1.5 3 1.5 3 4 4]",
	}, got)
}

func TestWriteLayoutsAndFormats(t *testing.T) {
	for _, f := range []files.Format{files.FormatParquet, files.FormatIPCFile, files.FormatIPCStream, files.FormatCSV, files.FormatNDJSON} {
		t.Run(f.String(), func(t *testing.T) {
			dst := DirFS(t.TempDir())
			_, err := Write(context.Background(), dst, ".", recs{list: []*alkaid.Record{sales(t)}},
				WithPartitionBy("year"), WithLayout(Directory), WithFormat(f), WithFileName("chunk_{i}.data"))
			require.NoError(t, err)
			require.Equal(t, []string{"2023/chunk_0.data", "2024/chunk_0.data", "__HIVE_DEFAULT_PARTITION__/chunk_0.data"}, filesUnder(t, dst, "."))
			d, err := Open(dst, ".", WithFormat(f), WithPartitioning(Partitioning{Style: Directory, Fields: []datatype.Field{{Name: "year", Type: datatype.Int32}}}))
			require.NoError(t, err)
			got, _ := scanAll(t, d, WithColumns("id", "year"))
			require.Equal(t, map[string]string{"id": "[2 5 1 3 6 4]", "year": "[2023 2023 2024 2024 2024 (null)]"}, got)
		})
	}
}

// failFS fails the write of its file after limit bytes.
type failFS struct {
	WriteFS
	limit int
}

type failWriter struct {
	io.WriteCloser
	left int
}

var errDiskFull = errors.New("disk full")

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.left {
		return 0, errDiskFull
	}
	w.left -= len(p)
	return w.WriteCloser.Write(p)
}

func (f failFS) Create(name string) (io.WriteCloser, error) {
	wc, err := f.WriteFS.Create(name)
	return &failWriter{WriteCloser: wc, left: f.limit}, err
}

func TestWriteFailureLeavesNothing(t *testing.T) {
	big := seqRec(t, 0, 5000)
	tests := []struct {
		name string
		dst  func(WriteFS) WriteFS
		src  alkaid.RecordReader
		want error
	}{
		{"writer fails", func(w WriteFS) WriteFS { return failFS{w, 20000} }, recs{list: []*alkaid.Record{big, big, big}}, errDiskFull},
		{"source fails", func(w WriteFS) WriteFS { return w }, recs{list: []*alkaid.Record{big, big}, err: ErrInvalid}, ErrInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := DirFS(t.TempDir())
			// Existing data survives a failed write untouched.
			_, err := Write(context.Background(), base, "out", recs{list: []*alkaid.Record{seqRec(t, 0, 10)}})
			require.NoError(t, err)
			_, err = Write(context.Background(), tc.dst(base), "out", tc.src,
				WithMaxRowsPerFile(4000), WithExisting(ExistingDeleteMatching))
			require.ErrorIs(t, err, tc.want)
			require.Equal(t, []string{"out/part-0.parquet"}, filesUnder(t, base, "out"))
			d, err := Open(base, "out")
			require.NoError(t, err)
			n, _, err := d.CountRows(context.Background())
			require.NoError(t, err)
			require.Equal(t, int64(10), n)
		})
	}
}

func TestWriteExisting(t *testing.T) {
	ctx := context.Background()
	first := recs{list: []*alkaid.Record{sales(t)}}
	second := recs{list: []*alkaid.Record{mkRec(t, col{"year:int32", "[2024]"}, col{"id:int64", "[9]"})}}
	tests := []struct {
		name     string
		existing Existing
		err      error
		files    []string
		ids      string
	}{
		{"error", ExistingError, ErrExists, nil, ""},
		{"overwrite or ignore", ExistingOverwriteOrIgnore, nil, []string{"o/year=2023/part-0.parquet", "o/year=2024/part-0.parquet", "o/year=2024/side.parquet", "o/year=__HIVE_DEFAULT_PARTITION__/part-0.parquet"}, "[2 5 9 1 3 6 4]"},
		{"delete matching", ExistingDeleteMatching, nil, []string{"o/year=2023/part-0.parquet", "o/year=2024/part-0.parquet", "o/year=__HIVE_DEFAULT_PARTITION__/part-0.parquet"}, "[2 5 9 4]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dst := DirFS(t.TempDir())
			_, err := Write(ctx, dst, "o", first, WithPartitionBy("year"))
			require.NoError(t, err)
			_, err = Write(ctx, dst, "o/year=2024", recs{list: []*alkaid.Record{mkRec(t, col{"id:int64", "[1,3,6]"})}}, WithFileName("side{i}.parquet"), WithExisting(ExistingOverwriteOrIgnore))
			require.NoError(t, err)
			require.NoError(t, dst.Rename("o/year=2024/side0.parquet", "o/year=2024/side.parquet"))
			before := filesUnder(t, dst, "o")
			_, err = Write(ctx, dst, "o", second, WithPartitionBy("year"), WithExisting(tc.existing))
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				require.Equal(t, before, filesUnder(t, dst, "o"))
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.files, filesUnder(t, dst, "o"))
			d, err := Open(dst, "o", WithPartitioning(Partitioning{Style: Hive}))
			require.NoError(t, err)
			got, _ := scanAll(t, d, WithColumns("id"))
			require.Equal(t, tc.ids, got["id"])
		})
	}
}

func TestWriteOptionErrors(t *testing.T) {
	src := recs{list: []*alkaid.Record{sales(t)}}
	for _, o := range []Option{WithFileName("x.parquet"), WithFileName("_{i}"), WithFileName("a/{i}"), WithMaxRowsPerFile(0),
		WithFormat(files.FormatAuto), WithLayout(NoPartitions), WithPartitionBy("nope"), WithExisting(Existing(7))} {
		_, err := Write(context.Background(), DirFS(t.TempDir()), "o", src, o)
		require.ErrorIs(t, err, ErrInvalid)
	}
	_, err := Write(context.Background(), DirFS(t.TempDir()), "o", src, WithPartitionBy("amount"))
	require.NoError(t, err)
	_, err = Write(context.Background(), DirFS(t.TempDir()), "o", recs{list: []*alkaid.Record{mkRec(t, col{"b:binary", `["AA=="]`})}}, WithPartitionBy("b"))
	require.ErrorIs(t, err, ErrNotSupported)
}
