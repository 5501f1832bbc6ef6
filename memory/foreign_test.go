package memory

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// waitFor collects until cond holds or a few seconds pass.
func waitFor(cond func() bool) bool {
	for range 200 {
		runtime.GC()
		if cond() {
			return true
		}
		time.Sleep(5 * time.Millisecond)
	}
	return false
}

func TestForeignReleasedOnceAfterLastBuffer(t *testing.T) {
	backing := make([]byte, 64) // stands in for memory another allocator owns
	var calls atomic.Int32
	before := LiveForeignBytes()
	f := NewForeign("test memory", 64, func() { calls.Add(1) })
	b1 := f.Buffer(unsafe.Pointer(&backing[0]), 16)
	b2 := f.Buffer(unsafe.Pointer(&backing[16]), 48).Slice(8, 8)
	empty := f.Buffer(nil, 0)
	require.Equal(t, 0, empty.Len())
	require.Same(t, f, b2.Owner())
	f = nil
	require.Equal(t, before+64, LiveForeignBytes())

	runtime.GC()
	runtime.GC()
	require.Zero(t, calls.Load(), "released while buffers are reachable")
	b1.Bytes()[0] = 1
	runtime.KeepAlive(b1)
	b1 = nil
	runtime.GC()
	require.Zero(t, calls.Load(), "released while one buffer is reachable")
	runtime.KeepAlive(b2)
	runtime.KeepAlive(empty)
	b2, empty = nil, nil
	require.True(t, waitFor(func() bool { return calls.Load() == 1 }), "release did not run")
	for range 3 {
		runtime.GC()
	}
	require.Equal(t, int32(1), calls.Load())
	require.Equal(t, before, LiveForeignBytes())
	runtime.KeepAlive(backing)
}

func TestForeignBufferPanicsOnProgrammerError(t *testing.T) {
	f := NewForeign("test memory", 0, func() {})
	require.Panics(t, func() { f.Buffer(nil, 1) })
	require.Panics(t, func() { f.Buffer(nil, -1) })
}

// TestForeignCollectsPastThreshold: foreign memory the collector cannot
// see still gets given back when a program only accounts more and more of
// it, with no collection of its own.
func TestForeignCollectsPastThreshold(t *testing.T) {
	old := minGCForeign
	minGCForeign = 1 << 20
	gcForeign.Store(0)
	defer func() { minGCForeign = old; gcForeign.Store(0) }()
	runtime.GC()
	before := LiveForeignBytes()
	var released atomic.Int64
	const n, each = 200, 64 << 10 // 12.5 MiB in all
	for range n {
		f := NewForeign("test memory", 0, func() { released.Add(1) })
		f.Account(each)
	}
	for i := 0; i < 100 && released.Load() == 0; i++ {
		time.Sleep(time.Millisecond) // cleanups run on their own goroutine
	}
	require.Positive(t, released.Load(), "nothing was released without a collection")
	require.Less(t, LiveForeignBytes()-before, int64(n*each))
	t.Logf("%d of %d released; %d KiB alive", released.Load(), n, (LiveForeignBytes()-before)>>10)
}
