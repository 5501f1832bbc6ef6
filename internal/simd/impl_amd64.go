//go:build amd64 && !noasm

package simd

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// The vector levels start as copies of the generic one and replace the
// kernels that have assembly. The glue functions below run the assembly on
// the largest prefix it accepts and the generic code on the rest.

var avx2Level, avx512Level kernels

func addArchLevels() {
	if !cpu.X86.HasAVX2 {
		return
	}
	avx2Level = generic
	avx2Level.level = "avx2"
	setBitmapAVX2(&avx2Level)
	setAggAVX2(&avx2Level)
	setElemAVX2(&avx2Level)
	avx2Level.unpack32 = unpack32Vector
	levels = append(levels, &avx2Level)
	if !(cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512DQ &&
		cpu.X86.HasAVX512VL && cpu.X86.HasAVX512VPOPCNTDQ) {
		return
	}
	avx512Level = avx2Level
	avx512Level.level = "avx512"
	setBitmapAVX512(&avx512Level)
	setAggAVX512(&avx512Level)
	setElemAVX512(&avx512Level)
	levels = append(levels, &avx512Level)
}

// streamMin is the output size from which the binary bitmap kernels store
// with non-temporal hints: such outputs do not fit the caches anyway, and
// streaming them saves the read-for-ownership of every destination line.
const streamMin = 4 << 20

// binGlue runs asm on the prefix of len(dst) rounded down to a multiple of
// block bytes and ref on the rest. Outputs of at least streamMin bytes go
// through nt instead, after a generic head that aligns dst to block bytes.
func binGlue(asm, nt func(dst, a, b *byte, n int), ref func(dst, a, b []byte), block int) func(dst, a, b []byte) {
	return func(dst, a, b []byte) {
		k := asm
		if len(dst) >= streamMin {
			h := int(-uintptr(unsafe.Pointer(&dst[0]))) & (block - 1)
			ref(dst[:h], a[:h], b[:h])
			dst, a, b = dst[h:], a[h:], b[h:]
			k = nt
		}
		m := len(dst) &^ (block - 1)
		if m > 0 {
			k(&dst[0], &a[0], &b[0], m)
		}
		ref(dst[m:], a[m:], b[m:])
	}
}

func notGlue(asm func(dst, src *byte, n int), block int) func(dst, src []byte) {
	return func(dst, src []byte) {
		m := len(dst) &^ (block - 1)
		if m > 0 {
			asm(&dst[0], &src[0], m)
		}
		notGeneric(dst[m:], src[m:])
	}
}

func popGlue(asm func(b *byte, n int) int, block int) func(b []byte) int {
	return func(b []byte) int {
		m := len(b) &^ (block - 1)
		c := 0
		if m > 0 {
			c = asm(&b[0], m)
		}
		return c + popCountGeneric(b[m:])
	}
}

func shiftGlue(asm func(dst, src *byte, n int, shift uint), block int) func(dst, src []byte, shift uint) {
	return func(dst, src []byte, shift uint) {
		// The kernel reads one byte past each block.
		m := max(0, min(len(dst), len(src)-1)) &^ (block - 1)
		if m > 0 {
			asm(&dst[0], &src[0], m, shift)
		}
		shiftBitsGeneric(dst[m:], src[m:], shift)
	}
}

func setBitmapAVX2(k *kernels) {
	k.and = binGlue(andAVX2, andNTAVX2, andGeneric, 32)
	k.or = binGlue(orAVX2, orNTAVX2, orGeneric, 32)
	k.xor = binGlue(xorAVX2, xorNTAVX2, xorGeneric, 32)
	k.andNot = binGlue(andNotAVX2, andNotNTAVX2, andNotGeneric, 32)
	k.not = notGlue(notAVX2, 32)
	k.popCount = popGlue(popCountAVX2, 32)
	k.shiftBits = shiftGlue(shiftBitsAVX2, 32)
	k.copyValid32 = copyValidGlue[uint32](copyValid32AVX2, copyValid32NTAVX2, 4)
	k.copyValid64 = copyValidGlue[uint64](copyValid64AVX2, copyValid64NTAVX2, 2)
	k.validUTF8 = validUTF8Vector
	k.index = indexVector
}

func setBitmapAVX512(k *kernels) {
	k.and = binGlue(andAVX512, andNTAVX512, andGeneric, 64)
	k.or = binGlue(orAVX512, orNTAVX512, orGeneric, 64)
	k.xor = binGlue(xorAVX512, xorNTAVX512, xorGeneric, 64)
	k.andNot = binGlue(andNotAVX512, andNotNTAVX512, andNotGeneric, 64)
	k.not = notGlue(notAVX512, 64)
	k.popCount = popGlue(popCountAVX512, 64)
	k.shiftBits = shiftGlue(shiftBitsAVX512, 64)
	k.copyValid32 = copyValidGlue[uint32](copyValid32AVX512, copyValid32NTAVX512, 4)
	k.copyValid64 = copyValidGlue[uint64](copyValid64AVX512, copyValid64NTAVX512, 2)
}
