package flight

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/flight/internal/pb"
)

// TestDirPutRoundTrip: the round trip Arrow's integration clients make.
// A DoPut to an absolute path ending in .json is acknowledged batch by
// batch (each PutResult carrying its batch's app metadata, before the
// next batch is sent), GetFlightInfo of the same descriptor describes
// what was stored, with the service's location on its endpoint, and
// DoGet sends the batches back with their app metadata.
func TestDirPutRoundTrip(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "served")
	require.NoError(t, os.Mkdir(dir, 0o755))
	svc, err := NewDirService(dir, WithWritable(), WithLocations("grpc://127.0.0.1:1234"))
	require.NoError(t, err)
	defer svc.Close()
	addr := serve(t, svc)
	s, recs := allTypeBatches()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer conn.Close()
	for _, p := range []string{"/data/integration/generated_primitive.json", "/../../escape.json"} {
		d := PathDescriptor(p)
		put, err := pb.NewFlightServiceClient(conn).DoPut(ctx)
		require.NoError(t, err)
		w, err := NewRecordWriter(put, s)
		require.NoError(t, err)
		w.SetDescriptor(d)
		for i, rec := range recs {
			app := []byte(strconv.Itoa(i))
			require.NoError(t, w.WriteWithAppMetadata(rec, app))
			res, err := put.Recv() // before the next batch goes
			require.NoError(t, err, "%s: PutResult of batch %d", p, i)
			require.Equal(t, app, res.AppMetadata)
		}
		require.NoError(t, put.CloseSend())
		_, err = put.Recv()
		require.ErrorIs(t, err, io.EOF)

		c := dial(t, addr)
		fi, err := c.GetFlightInfo(ctx, d)
		require.NoError(t, err, p)
		poll, err := c.PollFlightInfo(ctx, d)
		require.NoError(t, err, p)
		require.Nil(t, poll.FlightDescriptor, "complete: nothing to poll again")
		require.Equal(t, 1.0, poll.GetProgress())
		require.True(t, proto.Equal(fi, poll.Info), "PollFlightInfo describes what GetFlightInfo does")
		require.Equal(t, d.Path, fi.FlightDescriptor.Path)
		require.Len(t, fi.Endpoint, 1)
		require.Equal(t, "grpc://127.0.0.1:1234", fi.Endpoint[0].Location[0].Uri)
		rr, err := c.Get(ctx, fi.Endpoint[0].Ticket)
		require.NoError(t, err)
		var got []*alkaid.Record
		for rec, err := range rr.Records() {
			require.NoError(t, err)
			i := len(got)
			require.Equal(t, strconv.Itoa(i), string(rr.AppMetadata()), "app metadata of batch %d", i)
			got = append(got, rec)
		}
		requireSameRecords(t, recs, got, p)
	}
	_, err = os.Stat(filepath.Join(dir, "data", "integration", "generated_primitive.json.ipcs"))
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(dir, "escape.json.ipcs"))
	require.NoError(t, err, "stored under the directory")
	entries, err := os.ReadDir(parent)
	require.NoError(t, err)
	require.Len(t, entries, 1, "nothing stored outside the directory")
}

// TestDirPutPathBounded: a DoPut to a path of thousands of elements is
// refused (InvalidArgument) without making a directory; one of a few
// levels is stored.
func TestDirPutPathBounded(t *testing.T) {
	dir := t.TempDir()
	svc, err := NewDirService(dir, WithWritable())
	require.NoError(t, err)
	defer svc.Close()
	c := dial(t, serve(t, svc))
	s, recs := allTypeBatches()
	for _, tc := range []struct {
		path string
		code codes.Code
	}{
		{strings.Repeat("d/", 5000) + "x", codes.InvalidArgument},
		{strings.Repeat("d/", 31) + "x", codes.OK},
	} {
		ps, err := c.Put(context.Background(), PathDescriptor(tc.path), s)
		require.NoError(t, err)
		ps.Write(recs[0]) // the server may have answered already
		err = ps.Close()
		require.Equal(t, tc.code, status.Code(errorsUnwrapAll(err)), "%.100s: %v", tc.path, err)
	}
	depth := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if d != nil && d.IsDir() {
			depth = max(depth, strings.Count(p[len(dir):], string(filepath.Separator)))
		}
		return nil
	})
	require.Equal(t, 31, depth, "directories made")
}
