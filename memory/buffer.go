package memory

import (
	"fmt"
	"unsafe"
)

// Buffer is an immutable-by-convention run of bytes plus whatever keeps them
// alive (an allocation, an IPC message body, a memory-mapped [Region]).
// A nil *Buffer is a valid, empty buffer: arrays use it for an absent
// validity bitmap. Buffers are cheap to slice; a slice shares the bytes.
type Buffer struct {
	data  []byte
	owner any // keeps the backing memory reachable (e.g. a *Region)
}

// NewBuffer wraps b without copying it.
func NewBuffer(b []byte) *Buffer { return &Buffer{data: b} }

// NewBufferOwned wraps b, which lies inside memory owned by owner; the
// buffer keeps owner reachable for as long as the buffer is.
func NewBufferOwned(b []byte, owner any) *Buffer { return &Buffer{data: b, owner: owner} }

// Allocate returns a buffer of n zeroed bytes from alloc (the default
// allocator when alloc is nil).
func Allocate(alloc Allocator, n int) *Buffer {
	if alloc == nil {
		alloc = DefaultAllocator
	}
	return &Buffer{data: alloc.Allocate(n)}
}

// Bytes returns the buffer's bytes (nil for a nil buffer). The slice shares
// memory with the buffer; it stays valid while the buffer is reachable.
func (b *Buffer) Bytes() []byte {
	if b == nil {
		return nil
	}
	return b.data
}

// Len is the number of bytes in the buffer (0 for nil).
func (b *Buffer) Len() int {
	if b == nil {
		return 0
	}
	return len(b.data)
}

// Owner returns what keeps the buffer's memory alive (nil for Go memory).
func (b *Buffer) Owner() any {
	if b == nil {
		return nil
	}
	return b.owner
}

// Slice returns the n bytes starting at off, sharing memory. It panics if
// the range is out of bounds (a programmer error).
func (b *Buffer) Slice(off, n int) *Buffer {
	if off < 0 || n < 0 || off > b.Len() || n > b.Len()-off {
		panic(fmt.Sprintf("memory: slice [%d:%d] of buffer of %d bytes", off, off+n, b.Len()))
	}
	return &Buffer{data: b.data[off : off+n : off+n], owner: b.owner}
}

// SliceAll returns b.Slice(r[0], r[1]) for each range r, made in two
// allocations rather than one per view: the buffers of a message body,
// say. It panics if a range is out of bounds (a programmer error).
func (b *Buffer) SliceAll(ranges [][2]int) []*Buffer {
	vals := make([]Buffer, len(ranges))
	out := make([]*Buffer, len(ranges))
	for i, r := range ranges {
		off, n := r[0], r[1]
		if off < 0 || n < 0 || off > b.Len() || n > b.Len()-off {
			panic(fmt.Sprintf("memory: slice [%d:%d] of buffer of %d bytes", off, off+n, b.Len()))
		}
		vals[i] = Buffer{data: b.data[off : off+n : off+n], owner: b.owner}
		out[i] = &vals[i]
	}
	return out
}

// View returns the buffer's bytes as a slice of T without copying; a
// trailing partial element is left out. T must be a fixed-size type without
// pointers. On strict-alignment platforms the buffer must be aligned to T.
func View[T any](b *Buffer) []T {
	return ViewBytes[T](b.Bytes())
}

// ViewBytes reinterprets p as a slice of T without copying (see [View]).
func ViewBytes[T any](p []byte) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(p) < size || size == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(p))), len(p)/size)
}

// BytesOf reinterprets a slice of fixed-size, pointer-free values as bytes
// without copying.
func BytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}

// FromSlice wraps the bytes of s in a buffer without copying.
func FromSlice[T any](s []T) *Buffer { return &Buffer{data: BytesOf(s)} }
