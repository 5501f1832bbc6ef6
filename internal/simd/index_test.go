package simd

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestIndex compares every level with bytes.Index over text from small
// alphabets (so that first and last bytes match often), every needle
// length up to 40, haystacks of every length up to 300 and a few past a
// kernel chunk, needles taken from the text (found) or made up (mostly
// not), at every start of the haystack in a buffer.
func TestIndex(t *testing.T) {
	forEachVector(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(9, 10))
		lengths := []int{1 << 16, 1<<16 + 71, 3<<16 + 5}
		for n := range 301 {
			lengths = append(lengths, n)
		}
		for _, n := range lengths {
			alpha := 2 + r.IntN(4)
			s := make([]byte, n)
			for i := range s {
				s[i] = 'a' + byte(r.IntN(alpha))
			}
			for range 8 {
				m := r.IntN(41)
				var needle []byte
				if m <= n && r.IntN(2) == 0 {
					at := r.IntN(n - m + 1)
					needle = append(needle, s[at:at+m]...)
				} else {
					for range m {
						needle = append(needle, 'a'+byte(r.IntN(alpha+1)))
					}
				}
				from := r.IntN(n + 1)
				if got, want := Index(s[from:], needle), bytes.Index(s[from:], needle); got != want {
					t.Fatalf("%s: Index(%d bytes, %q) = %d, bytes.Index says %d", Level(), n-from, needle, got, want)
				}
			}
		}
	})
}

// FuzzIndex compares every level with bytes.Index.
func FuzzIndex(f *testing.F) {
	f.Add([]byte("banana split 123 and more text to pass sixty-four bytes of haystack"), []byte("an"))
	f.Add([]byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"), []byte("aab"))
	f.Add([]byte("x"), []byte(""))
	f.Fuzz(func(t *testing.T, s, needle []byte) {
		saved := active
		defer func() { active = saved }()
		want := bytes.Index(s, needle)
		for _, k := range levels {
			active = k
			if got := Index(s, needle); got != want {
				t.Fatalf("%s: Index(%q, %q) = %d, bytes.Index says %d", k.level, s, needle, got, want)
			}
		}
	})
}
