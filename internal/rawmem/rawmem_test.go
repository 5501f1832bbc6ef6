package rawmem

import (
	"testing"
	"unsafe"
)

func TestAligned(t *testing.T) {
	Poison(true)
	defer Poison(false)
	for _, n := range []int{0, 1, 63, 64, 65, 1000, 32<<10 - 1, 32 << 10, 1<<20 + 3} {
		b := Aligned(n)
		if len(b) != n || cap(b)%Align != 0 || cap(b) < n || (n > 0 && cap(b)-n >= Align) {
			t.Fatalf("n=%d: len %d cap %d", n, len(b), cap(b))
		}
		if p := uintptr(unsafe.Pointer(unsafe.SliceData(b[:cap(b)]))); p%Align != 0 {
			t.Fatalf("n=%d: address %#x not %d-aligned", n, p, Align)
		}
		for i, c := range b {
			if c != poisonByte {
				t.Fatalf("n=%d: byte %d is %#x, not poisoned", n, i, c)
			}
		}
		for i, c := range b[n:cap(b)] {
			if c != 0 {
				t.Fatalf("n=%d: padding byte %d is %#x, not zero", n, i, c)
			}
		}
	}
}

func TestSpoil(t *testing.T) {
	b := []byte{1, 2, 3}
	Spoil(b)
	if b[0] != 1 || b[2] != 3 {
		t.Fatalf("spoiled without poisoning: %v", b)
	}
	Poison(true)
	defer Poison(false)
	Spoil(b)
	for i, c := range b {
		if c != poisonByte {
			t.Fatalf("byte %d is %#x, not poisoned", i, c)
		}
	}
}
