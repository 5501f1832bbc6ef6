package simd

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// forEachVector runs f once with every vector level active (the generic
// level is the reference the tests compare with).
func forEachVector(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	saved := active
	defer func() { active = saved }()
	for _, k := range levels {
		active = k
		t.Run(k.level, f)
	}
}

// mustPanic runs every call at every level and fails when one returns
// without panicking.
func mustPanic(t *testing.T, calls map[string]func()) {
	t.Helper()
	for name, f := range calls {
		t.Run(name, func(t *testing.T) {
			forEachVector(t, func(t *testing.T) {
				defer func() {
					if recover() == nil {
						t.Fatal("no panic")
					}
				}()
				f()
			})
		})
	}
}

// withLevel runs f with k active and returns to the previous level.
func withLevel(k *kernels, f func()) {
	saved := active
	active = k
	defer func() { active = saved }()
	f()
}

// testLengths are every length 0..1000 and a large odd one.
func testLengths() []int {
	n := make([]int, 0, 1002)
	for i := range 1001 {
		n = append(n, i)
	}
	return append(n, 1<<20+13)
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// unaligned returns a copy of b starting s bytes into a fresh allocation.
func unaligned[T any](b []T, s int) []T {
	buf := make([]T, len(b)+s)
	copy(buf[s:], b)
	return buf[s:]
}

func TestBitmapKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	ops := []struct {
		name string
		f    func(dst, a, b []byte)
	}{{"And", And}, {"Or", Or}, {"Xor", Xor}, {"AndNot", AndNot}, {"Not", func(dst, a, _ []byte) { Not(dst, a) }}}
	forEachVector(t, func(t *testing.T) {
		for _, n := range testLengths() {
			s := n%63 + 1
			a, b := unaligned(randBytes(r, n), s), unaligned(randBytes(r, n), 64-s)
			for _, o := range ops {
				want := make([]byte, n)
				withLevel(&generic, func() { o.f(want, a, b) })
				got := unaligned(make([]byte, n), s/2)
				o.f(got, a, b)
				if !bytes.Equal(got, want) {
					t.Fatalf("%s n=%d mismatch", o.name, n)
				}
				// In place.
				got = unaligned(a, 0)
				o.f(got, got, b)
				if !bytes.Equal(got, want) {
					t.Fatalf("%s in place n=%d mismatch", o.name, n)
				}
			}
			want := popCountGeneric(a)
			if got := PopCount(a); got != want {
				t.Fatalf("PopCount n=%d = %d, want %d", n, got, want)
			}
			for shift := range uint(8) {
				for _, extra := range []int{0, 1, 5} {
					src := a[:max(0, n-extra)]
					dst := unaligned(make([]byte, len(src)-min(len(src), extra)), s%7)
					want := make([]byte, len(dst))
					withLevel(&generic, func() { ShiftBits(want, src, shift) })
					ShiftBits(dst, src, shift)
					if !bytes.Equal(dst, want) {
						t.Fatalf("ShiftBits n=%d shift=%d extra=%d mismatch", n, shift, extra)
					}
				}
			}
		}
	})
}

// TestBitmapStreaming covers the non-temporal path of outputs larger than
// the caches, at every start alignment of dst modulo 8.
func TestBitmapStreaming(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	n := 4<<20 + 77
	a, b := randBytes(r, n), randBytes(r, n)
	want := make([]byte, n)
	withLevel(&generic, func() { AndNot(want, a, b) })
	forEachVector(t, func(t *testing.T) {
		for _, s := range []int{0, 3, 8} {
			got := unaligned(make([]byte, n), s)
			AndNot(got, a, b)
			if !bytes.Equal(got, want) {
				t.Fatalf("AndNot start %d mismatch", s)
			}
		}
	})
}

func TestShiftBitsReference(t *testing.T) {
	src := []byte{0b1010_1100, 0b0000_1111, 0xff}
	dst := make([]byte, 3)
	withLevel(&generic, func() { ShiftBits(dst, src, 3) })
	// Bit j of dst is bit j+3 of src; bits past the end read as zero.
	want := []byte{0b1111_0101, 0b1110_0001, 0b0001_1111}
	if !bytes.Equal(dst, want) {
		t.Fatalf("ShiftBits = %08b, want %08b", dst, want)
	}
}

func TestPickLevel(t *testing.T) {
	best := levels[len(levels)-1]
	if pickLevel("") != best || pickLevel("sse9") != best || pickLevel("generic") != &generic {
		t.Fatal("pickLevel")
	}
	for _, k := range levels {
		if pickLevel(k.level) != k {
			t.Fatalf("pickLevel(%q)", k.level)
		}
	}
	if Level() != active.level {
		t.Fatal("Level")
	}
}
