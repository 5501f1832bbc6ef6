//go:build amd64 && !noasm

package simd

import "unsafe"

// sqrt64AVX2 writes the square roots of the n bytes (a multiple of 32) of
// float64 values at src to dst.
//
//go:noescape
func sqrt64AVX2(dst, src unsafe.Pointer, n int)
