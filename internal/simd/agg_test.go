package simd

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randBitmap returns a bitmap of nbits bits in one of four densities.
func randBitmap(r *rand.Rand, nbits, mode int) []byte {
	b := make([]byte, (nbits+7)/8+r.IntN(2))
	for i := range b {
		switch mode % 4 {
		case 0:
			b[i] = byte(r.Uint32())
		case 1:
			b[i] = 0xff
		case 2:
			b[i] = 0
		default:
			if r.IntN(16) == 0 {
				b[i] = 1 << r.IntN(8)
			}
		}
	}
	return b
}

func genInt[T Signed | Unsigned](r *rand.Rand) T {
	switch r.IntN(10) {
	case 0:
		return ^T(0) >> 1 // max of signed, or half of unsigned
	case 1:
		return ^(^T(0) >> 1) // min of signed, top bit of unsigned
	case 2:
		return ^T(0)
	case 3:
		return 0
	}
	return T(r.Uint64())
}

func genFloat[T Float](specials bool) func(r *rand.Rand) T {
	return func(r *rand.Rand) T {
		if specials {
			switch r.IntN(40) {
			case 0:
				return T(math.NaN())
			case 1:
				return T(math.Inf(1))
			case 2:
				return T(math.Inf(-1))
			case 3:
				return T(math.Copysign(0, -1))
			case 4:
				return 0
			}
		}
		return T((r.Float64() - 0.5) * math.Pow(2, float64(r.IntN(40)-20)))
	}
}

// aggCase yields, for every test length, an unaligned slice, a bit offset
// and a bitmap (nil for one run in two).
func aggCases[T any](r *rand.Rand, gen func(*rand.Rand) T, f func(x []T, bits []byte, off int, n int)) {
	for _, n := range testLengths() {
		x := make([]T, n)
		allNaN := n%17 == 5
		for i := range x {
			x[i] = gen(r)
		}
		if allNaN {
			var z T
			if v, ok := any(&z).(*float64); ok {
				for i := range x {
					*v = math.NaN()
					x[i] = z
				}
			} else if v, ok := any(&z).(*float32); ok {
				for i := range x {
					*v = float32(math.NaN())
					x[i] = z
				}
			}
		}
		x = unaligned(x, n%63+1)
		off := n % 11
		f(x, nil, 0, n)
		f(x, randBitmap(r, off+n, n/3), off, n)
	}
}

func testSignedAgg[T Signed](t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	forEachVector(t, func(t *testing.T) {
		aggCases(r, genInt[T], func(x []T, bits []byte, off, n int) {
			var ws int64
			var wc int
			var wmin, wmax T
			var wminOK, wmaxOK bool
			withLevel(&generic, func() {
				ws, wc = SumIntMasked(x, bits, off)
				wmin, wminOK = MinIntMasked(x, bits, off)
				wmax, wmaxOK = MaxIntMasked(x, bits, off)
			})
			if s, c := SumIntMasked(x, bits, off); s != ws || c != wc {
				t.Fatalf("SumIntMasked n=%d off=%d bits=%v: %d,%d want %d,%d", n, off, bits != nil, s, c, ws, wc)
			}
			if v, ok := MinIntMasked(x, bits, off); v != wmin || ok != wminOK {
				t.Fatalf("MinIntMasked n=%d bits=%v: %v,%v want %v,%v", n, bits != nil, v, ok, wmin, wminOK)
			}
			if v, ok := MaxIntMasked(x, bits, off); v != wmax || ok != wmaxOK {
				t.Fatalf("MaxIntMasked n=%d bits=%v: %v,%v want %v,%v", n, bits != nil, v, ok, wmax, wmaxOK)
			}
		})
	})
}

func testUnsignedAgg[T Unsigned](t *testing.T) {
	r := rand.New(rand.NewPCG(4, 5))
	forEachVector(t, func(t *testing.T) {
		aggCases(r, genInt[T], func(x []T, bits []byte, off, n int) {
			var ws uint64
			var wc int
			var wmin, wmax T
			var wminOK, wmaxOK bool
			withLevel(&generic, func() {
				ws, wc = SumUintMasked(x, bits, off)
				wmin, wminOK = MinUintMasked(x, bits, off)
				wmax, wmaxOK = MaxUintMasked(x, bits, off)
			})
			if s, c := SumUintMasked(x, bits, off); s != ws || c != wc {
				t.Fatalf("SumUintMasked n=%d off=%d bits=%v: %d,%d want %d,%d", n, off, bits != nil, s, c, ws, wc)
			}
			if v, ok := MinUintMasked(x, bits, off); v != wmin || ok != wminOK {
				t.Fatalf("MinUintMasked n=%d: %v,%v want %v,%v", n, v, ok, wmin, wminOK)
			}
			if v, ok := MaxUintMasked(x, bits, off); v != wmax || ok != wmaxOK {
				t.Fatalf("MaxUintMasked n=%d: %v,%v want %v,%v", n, v, ok, wmax, wmaxOK)
			}
		})
	})
}

