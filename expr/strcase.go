package expr

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/memory"
)

// letterCase is the mapping of lower or upper: f maps one character,
// and first is the first of the 26 ASCII letters f changes ('A' for
// lower, 'a' for upper; each flips bit 0x20).
type letterCase struct {
	first byte
	f     func(rune) rune
	two   func() *[0x780]uint16 // f of U+0080..U+07FF, 0 where past U+FFFF
}

var (
	toLower = newLetterCase('A', unicode.ToLower)
	toUpper = newLetterCase('a', upperRune)
)

func newLetterCase(first byte, f func(rune) rune) *letterCase {
	return &letterCase{first: first, f: f, two: sync.OnceValue(func() *[0x780]uint16 {
		var t [0x780]uint16
		for i := range t {
			if m := f(rune(0x80 + i)); m <= 0xffff {
				t[i] = uint16(m)
			}
		}
		return &t
	})}
}

// convert writes the mapping of s into dst (len(dst) >= len(s)) while
// each character maps to one of the same length, and returns the bytes
// of s done: len(s), or the offset of the first character that maps to
// another length or is not valid UTF-8. ASCII goes eight bytes at a
// time: the letters are the bytes at or past first and not past first+25,
// told apart by two additions whose carries stop at each byte's top bit.
func (lc *letterCase) convert(dst, s []byte) int {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	from, past := (0x80-uint64(lc.first))*ones, (0x80-uint64(lc.first)-26)*ones
	dst = dst[:len(s)]
	var two *[0x780]uint16
	i := 0
	for i < len(s) {
		for i+8 <= len(s) {
			w := binary.LittleEndian.Uint64(s[i:])
			if w&high != 0 {
				break
			}
			letters := (w + from) &^ (w + past) & high
			binary.LittleEndian.PutUint64(dst[i:], w^letters>>2)
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c-lc.first < 26 {
				c ^= 0x20
			}
			dst[i] = c
			i++
			continue
		}
		if c >= 0xc2 && c < 0xe0 && i+1 < len(s) && s[i+1]&0xc0 == 0x80 {
			if two == nil {
				two = lc.two()
			}
			m := two[rune(c&0x1f)<<6|rune(s[i+1]&0x3f)-0x80]
			if m < 0x80 || m >= 0x800 {
				return i
			}
			dst[i], dst[i+1] = 0xc0|byte(m>>6), 0x80|byte(m&0x3f)
			i += 2
			continue
		}
		r, w := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && w == 1 {
			return i
		}
		m := lc.f(r)
		if m == r {
			copy(dst[i:i+w], s[i:i+w])
		} else if utf8.RuneLen(m) != w {
			return i
		} else {
			utf8.EncodeRune(dst[i:], m)
		}
		i += w
	}
	return len(s)
}

// appendTo appends the mapping of s (valid UTF-8) to dst.
func (lc *letterCase) appendTo(dst, s []byte) []byte {
	k := len(dst)
	dst = append(dst, s...)
	n := lc.convert(dst[k:], s)
	if n == len(s) {
		return dst
	}
	return appendMapped(dst[:k+n], s[n:], lc.f)
}

// array is the mapping of every value of s (checked valid UTF-8) as a
// utf8 array with s's nulls. The bytes of all the values are mapped in
// one pass while no character changes length, so the offsets stay those
// of s; the values from the one holding a character that does (or
// invalid bytes, under a null) are mapped one by one, a null one empty.
func (lc *letterCase) array(s *array.Binary[int32]) (array.Array, error) {
	n := s.Len()
	offs, data := s.Offsets(), s.ValueBytes()
	lo, hi := offs[0], offs[n]
	out := rawmem.Bytes(int(hi - lo))
	done := int32(lc.convert(out, data[lo:hi]))
	var outOffs []int32
	if done == hi-lo && lo == 0 {
		outOffs = offs
	} else {
		outOffs = make([]int32, n+1)
		// Rows [0, r) end within the bytes done.
		r := n
		if done < hi-lo {
			r = sort.Search(n, func(i int) bool { return offs[i+1]-lo > done })
		}
		for i, o := range offs[:r+1] {
			outOffs[i] = o - lo
		}
		out = out[:outOffs[r]]
		hasNulls := s.NullN() > 0
		for i := r; i < n; i++ {
			if !hasNulls || s.IsValid(i) {
				out = lc.appendTo(out, data[offs[i]:offs[i+1]])
				if len(out) > math.MaxInt32 {
					return nil, fmt.Errorf("row %d: result passes 2 GiB of string data: %w", i, datatype.ErrLimit)
				}
			}
			outOffs[i+1] = int32(len(out))
		}
	}
	valid, nulls := validityLike(s)
	d := array.NewData(datatype.String, n, []*memory.Buffer{valid, memory.FromSlice(outOffs), memory.FromSlice(out)}, nil, nulls, 0)
	return array.Make(d)
}
