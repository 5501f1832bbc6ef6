package simd

import (
	"math/bits"
	"unsafe"
)

// elemOf returns the kernels of T's physical type.
func elemOf[T Elem]() (i32 *elemKernels[int32], i64 *elemKernels[int64], f32 *elemKernels[float32], f64 *elemKernels[float64]) {
	var half T = 1
	half /= 2
	isFloat := half != 0
	switch {
	case unsafe.Sizeof(T(0)) == 4 && !isFloat:
		return &active.ei32, nil, nil, nil
	case !isFloat:
		return nil, &active.ei64, nil, nil
	case unsafe.Sizeof(T(0)) == 4:
		return nil, nil, &active.ef32, nil
	default:
		return nil, nil, nil, &active.ef64
	}
}

func checkElem(nDst, na, nb int) {
	if na < nDst || nb < nDst {
		panic("simd: input shorter than dst")
	}
}

type arithOp int

const (
	opAdd arithOp = iota
	opSub
	opMul
)

func arith[T Elem](op arithOp, dst, a, b []T) {
	checkElem(len(dst), len(a), len(b))
	a, b = a[:len(dst)], b[:len(dst)]
	i32, i64, f32, f64 := elemOf[T]()
	switch {
	case i32 != nil:
		[]func(_, _, _ []int32){i32.add, i32.sub, i32.mul}[op](cast[int32](dst), cast[int32](a), cast[int32](b))
	case i64 != nil:
		[]func(_, _, _ []int64){i64.add, i64.sub, i64.mul}[op](cast[int64](dst), cast[int64](a), cast[int64](b))
	case f32 != nil:
		[]func(_, _, _ []float32){f32.add, f32.sub, f32.mul}[op](cast[float32](dst), cast[float32](a), cast[float32](b))
	default:
		[]func(_, _, _ []float64){f64.add, f64.sub, f64.mul}[op](cast[float64](dst), cast[float64](a), cast[float64](b))
	}
}

func arithS[T Elem](op arithOp, dst, a []T, s T) {
	checkElem(len(dst), len(a), len(dst))
	a = a[:len(dst)]
	i32, i64, f32, f64 := elemOf[T]()
	p := unsafe.Pointer(&s)
	switch {
	case i32 != nil:
		[]func([]int32, []int32, int32){i32.addS, i32.subS, i32.mulS}[op](cast[int32](dst), cast[int32](a), *(*int32)(p))
	case i64 != nil:
		[]func([]int64, []int64, int64){i64.addS, i64.subS, i64.mulS}[op](cast[int64](dst), cast[int64](a), *(*int64)(p))
	case f32 != nil:
		[]func([]float32, []float32, float32){f32.addS, f32.subS, f32.mulS}[op](cast[float32](dst), cast[float32](a), *(*float32)(p))
	default:
		[]func([]float64, []float64, float64){f64.addS, f64.subS, f64.mulS}[op](cast[float64](dst), cast[float64](a), *(*float64)(p))
	}
}

// Add sets dst[i] = a[i] + b[i] for i < len(dst) (integers wrap). It
// panics if a or b is shorter than dst. dst may be a or b.
func Add[T Elem](dst, a, b []T) { arith(opAdd, dst, a, b) }

// Sub sets dst[i] = a[i] - b[i] for i < len(dst) (integers wrap). It
// panics if a or b is shorter than dst. dst may be a or b.
func Sub[T Elem](dst, a, b []T) { arith(opSub, dst, a, b) }

// Mul sets dst[i] = a[i] * b[i] for i < len(dst) (integers wrap). It
// panics if a or b is shorter than dst. dst may be a or b.
func Mul[T Elem](dst, a, b []T) { arith(opMul, dst, a, b) }

// AddScalar sets dst[i] = a[i] + s for i < len(dst). It panics if a is
// shorter than dst.
func AddScalar[T Elem](dst, a []T, s T) { arithS(opAdd, dst, a, s) }

// SubScalar sets dst[i] = a[i] - s for i < len(dst). It panics if a is
// shorter than dst.
func SubScalar[T Elem](dst, a []T, s T) { arithS(opSub, dst, a, s) }

// MulScalar sets dst[i] = a[i] * s for i < len(dst). It panics if a is
// shorter than dst.
func MulScalar[T Elem](dst, a []T, s T) { arithS(opMul, dst, a, s) }

