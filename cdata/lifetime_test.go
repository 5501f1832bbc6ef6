//go:build cgo

package cdata

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/cdata/internal/ctest"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/memory"
)

// churn allocates and collects, so that freed or moved memory would be
// reused.
func churn() {
	var keep [][]byte
	for i := range 200 {
		keep = append(keep, bytes.Repeat([]byte{byte(i)}, 4096))
	}
	runtime.KeepAlive(keep)
	runtime.GC()
	runtime.GC()
}

func TestExportedDataSurvivesCollectionsUntilReleased(t *testing.T) {
	g := randdata.New(11)
	a := g.Array(datatype.String, 1000, true)
	want := append([]byte(nil), a.Data().Buffers[2].Bytes()...)
	wantOffsets := append([]byte(nil), a.Data().Buffers[1].Bytes()...)
	ca := NewArrowArray()
	defer Free(ca)
	require.NoError(t, ExportArray(a, datatype.Field{Name: "s", Type: datatype.String, Nullable: true}, ca, nil))
	a = nil // the consumer holds the only reference
	for range 5 {
		churn()
	}
	bufs := unsafe.Slice((*unsafe.Pointer)(unsafe.Pointer(ca.buffers)), 3)
	require.Equal(t, wantOffsets, unsafe.Slice((*byte)(bufs[1]), len(wantOffsets)))
	require.Equal(t, want, unsafe.Slice((*byte)(bufs[2]), len(want)))
	ReleaseArray(ca)
	require.True(t, ArrayReleased(ca))

	// Through C: the stream and its records outlive the Go references.
	recs, sums := abcRecords(12)
	s := NewArrowArrayStream()
	defer Free(s)
	require.NoError(t, ExportStream(&sliceSource{schema: abcSchema, recs: recs}, s))
	recs = nil
	for range 5 {
		churn()
	}
	got := ctest.ConsumeStream(unsafe.Pointer(s))
	require.Equal(t, sums, got)
}

func TestImportedReleaseRunsOnceAfterLastReference(t *testing.T) {
	a0, _, _ := ctest.Released()
	ca, cs := NewArrowArray(), NewArrowSchema()
	ctest.ProduceStruct(unsafe.Pointer(ca), unsafe.Pointer(cs), 50, 3, ctest.BreakNone)
	rec, err := ImportRecord(ca, cs)
	Free(ca)
	Free(cs)
	require.NoError(t, err)
	col := array.Slice(rec.Column(1), 10, 20) // a slice of one column only
	rec = nil
	for range 3 {
		churn()
	}
	a1, _, _ := ctest.Released()
	require.Equal(t, a0, a1, "released while a slice of a column is reachable")
	require.Equal(t, "s13", string(col.(*array.Binary[int32]).Value(0)))
	runtime.KeepAlive(col)
	col = nil
	waitReleased(t, a0+1)
	for range 3 {
		churn()
	}
	a2, _, _ := ctest.Released()
	require.Equal(t, a0+1, a2, "released more than once")
}

