package flight

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/parquet"
)

// parquetSchema has flat, nested and dictionary columns, nullable and not.
func parquetSchema(t *testing.T) *alkaid.Schema {
	ts, err := datatype.NewTimestamp(datatype.Microsecond, "UTC")
	require.NoError(t, err)
	dict, err := datatype.NewDictionary(datatype.Int32, datatype.String, false)
	require.NoError(t, err)
	return alkaid.NewSchema([]datatype.Field{
		{Name: "id", Type: datatype.Int64},
		{Name: "x", Type: datatype.Float64, Nullable: true},
		{Name: "ok", Type: datatype.Bool, Nullable: true},
		{Name: "name", Type: datatype.String, Nullable: true},
		{Name: "at", Type: ts, Nullable: true},
		{Name: "tags", Type: datatype.ListOf(datatype.Int32), Nullable: true},
		{Name: "pt", Type: datatype.StructOf(
			datatype.Field{Name: "a", Type: datatype.Int16, Nullable: true},
			datatype.Field{Name: "b", Type: datatype.Binary, Nullable: true}), Nullable: true},
		{Name: "kind", Type: dict, Nullable: true},
	}, datatype.Metadata{})
}

func writeParquet(t *testing.T, path string, rec *alkaid.Record, opts ...parquet.Option) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	w, err := parquet.NewWriter(f, rec.Schema(), opts...)
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
}

// TestDirServiceParquet: a Parquet file written by the parquet package is
// listed, described (schema, rows), and served one row group a batch
// with its values; a corrupt one is left out of the listing and named in
// the error of a direct request.
func TestDirServiceParquet(t *testing.T) {
	dir := t.TempDir()
	s := parquetSchema(t)
	rec := randdata.New(11).Record(s, 100)
	writeParquet(t, filepath.Join(dir, "t.parquet"), rec, parquet.WithRowGroupRows(40))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "broken.parquet"), []byte("PAR1 not really PAR1"), 0o644))

	svc, err := NewDirService(dir)
	require.NoError(t, err)
	defer svc.Close()
	c := dial(t, serve(t, svc))
	ctx := context.Background()

	var infos []*FlightInfo
	for fi, err := range c.Flights(ctx, nil) {
		require.NoError(t, err)
		infos = append(infos, fi)
	}
	require.Len(t, infos, 1)
	require.Equal(t, []string{"t.parquet"}, infos[0].FlightDescriptor.Path)
	require.EqualValues(t, 100, infos[0].TotalRecords)
	listed, err := DecodeSchema(infos[0].Schema)
	require.NoError(t, err)
	require.True(t, s.Equal(listed), "listed schema %v", listed)

	got, err := c.Schema(ctx, PathDescriptor("t.parquet"))
	require.NoError(t, err)
	require.True(t, s.Equal(got), "GetSchema: %v", got)

	fi, err := c.GetFlightInfo(ctx, PathDescriptor("t.parquet"))
	require.NoError(t, err)
	require.EqualValues(t, 100, fi.TotalRecords)
	rr, err := c.Get(ctx, fi.Endpoint[0].Ticket)
	require.NoError(t, err)
	back, err := rr.ReadAll()
	require.NoError(t, err)
	requireSameRecords(t, []*alkaid.Record{rec.Slice(0, 40), rec.Slice(40, 80), rec.Slice(80, 100)}, back, "t.parquet")

	_, err = c.GetFlightInfo(ctx, PathDescriptor("broken.parquet"))
	require.Equal(t, codes.DataLoss, status.Code(err), "%v", err)
	require.ErrorContains(t, err, "broken.parquet")
	_, err = c.Get(ctx, &Ticket{Ticket: []byte("broken.parquet")})
	require.Equal(t, codes.DataLoss, status.Code(err), "%v", err)
}

// TestDirServiceParquetCancel: a client that stops after the first row
// group ends the server's reading of the file (no handler left behind).
func TestDirServiceParquetCancel(t *testing.T) {
	dir := t.TempDir()
	rec := randdata.New(12).Record(parquetSchema(t), 300)
	writeParquet(t, filepath.Join(dir, "big.parquet"), rec, parquet.WithRowGroupRows(10))
	svc, err := NewDirService(dir)
	require.NoError(t, err)
	defer svc.Close()
	c := dial(t, serve(t, svc))
	fetchOne := func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		rr, err := c.Get(ctx, &Ticket{Ticket: []byte("big.parquet")})
		require.NoError(t, err)
		require.True(t, rr.Next(), "%v", rr.Err())
		require.Equal(t, 10, rr.Record().NumRows())
	}
	fetchOne() // the connection is up
	time.Sleep(50 * time.Millisecond)
	goroutines := runtime.NumGoroutine()
	for range 5 {
		fetchOne()
	}
	waitFor(t, "the handlers and their readers to end", func() bool { return runtime.NumGoroutine() <= goroutines })
}