func cmp[T Elem](pred int, dst []byte, a, b []T) {
	n := len(a)
	if len(b) < n || len(dst) < (n+7)/8 {
		panic("simd: comparison: b or dst too short")
	}
	b, dst = b[:n], dst[:(n+7)/8]
	i32, i64, f32, f64 := elemOf[T]()
	switch {
	case i32 != nil:
		i32.cmp[pred](dst, cast[int32](a), cast[int32](b))
	case i64 != nil:
		i64.cmp[pred](dst, cast[int64](a), cast[int64](b))
	case f32 != nil:
		f32.cmp[pred](dst, cast[float32](a), cast[float32](b))
	default:
		f64.cmp[pred](dst, cast[float64](a), cast[float64](b))
	}
}

func cmpS[T Elem](pred int, dst []byte, a []T, s T) {
	n := len(a)
	if len(dst) < (n+7)/8 {
		panic("simd: comparison: dst too short")
	}
	dst = dst[:(n+7)/8]
	i32, i64, f32, f64 := elemOf[T]()
	p := unsafe.Pointer(&s)
	switch {
	case i32 != nil:
		i32.cmpS[pred](dst, cast[int32](a), *(*int32)(p))
	case i64 != nil:
		i64.cmpS[pred](dst, cast[int64](a), *(*int64)(p))
	case f32 != nil:
		f32.cmpS[pred](dst, cast[float32](a), *(*float32)(p))
	default:
		f64.cmpS[pred](dst, cast[float64](a), *(*float64)(p))
	}
}

// Eq sets bit i of dst (LSB numbering, from bit 0) to a[i] == b[i] for
// every i < len(a); the bits of the last byte beyond len(a) are zeroed and
// later bytes are untouched. It panics if b is shorter than a or dst
// shorter than (len(a)+7)/8 bytes. Float comparisons follow Go: NaN is
// unequal to everything and unordered, -0 == +0.
func Eq[T Elem](dst []byte, a, b []T) { cmp(cmpEq, dst, a, b) }

// Ne is [Eq] for a[i] != b[i] (true when either is NaN).
func Ne[T Elem](dst []byte, a, b []T) { cmp(cmpNe, dst, a, b) }

// Lt is [Eq] for a[i] < b[i].
func Lt[T Elem](dst []byte, a, b []T) { cmp(cmpLt, dst, a, b) }

// Le is [Eq] for a[i] <= b[i].
func Le[T Elem](dst []byte, a, b []T) { cmp(cmpLe, dst, a, b) }

// Gt is [Eq] for a[i] > b[i].
func Gt[T Elem](dst []byte, a, b []T) { cmp(cmpGt, dst, a, b) }

// Ge is [Eq] for a[i] >= b[i].
func Ge[T Elem](dst []byte, a, b []T) { cmp(cmpGe, dst, a, b) }

// EqScalar is [Eq] against the scalar s: bit i is a[i] == s.
func EqScalar[T Elem](dst []byte, a []T, s T) { cmpS(cmpEq, dst, a, s) }

// NeScalar is [Ne] against the scalar s.
func NeScalar[T Elem](dst []byte, a []T, s T) { cmpS(cmpNe, dst, a, s) }

// LtScalar is [Lt] against the scalar s.
func LtScalar[T Elem](dst []byte, a []T, s T) { cmpS(cmpLt, dst, a, s) }

// LeScalar is [Le] against the scalar s.
func LeScalar[T Elem](dst []byte, a []T, s T) { cmpS(cmpLe, dst, a, s) }

// GtScalar is [Gt] against the scalar s.
func GtScalar[T Elem](dst []byte, a []T, s T) { cmpS(cmpGt, dst, a, s) }

// GeScalar is [Ge] against the scalar s.
func GeScalar[T Elem](dst []byte, a []T, s T) { cmpS(cmpGe, dst, a, s) }

// ByteSwap16 sets dst[i] to src[i] with its bytes reversed, for i <
// len(dst). It panics if src is shorter than dst. dst may be src.
func ByteSwap16(dst, src []uint16) {
	checkElem(len(dst), len(src), len(dst))
	active.bswap16(dst, src[:len(dst)])
}

// ByteSwap32 is [ByteSwap16] for 32-bit values.
func ByteSwap32(dst, src []uint32) {
	checkElem(len(dst), len(src), len(dst))
	active.bswap32(dst, src[:len(dst)])
}

// ByteSwap64 is [ByteSwap16] for 64-bit values.
func ByteSwap64(dst, src []uint64) {
	checkElem(len(dst), len(src), len(dst))
	active.bswap64(dst, src[:len(dst)])
}

func bswap16Generic(dst, src []uint16) {
	for i, v := range src {
		dst[i] = bits.ReverseBytes16(v)
	}
}

func bswap32Generic(dst, src []uint32) {
	for i, v := range src {
		dst[i] = bits.ReverseBytes32(v)
	}
}

func bswap64Generic(dst, src []uint64) {
	for i, v := range src {
		dst[i] = bits.ReverseBytes64(v)
	}
}
