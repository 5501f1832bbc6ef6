package simd

import "bytes"

// Index returns the index of the first instance of needle in s, or -1:
// the answer of bytes.Index. The vector levels look for needles of two
// bytes or more by their first and last bytes together, 32 positions per
// step, and compare the bytes between only where both match; text where
// the first byte is common but the pair rare (an English letter and the
// one after it) is where this gains most over bytes.Index.
func Index(s, needle []byte) int { return active.index(s, needle) }

// indexGeneric is the reference for Index.
func indexGeneric(s, needle []byte) int { return bytes.Index(s, needle) }
