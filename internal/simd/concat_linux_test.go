//go:build linux

package simd

import (
	"syscall"
	"testing"
	"unsafe"
)

// TestConcatAtPageEnd places values of every length at the very end of a
// page followed by an inaccessible one: a kernel that read past a value
// across the page boundary would fault.
func TestConcatAtPageEnd(t *testing.T) {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	for i := range page {
		mem[i] = byte(i*7 + 1)
	}
	forEachVector(t, func(t *testing.T) {
		for l := 1; l <= 300; l++ {
			v := mem[page-l : page]
			checkConcat(t, []string{string(v[:0]), unsafeString(v), "x"}, nil, int32(0), 64, 0)
			checkConcat(t, [][]byte{v, v, v[:l/2]}, nil, int64(7), 0, 1)
		}
	})
}

// unsafeString returns the bytes of b as a string without copying them,
// so that the string stays at b's place in memory.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
