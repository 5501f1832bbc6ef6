//go:build amd64 && !noasm

package simd

import (
	"math"
	"unsafe"
)

type (
	sumKernel       func(x unsafe.Pointer, n int) uint64
	sumMaskedKernel func(x unsafe.Pointer, bits *byte, n int) uint64
	minKernel       func(x unsafe.Pointer, bits *byte, stride, n int, inv, ident int64) (acc [8]uint64)
)

// fromLanes converts a sum kernel's result: integer bits, or the bits of a
// float64.
func fromLanes[S int64 | uint64 | float64](u uint64) S {
	var s S
	if p, ok := any(&s).(*float64); ok {
		*p = math.Float64frombits(u)
		return s
	}
	return S(u)
}

// sumGlue runs plain (n a multiple of epv) or masked (n a multiple of 8,
// from a byte-aligned bit) on the middle of x and the generic code on the
// ends.
func sumGlue[T number, S int64 | uint64 | float64](plain sumKernel, masked sumMaskedKernel, epv int) func([]T, []byte, int) S {
	return func(x []T, bits []byte, off int) S {
		if bits == nil {
			m := len(x) &^ (epv - 1)
			var s S
			if m > 0 {
				s = fromLanes[S](plain(unsafe.Pointer(&x[0]), m))
			}
			return s + sumGeneric[T, S](x[m:], nil, 0)
		}
		h := min(len(x), (8-off&7)&7)
		s := sumGeneric[T, S](x[:h], bits, off)
		m := (len(x) - h) &^ 7
		if m > 0 {
			s += fromLanes[S](masked(unsafe.Pointer(&x[h]), &bits[(off+h)>>3], m))
		}
		return s + sumGeneric[T, S](x[h+m:], bits, off+h+m)
	}
}

// allOnes stands in for the bitmap of a min kernel called without one.
var allOnes = [8]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}

// minGlue builds a min (or, with isMax, max) kernel from a min kernel
// taking block elements at a time and stride bitmap bytes per step; ref
// handles the unaligned head and the tail.
func minGlue[T int32 | int64 | float32 | float64](asm minKernel, block, stride int, isMax bool, ref func([]T, []byte, int) (T, bool)) func([]T, []byte, int) (T, bool) {
	var half T = 1
	half /= 2
	isFloat := half != 0
	wide := unsafe.Sizeof(half) == 8
	less := func(a, b T) bool {
		return a < b || a == 0 && b == 0 && math.Signbit(float64(a)) && !math.Signbit(float64(b))
	}
	better := func(a, b T) bool {
		if isMax {
			return less(b, a)
		}
		return less(a, b)
	}
	combine := func(v T, found bool, w T, wFound bool) (T, bool) {
		if !found || wFound && better(w, v) {
			return w, wFound
		}
		return v, found
	}
	return func(x []T, bits []byte, off int) (T, bool) {
		h := 0
		if bits != nil {
			h = min(len(x), (8-off&7)&7)
		}
		m := (len(x) - h) &^ (block - 1)
		if m == 0 {
			return ref(x, bits, off)
		}
		ident := int64(math.MaxInt64)
		if !wide {
			ident = math.MaxInt32
		}
		bp, st := &allOnes[0], 0
		if bits != nil {
			bp, st = &bits[(off+h)>>3], stride
		}
		var inv int64
		if isMax {
			inv = -1
		}
		acc := asm(unsafe.Pointer(&x[h]), bp, st, m, inv, ident)
		r := ident
		for _, l := range acc {
			if wide {
				r = min(r, int64(l))
			} else {
				r = min(r, int64(int32(l)), int64(int32(l>>32)))
			}
		}
		found := r != ident
		if !found && !isFloat {
			found = bits == nil || countBits(bits, off+h, m) > 0
		}
		var v T
		if found {
			r ^= inv
			switch {
			case isFloat && wide:
				u := uint64(r) ^ uint64(r>>63)>>1
				*(*uint64)(unsafe.Pointer(&v)) = u
			case isFloat:
				u := uint32(r) ^ uint32(int32(r)>>31)>>1
				*(*uint32)(unsafe.Pointer(&v)) = u
			default:
				v = T(r)
			}
		}
		hv, hf := ref(x[:h], bits, off)
		v, found = combine(v, found, hv, hf)
		tv, tf := ref(x[h+m:], bits, off+h+m)
		return combine(v, found, tv, tf)
	}
}

