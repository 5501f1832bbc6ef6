package quote

import (
	"strconv"
	"unicode/utf8"
)

// Max is how many bytes of an input a message quotes.
const Max = 100

// String quotes s as strconv.Quote does; when s is longer than Max bytes,
// it quotes the first Max bytes or fewer (cut at a character boundary)
// followed by "…" and the full length: "abc…" (600000 bytes).
func String(s string) string {
	if len(s) <= Max {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:cut(s)]) + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// Bytes is String for a byte slice, copying at most Max bytes of it.
func Bytes(b []byte) string {
	if len(b) <= Max {
		return strconv.Quote(string(b))
	}
	return strconv.Quote(string(b[:cut(b)])) + "… (" + strconv.Itoa(len(b)) + " bytes)"
}

// cut is where a quote of s, longer than Max bytes, stops: Max, or the
// start of the character Max falls within.
func cut[T string | []byte](s T) int {
	n := Max
	for n > Max-utf8.UTFMax && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}
