//go:build amd64 && !noasm

package simd

import "unsafe"

// copyValidGlue runs a CopyValid kernel over whole 64-byte blocks of dst
// (T of 4 or 8 bytes) and the generic code on the head and the tail. The
// kernel reads its masks as words of mask bytes from the first bit of each
// block, so a block is left to the tail when its word would pass the end
// of bits. Outputs of at least streamMin bytes are stored with
// non-temporal hints, after a head that aligns dst to 64 bytes.
func copyValidGlue[T uint32 | uint64](asm, nt func(dst, src, bits *byte, blocks int, shift uint), mask int) func(dst, src []T, bits []byte, off int) {
	return func(dst, src []T, bits []byte, off int) {
		size := int(unsafe.Sizeof(T(0)))
		epb := 64 / size
		if len(dst) < 2*epb {
			copyValidGeneric(dst, src, bits, off)
			return
		}
		k, h := asm, 0
		if addr := int(uintptr(unsafe.Pointer(&dst[0]))); len(dst)*size >= streamMin && addr%size == 0 {
			k, h = nt, (-addr&63)/size
		}
		blocks := (len(dst) - h) / epb
		for blocks > 0 && (off+h+(blocks-1)*epb)>>3+mask > len(bits) {
			blocks--
		}
		copyValidGeneric(dst[:h], src[:h], bits, off)
		if blocks > 0 {
			p := off + h
			k((*byte)(unsafe.Pointer(&dst[h])), (*byte)(unsafe.Pointer(&src[h])), &bits[p>>3], blocks, uint(p&7))
		}
		m := h + blocks*epb
		copyValidGeneric(dst[m:], src[m:], bits, off+m)
	}
}
