//go:build amd64 && !noasm

package simd

import "unsafe"

//go:noescape
func addI32AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func subI32AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func mulI32AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpEqI32AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpNeI32AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpLtI32AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpLeI32AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpGtI32AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpGeI32AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func addI64AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func subI64AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpEqI64AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpNeI64AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpLtI64AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpLeI64AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpGtI64AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpGeI64AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func addF32AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func subF32AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func mulF32AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpEqF32AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpNeF32AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpLtF32AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpLeF32AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpGtF32AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpGeF32AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func addF64AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func subF64AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func mulF64AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpEqF64AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpNeF64AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpLtF64AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpLeF64AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpGtF64AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpGeF64AVX2(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func bswap16AVX2(dst, src unsafe.Pointer, n int)

//go:noescape
func bswap32AVX2(dst, src unsafe.Pointer, n int)

//go:noescape
func bswap64AVX2(dst, src unsafe.Pointer, n int)

//go:noescape
func addI32AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func subI32AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func mulI32AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpEqI32AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpNeI32AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpLtI32AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpLeI32AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpGtI32AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpGeI32AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func addI64AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func subI64AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func mulI64AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpEqI64AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpNeI64AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpLtI64AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpLeI64AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpGtI64AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpGeI64AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func addF32AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func subF32AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func mulF32AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpEqF32AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpNeF32AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpLtF32AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpLeF32AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpGtF32AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpGeF32AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func addF64AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func subF64AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func mulF64AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpEqF64AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpNeF64AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpLtF64AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpLeF64AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpGtF64AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func cmpGeF64AVX512(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

//go:noescape
func bswap16AVX512(dst, src unsafe.Pointer, n int)

//go:noescape
func bswap32AVX512(dst, src unsafe.Pointer, n int)

//go:noescape
func bswap64AVX512(dst, src unsafe.Pointer, n int)
