//go:build amd64 && !noasm

package simd

import "unsafe"

//go:noescape
func sumI8AVX2(x unsafe.Pointer, n int) uint64

//go:noescape
func sumMaskedI8AVX2(x unsafe.Pointer, bits *byte, n int) uint64

//go:noescape
func sumI16AVX2(x unsafe.Pointer, n int) uint64

//go:noescape
func sumMaskedI16AVX2(x unsafe.Pointer, bits *byte, n int) uint64

//go:noescape
func sumI32AVX2(x unsafe.Pointer, n int) uint64

//go:noescape
func sumMaskedI32AVX2(x unsafe.Pointer, bits *byte, n int) uint64

//go:noescape
func sumI64AVX2(x unsafe.Pointer, n int) uint64

//go:noescape
func sumMaskedI64AVX2(x unsafe.Pointer, bits *byte, n int) uint64

//go:noescape
func sumU8AVX2(x unsafe.Pointer, n int) uint64

//go:noescape
func sumMaskedU8AVX2(x unsafe.Pointer, bits *byte, n int) uint64

//go:noescape
func sumU16AVX2(x unsafe.Pointer, n int) uint64

//go:noescape
func sumMaskedU16AVX2(x unsafe.Pointer, bits *byte, n int) uint64

//go:noescape
func sumU32AVX2(x unsafe.Pointer, n int) uint64

//go:noescape
func sumMaskedU32AVX2(x unsafe.Pointer, bits *byte, n int) uint64

//go:noescape
func sumF32AVX2(x unsafe.Pointer, n int) uint64

//go:noescape
func sumMaskedF32AVX2(x unsafe.Pointer, bits *byte, n int) uint64

//go:noescape
func sumF64AVX2(x unsafe.Pointer, n int) uint64

//go:noescape
func sumMaskedF64AVX2(x unsafe.Pointer, bits *byte, n int) uint64

//go:noescape
func minI32AVX2(x unsafe.Pointer, bits *byte, stride, n int, inv, ident int64) (acc [8]uint64)

//go:noescape
func minI64AVX2(x unsafe.Pointer, bits *byte, stride, n int, inv, ident int64) (acc [8]uint64)

//go:noescape
func minF32AVX2(x unsafe.Pointer, bits *byte, stride, n int, inv, ident int64) (acc [8]uint64)

//go:noescape
func minF64AVX2(x unsafe.Pointer, bits *byte, stride, n int, inv, ident int64) (acc [8]uint64)

//go:noescape
func sumI8AVX512(x unsafe.Pointer, n int) uint64

//go:noescape
func sumMaskedI8AVX512(x unsafe.Pointer, bits *byte, n int) uint64

//go:noescape
func sumI16AVX512(x unsafe.Pointer, n int) uint64

//go:noescape
func sumMaskedI16AVX512(x unsafe.Pointer, bits *byte, n int) uint64

//go:noescape
func sumI32AVX512(x unsafe.Pointer, n int) uint64

//go:noescape
func sumMaskedI32AVX512(x unsafe.Pointer, bits *byte, n int) uint64

//go:noescape
func sumI64AVX512(x unsafe.Pointer, n int) uint64

//go:noescape
func sumMaskedI64AVX512(x unsafe.Pointer, bits *byte, n int) uint64

//go:noescape
func sumU8AVX512(x unsafe.Pointer, n int) uint64

//go:noescape
func sumMaskedU8AVX512(x unsafe.Pointer, bits *byte, n int) uint64

//go:noescape
func sumU16AVX512(x unsafe.Pointer, n int) uint64

//go:noescape
func sumMaskedU16AVX512(x unsafe.Pointer, bits *byte, n int) uint64

//go:noescape
func sumU32AVX512(x unsafe.Pointer, n int) uint64

//go:noescape
func sumMaskedU32AVX512(x unsafe.Pointer, bits *byte, n int) uint64

//go:noescape
func sumF32AVX512(x unsafe.Pointer, n int) uint64

//go:noescape
func sumMaskedF32AVX512(x unsafe.Pointer, bits *byte, n int) uint64

//go:noescape
func sumF64AVX512(x unsafe.Pointer, n int) uint64

//go:noescape
func sumMaskedF64AVX512(x unsafe.Pointer, bits *byte, n int) uint64

//go:noescape
func minI32AVX512(x unsafe.Pointer, bits *byte, stride, n int, inv, ident int64) (acc [8]uint64)

//go:noescape
func minI64AVX512(x unsafe.Pointer, bits *byte, stride, n int, inv, ident int64) (acc [8]uint64)

//go:noescape
func minF32AVX512(x unsafe.Pointer, bits *byte, stride, n int, inv, ident int64) (acc [8]uint64)

//go:noescape
func minF64AVX512(x unsafe.Pointer, bits *byte, stride, n int, inv, ident int64) (acc [8]uint64)
