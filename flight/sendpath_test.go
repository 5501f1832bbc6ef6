package flight

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestClientWritersSendFromBuffers: the RecordWriters of Client.Put and
// Client.Exchange send through this package's codec (bodies straight from
// the records' buffers), not through the copying fallback for other
// streams.
func TestClientWritersSendFromBuffers(t *testing.T) {
	s, recs := allTypeBatches()
	c := dial(t, serve(t, newMemService(s, recs)))
	ctx := context.Background()
	ps, err := c.Put(ctx, PathDescriptor("x"), s)
	require.NoError(t, err)
	require.NotNil(t, ps.RecordWriter.ms, "DoPut")
	require.NoError(t, ps.Write(recs[0]))
	err = ps.Close()
	require.NoError(t, err)
	ex, err := c.Exchange(ctx, PathDescriptor("x"), s)
	require.NoError(t, err)
	require.NotNil(t, ex.RecordWriter.ms, "DoExchange")
	require.NoError(t, ex.Close())
}
