package flight

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/parquet"
)

// TestOverBudgetProceedsAlone: a call whose batches or row groups each
// take more than half the memory budget, or more than all of it, is
// served whole, one at a time, instead of waiting for the batch it holds
// itself (it waited until its deadline before); every byte taken is
// given back.
func TestOverBudgetProceedsAlone(t *testing.T) {
	dir := t.TempDir()
	rec := wideRecord(4096, 8) // 260 KiB decoded
	recs := []*alkaid.Record{rec, rec, rec}
	f, err := os.Create(filepath.Join(dir, "a.parquet"))
	require.NoError(t, err)
	pw, err := parquet.NewWriter(f, rec.Schema(), parquet.WithRowGroupRows(4096))
	require.NoError(t, err)
	for _, r := range recs {
		require.NoError(t, pw.Write(r))
	}
	require.NoError(t, pw.Close())
	require.NoError(t, f.Close())
	writeIPC(t, filepath.Join(dir, "a.ipc"), rec.Schema(), recs, true)
	writeIPC(t, filepath.Join(dir, "a.ipcs"), rec.Schema(), recs, false)
	all, err := alkaid.ConcatRecords(recs...)
	require.NoError(t, err)

	for _, total := range []int64{400 << 10, 100 << 10} { // over half the batch; under it
		svc, err := NewDirService(dir, WithMemory(total, 0))
		require.NoError(t, err)
		addr := serve(t, svc)
		c := dial(t, addr)
		for _, name := range []string{"a.parquet", "a.ipc", "a.ipcs"} {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			rr, err := c.Get(ctx, &Ticket{Ticket: []byte(name)})
			require.NoError(t, err, name)
			got, err := readRecords(rr)
			cancel()
			require.NoError(t, err, "%s, budget %d", name, total)
			requireSlicesOf(t, all, got)
			require.Eventually(t, func() bool { return svc.mem.inUse() == 0 }, 5*time.Second, 10*time.Millisecond,
				"%s: every byte taken is given back", name)
		}
		require.NoError(t, svc.Close())
	}
}

// TestAfterSendsWaitsForDroppedConn: the bytes of a call whose
// connection the server dropped are given back once gRPC reports the
// connection ended (its transport holds the queued messages until then),
// those of any other call at once.
func TestAfterSendsWaitsForDroppedConn(t *testing.T) {
	released := make(chan struct{}, 2)
	release := func() { released <- struct{}{} }

	afterSends(context.Background(), release)
	require.Len(t, released, 1, "a call not dropped gives back at once")
	<-released

	d := &dropped{}
	ctx := context.WithValue(context.Background(), droppedKey{}, d)
	afterSends(ctx, release)
	require.Len(t, released, 1, "a call not dropped gives back at once")
	<-released

	tr := &tracked{gone: make(chan struct{})}
	d.conn.Store(tr)
	afterSends(ctx, release)
	time.Sleep(50 * time.Millisecond)
	require.Empty(t, released, "given back before the connection ended")
	close(tr.gone)
	select {
	case <-released:
	case <-time.After(5 * time.Second):
		t.Fatal("not given back once the connection ended")
	}
}