func setAggAVX2(k *kernels) {
	k.i8.sum = sumGlue[int8, int64](sumI8AVX2, sumMaskedI8AVX2, 4)
	k.i16.sum = sumGlue[int16, int64](sumI16AVX2, sumMaskedI16AVX2, 4)
	k.i32.sum = sumGlue[int32, int64](sumI32AVX2, sumMaskedI32AVX2, 4)
	k.i64.sum = sumGlue[int64, int64](sumI64AVX2, sumMaskedI64AVX2, 4)
	k.u8.sum = sumGlue[uint8, uint64](sumU8AVX2, sumMaskedU8AVX2, 4)
	k.u16.sum = sumGlue[uint16, uint64](sumU16AVX2, sumMaskedU16AVX2, 4)
	k.u32.sum = sumGlue[uint32, uint64](sumU32AVX2, sumMaskedU32AVX2, 4)
	k.u64.sum = sumGlue[uint64, uint64](sumI64AVX2, sumMaskedI64AVX2, 4)
	k.f32.sum = sumGlue[float32, float64](sumF32AVX2, sumMaskedF32AVX2, 4)
	k.f64.sum = sumGlue[float64, float64](sumF64AVX2, sumMaskedF64AVX2, 4)

	k.i32.min = minGlue(minI32AVX2, 16, 1, false, minIntGeneric[int32])
	k.i32.max = minGlue(minI32AVX2, 16, 1, true, maxIntGeneric[int32])
	k.i64.min = minGlue(minI64AVX2, 16, 1, false, minIntGeneric[int64])
	k.i64.max = minGlue(minI64AVX2, 16, 1, true, maxIntGeneric[int64])
	k.f32.min = minGlue(minF32AVX2, 16, 1, false, minFloatGeneric[float32])
	k.f32.max = minGlue(minF32AVX2, 16, 1, true, maxFloatGeneric[float32])
	k.f64.min = minGlue(minF64AVX2, 16, 1, false, minFloatGeneric[float64])
	k.f64.max = minGlue(minF64AVX2, 16, 1, true, maxFloatGeneric[float64])
}

func setAggAVX512(k *kernels) {
	k.i8.sum = sumGlue[int8, int64](sumI8AVX512, sumMaskedI8AVX512, 8)
	k.i16.sum = sumGlue[int16, int64](sumI16AVX512, sumMaskedI16AVX512, 8)
	k.i32.sum = sumGlue[int32, int64](sumI32AVX512, sumMaskedI32AVX512, 8)
	k.i64.sum = sumGlue[int64, int64](sumI64AVX512, sumMaskedI64AVX512, 8)
	k.u8.sum = sumGlue[uint8, uint64](sumU8AVX512, sumMaskedU8AVX512, 8)
	k.u16.sum = sumGlue[uint16, uint64](sumU16AVX512, sumMaskedU16AVX512, 8)
	k.u32.sum = sumGlue[uint32, uint64](sumU32AVX512, sumMaskedU32AVX512, 8)
	k.u64.sum = sumGlue[uint64, uint64](sumI64AVX512, sumMaskedI64AVX512, 8)
	k.f32.sum = sumGlue[float32, float64](sumF32AVX512, sumMaskedF32AVX512, 8)
	k.f64.sum = sumGlue[float64, float64](sumF64AVX512, sumMaskedF64AVX512, 8)

	k.i32.min = minGlue(minI32AVX512, 32, 2, false, minIntGeneric[int32])
	k.i32.max = minGlue(minI32AVX512, 32, 2, true, maxIntGeneric[int32])
	k.i64.min = minGlue(minI64AVX512, 16, 1, false, minIntGeneric[int64])
	k.i64.max = minGlue(minI64AVX512, 16, 1, true, maxIntGeneric[int64])
	k.f32.min = minGlue(minF32AVX512, 32, 2, false, minFloatGeneric[float32])
	k.f32.max = minGlue(minF32AVX512, 32, 2, true, maxFloatGeneric[float32])
	k.f64.min = minGlue(minF64AVX512, 16, 1, false, minFloatGeneric[float64])
	k.f64.max = minGlue(minF64AVX512, 16, 1, true, maxFloatGeneric[float64])
}
