//go:build amd64 && !noasm

package simd

func addArchLevels() {}
