//go:build amd64 && !noasm

package simd

//go:noescape
func copyValid32AVX512(dst, src, bits *byte, blocks int, shift uint)

//go:noescape
func copyValid64AVX512(dst, src, bits *byte, blocks int, shift uint)

//go:noescape
func copyValid32NTAVX512(dst, src, bits *byte, blocks int, shift uint)

//go:noescape
func copyValid64NTAVX512(dst, src, bits *byte, blocks int, shift uint)

//go:noescape
func copyValid32AVX2(dst, src, bits *byte, blocks int, shift uint)

//go:noescape
func copyValid64AVX2(dst, src, bits *byte, blocks int, shift uint)

//go:noescape
func copyValid32NTAVX2(dst, src, bits *byte, blocks int, shift uint)

//go:noescape
func copyValid64NTAVX2(dst, src, bits *byte, blocks int, shift uint)
