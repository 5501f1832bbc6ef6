package simd

import "unsafe"

// FirstDecrease returns the first i with s[i+1] < s[i], or -1 when s never
// decreases (the check that offsets of variable-size layouts are ordered).
func FirstDecrease[T ~int32 | ~int64](s []T) int {
	if len(s) < 2 {
		return -1
	}
	var i int
	if unsafe.Sizeof(T(0)) == 4 {
		i = active.ordered32(unsafe.Pointer(&s[0]), len(s)-1)
	} else {
		i = active.ordered64(unsafe.Pointer(&s[0]), len(s)-1)
	}
	for ; i+1 < len(s); i++ {
		if s[i+1] < s[i] {
			return i
		}
	}
	return -1
}

// orderedGeneric is the reference for the ordered kernels: how many of the
// n leading pairs (s[i], s[i+1]) are known ordered. The vector kernels
// return a multiple of their block, stopping at the first block with a
// decrease; FirstDecrease scans on from there.
func orderedGeneric(unsafe.Pointer, int) int { return 0 }
