//go:build !amd64 || noasm

package simd

// addArchLevels adds nothing: this build has only the pure-Go level.
func addArchLevels() {}
