package flight

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/files"
)

// TestDirServiceFormatByContent: files are served by what they hold, as
// files.Open reads them: a Parquet file and an IPC stream under other
// extensions, CSV and NDJSON by theirs; an upload being stored is not.
func TestDirServiceFormatByContent(t *testing.T) {
	dir := t.TempDir()
	rec := salesRecord(t, 0, 7)
	for _, f := range []struct {
		name   string
		format files.Format
	}{
		{"parquet.bin", files.FormatParquet},
		{"stream.data", files.FormatIPCStream},
		{"t.csv", files.FormatCSV},
		{"t.tsv", files.FormatCSV}, // with tabs, told by the name
		{"t.ndjson", files.FormatNDJSON},
		{"up.ipcs.part", files.FormatIPCStream},
	} {
		w, err := files.Create(filepath.Join(dir, f.name), rec.Schema(), files.WithFormat(f.format))
		require.NoError(t, err)
		require.NoError(t, w.Write(rec))
		require.NoError(t, w.Close())
	}
	svc, err := NewDirService(dir)
	require.NoError(t, err)
	defer svc.Close()
	c := dial(t, serve(t, svc))
	ctx := context.Background()
	for _, name := range []string{"parquet.bin", "stream.data", "t.csv", "t.tsv", "t.ndjson"} {
		fi, err := c.GetFlightInfo(ctx, PathDescriptor(name))
		require.NoError(t, err, name)
		rr, err := c.Get(ctx, fi.Endpoint[0].Ticket)
		require.NoError(t, err, name)
		got, err := readRecords(rr)
		require.NoError(t, err, name)
		tbl, err := alkaid.TableFromRecords(got[0].Schema(), got)
		require.NoError(t, err, name)
		require.Equal(t, 7, tbl.NumRows(), name)
		require.Equal(t, rec.Schema().NumFields(), tbl.NumCols(), name)
	}
	_, err = c.GetFlightInfo(ctx, PathDescriptor("up.ipcs.part"))
	require.Equal(t, codes.NotFound, status.Code(err), "%v", err)
}

// TestDirServiceDatasetCached: the endpoints of a dataset's FlightInfo
// are served from the dataset that FlightInfo described, not discovered
// again per DoGet: a file added since, whose schema conflicts with the
// others, does not break fetching them (it did when each DoGet opened
// the dataset anew).
func TestDirServiceDatasetCached(t *testing.T) {
	dir := t.TempDir()
	writeDataset(t, dir, "sales", files.FormatParquet)
	svc, err := NewDirService(dir)
	require.NoError(t, err)
	defer svc.Close()
	c := dial(t, serve(t, svc))
	ctx := context.Background()
	fi, err := c.GetFlightInfo(ctx, PathDescriptor("sales"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sales", "late.csv"), []byte("x\nnot a number\n"), 0o644))
	rows := 0
	for _, ep := range fi.Endpoint {
		rr, err := c.Get(ctx, ep.Ticket)
		require.NoError(t, err)
		got, err := readRecords(rr)
		require.NoError(t, err)
		for _, r := range got {
			rows += r.NumRows()
		}
	}
	require.Equal(t, 600, rows)
	// A new description sees the new file.
	_, err = c.GetFlightInfo(ctx, PathDescriptor("sales"))
	require.Equal(t, codes.DataLoss, status.Code(err), "%v", err)
}
