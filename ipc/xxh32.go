package ipc

import (
	"encoding/binary"
	"math/bits"
)

// xxh32 is the 32-bit xxHash of b with seed 0, which the LZ4 frame format
// uses for its header, block and content checksums.
func xxh32(b []byte) uint32 {
	const (
		p1 = 0x9E3779B1
		p2 = 0x85EBCA77
		p3 = 0xC2B2AE3D
		p4 = 0x27D4EB2F
		p5 = 0x165667B1
	)
	round := func(acc, lane uint32) uint32 { return bits.RotateLeft32(acc+lane*p2, 13) * p1 }
	n := len(b)
	var h uint32
	if len(b) >= 16 {
		var v1, v2, v3, v4 uint32 = p1, p2, 0, 0
		v1 += p2
		v4 -= p1
		for ; len(b) >= 16; b = b[16:] {
			v1 = round(v1, binary.LittleEndian.Uint32(b))
			v2 = round(v2, binary.LittleEndian.Uint32(b[4:]))
			v3 = round(v3, binary.LittleEndian.Uint32(b[8:]))
			v4 = round(v4, binary.LittleEndian.Uint32(b[12:]))
		}
		h = bits.RotateLeft32(v1, 1) + bits.RotateLeft32(v2, 7) + bits.RotateLeft32(v3, 12) + bits.RotateLeft32(v4, 18)
	} else {
		h = p5
	}
	h += uint32(n)
	for ; len(b) >= 4; b = b[4:] {
		h = bits.RotateLeft32(h+binary.LittleEndian.Uint32(b)*p3, 17) * p4
	}
	for _, c := range b {
		h = bits.RotateLeft32(h+uint32(c)*p5, 11) * p1
	}
	h ^= h >> 15
	h *= p2
	h ^= h >> 13
	h *= p3
	h ^= h >> 16
	return h
}
