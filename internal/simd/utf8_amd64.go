//go:build amd64 && !noasm

package simd

// utf8Chunk bounds the bytes one kernel call checks, so that the
// goroutine reaches a preemption point every few microseconds.
const utf8Chunk = 64 << 10

// validUTF8AVX2 checks the n bytes at p (n a positive multiple of 32)
// with prev pointing at the 32 bytes that precede them in the input (or
// at 32 zero bytes at its start). It reports false when a character is
// malformed or cut short by a following byte; a character that the n
// bytes end inside of is left to the next call.
//
//go:noescape
func validUTF8AVX2(prev, p *byte, n int) bool

// validUTF8Vector runs validUTF8AVX2 over the whole 32-byte blocks of b,
// in chunks, then over a block holding the tail padded with zero bytes:
// a character cut short by the end of b is followed by a zero there,
// which the kernel rejects.
func validUTF8Vector(b []byte) bool {
	var zero, tail [32]byte
	prev := &zero[0]
	m := len(b) &^ 31
	for i := 0; i < m; i += utf8Chunk {
		n := min(utf8Chunk, m-i)
		if !validUTF8AVX2(prev, &b[i], n) {
			return false
		}
		prev = &b[i+n-32]
	}
	copy(tail[:], b[m:])
	return validUTF8AVX2(prev, &tail[0], 32)
}
