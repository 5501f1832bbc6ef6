package simd

import (
	"fmt"
	"unsafe"
)

// CopyValid copies src into dst and zeroes the elements of dst whose bit
// off+i of bits is clear: the values of a layout whose null slots hold
// zero, in one pass over the memory. dst and src must have the same length
// and not overlap, and bits must hold off+len(dst) bits.
func CopyValid[T any](dst, src []T, bits []byte, off int) {
	if len(src) != len(dst) || off < 0 || len(bits) < (off+len(dst)+7)>>3 {
		panic(fmt.Sprintf("simd: CopyValid of %d elements into %d with %d bits from bit %d", len(src), len(dst), 8*len(bits), off))
	}
	var zero T
	switch unsafe.Sizeof(zero) {
	case 4:
		active.copyValid32(cast[uint32](dst), cast[uint32](src), bits, off)
	case 8:
		active.copyValid64(cast[uint64](dst), cast[uint64](src), bits, off)
	default:
		copyValidGeneric(dst, src, bits, off)
	}
}

// copyValidGeneric is the reference for CopyValid: a copy, then the null
// slots cleared, eight flags at a time.
func copyValidGeneric[T any](dst, src []T, bits []byte, off int) {
	copy(dst, src)
	var zero T
	i := 0
	for ; i < len(dst) && (off+i)&7 != 0; i++ {
		if bits[(off+i)>>3]>>((off+i)&7)&1 == 0 {
			dst[i] = zero
		}
	}
	for ; i < len(dst); i += 8 {
		b := bits[(off+i)>>3]
		if b == 0xFF {
			continue
		}
		for k := range min(8, len(dst)-i) {
			if b>>k&1 == 0 {
				dst[i+k] = zero
			}
		}
	}
}
