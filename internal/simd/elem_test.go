package simd

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

func sameElems[T Elem](a, b []T) bool {
	for i := range a {
		if a[i] != b[i] && !(a[i] != a[i] && b[i] != b[i]) {
			return false
		}
		if a[i] == 0 && math.Signbit(float64(a[i])) != math.Signbit(float64(b[i])) {
			return false
		}
	}
	return true
}

var arithFuncs = []string{"Add", "Sub", "Mul"}

func arithOf[T Elem](i int) (func(dst, a, b []T), func(dst, a []T, s T)) {
	switch i {
	case 0:
		return Add[T], AddScalar[T]
	case 1:
		return Sub[T], SubScalar[T]
	default:
		return Mul[T], MulScalar[T]
	}
}

var cmpNames = [numCmp]string{"Eq", "Ne", "Lt", "Le", "Gt", "Ge"}

func cmpOf[T Elem](p int) (func(dst []byte, a, b []T), func(dst []byte, a []T, s T)) {
	return [numCmp]func(dst []byte, a, b []T){Eq[T], Ne[T], Lt[T], Le[T], Gt[T], Ge[T]}[p],
		[numCmp]func(dst []byte, a []T, s T){EqScalar[T], NeScalar[T], LtScalar[T], LeScalar[T], GtScalar[T], GeScalar[T]}[p]
}

func testElem[T Elem](t *testing.T, gen func(*rand.Rand) T) {
	r := rand.New(rand.NewPCG(8, 9))
	forEachVector(t, func(t *testing.T) {
		for _, n := range testLengths() {
			a, b := make([]T, n), make([]T, n)
			for i := range a {
				a[i], b[i] = gen(r), gen(r)
				if r.IntN(4) == 0 {
					b[i] = a[i] // equal pairs make == and <= interesting
				}
			}
			a, b = unaligned(a, n%63+1), unaligned(b, 64-n%63)
			s := gen(r)
			if n%3 == 0 && n > 0 {
				s = a[n/2]
			}
			for i, name := range arithFuncs {
				f, fs := arithOf[T](i)
				want, wantS := make([]T, n), make([]T, n)
				withLevel(&generic, func() { f(want, a, b); fs(wantS, a, s) })
				got, gotS := unaligned(make([]T, n), n%5), make([]T, n)
				f(got, a, b)
				fs(gotS, a, s)
				if !sameElems(got, want) || !sameElems(gotS, wantS) {
					t.Fatalf("%s n=%d mismatch", name, n)
				}
			}
			for p, name := range cmpNames {
				f, fs := cmpOf[T](p)
				nb := (n + 7) / 8
				want, wantS := make([]byte, nb+1), make([]byte, nb+1)
				withLevel(&generic, func() { f(want, a, b); fs(wantS, a, s) })
				got, gotS := unaligned(bytes.Repeat([]byte{0xa5}, nb+1), n%3), bytes.Repeat([]byte{0}, nb+1)
				got[nb] = 0
				f(got, a, b)
				fs(gotS, a, s)
				if !bytes.Equal(got, want) || !bytes.Equal(gotS, wantS) {
					t.Fatalf("%s n=%d mismatch:\n got %08b\nwant %08b", name, n, got, want)
				}
			}
		}
	})
}

func genElemInt[T ~int32 | ~int64](r *rand.Rand) T {
	switch r.IntN(8) {
	case 0:
		return ^T(0) >> 1 // max
	case 1:
		return ^(^T(0) >> 1) // min
	case 2:
		return T(r.IntN(3)) - 1
	}
	return T(r.Uint64())
}

func TestElemInt32(t *testing.T)   { testElem(t, genElemInt[int32]) }
func TestElemInt64(t *testing.T)   { testElem(t, genElemInt[int64]) }
func TestElemFloat32(t *testing.T) { testElem(t, genFloat[float32](true)) }
func TestElemFloat64(t *testing.T) { testElem(t, genFloat[float64](true)) }

