package simd

import (
	"fmt"
	"unsafe"
)

// concatKernel copies values i..n-1 of the string or slice headers at hdrs
// into dst from byte pos (dst holds dstLen bytes), storing each end plus
// base into ends; valid, when not nil, points at one flag per value. It
// returns the value it stopped at (n when done) and the new pos. A kernel
// may stop early at any value (one it leaves to the caller: a long one, or
// one near the end of dst); the caller copies that value and calls again.
type concatKernel func(dst unsafe.Pointer, dstLen, pos int, ends unsafe.Pointer, base int,
	hdrs unsafe.Pointer, i, n int, valid unsafe.Pointer) (stop, end int)

// concatChunk bounds the values one kernel call copies, so that the
// goroutine reaches a preemption point every few tens of microseconds
// (the collector cannot stop it inside assembly).
const concatChunk = 1 << 12

// Concat copies the values vs (strings or byte slices) one after the other
// into dst and sets ends[i] to base plus the bytes copied up to and
// including vs[i]: the end offsets of a variable-size layout whose new data
// starts at offset base. When valid is not nil only the values with
// valid[i] set are copied; a skipped value's end repeats the one before.
// It returns the number of bytes copied.
//
// ends (and valid, when not nil) must have at least len(vs) elements and
// dst room for the bytes copied. The vector levels store whole vectors, so
// Concat may also write any of dst's bytes after the ones it copies.
func Concat[O ~int32 | ~int64, S ~string | ~[]byte](dst []byte, ends []O, base O, vs []S, valid []bool) int {
	if len(ends) < len(vs) || (valid != nil && len(valid) < len(vs)) {
		panic(fmt.Sprintf("simd: Concat of %d values with %d ends and %d flags", len(vs), len(ends), len(valid)))
	}
	k := active.concat[concatIndex[O, S]()]
	if k == nil {
		return concatGeneric(dst, ends, base, vs, valid)
	}
	var vp unsafe.Pointer
	if valid != nil {
		vp = unsafe.Pointer(unsafe.SliceData(valid))
	}
	dp, ep, hp := unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(ends)), unsafe.Pointer(unsafe.SliceData(vs))
	pos := 0
	for i := 0; i < len(vs); {
		n := min(len(vs), i+concatChunk)
		i, pos = k(dp, len(dst), pos, ep, int(base), hp, i, n, vp)
		if i < n {
			// The value the kernel left: copied here.
			pos += concatGeneric(dst[pos:], ends[i:i+1], base+O(pos), vs[i:i+1], flags(valid, i))
			i++
		}
	}
	return pos
}

// flags returns valid[i:i+1], or nil when valid is nil.
func flags(valid []bool, i int) []bool {
	if valid == nil {
		return nil
	}
	return valid[i : i+1]
}

// concatIndex picks the kernel variant: 16- or 24-byte headers, 32- or
// 64-bit ends.
func concatIndex[O ~int32 | ~int64, S ~string | ~[]byte]() int {
	var o O
	var s S
	i := 0
	if unsafe.Sizeof(s) == 24 {
		i += 2
	}
	if unsafe.Sizeof(o) == 8 {
		i++
	}
	return i
}

// concatGeneric is the reference for Concat.
func concatGeneric[O ~int32 | ~int64, S ~string | ~[]byte](dst []byte, ends []O, base O, vs []S, valid []bool) int {
	pos := 0
	for i, v := range vs {
		if valid == nil || valid[i] {
			if len(v) > len(dst)-pos {
				panic(fmt.Sprintf("simd: Concat: value %d of %d bytes does not fit the %d bytes left", i, len(v), len(dst)-pos))
			}
			pos += copy(dst[pos:], v)
		}
		ends[i] = base + O(pos)
	}
	return pos
}
