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
type Foreign struct {
	what string // for messages: what the memory is
	// size is the byte count the owner reported, for LiveForeignBytes.
	size int64
}

// liveForeign counts the bytes of Foreign memory not yet released.
var liveForeign atomic.Int64

// NewForeign returns an owner of foreign memory that calls release once it
// is unreachable. size is how many bytes it holds (used only for
// [LiveForeignBytes]; 0 when unknown); what names the memory in panics of
// [Foreign.Buffer]. release must not refer to the returned *Foreign (it
// would keep it reachable forever); it must not block for long.
func NewForeign(what string, size int64, release func()) *Foreign {
	f := &Foreign{what: what, size: size}
	liveForeign.Add(size)
	runtime.AddCleanup(f, func(r func()) {
		liveForeign.Add(-size)
		r()
	}, release)
	return f
}

// LiveForeignBytes is the number of bytes of [Foreign] memory whose release
// has not run yet (as reported to [NewForeign]).
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
