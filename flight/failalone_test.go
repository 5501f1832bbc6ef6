package flight

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/flight/internal/pb"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/parquet"
)

// panicService panics in GetFlightInfo and in DoGet of ticket "boom".
type panicService struct{ *memService }

func (p panicService) GetFlightInfo(context.Context, *FlightDescriptor) (*FlightInfo, error) {
	panic("bad state")
}

func (p panicService) DoGet(t *Ticket, s DoGetServer) error {
	if string(t.Ticket) == "boom" {
		var m map[string]int
		m["x"]++ // a nil map: a runtime panic
	}
	return p.memService.DoGet(t, s)
}

// TestPanicFailsAlone: a handler that panics answers its caller with
// Internal; the server goes on serving that client and others.
func TestPanicFailsAlone(t *testing.T) {
	s, recs := allTypeBatches()
	addr := serve(t, panicService{newMemService(s, recs)})
	c := dial(t, addr)
	ctx := context.Background()
	_, err := c.GetFlightInfo(ctx, PathDescriptor("mem"))
	require.Equal(t, codes.Internal, status.Code(err), "%v", err)
	require.ErrorContains(t, err, "bad state")
	rr, err := c.Get(ctx, &Ticket{Ticket: []byte("boom")})
	if err == nil {
		_, err = readRecords(rr)
	}
	require.Equal(t, codes.Internal, status.Code(errorsUnwrapAll(err)), "%v", err)
	for _, cl := range []*Client{c, dial(t, addr)} {
		rr, err := cl.Get(ctx, &Ticket{Ticket: []byte("mem")})
		require.NoError(t, err)
		got, err := readRecords(rr)
		require.NoError(t, err)
		requireSameRecords(t, recs, got, "after a panic")
	}
}

// bombParquet is a Parquet file of about a kilobyte whose one row group
// decodes to 1 GiB: 8 required int64 columns of 16,777,215 rows, each a
// run of one dictionary index. It is written with 1,048,576 rows, then
// every varint of that count (pages, run, chunks, row group, file;
// nothing else in the file has that value) is made the larger count, of
// the same encoded length.
func bombParquet(t testing.TB) []byte {
	const rows, bomb = 1 << 20, 1<<24 - 1
	b := array.NewPrimitiveBuilder[int64](datatype.Int64)
	for range rows {
		b.Append(7)
	}
	col := b.Finish()
	fields := make([]datatype.Field, 8)
	cols := make([]array.Array, 8)
	for i := range fields {
		fields[i] = datatype.Field{Name: fmt.Sprintf("c%d", i), Type: datatype.Int64}
		cols[i] = col
	}
	s := alkaid.NewSchema(fields, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, cols, rows)
	require.NoError(t, err)
	var buf bytes.Buffer
	w, err := parquet.NewWriter(&buf, s, parquet.WithPageSize(1<<30), parquet.WithoutPageIndex(),
		parquet.WithoutStoredSchema(), parquet.WithRowGroupRows(rows))
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	// Counts are zigzag varints in the footer and page headers; the run
	// header is count<<1: the same bytes.
	from, to := protowire.AppendVarint(nil, rows<<1), protowire.AppendVarint(nil, bomb<<1)
	require.Len(t, to, len(from))
	require.Equal(t, 26, bytes.Count(buf.Bytes(), from), "8 pages, 8 runs, 8 chunks, the row group, the file")
	out := bytes.ReplaceAll(buf.Bytes(), from, to)
	pf, err := parquet.NewFile(bytes.NewReader(out), int64(len(out)))
	require.NoError(t, err)
	require.Equal(t, int64(bomb), pf.NumRows())
	return out
}

