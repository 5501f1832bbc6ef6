package memory

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"unsafe"
)

// Foreign is memory that another allocator owns (a C library that lent
// arrays through the C Data Interface, say) and that must be given back
// exactly once. Buffers made with [Foreign.Buffer] keep the Foreign
// reachable; once the garbage collector finds neither the Foreign nor any
// of those buffers reachable, the release function runs, once, on the
// runtime's cleanup goroutine. There is deliberately no Close: arrays
// built over foreign memory must never dangle.
//
// The garbage collector does not see foreign memory, so a program with a
// small Go heap could hold much of it waiting for a collection: once
// [LiveForeignBytes] (the sizes given to [NewForeign] and [Foreign.Account])
// passes a threshold, starting at 256 MiB and then twice what is still
// alive, the next Account collects first.
type Foreign struct {
	what string        // for messages: what the memory is
	size *atomic.Int64 // the bytes accounted, shared with the cleanup
}

// liveForeign counts the bytes of Foreign memory not yet released.
var (
	liveForeign atomic.Int64
	gcForeign   atomic.Int64
)

// minGCForeign is the first collection threshold (a variable for tests).
var minGCForeign int64 = 256 << 20

// NewForeign returns an owner of foreign memory that calls release once it
// is unreachable. size is how many bytes it holds, as far as known (0 when
// unknown; see [Foreign.Account]); what names the memory in panics of
// [Foreign.Buffer]. release must not refer to the returned *Foreign (it
// would keep it reachable forever); it must not block for long.
func NewForeign(what string, size int64, release func()) *Foreign {
	f := &Foreign{what: what, size: new(atomic.Int64)}
	runtime.AddCleanup(f, func(c foreignCleanup) {
		liveForeign.Add(-c.size.Load())
		c.release()
	}, foreignCleanup{f.size, release})
	f.Account(size)
	return f
}

type foreignCleanup struct {
	size    *atomic.Int64
	release func()
}

// Account adds n bytes to the memory f is known to hold (an importer
// learns buffer sizes as it wraps them). When the foreign memory alive in
// the process passes the collection threshold, it collects first.
func (f *Foreign) Account(n int64) {
	if n <= 0 {
		return
	}
	f.size.Add(n)
	live := liveForeign.Add(n)
	at := gcForeign.Load()
	if at == 0 {
		at = minGCForeign
	}
	if live >= at {
		runtime.GC()
		gcForeign.Store(max(minGCForeign, 2*liveForeign.Load()))
	}
}

// LiveForeignBytes is the number of bytes of [Foreign] memory whose release
// has not run yet (as accounted with [NewForeign] and [Foreign.Account]).
func LiveForeignBytes() int64 { return liveForeign.Load() }

// Buffer wraps the n bytes at p, which lie inside the foreign memory, as a
// buffer that keeps f reachable. p may be nil only when n is 0. It panics
// when n is negative or p is nil with n > 0 (programmer errors: callers
// check what a producer hands them first).
func (f *Foreign) Buffer(p unsafe.Pointer, n int) *Buffer {
	if n < 0 || (p == nil && n > 0) {
		panic(fmt.Sprintf("memory: foreign buffer of %s: %d bytes at %p", f.what, n, p))
	}
	if n == 0 {
		return &Buffer{owner: f}
	}
	return &Buffer{data: unsafe.Slice((*byte)(p), n), owner: f}
}