func TestElemSemantics(t *testing.T) {
	forEachVector(t, func(t *testing.T) {
		a := []int32{math.MaxInt32, 2, -3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}
		dst := make([]int32, len(a))
		AddScalar(dst, a, 1)
		if dst[0] != math.MinInt32 || dst[16] != 18 {
			t.Errorf("AddScalar wraps: %v", dst)
		}
		bm := make([]byte, 3)
		GtScalar(bm, a, 8)
		if !bytes.Equal(bm, []byte{0b0000_0001, 0xff, 0b1}) {
			t.Errorf("GtScalar = %08b", bm)
		}
		f := []float64{math.NaN(), 1, math.Copysign(0, -1)}
		NeScalar(bm[:1], f, 0)
		if bm[0] != 0b011 {
			t.Errorf("NeScalar NaN/-0 = %08b", bm[0])
		}
	})
}

func TestByteSwap(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 11))
	forEachVector(t, func(t *testing.T) {
		for _, n := range testLengths() {
			x16, x32, x64 := make([]uint16, n), make([]uint32, n), make([]uint64, n)
			for i := range n {
				x64[i] = r.Uint64()
				x32[i], x16[i] = uint32(x64[i]), uint16(x64[i])
			}
			x16, x32, x64 = unaligned(x16, n%31), unaligned(x32, n%15), unaligned(x64, n%7)
			g16, g32, g64 := make([]uint16, n), make([]uint32, n), make([]uint64, n)
			ByteSwap16(g16, x16)
			ByteSwap32(g32, x32)
			ByteSwap64(g64, x64)
			for i := range n {
				if g16[i] != x16[i]>>8|x16[i]<<8 || g32[i] != bswap32Ref(x32[i]) || g64[i] != uint64(bswap32Ref(uint32(x64[i])))<<32|uint64(bswap32Ref(uint32(x64[i]>>32))) {
					t.Fatalf("ByteSwap n=%d i=%d", n, i)
				}
			}
		}
	})
}

func bswap32Ref(v uint32) uint32 { return v>>24 | v>>8&0xff00 | v<<8&0xff0000 | v<<24 }

func ExampleSumIntMasked() {
	values := []int64{10, 20, 30, 40, 50}
	valid := []byte{0b0001_1010} // rows 1, 3 and 4 (from bit 0) are valid
	sum, n := SumIntMasked(values, valid, 0)
	mean := float64(sum) / float64(n)
	hi, _ := MaxIntMasked(values, valid, 0)
	gt := make([]byte, 1)
	GtScalar(gt, values, 25)
	fmt.Println(sum, n, mean, hi)
	fmt.Printf("%05b\n", gt[0])
	// Output:
	// 110 3 36.666666666666664 50
	// 11100
}

// TestElemStreaming covers the non-temporal store path of the arithmetic
// kernels (outputs of 4 MiB and more), with an aligned and an unaligned
// destination and an odd tail, for every element type.
func TestElemStreaming(t *testing.T) {
	testElemStreaming(t, genElemInt[int32])
	testElemStreaming(t, genElemInt[int64])
	testElemStreaming(t, genFloat[float32](true))
	testElemStreaming(t, genFloat[float64](true))
}

func testElemStreaming[T Elem](t *testing.T, gen func(*rand.Rand) T) {
	r := rand.New(rand.NewPCG(4, 4))
	var zero T
	n := 5<<20/int(unsafe.Sizeof(zero)) + 77
	a, b := make([]T, n), make([]T, n)
	for i := range a {
		a[i], b[i] = gen(r), gen(r)
	}
	s := gen(r)
	for i, name := range arithFuncs {
		f, fs := arithOf[T](i)
		want, wantS := make([]T, n), make([]T, n)
		withLevel(&generic, func() { f(want, a, b); fs(wantS, a, s) })
		forEachVector(t, func(t *testing.T) {
			for _, shift := range []int{0, 1, 3} {
				got, gotS := unaligned(make([]T, n), shift), unaligned(make([]T, n), shift)
				f(got, a, b)
				fs(gotS, a, s)
				if !sameElems(got, want) || !sameElems(gotS, wantS) {
					t.Fatalf("%s %T n=%d dst shift %d: mismatch", name, zero, n, shift)
				}
			}
		})
	}
}
