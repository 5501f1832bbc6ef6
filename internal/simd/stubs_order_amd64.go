//go:build amd64 && !noasm

package simd

import "unsafe"

//go:noescape
func orderedI32AVX2(p unsafe.Pointer, n int) int

//go:noescape
func orderedI64AVX2(p unsafe.Pointer, n int) int

//go:noescape
func orderedI32AVX512(p unsafe.Pointer, n int) int

//go:noescape
func orderedI64AVX512(p unsafe.Pointer, n int) int
