package bitutil

import (
	"iter"
	"math/bits"
)

// Run is a maximal run of equal bits: Len bits from Start (relative to the
// offset the iteration started at), all set or all clear as Set says.
type Run struct {
	Start, Len int
	Set        bool
}

// SetIndices yields, in increasing order, the index i (relative to off) of
// every set bit in [off, off+n) of b. Clear words are skipped 64 bits at a
// time. It panics if the range is not inside b.
func SetIndices(b []byte, off, n int) iter.Seq[int] {
	checkRange("SetIndices", b, off, n)
	return func(yield func(int) bool) {
		for base := 0; base < n; base += 64 {
			w := loadBits(b, off+base, min(64, n-base))
			for w != 0 {
				if !yield(base + bits.TrailingZeros64(w)) {
					return
				}
				w &= w - 1
			}
		}
	}
}

// Runs yields the maximal runs of set and clear bits of [off, off+n) of b,
// in order; their lengths add up to n. Uniform words are crossed 64 bits
// at a time. It panics if the range is not inside b.
func Runs(b []byte, off, n int) iter.Seq[Run] {
	checkRange("Runs", b, off, n)
	return func(yield func(Run) bool) {
		pos := 0
		for pos < n {
			start := pos
			set := GetBit(b, off+pos)
			for pos < n {
				m := min(64, n-pos)
				w := loadBits(b, off+pos, m)
				if set {
					w = ^w & lowMask(m)
				}
				if w != 0 { // the first differing bit ends the run
					pos += bits.TrailingZeros64(w)
					break
				}
				pos += m
			}
			if !yield(Run{Start: start, Len: pos - start, Set: set}) {
				return
			}
		}
	}
}
