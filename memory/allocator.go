package memory

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

// Alignment is the byte alignment of every allocation and the multiple to
// which its capacity is padded.
const Alignment = 64

// Allocator hands out zeroed memory. Implementations must return a slice of
// length n whose first byte is [Alignment]-aligned and whose capacity is a
// multiple of [Alignment] (at least n). Allocators are safe for concurrent use.
type Allocator interface {
	// Allocate returns n zeroed bytes. n must not be negative.
	Allocate(n int) []byte
}

// DefaultAllocator is backed by Go memory and reclaimed by the garbage
// collector.
var DefaultAllocator Allocator = GoAllocator{}

// GoAllocator allocates from the Go heap. Its zero value is ready to use.
type GoAllocator struct{}

// Allocate implements [Allocator].
func (GoAllocator) Allocate(n int) []byte {
	b, _ := allocate(n)
	return b
}

// RoundUp returns n rounded up to a multiple of [Alignment].
func RoundUp(n int) int { return (n + Alignment - 1) &^ (Alignment - 1) }

// allocate returns the aligned, padded slice and the start of the underlying
// Go allocation (for cleanups, which need the object's base address).
func allocate(n int) ([]byte, *byte) {
	if n < 0 {
		panic("memory: negative allocation size")
	}
	padded := RoundUp(n)
	if padded == 0 {
		padded = Alignment
	}
	// Large objects come page-aligned from the Go heap; try that first so
	// no slack is wasted, and fall back to over-allocation otherwise.
	if padded >= 32<<10 {
		raw := make([]byte, padded)
		if uintptr(unsafe.Pointer(&raw[0]))%Alignment == 0 {
			return raw[:n:padded], &raw[0]
		}
	}
	raw := make([]byte, padded+Alignment)
	shift := int(-uintptr(unsafe.Pointer(&raw[0])) & (Alignment - 1))
	return raw[shift : shift+n : shift+padded], &raw[0]
}

// Stats are the counters of an [AccountingAllocator].
type Stats struct {
	Allocations int64 // number of Allocate calls
	Allocated   int64 // total bytes ever requested
	Outstanding int64 // bytes requested and not yet reclaimed by the GC
	Peak        int64 // the largest Outstanding seen
}

// AccountingAllocator counts what it hands out; it is meant for tests that
// check how much memory code uses. Outstanding bytes drop when the garbage
// collector reclaims an allocation, so call runtime.GC before reading it
// when that matters. It is safe for concurrent use.
type AccountingAllocator struct {
	allocations, allocated, outstanding, peak atomic.Int64
}

// NewAccountingAllocator returns an allocator with all counters at zero.
func NewAccountingAllocator() *AccountingAllocator { return &AccountingAllocator{} }

// Allocate implements [Allocator].
func (a *AccountingAllocator) Allocate(n int) []byte {
	b, base := allocate(n)
	a.allocations.Add(1)
	a.allocated.Add(int64(n))
	now := a.outstanding.Add(int64(n))
	for {
		p := a.peak.Load()
		if now <= p || a.peak.CompareAndSwap(p, now) {
			break
		}
	}
	runtime.AddCleanup(base, func(n int64) { a.outstanding.Add(-n) }, int64(n))
	return b
}

// Stats returns a snapshot of the counters.
func (a *AccountingAllocator) Stats() Stats {
	return Stats{
		Allocations: a.allocations.Load(),
		Allocated:   a.allocated.Load(),
		Outstanding: a.outstanding.Load(),
		Peak:        a.peak.Load(),
	}
}
