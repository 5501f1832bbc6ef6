package simd

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

func firstDecreaseRef[T ~int32 | ~int64](s []T) int {
	for i := 0; i+1 < len(s); i++ {
		if s[i+1] < s[i] {
			return i
		}
	}
	return -1
}

// TestFirstDecrease compares every level with the reference on ordered
// runs (with equal neighbours and negative values) of many lengths, with
// one decrease placed at every position, at unaligned starts.
func TestFirstDecrease(t *testing.T) {
	testFirstDecrease[int32](t, math.MinInt32, math.MaxInt32)
	testFirstDecrease[int64](t, math.MinInt64, math.MaxInt64)
}

func testFirstDecrease[T ~int32 | ~int64](t *testing.T, lo, hi T) {
	r := rand.New(rand.NewPCG(7, 7))
	forEachVector(t, func(t *testing.T) {
		for _, n := range []int{0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 257} {
			for shift := range 3 {
				s := unaligned(make([]T, n), shift)
				v := T(-50)
				for i := range s {
					v += T(r.IntN(3)) // steps of 0, 1 or 2: equal neighbours too
					s[i] = v
				}
				if n > 0 {
					s[0], s[n-1] = min(s[0], lo), max(s[n-1], hi)
				}
				if got, want := FirstDecrease(s), firstDecreaseRef(s); got != want {
					t.Fatalf("n=%d shift=%d ordered: got %d, want %d", n, shift, got, want)
				}
				// The vector kernels must check every whole vector of an
				// ordered run themselves (at most 16 pairs left over).
				if k := ordered(s); k > n || (active != &generic && n > 16 && k < n-1-16) {
					t.Fatalf("n=%d shift=%d ordered: kernel checked %d pairs", n, shift, k)
				}
				for at := 1; at < n; at++ {
					saved := s[at]
					s[at] = s[at-1] - 1 - T(r.IntN(5))
					if got, want := FirstDecrease(s), firstDecreaseRef(s); got != want {
						t.Fatalf("n=%d shift=%d decrease at %d: got %d, want %d", n, shift, at, got, want)
					}
					if k := ordered(s); k >= at {
						t.Fatalf("n=%d shift=%d decrease at %d: kernel passed it (%d pairs)", n, shift, at, k)
					}
					s[at] = saved
				}
			}
		}
	})
}

// ordered runs the active level's kernel on s.
func ordered[T ~int32 | ~int64](s []T) int {
	if len(s) < 2 {
		return 0
	}
	if unsafe.Sizeof(T(0)) == 4 {
		return active.ordered32(unsafe.Pointer(&s[0]), len(s)-1)
	}
	return active.ordered64(unsafe.Pointer(&s[0]), len(s)-1)
}

func BenchmarkFirstDecrease(b *testing.B) {
	s := make([]int32, 1<<16)
	for i := range s {
		s[i] = int32(3 * i)
	}
	for _, k := range levels {
		b.Run(k.level, func(b *testing.B) {
			withLevel(k, func() {
				b.SetBytes(int64(4 * len(s)))
				for range b.N {
					if FirstDecrease(s) != -1 {
						b.Fatal("decrease found")
					}
				}
			})
		})
	}
}
