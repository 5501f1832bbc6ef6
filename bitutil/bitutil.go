package bitutil

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/alkaid-go/alkaid/internal/simd"
)

// BytesForBits returns the number of bytes needed to hold n bits.
func BytesForBits(n int) int { return (n + 7) >> 3 }

// GetBit reports whether bit i of b is set. It panics if b is too short.
func GetBit(b []byte, i int) bool { return b[i>>3]>>(i&7)&1 != 0 }

// SetBit sets bit i of b. It panics if b is too short.
func SetBit(b []byte, i int) { b[i>>3] |= 1 << (i & 7) }

// ClearBit clears bit i of b. It panics if b is too short.
func ClearBit(b []byte, i int) { b[i>>3] &^= 1 << (i & 7) }

// SetBitTo sets bit i of b to v. It panics if b is too short.
func SetBitTo(b []byte, i int, v bool) {
	if v {
		SetBit(b, i)
	} else {
		ClearBit(b, i)
	}
}

// checkRange panics unless bits [off, off+n) lie inside b.
func checkRange(what string, b []byte, off, n int) {
	if off < 0 || n < 0 || off > len(b)*8-n {
		panic(fmt.Sprintf("bitutil: %s: bits [%d, %d+%d) out of range of a %d-byte bitmap", what, off, off, n, len(b)))
	}
}

// lowMask returns a word with the low m bits set (0 <= m <= 64).
func lowMask(m int) uint64 {
	if m >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(m) - 1
}

// loadBits returns the m bits (1 <= m <= 64) of b starting at bit off in
// the low bits of a word, the rest zero. It reads only bytes that hold
// some of those bits.
func loadBits(b []byte, off, m int) uint64 {
	i, r := off>>3, uint(off&7)
	var w uint64
	if i+8 <= len(b) {
		w = binary.LittleEndian.Uint64(b[i:]) >> r
		if r != 0 && m > 64-int(r) {
			w |= uint64(b[i+8]) << (64 - r)
		}
	} else {
		for j := (off + m - 1) >> 3; j >= i; j-- { // at most 8 bytes here
			w = w<<8 | uint64(b[j])
		}
		w >>= r
	}
	return w & lowMask(m)
}

// storeBits writes the low m bits (0 <= m <= 64) of w to b at bit off,
// leaving every other bit of b untouched.
func storeBits(b []byte, off, m int, w uint64) {
	for m > 0 {
		i, r := off>>3, off&7
		k := min(8-r, m)
		mask := byte((1<<k - 1) << r)
		b[i] = b[i]&^mask | byte(w<<r)&mask
		w >>= uint(k)
		off += k
		m -= k
	}
}

// SetBitsTo sets bits [off, off+n) of b to v. It panics if the range is
// not inside b.
func SetBitsTo(b []byte, off, n int, v bool) {
	checkRange("SetBitsTo", b, off, n)
	var fill uint64
	var fb byte
	if v {
		fill, fb = ^uint64(0), 0xff
	}
	if h := (8 - off&7) & 7; h > 0 {
		h = min(h, n)
		storeBits(b, off, h, fill)
		off, n = off+h, n-h
	}
	mid := b[off>>3 : (off+n)>>3]
	if v {
		for i := range mid {
			mid[i] = fb
		}
	} else {
		clear(mid)
	}
	off += len(mid) * 8
	n -= len(mid) * 8
	storeBits(b, off, n, fill)
}

// CountSetBits returns the number of set bits in [off, off+n) of b. It
// panics if the range is not inside b.
func CountSetBits(b []byte, off, n int) int {
	checkRange("CountSetBits", b, off, n)
	c := 0
	if h := (8 - off&7) & 7; h > 0 && n > 0 {
		h = min(h, n)
		c += bits.OnesCount64(loadBits(b, off, h))
		off, n = off+h, n-h
	}
	c += simd.PopCount(b[off>>3 : (off+n)>>3])
	if t := n & 7; t > 0 {
		c += bits.OnesCount64(loadBits(b, off+n-t, t))
	}
	return c
}

// AllSet reports whether every bit in [off, off+n) of b is set (true for
// n == 0). It panics if the range is not inside b.
func AllSet(b []byte, off, n int) bool {
	checkRange("AllSet", b, off, n)
	return scanAll(b, off, n, ^uint64(0))
}

// NoneSet reports whether no bit in [off, off+n) of b is set (true for
// n == 0). It panics if the range is not inside b.
func NoneSet(b []byte, off, n int) bool {
	checkRange("NoneSet", b, off, n)
	return scanAll(b, off, n, 0)
}

// scanAll reports whether every bit of the range equals the bits of want
// (all ones or all zeros), stopping at the first difference.
func scanAll(b []byte, off, n int, want uint64) bool {
	if h := (8 - off&7) & 7; h > 0 && n > 0 {
		h = min(h, n)
		if loadBits(b, off, h) != want&lowMask(h) {
			return false
		}
		off, n = off+h, n-h
	}
	mid := b[off>>3 : (off+n)>>3]
	for len(mid) >= 32 {
		w0, w1 := binary.LittleEndian.Uint64(mid), binary.LittleEndian.Uint64(mid[8:])
		w2, w3 := binary.LittleEndian.Uint64(mid[16:]), binary.LittleEndian.Uint64(mid[24:])
		if want == 0 && w0|w1|w2|w3 != 0 || want != 0 && w0&w1&w2&w3 != want {
			return false
		}
		mid = mid[32:]
	}
	for _, c := range mid {
		if c != byte(want) {
			return false
		}
	}
	if t := n & 7; t > 0 {
		return loadBits(b, off+n-t, t) == want&lowMask(t)
	}
	return true
}
