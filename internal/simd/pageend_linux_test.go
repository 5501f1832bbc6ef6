//go:build linux

package simd

import (
	"syscall"
	"testing"
	"unsafe"
)

// guardedPage returns a page of memory, filled with a pattern, followed by
// an inaccessible one: a kernel that read past the end of the page would
// fault.
func guardedPage(t *testing.T) []byte {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	for i := range page {
		mem[i] = byte(i*7 + 1)
	}
	return mem[:page:page]
}

// TestConcatAtPageEnd places values of every length at the very end of a
// guarded page.
func TestConcatAtPageEnd(t *testing.T) {
	mem := guardedPage(t)
	page := len(mem)
	forEachVector(t, func(t *testing.T) {
		for l := 1; l <= 300; l++ {
			v := mem[page-l : page]
			checkConcat(t, []string{string(v[:0]), unsafeString(v), "x"}, nil, int32(0), 64, 0)
			checkConcat(t, [][]byte{v, v, v[:l/2]}, nil, int64(7), 0, 1)
		}
	})
}

// TestCopyValidBitsAtPageEnd ends the validity bitmap at the very end of a
// guarded page: the kernels load their masks as words and must not read
// past the bitmap's last byte.
func TestCopyValidBitsAtPageEnd(t *testing.T) {
	mem := guardedPage(t)
	page := len(mem)
	forEachVector(t, func(t *testing.T) {
		for n := 1; n <= 300; n++ {
			for off := range 8 {
				bits := mem[page-(off+n+7)/8 : page]
				src32, dst32 := make([]uint32, n), make([]uint32, n)
				src64, dst64 := make([]uint64, n), make([]uint64, n)
				CopyValid(dst32, src32, bits, off)
				CopyValid(dst64, src64, bits, off)
			}
		}
	})
}

// unsafeString returns the bytes of b as a string without copying them,
// so that the string stays at b's place in memory.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// TestUnpackBits32AtPageEnd unpacks from bytes that end a guarded page:
// the vector loads must stay within what UnpackBits32 reports it reads.
func TestUnpackBits32AtPageEnd(t *testing.T) {
	mem := guardedPage(t)
	page := len(mem)
	forEachVector(t, func(t *testing.T) {
		for bw := 1; bw <= MaxUnpackBits; bw++ {
			for l := 0; l <= 200; l++ {
				src := mem[page-l : page]
				dst := make([]uint32, 8*l)
				n := UnpackBits32(dst, src, bw)
				for i := range n {
					if want := unpackRef(src, i, bw); dst[i] != want {
						t.Fatalf("bw=%d len=%d: value %d = %#x, want %#x", bw, l, i, dst[i], want)
					}
				}
			}
		}
	})
}