// sameFloat reports whether a and b are both NaN or have the same bits.
func sameFloat(a, b float64) bool {
	return a != a && b != b || math.Float64bits(a) == math.Float64bits(b)
}

func testFloatAgg[T Float](t *testing.T) {
	r := rand.New(rand.NewPCG(6, 7))
	forEachVector(t, func(t *testing.T) {
		for _, specials := range []bool{false, true} {
			aggCases(r, genFloat[T](specials), func(x []T, bits []byte, off, n int) {
				var ws float64
				var wc int
				var wmin, wmax T
				var wminOK, wmaxOK bool
				withLevel(&generic, func() {
					ws, wc = SumFloatMasked(x, bits, off)
					wmin, wminOK = MinFloatMasked(x, bits, off)
					wmax, wmaxOK = MaxFloatMasked(x, bits, off)
				})
				s, c := SumFloatMasked(x, bits, off)
				abs := 0.0
				for i, v := range x {
					if bits == nil || bitAt(bits, off+i) {
						abs += math.Abs(float64(v))
					}
				}
				if c != wc || !sameFloat(s, ws) && !(math.Abs(s-ws) <= 1e-9*abs) {
					t.Fatalf("SumFloatMasked n=%d off=%d bits=%v: %v,%d want %v,%d", n, off, bits != nil, s, c, ws, wc)
				}
				if v, ok := MinFloatMasked(x, bits, off); !sameFloat(float64(v), float64(wmin)) || ok != wminOK {
					t.Fatalf("MinFloatMasked n=%d off=%d bits=%v: %v,%v want %v,%v", n, off, bits != nil, v, ok, wmin, wminOK)
				}
				if v, ok := MaxFloatMasked(x, bits, off); !sameFloat(float64(v), float64(wmax)) || ok != wmaxOK {
					t.Fatalf("MaxFloatMasked n=%d off=%d bits=%v: %v,%v want %v,%v", n, off, bits != nil, v, ok, wmax, wmaxOK)
				}
			})
		}
	})
}

func TestAggInt8(t *testing.T)    { testSignedAgg[int8](t) }
func TestAggInt16(t *testing.T)   { testSignedAgg[int16](t) }
func TestAggInt32(t *testing.T)   { testSignedAgg[int32](t) }
func TestAggInt64(t *testing.T)   { testSignedAgg[int64](t) }
func TestAggUint8(t *testing.T)   { testUnsignedAgg[uint8](t) }
func TestAggUint16(t *testing.T)  { testUnsignedAgg[uint16](t) }
func TestAggUint32(t *testing.T)  { testUnsignedAgg[uint32](t) }
func TestAggUint64(t *testing.T)  { testUnsignedAgg[uint64](t) }
func TestAggFloat32(t *testing.T) { testFloatAgg[float32](t) }
func TestAggFloat64(t *testing.T) { testFloatAgg[float64](t) }

// TestAggSemantics pins the documented results of the reference.
func TestAggSemantics(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	negZero := math.Copysign(0, -1)
	forEachVector(t, func(t *testing.T) {
		if s := SumInt([]int8{127, 1}); s != 128 {
			t.Errorf("SumInt widens: %d", s)
		}
		if s := SumInt([]int64{math.MaxInt64, 1}); s != math.MinInt64 {
			t.Errorf("SumInt wraps: %d", s)
		}
		if s := SumUint([]uint64{math.MaxUint64, 2}); s != 1 {
			t.Errorf("SumUint wraps: %d", s)
		}
		if s, c := SumIntMasked([]int32{1, 2, 4, 8}, []byte{0b1010_0000}, 4); s != 10 || c != 2 {
			t.Errorf("SumIntMasked = %d, %d", s, c)
		}
		if _, ok := MinInt([]int32{}); ok {
			t.Error("MinInt of empty ok")
		}
		if _, ok := MaxFloatMasked([]float64{1, 2}, []byte{0}, 0); ok {
			t.Error("MaxFloatMasked with no valid value ok")
		}
		big := make([]float64, 100)
		for i := range big {
			big[i] = nan
		}
		if v, ok := MinFloat(big); !ok || v == v {
			t.Errorf("MinFloat all NaN = %v, %v", v, ok)
		}
		big[70] = 3
		big[3] = negZero
		big[90] = 0
		if v, _ := MinFloat(big); v != 0 || !math.Signbit(v) {
			t.Errorf("MinFloat = %v, want -0", v)
		}
		if v, _ := MaxFloat(big); v != 3 {
			t.Errorf("MaxFloat = %v, want 3", v)
		}
		big[71] = inf
		if v, _ := MaxFloat(big); v != inf {
			t.Errorf("MaxFloat = %v, want +Inf", v)
		}
		if v, _ := MaxFloat([]float32{float32(negZero), 0, float32(negZero)}); math.Signbit(float64(v)) {
			t.Error("MaxFloat prefers +0")
		}
		if s := SumFloat([]float32{1.5, 2.25}); s != 3.75 {
			t.Errorf("SumFloat = %v", s)
		}
	})
}
