package simd

import (
	"encoding/binary"
	"math/bits"
)

func checkBinary(dst, a, b []byte) {
	if len(a) < len(dst) || len(b) < len(dst) {
		panic("simd: input shorter than dst")
	}
}

// And sets dst[i] = a[i] & b[i] for every i < len(dst). It panics if a or b
// is shorter than dst. dst may be a or b.
func And(dst, a, b []byte) {
	checkBinary(dst, a, b)
	active.and(dst, a[:len(dst)], b[:len(dst)])
}

// Or sets dst[i] = a[i] | b[i] for every i < len(dst). It panics if a or b
// is shorter than dst. dst may be a or b.
func Or(dst, a, b []byte) {
	checkBinary(dst, a, b)
	active.or(dst, a[:len(dst)], b[:len(dst)])
}

// Xor sets dst[i] = a[i] ^ b[i] for every i < len(dst). It panics if a or b
// is shorter than dst. dst may be a or b.
func Xor(dst, a, b []byte) {
	checkBinary(dst, a, b)
	active.xor(dst, a[:len(dst)], b[:len(dst)])
}

// AndNot sets dst[i] = a[i] &^ b[i] for every i < len(dst). It panics if a
// or b is shorter than dst. dst may be a or b.
func AndNot(dst, a, b []byte) {
	checkBinary(dst, a, b)
	active.andNot(dst, a[:len(dst)], b[:len(dst)])
}

// Not sets dst[i] = ^src[i] for every i < len(dst). It panics if src is
// shorter than dst. dst may be src.
func Not(dst, src []byte) {
	if len(src) < len(dst) {
		panic("simd: input shorter than dst")
	}
	active.not(dst, src[:len(dst)])
}

// PopCount returns the number of set bits in b.
func PopCount(b []byte) int { return active.popCount(b) }

// ShiftBits funnel-shifts the bit string src right by shift bits (LSB bit
// numbering) into dst: for every i < len(dst),
//
//	dst[i] = src[i]>>shift | src[i+1]<<(8-shift)
//
// where src[len(src)] reads as zero. So bit j of dst is bit j+shift of src.
// It panics if src is shorter than dst or shift > 7. dst must not overlap
// src unless it is the same slice start (dst[0] == src[0]).
func ShiftBits(dst, src []byte, shift uint) {
	if len(src) < len(dst) || shift > 7 {
		panic("simd: ShiftBits: src shorter than dst or shift > 7")
	}
	if shift == 0 {
		copy(dst, src)
		return
	}
	active.shiftBits(dst, src, shift)
}

// The pure-Go reference implementations work on 64-bit words where they
// can; that is still plain, portable Go.

func andGeneric(dst, a, b []byte) {
	i := 0
	for ; i+8 <= len(dst); i += 8 {
		binary.LittleEndian.PutUint64(dst[i:], binary.LittleEndian.Uint64(a[i:])&binary.LittleEndian.Uint64(b[i:]))
	}
	for ; i < len(dst); i++ {
		dst[i] = a[i] & b[i]
	}
}

func orGeneric(dst, a, b []byte) {
	i := 0
	for ; i+8 <= len(dst); i += 8 {
		binary.LittleEndian.PutUint64(dst[i:], binary.LittleEndian.Uint64(a[i:])|binary.LittleEndian.Uint64(b[i:]))
	}
	for ; i < len(dst); i++ {
		dst[i] = a[i] | b[i]
	}
}

func xorGeneric(dst, a, b []byte) {
	i := 0
	for ; i+8 <= len(dst); i += 8 {
		binary.LittleEndian.PutUint64(dst[i:], binary.LittleEndian.Uint64(a[i:])^binary.LittleEndian.Uint64(b[i:]))
	}
	for ; i < len(dst); i++ {
		dst[i] = a[i] ^ b[i]
	}
}

func andNotGeneric(dst, a, b []byte) {
	i := 0
	for ; i+8 <= len(dst); i += 8 {
		binary.LittleEndian.PutUint64(dst[i:], binary.LittleEndian.Uint64(a[i:])&^binary.LittleEndian.Uint64(b[i:]))
	}
	for ; i < len(dst); i++ {
		dst[i] = a[i] &^ b[i]
	}
}

func notGeneric(dst, src []byte) {
	i := 0
	for ; i+8 <= len(dst); i += 8 {
		binary.LittleEndian.PutUint64(dst[i:], ^binary.LittleEndian.Uint64(src[i:]))
	}
	for ; i < len(dst); i++ {
		dst[i] = ^src[i]
	}
}

func popCountGeneric(b []byte) int {
	n := 0
	i := 0
	for ; i+8 <= len(b); i += 8 {
		n += bits.OnesCount64(binary.LittleEndian.Uint64(b[i:]))
	}
	for ; i < len(b); i++ {
		n += bits.OnesCount8(b[i])
	}
	return n
}

func shiftBitsGeneric(dst, src []byte, shift uint) {
	i := 0
	// Word at a time while a 9-byte window fits in src.
	for ; i+9 <= len(src) && i+8 <= len(dst); i += 8 {
		lo := binary.LittleEndian.Uint64(src[i:])
		hi := uint64(src[i+8])
		binary.LittleEndian.PutUint64(dst[i:], lo>>shift|hi<<(64-shift))
	}
	for ; i < len(dst); i++ {
		var next byte
		if i+1 < len(src) {
			next = src[i+1]
		}
		dst[i] = src[i]>>shift | next<<(8-shift)
	}
}
