package flight

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/internal/rawmem"
)

// TestIdleConnectionsHoldNoBuffers: the 1 MiB read and write buffers of a
// connection are pooled while it waits, so 40 idle connections (client
// and server ends both in this process) cost far less than the 160 MiB
// that 2 buffers at each of their 80 ends would hold.
func TestIdleConnectionsHoldNoBuffers(t *testing.T) {
	s, recs := allTypeBatches()
	addr := serve(t, newMemService(s, recs))
	ctx := context.Background()
	heap := func() int64 {
		runtime.GC()
		runtime.GC() // sync.Pool keeps a victim cache for one cycle
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc) - int64(rawmem.Pooled())
	}
	warm := dial(t, addr)
	_, err := warm.Schema(ctx, PathDescriptor("mem"))
	require.NoError(t, err)
	before := heap()
	clients := make([]*Client, 40)
	for i := range clients {
		clients[i] = dial(t, addr)
		rr, err := clients[i].Get(ctx, &Ticket{Ticket: []byte("mem")})
		require.NoError(t, err)
		_, err = readRecords(rr)
		require.NoError(t, err)
	}
	grown := heap() - before
	t.Logf("40 idle connections: heap grew by %d KiB", grown>>10)
	require.Less(t, grown, int64(24<<20), "heap grew by %d bytes", grown)
	runtime.KeepAlive(clients)
}
