//go:build amd64 && !noasm

package simd

//go:noescape
func andAVX2(dst, a, b *byte, n int)

//go:noescape
func orAVX2(dst, a, b *byte, n int)

//go:noescape
func xorAVX2(dst, a, b *byte, n int)

//go:noescape
func andNotAVX2(dst, a, b *byte, n int)

//go:noescape
func notAVX2(dst, src *byte, n int)

//go:noescape
func popCountAVX2(b *byte, n int) int

//go:noescape
func shiftBitsAVX2(dst, src *byte, n int, shift uint)

//go:noescape
func andAVX512(dst, a, b *byte, n int)

//go:noescape
func orAVX512(dst, a, b *byte, n int)

//go:noescape
func xorAVX512(dst, a, b *byte, n int)

//go:noescape
func andNotAVX512(dst, a, b *byte, n int)

//go:noescape
func notAVX512(dst, src *byte, n int)

//go:noescape
func popCountAVX512(b *byte, n int) int

//go:noescape
func shiftBitsAVX512(dst, src *byte, n int, shift uint)

//go:noescape
func andNTAVX2(dst, a, b *byte, n int)

//go:noescape
func andNTAVX512(dst, a, b *byte, n int)

//go:noescape
func orNTAVX2(dst, a, b *byte, n int)

//go:noescape
func orNTAVX512(dst, a, b *byte, n int)

//go:noescape
func xorNTAVX2(dst, a, b *byte, n int)

//go:noescape
func xorNTAVX512(dst, a, b *byte, n int)

//go:noescape
func andNotNTAVX2(dst, a, b *byte, n int)

//go:noescape
func andNotNTAVX512(dst, a, b *byte, n int)
