package simd

import (
	"math"
	"unsafe"
)

func checkValid(valid []byte, off, n int) {
	if off < 0 || len(valid)*8-off < n {
		panic("simd: validity bitmap too short")
	}
}

// SumInt returns the sum of x in int64 with two's-complement wraparound
// (the result is exact modulo 2^64, whatever the order of additions).
func SumInt[T Signed](x []T) int64 {
	s, _ := SumIntMasked(x, nil, 0)
	return s
}

// SumIntMasked returns the wrapping int64 sum of the valid elements of x
// and their number. Element i is valid when bit off+i of valid is set (LSB
// bit numbering); valid == nil means every element is valid. It panics if
// valid holds fewer than off+len(x) bits.
func SumIntMasked[T Signed](x []T, valid []byte, off int) (sum int64, count int) {
	count = validCount(valid, off, len(x))
	switch unsafe.Sizeof(T(0)) {
	case 1:
		sum = active.i8.sum(cast[int8](x), valid, off)
	case 2:
		sum = active.i16.sum(cast[int16](x), valid, off)
	case 4:
		sum = active.i32.sum(cast[int32](x), valid, off)
	default:
		sum = active.i64.sum(cast[int64](x), valid, off)
	}
	return sum, count
}

// SumUint returns the sum of x in uint64, wrapping modulo 2^64.
func SumUint[T Unsigned](x []T) uint64 {
	s, _ := SumUintMasked(x, nil, 0)
	return s
}

// SumUintMasked is [SumIntMasked] for unsigned elements: the wrapping
// uint64 sum of the valid elements and their number.
func SumUintMasked[T Unsigned](x []T, valid []byte, off int) (sum uint64, count int) {
	count = validCount(valid, off, len(x))
	switch unsafe.Sizeof(T(0)) {
	case 1:
		sum = active.u8.sum(cast[uint8](x), valid, off)
	case 2:
		sum = active.u16.sum(cast[uint16](x), valid, off)
	case 4:
		sum = active.u32.sum(cast[uint32](x), valid, off)
	default:
		sum = active.u64.sum(cast[uint64](x), valid, off)
	}
	return sum, count
}

// SumFloat returns the sum of x accumulated in float64 (float32 elements
// are widened first). The vector levels add in a different order than the
// pure-Go one (several lanes, combined at the end), so results may differ
// in the last bits, and an intermediate overflow to ±Inf may depend on the
// order. NaN anywhere, or +Inf together with -Inf, gives NaN.
func SumFloat[T Float](x []T) float64 {
	s, _ := SumFloatMasked(x, nil, 0)
	return s
}

// SumFloatMasked is [SumFloat] over the valid elements (see
// [SumIntMasked] for the bitmap); it also returns their number. Null
// slots never contribute, whatever they hold (NaN included).
func SumFloatMasked[T Float](x []T, valid []byte, off int) (sum float64, count int) {
	count = validCount(valid, off, len(x))
	if unsafe.Sizeof(T(0)) == 4 {
		return active.f32.sum(cast[float32](x), valid, off), count
	}
	return active.f64.sum(cast[float64](x), valid, off), count
}

func validCount(valid []byte, off, n int) int {
	if valid == nil {
		return n
	}
	checkValid(valid, off, n)
	return countBits(valid, off, n)
}

// countBits counts the set bits of valid in [off, off+n).
func countBits(b []byte, off, n int) int {
	if n == 0 {
		return 0
	}
	c := 0
	for ; off&7 != 0 && n > 0; off, n = off+1, n-1 {
		c += int(b[off>>3] >> (off & 7) & 1)
	}
	if mid := b[off>>3 : (off+n)>>3]; len(mid) >= 256 {
		c += active.popCount(mid)
	} else {
		c += popCountGeneric(mid) // small: not worth the dispatch
	}
	for i := (off + n) &^ 7; i < off+n; i++ {
		c += int(b[i>>3] >> (i & 7) & 1)
	}
	return c
}

// MinInt returns the smallest element of x; ok is false when x is empty.
func MinInt[T Signed](x []T) (v T, ok bool) { return MinIntMasked(x, nil, 0) }

// MaxInt returns the largest element of x; ok is false when x is empty.
func MaxInt[T Signed](x []T) (v T, ok bool) { return MaxIntMasked(x, nil, 0) }

// MinIntMasked returns the smallest valid element of x (see
// [SumIntMasked] for the bitmap); ok is false when none is valid.
func MinIntMasked[T Signed](x []T, valid []byte, off int) (v T, ok bool) {
	return minMaxInt(x, valid, off, true)
}

