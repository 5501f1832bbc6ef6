package simd

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// unpackRef is the value at bit i*bw of src, read bit by bit.
func unpackRef(src []byte, i, bw int) uint32 {
	var v uint32
	for k := range bw {
		bit := i*bw + k
		v |= uint32(src[bit>>3]>>(bit&7)&1) << k
	}
	return v
}

// TestUnpackBits32 checks every level against a bit-by-bit reading, for
// every width, at lengths around the vector reach, on random bytes and
// on all-ones, and that nothing beyond the reported count is written.
func TestUnpackBits32(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	forEachVector(t, func(t *testing.T) {
		for bw := 1; bw <= MaxUnpackBits; bw++ {
			for _, nvals := range []int{0, 7, 8, 9, 16, 63, 64, 65, 200, 1000} {
				for _, extra := range []int{0, 1, 15, 16, 40} {
					src := make([]byte, (nvals*bw+7)/8+extra)
					for i := range src {
						if bw%5 == 0 {
							src[i] = 0xff
						} else {
							src[i] = byte(r.Uint32())
						}
					}
					src = unaligned(src, nvals%5)
					dst := make([]uint32, nvals+3)
					for i := range dst {
						dst[i] = 0xdeadbeef
					}
					n := UnpackBits32(dst[:nvals], src, bw)
					if n%8 != 0 || n > nvals {
						t.Fatalf("bw=%d n=%d: wrote %d", bw, nvals, n)
					}
					if reach := (n/8-1)*bw + 4*bw/8 + 16; n > 0 && reach > len(src) {
						t.Fatalf("bw=%d n=%d: %d values reach byte %d of %d", bw, nvals, n, reach, len(src))
					}
					if nvals >= 8 && len(src) >= 4*bw/8+16+(nvals/8-1)*bw && n != nvals/8*8 {
						t.Fatalf("bw=%d n=%d len(src)=%d: wrote only %d", bw, nvals, len(src), n)
					}
					for i := range n {
						if want := unpackRef(src, i, bw); dst[i] != want {
							t.Fatalf("bw=%d n=%d: value %d = %#x, want %#x", bw, nvals, i, dst[i], want)
						}
					}
					for i := n; i < len(dst); i++ {
						if dst[i] != 0xdeadbeef {
							t.Fatalf("bw=%d n=%d: slot %d written", bw, nvals, i)
						}
					}
				}
			}
		}
	})
}

// TestUnpackBits32Width: a width out of range unpacks nothing.
func TestUnpackBits32Width(t *testing.T) {
	forEachVector(t, func(t *testing.T) {
		for _, bw := range []int{-1, 0, 26, 32} {
			dst := make([]int32, 8)
			if n := UnpackBits32(dst, make([]byte, 64), bw); n != 0 {
				t.Fatalf("bw=%d: wrote %d values", bw, n)
			}
		}
	})
}

func BenchmarkUnpackBits32(b *testing.B) {
	const n = 1 << 16
	for _, bw := range []int{3, 13, 17} {
		src := make([]byte, n*bw/8+32)
		for i := range src {
			src[i] = byte(i * 131)
		}
		dst := make([]int32, n)
		b.Run(fmt.Sprintf("%s/bw%d", Level(), bw), func(b *testing.B) {
			b.SetBytes(n * 4)
			for range b.N {
				UnpackBits32(dst, src, bw)
			}
		})
	}
}
