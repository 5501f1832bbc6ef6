package simd

import "math"

// Sqrt64 sets dst[i] to math.Sqrt(src[i]) for i < len(dst), bit for bit
// (the hardware square root is exactly rounded, as math.Sqrt is). It
// panics if src is shorter than dst. dst may be src.
func Sqrt64(dst, src []float64) {
	checkElem(len(dst), len(src), len(dst))
	active.sqrt64(dst, src[:len(dst)])
}

func sqrt64Generic(dst, src []float64) {
	for i, v := range src {
		dst[i] = math.Sqrt(v)
	}
}
