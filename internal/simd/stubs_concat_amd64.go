//go:build amd64 && !noasm

package simd

import "unsafe"

// The concat kernels, by header size (16: strings, 24: byte slices) and
// width of the ends (32 or 64 bits); see concatKernel.

//go:noescape
func concatS16E32AVX2(dst unsafe.Pointer, dstLen, pos int, ends unsafe.Pointer, base int, hdrs unsafe.Pointer, i, n int, valid unsafe.Pointer) (stop, end int)

//go:noescape
func concatS16E64AVX2(dst unsafe.Pointer, dstLen, pos int, ends unsafe.Pointer, base int, hdrs unsafe.Pointer, i, n int, valid unsafe.Pointer) (stop, end int)

//go:noescape
func concatS24E32AVX2(dst unsafe.Pointer, dstLen, pos int, ends unsafe.Pointer, base int, hdrs unsafe.Pointer, i, n int, valid unsafe.Pointer) (stop, end int)

//go:noescape
func concatS24E64AVX2(dst unsafe.Pointer, dstLen, pos int, ends unsafe.Pointer, base int, hdrs unsafe.Pointer, i, n int, valid unsafe.Pointer) (stop, end int)