func totalAlloc() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// TestHostileParquetFailsAlone: a 1 KB Parquet file that decodes to 1 GiB
// is refused (ResourceExhausted) before it is decoded, allocating little,
// while another client reads a good file of the same directory.
func TestHostileParquetFailsAlone(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bomb.parquet"), bombParquet(t), 0o644))
	good := wideRecord(1000, 4)
	f, err := os.Create(filepath.Join(dir, "good.parquet"))
	require.NoError(t, err)
	pw, err := parquet.NewWriter(f, good.Schema(), parquet.WithRowGroupRows(300))
	require.NoError(t, err)
	require.NoError(t, pw.Write(good))
	require.NoError(t, pw.Close())
	require.NoError(t, f.Close())

	svc, err := NewDirService(dir)
	require.NoError(t, err)
	defer svc.Close()
	addr := serve(t, svc)
	ctx := context.Background()
	before := totalAlloc()
	var wg sync.WaitGroup
	var bombErr error
	wg.Go(func() {
		c, err := Dial(addr)
		if err != nil {
			bombErr = err
			return
		}
		defer c.Close()
		rr, err := c.Get(ctx, &Ticket{Ticket: []byte("bomb.parquet")})
		if err == nil {
			_, err = readRecords(rr)
		}
		bombErr = err
	})
	c := dial(t, addr)
	rr, err := c.Get(ctx, &Ticket{Ticket: []byte("good.parquet")})
	require.NoError(t, err)
	got, err := readRecords(rr)
	require.NoError(t, err)
	requireSlicesOf(t, good, got)
	wg.Wait()
	require.Equal(t, codes.ResourceExhausted, status.Code(errorsUnwrapAll(bombErr)), "%v", bombErr)
	require.ErrorContains(t, bombErr, "row group 0")
	allocated := totalAlloc() - before
	t.Logf("allocated %d MiB", allocated>>20)
	require.Less(t, allocated, uint64(128<<20), "allocated while serving both")
	require.Zero(t, svc.mem.inUse(), "every byte taken was given back")
}

