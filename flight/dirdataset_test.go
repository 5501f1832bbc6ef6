package flight

import (
	"context"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/dataset"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/parquet"
)

// memSource is an alkaid.RecordReader of records in memory.
type memSource []*alkaid.Record

func (m memSource) Schema() *alkaid.Schema { return m[0].Schema() }
func (m memSource) Close() error           { return nil }
func (m memSource) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		for _, r := range m {
			if !yield(r, nil) {
				return
			}
		}
	}
}

// salesRecord is n rows: year and month (the partition columns written),
// x counting from from, and a name.
func salesRecord(t testing.TB, from, n int) *alkaid.Record {
	years := array.NewPrimitiveBuilder[int64](datatype.Int64)
	months := array.NewPrimitiveBuilder[int64](datatype.Int64)
	xs := array.NewPrimitiveBuilder[int64](datatype.Int64)
	names := array.NewBinaryBuilder[int32](datatype.String)
	for i := from; i < from+n; i++ {
		years.Append(int64(2023 + i%2))
		months.Append(int64(1 + i%3))
		xs.Append(int64(i))
		names.AppendString(fmt.Sprintf("n%d", i))
	}
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "year", Type: datatype.Int64}, {Name: "month", Type: datatype.Int64},
		{Name: "x", Type: datatype.Int64}, {Name: "name", Type: datatype.String, Nullable: true},
	}, datatype.Metadata{})
	r, err := alkaid.NewRecord(s, []array.Array{years.Finish(), months.Finish(), xs.Finish(), names.Finish()}, n)
	require.NoError(t, err)
	return r
}

// writeDataset writes 600 rows under dir/name as a Hive dataset by year
// and month: 6 partitions, files of at most 40 rows, in format f.
func writeDataset(t testing.TB, dir, name string, f files.Format) {
	t.Helper()
	src := memSource{salesRecord(t, 0, 300), salesRecord(t, 300, 300)}
	_, err := dataset.Write(context.Background(), dataset.DirFS(dir), name, src,
		dataset.WithPartitionBy("year", "month"), dataset.WithMaxRowsPerFile(40),
		dataset.WithFormat(f), dataset.WithParquetOptions(parquet.WithRowGroupRows(16)))
	require.NoError(t, err)
}

// byColumn formats the records' columns, each sorted rows concatenated,
// keyed by name (rows are compared as sets: x is unique).
func byX(t testing.TB, recs []*alkaid.Record) map[int64]string {
	t.Helper()
	out := map[int64]string{}
	for _, r := range recs {
		x := r.Column(r.Schema().FieldIndex("x")).(*array.Primitive[int64])
		for i := range r.NumRows() {
			row := ""
			for c := range r.NumCols() {
				row += array.Format(array.Slice(r.Column(c), i, i+1)) + " "
			}
			_, dup := out[x.Value(i)]
			require.False(t, dup, "row x=%d twice", x.Value(i))
			out[x.Value(i)] = row
		}
	}
	return out
}

func TestDirServiceDataset(t *testing.T) {
	dir := t.TempDir()
	writeDataset(t, dir, "sales", files.FormatParquet)
	writeDataset(t, dir, "events", files.FormatIPCFile)
	s := salesRecord(t, 0, 5)
	writeIPC(t, filepath.Join(dir, "single.ipc"), s.Schema(), []*alkaid.Record{s}, true)

	svc, err := NewDirService(dir, WithMemory(1<<20, 0))
	require.NoError(t, err)
	defer svc.Close()
	c := dial(t, serve(t, svc))
	ctx := context.Background()

	var names []string
	for fi, err := range c.Flights(ctx, nil) {
		require.NoError(t, err)
		names = append(names, fi.FlightDescriptor.Path[0])
	}
	require.Contains(t, names, "sales")
	require.Contains(t, names, "events")
	require.Contains(t, names, "single.ipc")

	for _, name := range []string{"sales", "events"} {
		t.Run(name, func(t *testing.T) {
			local, err := dataset.Open(os.DirFS(dir), name, dataset.WithPartitioning(dataset.Partitioning{Style: dataset.Hive}))
			require.NoError(t, err)
			scan, err := local.Scan(ctx)
			require.NoError(t, err)
			var want []*alkaid.Record
			for r, err := range scan.Records() {
				require.NoError(t, err)
				want = append(want, r)
			}

			fi, err := c.GetFlightInfo(ctx, PathDescriptor(name))
			require.NoError(t, err)
			schema, err := DecodeSchema(fi.Schema)
			require.NoError(t, err)
			require.True(t, local.Schema().Equal(schema), "schema %v", schema)
			require.Len(t, fi.Endpoint, len(local.Files()))
			require.Greater(t, len(fi.Endpoint), 6)
			require.Equal(t, int64(600), fi.TotalRecords)
			require.Positive(t, fi.TotalBytes)

			got, err := fetchAll(ctx, c, fi, WithConcurrency(4), WithUnordered())
			require.NoError(t, err)
			for _, r := range got {
				require.True(t, schema.Equal(r.Schema()))
			}
			require.Equal(t, byX(t, want), byX(t, got))
			require.Len(t, byX(t, got), 600)
		})
	}

	// every batch's bytes were given back to the budget
	require.Eventually(t, func() bool { return svc.mem.inUse() == 0 }, 5*time.Second, 10*time.Millisecond)

	// the single file is served as before
	fi, err := c.GetFlightInfo(ctx, PathDescriptor("single.ipc"))
	require.NoError(t, err)
	require.Equal(t, "single.ipc", string(fi.Endpoint[0].Ticket.Ticket))
}

