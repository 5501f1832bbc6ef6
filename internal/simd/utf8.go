package simd

import (
	"encoding/binary"
	"unicode/utf8"
)

// ValidUTF8 reports whether b is valid UTF-8, with the answer of
// utf8.Valid. The vector levels check 32 bytes per step without
// decoding a character: every pair of adjacent bytes is classified by
// table lookups on its nibbles (the method of Keiser and Lemire,
// "Validating UTF-8 in less than one instruction per byte", 2021).
func ValidUTF8(b []byte) bool { return active.validUTF8(b) }

// validUTF8Generic is the reference for ValidUTF8: utf8.Valid, faster
// over mostly ASCII text. Blocks of 32 ASCII bytes are skipped four
// words at a time, and utf8.Valid checks each run of blocks with other
// bytes, up to the next ASCII block (which starts a character).
func validUTF8Generic(b []byte) bool {
	const block = 32
	const high = 0x8080808080808080
	ascii := func(i int) bool {
		w := binary.LittleEndian.Uint64(b[i:]) | binary.LittleEndian.Uint64(b[i+8:]) |
			binary.LittleEndian.Uint64(b[i+16:]) | binary.LittleEndian.Uint64(b[i+24:])
		return w&high == 0
	}
	i := 0
	for i+block <= len(b) {
		if ascii(i) {
			i += block
			continue
		}
		j := i + block
		for j+block <= len(b) && !ascii(j) {
			j += block
		}
		if j+block > len(b) {
			return utf8.Valid(b[i:])
		}
		if !utf8.Valid(b[i:j]) {
			return false
		}
		i = j + block
	}
	return utf8.Valid(b[i:])
}
