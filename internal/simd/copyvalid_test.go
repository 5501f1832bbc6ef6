package simd

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCopyValid compares every level with the reference for 1- to 16-byte
// elements, every length up to 1000 and a large one (stored with
// non-temporal hints), bit offsets 0..9, unaligned starts and bitmaps
// exactly as long as needed, and checks that nothing past dst is written.
func TestCopyValid(t *testing.T) {
	testCopyValid[uint32](t, func(r *rand.Rand) uint32 { return r.Uint32() | 1 })
	testCopyValid[uint64](t, func(r *rand.Rand) uint64 { return r.Uint64() | 1 })
	testCopyValid[float64](t, func(r *rand.Rand) float64 { return r.Float64() + 1 })
	testCopyValid[uint8](t, func(r *rand.Rand) uint8 { return uint8(r.Uint32()) | 1 })
	testCopyValid[[2]uint64](t, func(r *rand.Rand) [2]uint64 { return [2]uint64{r.Uint64() | 1, 1} })
}

func testCopyValid[T comparable](t *testing.T, gen func(*rand.Rand) T) {
	r := rand.New(rand.NewPCG(11, 4))
	lengths := testLengths()
	forEachVector(t, func(t *testing.T) {
		for li, n := range lengths {
			off := li % 10
			src := make([]T, n)
			for i := range src {
				src[i] = gen(r)
			}
			bits := randBytes(r, (off+n+7)/8)
			if li%3 == 0 { // mostly valid: whole bytes of set bits
				for i := range bits {
					if r.IntN(4) != 0 {
						bits[i] = 0xFF
					}
				}
			}
			var zero, poison T
			poison = gen(r)
			buf := make([]T, n+li%3+4)
			for i := range buf {
				buf[i] = poison
			}
			dst := buf[li%3 : li%3+n]
			CopyValid(dst, src, bits, off)
			for i := range dst {
				want := src[i]
				if bits[(off+i)>>3]>>((off+i)&7)&1 == 0 {
					want = zero
				}
				if dst[i] != want {
					t.Fatalf("n=%d off=%d: element %d is %v, want %v", n, off, i, dst[i], want)
				}
			}
			if !allEqual(buf[:li%3], poison) || !allEqual(buf[li%3+n:], poison) {
				t.Fatalf("n=%d off=%d: wrote outside dst", n, off)
			}
		}
	})
}

func allEqual[T comparable](s []T, v T) bool {
	return !slices.ContainsFunc(s, func(x T) bool { return x != v })
}

func TestCopyValidPanicsOnShortInputs(t *testing.T) {
	mustPanic(t, map[string]func(){
		"src":  func() { CopyValid(make([]int64, 4), make([]int64, 3), []byte{0xFF}, 0) },
		"bits": func() { CopyValid(make([]int64, 9), make([]int64, 9), []byte{0xFF}, 0) },
		"off":  func() { CopyValid(make([]int64, 4), make([]int64, 4), []byte{0xFF}, 5) },
	})
}

func BenchmarkCopyValid(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, n := range []int{4 << 10, 1 << 20} {
		src := make([]int64, n)
		bits := make([]byte, n/8)
		for i := range bits {
			for k := range 8 {
				if r.IntN(10) != 0 {
					bits[i] |= 1 << k
				}
			}
		}
		dst := make([]int64, n)
		for _, k := range levels {
			b.Run(fmt.Sprintf("%s/%d", k.level, n), func(b *testing.B) {
				withLevel(k, func() {
					b.SetBytes(int64(8 * n))
					for range b.N {
						CopyValid(dst, src, bits, 0)
					}
				})
			})
		}
	}
}
