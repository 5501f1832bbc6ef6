//go:build amd64 && !noasm

package simd

import "bytes"

// indexChunk bounds the positions one kernel call scans, so that the
// goroutine reaches a preemption point every few microseconds.
const indexChunk = 64 << 10

// indexPairAVX2 returns the first i in [0, n) (n a positive multiple of
// 32) with p[i] == first and p[i+k] == last, or -1. It reads p[0:n+k].
//
//go:noescape
func indexPairAVX2(p *byte, n int, first, last byte, k int) int

// indexVector is Index with indexPairAVX2 finding the candidates over
// the positions whose 32-byte blocks fit in s, bytes.Index the rest.
func indexVector(s, needle []byte) int {
	k := len(needle) - 1
	if k < 1 || len(s) < 64+k {
		return bytes.Index(s, needle)
	}
	i := 0
	for {
		n := min(indexChunk, len(s)-k-i) &^ 31
		if n <= 0 {
			break
		}
		j := indexPairAVX2(&s[i], n, needle[0], needle[k], k)
		if j < 0 {
			i += n
			continue
		}
		c := i + j
		if bytes.Equal(s[c+1:c+k], needle[1:k]) {
			return c
		}
		i = c + 1
	}
	if j := bytes.Index(s[i:], needle); j >= 0 {
		return i + j
	}
	return -1
}
