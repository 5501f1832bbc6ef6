package rawmem

import (
	"flag"
	"sync/atomic"
	"unsafe"

	"github.com/alkaid-go/alkaid/memory"
)

//go:linkname mallocgc runtime.mallocgc
func mallocgc(size uintptr, typ unsafe.Pointer, needzero bool) unsafe.Pointer

// Bytes returns n bytes of pointer-free Go memory whose contents are
// undefined.
func Bytes(n int) []byte {
	if n == 0 {
		return []byte{}
	}
	return unsafe.Slice((*byte)(mallocgc(uintptr(n), nil, false)), n)
}

// Align is the alignment of [Aligned] memory.
const Align = memory.Alignment

// Fillable returns n aligned bytes for a producer that writes all of them
// before anything reads them: [Aligned] memory when the default allocator
// is Go's, else (a test counting allocations, say) that allocator's.
func Fillable(n int) []byte {
	if _, ok := memory.DefaultAllocator.(memory.GoAllocator); ok {
		return Aligned(n)
	}
	return memory.DefaultAllocator.Allocate(n)
}

// Aligned returns n bytes at an Align-aligned address whose capacity is n
// rounded up to a multiple of Align. Bytes [0, n) are undefined and must
// all be written before they are read; the padding after them is zeroed.
func Aligned(n int) []byte {
	if n < 0 {
		panic("rawmem: negative size")
	}
	padded := (n + Align - 1) &^ (Align - 1)
	if padded == 0 {
		padded = Align
	}
	var b []byte
	if padded >= recycleMin && padded <= recycleMax {
		if b = recycled(padded); b != nil {
			b = b[:padded:padded]
		}
	} else if padded >= 32<<10 {
		// Large objects start on a page.
		if b = Bytes(padded); uintptr(unsafe.Pointer(&b[0]))%Align != 0 {
			b = nil
		}
	}
	if b == nil {
		raw := Bytes(padded + Align)
		shift := int(-uintptr(unsafe.Pointer(&raw[0])) & (Align - 1))
		b = raw[shift : shift+padded : shift+padded]
	}
	if poison.Load() {
		for i := range b[:n] {
			b[i] = poisonByte
		}
	}
	clear(b[n:padded])
	return b[:n:padded]
}

// poisonByte fills [Aligned] memory while poisoning is on.
const poisonByte = 0xA5

var poison atomic.Bool

// Poison makes [Aligned] fill what it returns with 0xA5 bytes (or stop),
// so that tests see any byte a producer forgot to write.
func Poison(on bool) { poison.Store(on) }

// Spoil fills b with 0xA5 bytes while poisoning is on (see Poison), for
// memory given back to a pool: a reader that still holds some of it then
// sees it change. It does nothing otherwise.
func Spoil(b []byte) {
	if poison.Load() {
		for i := range b {
			b[i] = poisonByte
		}
	}
}

// PoisonUnlessBenchmarking turns poisoning on for a test binary, except
// when it runs benchmarks (-test.bench), where the fill would cost a pass
// over every allocation. Call it from TestMain after flag.Parse.
func PoisonUnlessBenchmarking() {
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		Poison(true)
	}
}
