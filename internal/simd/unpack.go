package simd

import (
	"encoding/binary"
	"unsafe"
)

// MaxUnpackBits is the widest value UnpackBits32 unpacks.
const MaxUnpackBits = 25

// UnpackBits32 unpacks values of bw bits (1 <= bw <= MaxUnpackBits),
// packed least significant bit first as Parquet's bit-packed runs are,
// from src into dst, eight at a time: dst[i] is the value at bit i*bw.
// It stops before a group of eight that dst has no room for or that
// would read past src's end with 16 bytes more (a vector load), and
// returns how many values it wrote, a multiple of eight; the caller
// unpacks the rest (all of them for a bw out of range: it writes none).
func UnpackBits32[T ~int32 | ~uint32](dst []T, src []byte, bw int) int {
	if bw < 1 || bw > MaxUnpackBits {
		return 0
	}
	groups := len(dst) / 8
	if reach := unpackReach(bw); len(src) < reach {
		groups = 0
	} else {
		groups = min(groups, (len(src)-reach)/bw+1)
	}
	if groups == 0 {
		return 0
	}
	out := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(dst))), groups*8)
	active.unpack32(out, src, bw)
	return groups * 8
}

// unpackReach is how many bytes from its start the vector unpacking of
// a group of eight bw-bit values reads: 16 from the group's start and 16
// from its fifth value's byte.
func unpackReach(bw int) int { return 4*bw/8 + 16 }

// unpack32Generic is the reference for UnpackBits32: it unpacks
// len(dst) values (a multiple of eight), src holding the reach of each
// group.
func unpack32Generic(dst []uint32, src []byte, bw int) {
	mask := uint32(1)<<bw - 1
	for i := range dst {
		// A value and its shift take at most 32 bits (bw <= 25).
		bit := i * bw
		w := binary.LittleEndian.Uint32(src[bit>>3:])
		dst[i] = w >> (bit & 7) & mask
	}
}
