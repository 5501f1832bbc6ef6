// Package rawmem hands out memory the runtime does not zero first, for
// outputs that their producer overwrites in full before anyone reads them:
// a kernel's result, a message body read from an io.Reader, a decompressed
// buffer, the values and string bytes of a growing array builder (which
// clears what it did not use when it finishes). Zeroing memory that is about to be overwritten costs a full pass
// over it; for a 10M-value int64 add that was a third of the time.
//
// The memory comes from the Go heap (runtime.mallocgc with needzero false,
// through go:linkname; the runtime keeps that symbol reachable for such
// uses), so the garbage collector owns it as any other allocation.
// Aligned buffers of 256 KiB and more are recycled: a finalizer puts
// each, once the collector has found it unreachable, on a free list of
// its size class (at most 32 MiB in all, see [Pooled]) from which the
// next such buffer is taken, sparing the page faults and collections
// that fresh memory costs.
//
//	b := rawmem.Fillable(n) // n aligned bytes, contents undefined
//	if _, err := io.ReadFull(r, b); err != nil {
//		return err // b is dropped: nothing read it
//	}
//
// Fillable gives way to memory.DefaultAllocator when a program replaced
// it. Tests call Poison (or PoisonUnlessBenchmarking from TestMain) so
// that every such allocation starts as 0xA5 bytes and a byte the producer
// forgot to write shows up.
package rawmem