// MaxIntMasked returns the largest valid element of x (see [SumIntMasked]
// for the bitmap); ok is false when none is valid.
func MaxIntMasked[T Signed](x []T, valid []byte, off int) (v T, ok bool) {
	return minMaxInt(x, valid, off, false)
}

func minMaxInt[T Signed](x []T, valid []byte, off int, isMin bool) (T, bool) {
	if valid != nil {
		checkValid(valid, off, len(x))
	}
	switch unsafe.Sizeof(T(0)) {
	case 1:
		v, ok := pick(&active.i8, isMin)(cast[int8](x), valid, off)
		return T(v), ok
	case 2:
		v, ok := pick(&active.i16, isMin)(cast[int16](x), valid, off)
		return T(v), ok
	case 4:
		v, ok := pick(&active.i32, isMin)(cast[int32](x), valid, off)
		return T(v), ok
	default:
		v, ok := pick(&active.i64, isMin)(cast[int64](x), valid, off)
		return T(v), ok
	}
}

// MinUint returns the smallest element of x; ok is false when x is empty.
func MinUint[T Unsigned](x []T) (v T, ok bool) { return MinUintMasked(x, nil, 0) }

// MaxUint returns the largest element of x; ok is false when x is empty.
func MaxUint[T Unsigned](x []T) (v T, ok bool) { return MaxUintMasked(x, nil, 0) }

// MinUintMasked returns the smallest valid element of x (see
// [SumIntMasked] for the bitmap); ok is false when none is valid.
func MinUintMasked[T Unsigned](x []T, valid []byte, off int) (v T, ok bool) {
	return minMaxUint(x, valid, off, true)
}

// MaxUintMasked returns the largest valid element of x (see
// [SumIntMasked] for the bitmap); ok is false when none is valid.
func MaxUintMasked[T Unsigned](x []T, valid []byte, off int) (v T, ok bool) {
	return minMaxUint(x, valid, off, false)
}

func minMaxUint[T Unsigned](x []T, valid []byte, off int, isMin bool) (T, bool) {
	if valid != nil {
		checkValid(valid, off, len(x))
	}
	switch unsafe.Sizeof(T(0)) {
	case 1:
		v, ok := pick(&active.u8, isMin)(cast[uint8](x), valid, off)
		return T(v), ok
	case 2:
		v, ok := pick(&active.u16, isMin)(cast[uint16](x), valid, off)
		return T(v), ok
	case 4:
		v, ok := pick(&active.u32, isMin)(cast[uint32](x), valid, off)
		return T(v), ok
	default:
		v, ok := pick(&active.u64, isMin)(cast[uint64](x), valid, off)
		return T(v), ok
	}
}

// MinFloat returns the smallest element of x. NaNs are ignored unless every
// element is NaN, then the result is NaN. -0 orders before +0 (so the
// result is -0 when x holds both and nothing smaller). ok is false when x
// is empty.
func MinFloat[T Float](x []T) (v T, ok bool) { return MinFloatMasked(x, nil, 0) }

// MaxFloat returns the largest element of x, with the rules of [MinFloat]
// (+0 orders after -0).
func MaxFloat[T Float](x []T) (v T, ok bool) { return MaxFloatMasked(x, nil, 0) }

// MinFloatMasked is [MinFloat] over the valid elements (see [SumIntMasked]
// for the bitmap): NaN only when every valid element is NaN, ok false when
// none is valid.
func MinFloatMasked[T Float](x []T, valid []byte, off int) (v T, ok bool) {
	return minMaxFloat(x, valid, off, true)
}

// MaxFloatMasked is [MaxFloat] over the valid elements, with the rules of
// [MinFloatMasked].
func MaxFloatMasked[T Float](x []T, valid []byte, off int) (v T, ok bool) {
	return minMaxFloat(x, valid, off, false)
}

func minMaxFloat[T Float](x []T, valid []byte, off int, isMin bool) (T, bool) {
	if valid != nil {
		checkValid(valid, off, len(x))
	}
	var v T
	var found bool
	if unsafe.Sizeof(T(0)) == 4 {
		r, f := pick(&active.f32, isMin)(cast[float32](x), valid, off)
		v, found = T(r), f
	} else {
		r, f := pick(&active.f64, isMin)(cast[float64](x), valid, off)
		v, found = T(r), f
	}
	if found {
		return v, true
	}
	if validCount(valid, off, len(x)) > 0 {
		return T(math.NaN()), true // every valid element is NaN
	}
	return 0, false
}

func pick[T number, S int64 | uint64 | float64](k *aggKernels[T, S], isMin bool) func([]T, []byte, int) (T, bool) {
	if isMin {
		return k.min
	}
	return k.max
}
