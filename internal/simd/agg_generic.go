package simd

import "math"

// Pure-Go reference aggregates. They define the results every other level
// must reproduce (floating-point sums up to rounding).

func bitAt(b []byte, i int) bool { return b[i>>3]>>(i&7)&1 != 0 }

func sumGeneric[T number, S int64 | uint64 | float64](x []T, bits []byte, off int) S {
	var s S
	if bits == nil {
		for _, v := range x {
			s += S(v)
		}
		return s
	}
	for i, v := range x {
		if bitAt(bits, off+i) {
			s += S(v)
		}
	}
	return s
}

type integer interface{ Signed | Unsigned }

func minIntGeneric[T integer](x []T, bits []byte, off int) (T, bool) {
	var m T
	found := false
	for i, v := range x {
		if bits != nil && !bitAt(bits, off+i) {
			continue
		}
		if !found || v < m {
			m, found = v, true
		}
	}
	return m, found
}

func maxIntGeneric[T integer](x []T, bits []byte, off int) (T, bool) {
	var m T
	found := false
	for i, v := range x {
		if bits != nil && !bitAt(bits, off+i) {
			continue
		}
		if !found || v > m {
			m, found = v, true
		}
	}
	return m, found
}

// floatLess is the order of MinFloat and MaxFloat on non-NaN values: the
// usual one, with -0 before +0.
func floatLess[T Float](a, b T) bool {
	return a < b || (a == 0 && b == 0 && math.Signbit(float64(a)) && !math.Signbit(float64(b)))
}

// minFloatGeneric returns the smallest valid non-NaN element; found is
// false when there is none.
func minFloatGeneric[T Float](x []T, bits []byte, off int) (T, bool) {
	var m T
	found := false
	for i, v := range x {
		if v != v || bits != nil && !bitAt(bits, off+i) {
			continue
		}
		if !found || floatLess(v, m) {
			m, found = v, true
		}
	}
	return m, found
}

func maxFloatGeneric[T Float](x []T, bits []byte, off int) (T, bool) {
	var m T
	found := false
	for i, v := range x {
		if v != v || bits != nil && !bitAt(bits, off+i) {
			continue
		}
		if !found || floatLess(m, v) {
			m, found = v, true
		}
	}
	return m, found
}

func intAgg[T integer, S int64 | uint64]() aggKernels[T, S] {
	return aggKernels[T, S]{sum: sumGeneric[T, S], min: minIntGeneric[T], max: maxIntGeneric[T]}
}

func floatAgg[T Float]() aggKernels[T, float64] {
	return aggKernels[T, float64]{sum: sumGeneric[T, float64], min: minFloatGeneric[T], max: maxFloatGeneric[T]}
}

// generic is the pure-Go level.
var generic = kernels{
	level:     "generic",
	and:       andGeneric,
	or:        orGeneric,
	xor:       xorGeneric,
	andNot:    andNotGeneric,
	not:       notGeneric,
	popCount:  popCountGeneric,
	shiftBits: shiftBitsGeneric,

	i8:  intAgg[int8, int64](),
	i16: intAgg[int16, int64](),
	i32: intAgg[int32, int64](),
	i64: intAgg[int64, int64](),
	u8:  intAgg[uint8, uint64](),
	u16: intAgg[uint16, uint64](),
	u32: intAgg[uint32, uint64](),
	u64: intAgg[uint64, uint64](),
	f32: floatAgg[float32](),
	f64: floatAgg[float64](),

	ei32: elemGeneric[int32](),
	ei64: elemGeneric[int64](),
	ef32: elemGeneric[float32](),
	ef64: elemGeneric[float64](),

	bswap16: bswap16Generic,
	bswap32: bswap32Generic,
	bswap64: bswap64Generic,
	sqrt64:  sqrt64Generic,

	ordered32: orderedGeneric,
	ordered64: orderedGeneric,

	copyValid32: copyValidGeneric[uint32],
	copyValid64: copyValidGeneric[uint64],
	validUTF8:   validUTF8Generic,
	index:       indexGeneric,
	unpack32:    unpack32Generic,
}
