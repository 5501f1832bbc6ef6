package simd

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// utf8Text is valid UTF-8 of about n bytes: ASCII and characters of two,
// three and four bytes, the edges of each length among them.
func utf8Text(r *rand.Rand, n int) []byte {
	edges := []rune{0, 0x7f, 0x80, 0x7ff, 0x800, 0xfff, 0x1000, 0xd7ff, 0xe000, 0xfffd, 0xffff,
		0x10000, 0x3ffff, 0x40000, 0xfffff, 0x100000, 0x10ffff}
	b := make([]byte, 0, n+4)
	for len(b) < n {
		var c rune
		switch k := r.IntN(10); {
		case k < 5:
			c = rune(r.IntN(0x80))
		case k < 7:
			c = rune(0x80 + r.IntN(0x780))
		case k < 8:
			c = rune(0x800 + r.IntN(0xf800))
			if c >= 0xd800 && c < 0xe000 {
				c -= 0x800
			}
		case k < 9:
			c = rune(0x10000 + r.IntN(0x100000))
		default:
			c = edges[r.IntN(len(edges))]
		}
		b = utf8.AppendRune(b, c)
	}
	return b
}

// checkValidUTF8 compares ValidUTF8 at the active level with utf8.Valid.
func checkValidUTF8(t *testing.T, b []byte) {
	t.Helper()
	if got, want := ValidUTF8(b), utf8.Valid(b); got != want {
		if len(b) > 200 {
			t.Fatalf("%s: ValidUTF8 of %d bytes = %v, utf8.Valid says %v", Level(), len(b), got, want)
		}
		t.Fatalf("%s: ValidUTF8(%q) = %v, utf8.Valid says %v", Level(), b, got, want)
	}
}

// TestValidUTF8 compares every level with utf8.Valid on valid text of
// every length up to 300 and across chunk ends, and on copies with one
// byte replaced, inserted or cut at a random place, or near the end of
// a 16- or 32-byte block (where the vector levels carry state over).
func TestValidUTF8(t *testing.T) {
	special := []byte{0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf,
		0xe0, 0xe1, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf4, 0xf5, 0xf7, 0xf8, 0xff}
	forEachVector(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 8))
		const chunk = 64 << 10 // utf8Chunk of the vector levels
		lengths := []int{chunk - 1, chunk, chunk + 33, 3*chunk + 5}
		for n := range 301 {
			lengths = append(lengths, n)
		}
		for _, n := range lengths {
			b := utf8Text(r, n)
			checkValidUTF8(t, b)
			checkValidUTF8(t, b[:len(b)-min(len(b), 1)])
			for range 20 {
				if len(b) == 0 {
					break
				}
				var i int
				if r.IntN(2) == 0 {
					i = r.IntN(len(b))
				} else {
					i = min(len(b)-1, r.IntN(len(b)/16+1)*16+r.IntN(4)-2)
					i = max(i, 0)
				}
				c := special[r.IntN(len(special))]
				if r.IntN(3) == 0 {
					c = byte(r.Uint32())
				}
				m := append([]byte(nil), b...)
				m[i] = c
				checkValidUTF8(t, m)
				ins := append(append(append([]byte(nil), b[:i]...), c), b[i:]...)
				checkValidUTF8(t, ins)
				checkValidUTF8(t, b[:i])
			}
		}
	})
}

// TestValidUTF8Pairs checks every two-byte sequence and every
// three-byte sequence starting E0..F4 (with a third byte from a sample)
// at each place a block or lane boundary can cut it, followed by a
// continuation byte and by ASCII.
func TestValidUTF8Pairs(t *testing.T) {
	forEachVector(t, func(t *testing.T) {
		buf := make([]byte, 70)
		for _, at := range []int{0, 14, 15, 30, 31, 66} {
			for x := range 256 {
				for y := range 256 {
					for _, z := range []byte{'a', 0x80, 0x9f, 0xbf} {
						if x < 0xe0 && z != 'a' && z != 0x80 {
							continue
						}
						for i := range buf {
							buf[i] = 'a'
						}
						buf[at], buf[at+1], buf[at+2] = byte(x), byte(y), z
						checkValidUTF8(t, buf[:min(len(buf), at+3)])
						checkValidUTF8(t, buf)
					}
				}
			}
		}
	})
}

// FuzzValidUTF8 compares every level with utf8.Valid.
func FuzzValidUTF8(f *testing.F) {
	for _, s := range []string{"", "ascii only, more than thirty-two bytes long....", "ä" + string(make([]byte, 40)) + "\xff",
		string(make([]byte, 31)) + "€" + string(make([]byte, 40)), string(make([]byte, 32)) + "\xe2\x82",
		string(make([]byte, 30)) + "\xf0\x9f\x8e\x89 party", "\xed\xa0\x80", "\xf4\x90\x80\x80"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		saved := active
		defer func() { active = saved }()
		for _, k := range levels {
			active = k
			checkValidUTF8(t, b)
		}
	})
}

// BenchmarkValidUTF8 checks 16 MiB of the strings of
// bench/duckdb/strfn ("ÄÖÜ straße 123": three in seven hold non-ASCII
// characters) and 16 MiB of ASCII, at every level.
func BenchmarkValidUTF8(b *testing.B) {
	words := []string{"Hello World", "ÄÖÜ straße", "banana split", "emoji 🎉 party", "MiXeD cAsE text"}
	var mixed []byte
	for i := 0; len(mixed) < 16<<20; i++ {
		mixed = fmt.Appendf(mixed, "%s %d", words[(i*31)%7%5], i)
	}
	ascii := make([]byte, len(mixed))
	for i := range ascii {
		ascii[i] = 'a' + byte(i%26)
	}
	for _, in := range []struct {
		name string
		b    []byte
	}{{"strfn", mixed}, {"ascii", ascii}} {
		for _, k := range levels {
			b.Run(in.name+"/"+k.level, func(b *testing.B) {
				withLevel(k, func() {
					b.SetBytes(int64(len(in.b)))
					for b.Loop() {
						if !ValidUTF8(in.b) {
							b.Fatal("invalid")
						}
					}
				})
			})
		}
	}
}