func TestConcurrentExportImport(t *testing.T) {
	schema := randdata.AllTypes()
	recs := make([]*alkaid.Record, 4)
	for i := range recs {
		recs[i] = randdata.New(uint64(20+i)).Record(schema, 30)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				rec := recs[(w+i)%len(recs)]
				ca, cs := NewArrowArray(), NewArrowSchema()
				if err := ExportRecord(rec, ca, cs); err != nil {
					errs <- err.Error()
					return
				}
				got, err := ImportRecord(ca, cs)
				Free(ca)
				Free(cs)
				if err != nil {
					errs <- err.Error()
					return
				}
				for c := range rec.NumCols() {
					if !array.Equal(rec.Column(c), got.Column(c)) {
						errs <- "column " + rec.ColumnName(c) + " differs"
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestConcurrentStreamReleasedFromOtherGoroutines(t *testing.T) {
	// Imported arrays released by the cleanup goroutine while others
	// import: the producer's count ends exact.
	a0, _, _ := ctest.Released()
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				ca := NewArrowArray()
				ctest.ProduceStruct(unsafe.Pointer(ca), nil, 20, 1, ctest.BreakNone)
				schema := alkaid.NewSchema([]datatype.Field{
					{Name: "x", Type: datatype.Int32, Nullable: true}, {Name: "y", Type: datatype.String, Nullable: true},
				}, datatype.Metadata{})
				rec, err := ImportRecordOf(ca, schema)
				Free(ca)
				if err != nil || rec.NumRows() != 20 {
					t.Errorf("import: %v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
	waitReleased(t, a0+200)
}

// TestNoLeakOverManyCycles exports and imports a small record 100,000
// times: every exported node is released, every imported array given back,
// and the Go heap stays flat.
func TestNoLeakOverManyCycles(t *testing.T) {
	cycles := 100_000
	if testing.Short() {
		cycles = 10_000
	}
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "i", Type: datatype.Int64, Nullable: true},
		{Name: "s", Type: datatype.StringView, Nullable: true},
		{Name: "l", Type: datatype.ListOf(datatype.Int32), Nullable: true},
	}, datatype.Metadata{})
	rec := randdata.New(30).Record(schema, 64)
	ca, cs := NewArrowArray(), NewArrowSchema()
	defer Free(ca)
	defer Free(cs)
	// Earlier tests' imports (and the exports they hold) go first; the
	// hostile tests leak a few exports on purpose (corrupt trees whose
	// release cannot run), which stay counted.
	drained := func() bool {
		for range 2000 {
			if liveImports.Load() == 0 {
				return true
			}
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
		return false
	}
	require.True(t, drained(), "%d imports alive before the cycles", liveImports.Load())
	exports0 := liveExports.Load()
	heapAt := func() uint64 {
		for range 3 {
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc - min(m.HeapAlloc, rawmem.Pooled())
	}
	cycle := func() {
		if err := ExportRecord(rec, ca, cs); err != nil {
			t.Fatal(err)
		}
		got, err := ImportRecord(ca, cs, WithValidation(array.ValidateStructure))
		if err != nil || got.NumRows() != 64 {
			t.Fatal(err)
		}
	}
	for range cycles / 10 {
		cycle()
	}
	base, rss0 := heapAt(), residentBytes()
	for range cycles - cycles/10 {
		cycle()
	}
	end, rss1 := heapAt(), residentBytes()
	require.True(t, drained(), "%d imported arrays not released", liveImports.Load())
	require.Equal(t, exports0, liveExports.Load(), "exported nodes not released")
	t.Logf("%d cycles: heap %d KiB after %d, %d KiB at the end", cycles, base>>10, cycles/10, end>>10)
	require.Less(t, end, base+(1<<20), "the heap grew by %d KiB", (int64(end)-int64(base))>>10)
	if rss0 > 0 && rss1 > 0 { // C allocations show in the resident size only
		t.Logf("resident %d KiB, then %d KiB", rss0>>10, rss1>>10)
		require.Less(t, rss1, rss0+(16<<20), "the resident size grew by %d KiB", (rss1-rss0)>>10)
	}
}

// residentBytes is the process's resident size from /proc (0 where there
// is none).
func residentBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}

// TestExportedMemoryCollectableAfterRelease: the exported Go memory stays
// until the consumer's release, and is the collector's right after.
func TestExportedMemoryCollectableAfterRelease(t *testing.T) {
	var collected atomic.Bool
	ca := NewArrowArray()
	defer Free(ca)
	func() {
		backing := new([512]int64)
		for i := range backing {
			backing[i] = int64(i)
		}
		runtime.AddCleanup(backing, func(f *atomic.Bool) { f.Store(true) }, &collected)
		d := array.NewData(datatype.Int64, 512, []*memory.Buffer{nil, memory.FromSlice(backing[:])}, nil, 0, 0)
		require.NoError(t, ExportArray(array.MustMake(d), datatype.Field{Name: "v", Type: datatype.Int64}, ca, nil))
	}()
	for range 5 {
		churn()
	}
	require.False(t, collected.Load(), "collected before the consumer released it")
	vals := unsafe.Slice((*int64)(unsafe.Slice(ca.buffers, 2)[1]), 512)
	require.Equal(t, int64(511), vals[511])
	ReleaseArray(ca)
	for i := 0; i < 200 && !collected.Load(); i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	require.True(t, collected.Load(), "still alive after the consumer released it")
}