// TestStalledClientsBounded: clients that stop reading hold the server
// to its memory bound (WithMemory), not to a batch or two each; the send
// timeout drops them, and 120 clients reading at the same time get every
// row.
func TestStalledClientsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("moves some hundred MB over loopback")
	}
	dir := t.TempDir()
	big := wideRecord(30720, 30) // 7 MiB a row group
	f, err := os.Create(filepath.Join(dir, "big.parquet"))
	require.NoError(t, err)
	pw, err := parquet.NewWriter(f, big.Schema(), parquet.WithRowGroupRows(30720))
	require.NoError(t, err)
	for range 4 {
		require.NoError(t, pw.Write(big))
	}
	require.NoError(t, pw.Close())
	require.NoError(t, f.Close())
	small := wideRecord(2000, 3)
	f, err = os.Create(filepath.Join(dir, "small.parquet"))
	require.NoError(t, err)
	pw, err = parquet.NewWriter(f, small.Schema(), parquet.WithRowGroupRows(500))
	require.NoError(t, err)
	require.NoError(t, pw.Write(small))
	require.NoError(t, pw.Close())
	require.NoError(t, f.Close())

	const budget = 48 << 20
	svc, err := NewDirService(dir, WithMemory(budget, 0))
	require.NoError(t, err)
	defer svc.Close()
	const sendTimeout = 3 * time.Second
	addr := serve(t, svc, WithSendTimeout(sendTimeout))
	heap := func() int64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc) - int64(rawmem.Pooled())
	}
	before := heap()

	// Stalled clients: each takes the schema and reads no more. Their
	// windows are pinned to 64 KiB, so that what this process holds for
	// them on the client side stays small and the heap shows the server.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const stalled = 40
	for range stalled {
		conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithInitialWindowSize(64<<10), grpc.WithInitialConnWindowSize(64<<10))
		require.NoError(t, err)
		defer conn.Close()
		st, err := pb.NewFlightServiceClient(conn).DoGet(ctx, &Ticket{Ticket: []byte("big.parquet")})
		require.NoError(t, err)
		_, err = st.Recv()
		require.NoError(t, err)
	}
	// Every send timeout, the calls holding the budget are dropped and
	// the next ones decode a row group each, the reader's working memory
	// (column chunks, pages) charged to the budget as well as the
	// records. The heap is sampled over more than a send timeout, so that
	// a wave of decoding is seen, and its peak is held to the budget and
	// a margin: the buffers of 80 connections in this process (client
	// and server, about 2 MiB; peaks up to 1 MiB over the budget were
	// seen), and under the race detector up to 16 MiB over it, not
	// accounted for (transports of dropped connections whose goroutines
	// run late, most likely). The budget is held still while
	// a sample is taken: a forced GC lasts long on a loaded machine, and
	// what a row group decoded meanwhile allocates counts as live,
	// though its working memory is given back before the GC ends. Before
	// decoding was charged, six row groups were decoded at once and the
	// peak was 81 to 241 MiB; before the bound, 579 MiB.
	const margin = 24 << 20
	grown, peak := int64(math.MaxInt64), int64(0)
	for start := time.Now(); time.Since(start) < sendTimeout+time.Second; time.Sleep(100 * time.Millisecond) {
		svc.mem.mu.Lock()
		h := heap() - before
		svc.mem.mu.Unlock()
		grown, peak = min(grown, h), max(peak, h)
		require.LessOrEqual(t, svc.mem.inUse(), int64(budget))
	}
	t.Logf("%d stalled clients: heap grew by %d MiB at least, %d MiB at most (budget %d MiB), %d MiB taken",
		stalled, grown>>20, peak>>20, budget>>20, svc.mem.inUse()>>20)
	require.LessOrEqual(t, peak, int64(budget+margin), "the heap grew by %d MiB at most", peak>>20)

	// 120 clients read the small file at once, while the stalled ones
	// are there.
	var wg sync.WaitGroup
	errs := make([]error, 120)
	start := time.Now()
	for i := range errs {
		wg.Go(func() {
			c, err := Dial(addr)
			if err != nil {
				errs[i] = err
				return
			}
			defer c.Close()
			rr, err := c.Get(context.Background(), &Ticket{Ticket: []byte("small.parquet")})
			if err != nil {
				errs[i] = err
				return
			}
			got, err := readRecords(rr)
			if err == nil && len(got) != 4 {
				err = fmt.Errorf("%d batches", len(got))
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "client %d", i)
	}
	t.Logf("120 clients read in %v", time.Since(start))

	// When the stalled clients go, what their calls held is given back.
	cancel()
	require.Eventually(t, func() bool { return svc.mem.inUse() == 0 }, 20*time.Second, 50*time.Millisecond,
		"%d bytes still held", svc.mem.inUse())
}

// TestSendTimeoutDropsStalledClient: a client that reads nothing for the
// send timeout is disconnected and the call sending to it ends; another
// client is served meanwhile.
func TestSendTimeoutDropsStalledClient(t *testing.T) {
	s, recs := bigBatches(50)
	svc := newMemService(s, recs)
	addr := serve(t, svc, WithSendTimeout(500*time.Millisecond))
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithInitialWindowSize(64<<10), grpc.WithInitialConnWindowSize(64<<10))
	require.NoError(t, err)
	defer conn.Close()
	st, err := pb.NewFlightServiceClient(conn).DoGet(context.Background(), &Ticket{Ticket: []byte("mem")})
	require.NoError(t, err)
	_, err = st.Recv()
	require.NoError(t, err)
	require.Eventually(t, func() bool { return svc.running.Load() == 1 }, 5*time.Second, 10*time.Millisecond)

	rr, err := dial(t, addr).Get(context.Background(), &Ticket{Ticket: []byte("mem")})
	require.NoError(t, err)
	got, err := readRecords(rr)
	require.NoError(t, err)
	require.Len(t, got, len(recs))

	require.Eventually(t, func() bool { return svc.running.Load() == 0 }, 10*time.Second, 20*time.Millisecond,
		"the call sending to the stalled client ended")
	for err == nil {
		_, err = st.Recv()
	}
	require.Equal(t, codes.Unavailable, status.Code(err), "%v", err)
}
