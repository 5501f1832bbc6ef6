package array

import "github.com/alkaid-go/alkaid/bitutil"

// shiftedBits is a growing bitmap that hands out views ending on a byte
// boundary, so that later appends never write a byte already handed out:
// copy s holds bit i at bit s+i, and a view of n bits comes from the copy
// with s = -n mod 8 (the array handed out then starts at offset s). Copy
// 0 always exists; the others are made when first needed (at most seven
// copies of the bitmap in all) and kept up to date from then on, so an
// append of k bits costs O(k) whatever the length, and the bitmaps take
// at most one byte per bit.
//
//	bits:     0 1 2 3 4 5 6 7 8 9 A          (n = 11)
//	copy 5:  |. . . . . 0 1 2|3 4 5 6 7 8 9 A|   view: 2 bytes, offset 5
type shiftedBits struct {
	n      int
	copies [8][]byte
}

// append adds bits [off, off+length) of src, or length set bits when src
// is nil.
func (b *shiftedBits) append(src []byte, off, length int) {
	for s := range b.copies {
		if s == 0 || b.copies[s] != nil {
			b.copies[s] = appendBits(b.copies[s], s+b.n, src, off, length)
		}
	}
	b.n += length
}

// shift is the offset at which a view of all the bits ends on a byte
// boundary.
func (b *shiftedBits) shift() int { return (8 - b.n%8) % 8 }

// view returns the bits at the offset shift(): a buffer that ends on a
// byte boundary, whose bytes no later append writes.
func (b *shiftedBits) view() []byte {
	s := b.shift()
	c := b.copies[s]
	if c == nil {
		c = make([]byte, bitutil.BytesForBits(s+b.n))
		bitutil.CopyBits(c, s, b.copies[0], 0, b.n)
		b.copies[s] = c
	}
	end := (s + b.n) / 8
	return c[:end:end]
}
