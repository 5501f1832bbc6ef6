package flight

import (
	"context"
	"io"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// NextResult gives each PutResult as the server sends it, while the
// upload goes on; Close returns only those not taken.
func TestPutStreamNextResult(t *testing.T) {
	svc, err := NewDirService(t.TempDir(), WithWritable())
	require.NoError(t, err)
	defer svc.Close()
	c := dial(t, serve(t, svc))
	s, recs := allTypeBatches()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	ps, err := c.Put(ctx, PathDescriptor("acks"), s)
	require.NoError(t, err)
	for i, rec := range recs[:len(recs)-1] {
		app := []byte(strconv.Itoa(i))
		require.NoError(t, ps.WriteWithAppMetadata(rec, app))
		r, err := ps.NextResult()
		require.NoError(t, err, "batch %d", i)
		require.Equal(t, app, r.AppMetadata)
	}
	require.NoError(t, ps.WriteWithAppMetadata(recs[len(recs)-1], []byte("last")))
	err = ps.Close()
	rest := ps.Results()
	require.NoError(t, err)
	require.Len(t, rest, 1)
	require.Equal(t, []byte("last"), rest[0].AppMetadata)
	_, err = ps.NextResult()
	require.ErrorIs(t, err, io.EOF)

	// A refused upload: NextResult returns the call's error.
	ps, err = c.Put(ctx, PathDescriptor("acks"), s)
	require.NoError(t, err)
	require.NoError(t, ps.WriteSchema())
	_, err = ps.NextResult()
	require.Equal(t, codes.AlreadyExists, status.Code(err), "%v", err)
	err = ps.Close()
	require.Equal(t, codes.AlreadyExists, status.Code(err), "%v", err)
}