func TestDirServiceDatasetHostile(t *testing.T) {
	dir := t.TempDir()
	writeDataset(t, dir, "sales", files.FormatParquet)
	writeDataset(t, dir, "other", files.FormatParquet)
	outside := t.TempDir()
	writeDataset(t, outside, "secret", files.FormatParquet)
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "link")))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "empty", "year=1"), 0o755))

	// files inside the dataset's directory that are not its files
	local0, err := dataset.Open(os.DirFS(dir), "sales")
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(dir, local0.Files()[0]))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sales", "_hidden.parquet"), data, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sales", "notes.txt"), []byte("x"), 0o644))

	svc, err := NewDirService(dir)
	require.NoError(t, err)
	defer svc.Close()
	c := dial(t, serve(t, svc))
	ctx := context.Background()

	local, err := dataset.Open(os.DirFS(dir), "other")
	require.NoError(t, err)
	otherFile := local.Files()[0]
	secret, err := dataset.Open(os.DirFS(outside), "secret")
	require.NoError(t, err)
	secretFile := secret.Files()[0] // secret/year=…/…parquet

	for _, d := range []string{"link", "empty", "../" + filepath.Base(outside)} {
		_, err := c.GetFlightInfo(ctx, PathDescriptor(d))
		require.Equal(t, codes.NotFound, status.Code(err), "%s: %v", d, err)
	}
	for _, tk := range []string{
		"sales\x00" + otherFile,                                     // a file of another dataset
		"sales\x00sales/../" + otherFile,                            // not a clean path
		"sales\x00../x.parquet",                                     // outside the root
		"../" + filepath.Base(outside) + "/secret\x00" + secretFile, // directory outside the root
		"link\x00link/" + secretFile[len("secret/"):],               // through a link leading out
		"sales\x00sales/missing.parquet",
		"sales\x00sales/_hidden.parquet", // left out of the dataset
		"sales\x00sales/notes.txt",
		"sales\x00",
		"\x00sales",
		"sales/year=2023\x00sales/year=2023",
	} {
		rr, err := c.Get(ctx, &Ticket{Ticket: []byte(tk)})
		if err == nil {
			_, err = readRecords(rr)
		}
		code := status.Code(errorsUnwrapAll(err))
		require.Contains(t, []codes.Code{codes.NotFound, codes.InvalidArgument}, code, "%q: %v", tk, err)
	}
}

func TestDirServiceDatasetMemory(t *testing.T) {
	dir := t.TempDir()
	writeDataset(t, dir, "sales", files.FormatParquet)
	// a batch of 16 rows takes more than 64 bytes: refused
	svc, err := NewDirService(dir, WithMemory(0, 64))
	require.NoError(t, err)
	defer svc.Close()
	c := dial(t, serve(t, svc))
	ctx := context.Background()
	fi, err := c.GetFlightInfo(ctx, PathDescriptor("sales"))
	require.NoError(t, err)
	rr, err := c.Get(ctx, fi.Endpoint[0].Ticket)
	if err == nil {
		_, err = readRecords(rr)
	}
	require.Equal(t, codes.ResourceExhausted, status.Code(errorsUnwrapAll(err)), "%v", err)
	require.Eventually(t, func() bool { return svc.mem.inUse() == 0 }, 5*time.Second, 10*time.Millisecond)
}
