package simd

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSqrt64 compares every level with math.Sqrt bit for bit on random
// bit patterns (NaNs with payloads, subnormals, negatives) and on the
// special values, at every length up to 1000 and unaligned.
func TestSqrt64(t *testing.T) {
	r := rand.New(rand.NewPCG(40, 2))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
		math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0xfff8000000000123), -1, -math.SmallestNonzeroFloat64,
		math.SmallestNonzeroFloat64, 0x1p-1022, 0x1p-1023 + 0x1p-1074, math.MaxFloat64, 1, 2, 4, 0.25}
	forEachVector(t, func(t *testing.T) {
		for _, n := range testLengths() {
			x := make([]float64, n)
			for i := range x {
				switch r.IntN(4) {
				case 0:
					x[i] = special[r.IntN(len(special))]
				case 1:
					x[i] = math.Float64frombits(r.Uint64() & 0x800fffffffffffff) // subnormal or zero
				default:
					x[i] = math.Float64frombits(r.Uint64())
				}
			}
			x = unaligned(x, n%7)
			got := make([]float64, n)
			Sqrt64(got, x)
			for i, v := range x {
				if want := math.Sqrt(v); math.Float64bits(got[i]) != math.Float64bits(want) {
					t.Fatalf("n=%d: Sqrt64(%x) = %x, want %x", n, math.Float64bits(v), math.Float64bits(got[i]), math.Float64bits(want))
				}
			}
			Sqrt64(x, x) // in place
			for i := range x {
				if math.Float64bits(x[i]) != math.Float64bits(got[i]) {
					t.Fatalf("n=%d: in place, slot %d differs", n, i)
				}
			}
		}
	})
}

func TestSqrt64Short(t *testing.T) {
	mustPanic(t, map[string]func(){"short src": func() { Sqrt64(make([]float64, 9), make([]float64, 8)) }})
}

func BenchmarkSqrt64(b *testing.B) {
	x := make([]float64, 1<<16)
	for i := range x {
		x[i] = float64(i) * 1.5
	}
	dst := make([]float64, len(x))
	b.SetBytes(int64(8 * len(x)))
	for b.Loop() {
		Sqrt64(dst, x)
	}
}
