package interop

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	aflight "github.com/apache/arrow-go/v18/arrow/flight"
	aipc "github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/flight"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/parquet"
)

// TestFlightArrowGoClientDirService: arrow-go's client, with gRPC's
// default settings (messages of at most 4 MiB), reads a served Parquet
// row group of 30,720 rows (7 MiB) in full; and uploads as Arrow's
// integration client does, to an absolute path, waiting for each batch's
// PutResult before the next, then reads the flight of the same
// descriptor back with its app metadata.
func TestFlightArrowGoClientDirService(t *testing.T) {
	dir := t.TempDir()
	fields := make([]datatype.Field, 30)
	for i := range fields {
		fields[i] = datatype.Field{Name: fmt.Sprintf("c%d", i), Type: datatype.Int64}
	}
	s := alkaid.NewSchema(fields, datatype.Metadata{})
	rec := randdata.New(4).Record(s, 30720)
	f, err := os.Create(filepath.Join(dir, "rg.parquet"))
	require.NoError(t, err)
	w, err := parquet.NewWriter(f, s, parquet.WithRowGroupRows(30720))
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
	svc, err := flight.NewDirService(dir, flight.WithWritable())
	require.NoError(t, err)
	defer svc.Close()
	addr := serveFlight(t, svc)

	c, err := aflight.NewClientWithMiddleware(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer c.Close()
	ctx := context.Background()
	get, err := c.DoGet(ctx, &aflight.Ticket{Ticket: []byte("rg.parquet")})
	require.NoError(t, err)
	got, err := agDrain(get, nil)
	require.NoError(t, err)
	back := fromArrowGoRecords(t, got.schema, got.recs)
	require.Greater(t, len(back), 1, "sent in slices")
	off := 0
	for _, b := range back {
		require.Equal(t, rec.Slice(off, off+b.NumRows()).String(), b.String())
		off += b.NumRows()
	}
	require.Equal(t, rec.NumRows(), off)

	small, recs := flightBatches()
	as, arecs := toArrowGoRecords(t, small, recs)
	desc := &aflight.FlightDescriptor{Type: aflight.DescriptorPATH, Path: []string{"/integration/data/generated_primitive.json"}}
	put, err := c.DoPut(ctx)
	require.NoError(t, err)
	pw := aflight.NewRecordWriter(put, aipc.WithSchema(as))
	pw.SetFlightDescriptor(desc)
	for i, r := range arecs {
		app := []byte(strconv.Itoa(i))
		require.NoError(t, pw.WriteWithAppMetadata(r, app))
		pr, err := put.Recv()
		require.NoError(t, err, "PutResult of batch %d", i)
		require.Equal(t, app, pr.AppMetadata)
	}
	require.NoError(t, pw.Close())
	require.NoError(t, put.CloseSend())
	_, err = put.Recv() // the end of the call: the upload is stored
	require.ErrorIs(t, err, io.EOF)
	info, err := c.GetFlightInfo(ctx, desc)
	require.NoError(t, err)
	get, err = c.DoGet(ctx, info.Endpoint[0].Ticket)
	require.NoError(t, err)
	got, err = agDrain(get, nil)
	require.NoError(t, err)
	requireSameFlightRecords(t, recs, fromArrowGoRecords(t, got.schema, got.recs), "stored and read back by arrow-go")
	for i, m := range got.meta {
		require.Equal(t, strconv.Itoa(i), m, "app metadata of batch %d", i)
	}
}
