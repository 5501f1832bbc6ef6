package array

import (
	"bytes"

	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
)

// inPlaceLead is the number of zero or empty slots an in-place Growable
// keeps before the first slot of its offsets, values, views and indices,
// so that it can hand them out from any offset 0 to 7 without a copy.
const inPlaceLead = 8

// GrowFrom starts a Growable that holds d and grows in place, as IPC
// dictionary deltas grow a dictionary: [Growable.Append] adds the slots
// of later arrays of d's type, and [Growable.Finish] may be called any
// number of times, each time returning the array so far. Every Data
// returned stays as it was: no byte of it is ever written again, so it
// may be read on other goroutines while the array grows; its buffers
// share the bytes written so far, and capacity grows by doubling, so n
// appends cost time in proportion to the slots they bring.
//
// Bitmaps (validity, bool values) are the hard part: the next append
// would change the last byte of a bitmap handed out, so Finish hands
// out arrays at the offset (0 to 7) at which their bitmaps end on a byte
// boundary, each from a copy of the bitmap shifted by that offset (see
// shiftCopies), and the other buffers keep inPlaceLead slots before their
// first so that they can start at any such offset. A struct is handed out
// at such an offset with its children led by as many slots. Unions and
// run-end encoded arrays (no validity bitmap) are handed out at offset 0;
// so are fixed-size lists and structs holding a union, a run-end encoded
// array or a fixed-size list, which then hand out a copy of their
// validity bitmap, n/8 bytes per Finish.
//
// gen tells the generation of the dictionary of dictionary-encoded values
// (which changes when that dictionary is replaced, not when it grows):
// Append refuses values whose dictionary is of another generation than
// the earlier ones'. With a nil gen such values are refused.
func GrowFrom(d *Data, gen func(*Data) uint64) (*Growable, error) {
	if d == nil {
		return nil, invalidf("growable: nil data")
	}
	// Room for a quarter more before the buffers first grow: deltas are
	// usually small next to what they extend.
	g, err := newGrowableMode(d.Type, nil, d.Length+d.Length/4, true, gen)
	if err != nil {
		return nil, err
	}
	if err := g.Append(d); err != nil {
		return nil, err
	}
	return g, nil
}

// Append adds every slot of d, of the Growable's type, to a Growable
// started by [GrowFrom]; d then is its source 0 (the only one: earlier
// ones are not kept), as ExtendRange and ExtendIndices number sources.
// d must be valid as [ValidateSafe] checks, as the sources of
// [NewGrowable] must. On an error (d is not as its type says, offsets
// would overflow, the dictionary of its values was replaced) the
// Growable must be dropped; what it handed out is unaffected.
func (g *Growable) Append(d *Data) error {
	if !g.inPlace {
		return invalidf("growable: Append needs a Growable started by GrowFrom")
	}
	if d == nil || !datatype.Equal(g.typ, d.Type, datatype.IgnoreMetadata()) {
		return invalidf("growable: appended data is not of type %s", g.typ)
	}
	if err := g.addSource(d); err != nil {
		return err
	}
	g.ExtendRange(0, 0, d.Length)
	return g.err
}

// sourceAdder is a grower that keeps something per source.
type sourceAdder interface {
	addSource(d *Data) error
}

// addSource makes d (and its children, for the child growables) one more
// source, after the checks the engine relies on that are cheap.
func (g *Growable) addSource(d *Data) error {
	if d.NullCount < 0 {
		return invalidf("growable: %s: unknown null count", g.typ)
	}
	if g.bitmap && d.NullCount > 0 {
		if bits, _ := d.ValidityBitmap(); bits == nil {
			return invalidf("growable: %s: %d nulls without a validity bitmap", g.typ, d.NullCount)
		}
	}
	s := d
	if st := datatype.StorageOf(g.typ); st != d.Type {
		c := *d
		c.Type = st
		s = &c
	}
	if a, ok := g.lay.(sourceAdder); ok {
		if err := a.addSource(s); err != nil {
			return err
		}
	}
	for _, k := range g.kids {
		if k.i >= len(s.Children) || s.Children[k.i] == nil {
			return invalidf("growable: %s: child %d missing", g.typ, k.i)
		}
		if err := k.g.addSource(s.Children[k.i]); err != nil {
			return err
		}
	}
	g.srcs = append(g.srcs[:0], s) // the only source: earlier ones are not kept alive
	return nil
}

// leadsIn reports whether an in-place Growable of layout id keeps
// inPlaceLead slots before the first of its buffers.
func leadsIn(id layoutID) bool {
	switch id {
	case layFixed, layBinary32, layBinary64, layView, layList32, layList64,
		layListView32, layListView64, layDictionary:
		return true
	}
	return false
}

// shiftableIn reports whether an in-place Growable can be handed out at
// an offset 0 to 7: its layout leads, or it is bool, or a struct whose
// children can all be led.
func (g *Growable) shiftableIn() bool {
	switch g.id {
	case layBool:
		return true
	case layStruct:
		for _, k := range g.kids {
			if k.g.id != layNull && !k.g.shiftableIn() {
				return false
			}
		}
		return true
	}
	return leadsIn(g.id)
}

// validityIn is the validity buffer of an in-place Growable handed out at
// offset s: a view of the bitmap shifted by s when the layout can be
// handed out that way, else a copy.
func (g *Growable) validityIn() []byte {
	if !g.shift {
		return bytes.Clone(g.valid[:bitutil.BytesForBits(g.n)])
	}
	b, _ := g.vshift.view(g.valid, g.n)
	return b
}

// shiftCopies hands out views of a growing bitmap (copy 0, kept by its
// owner) that end on a byte boundary, so that later appends never write
// a byte handed out: copy s holds bit i at bit s+i, and the view of n
// bits comes from the copy with s = -n mod 8 (the array handed out then
// starts at offset s). Copy 0 is the bitmap itself; the others are made
// when first needed and brought up to date from copy 0 each time they
// are handed out, so the bits cost O(1) each to copy, and the bitmaps
// take at most one byte per bit.
//
//	bits:     0 1 2 3 4 5 6 7 8 9 A          (n = 11)
//	copy 5:  |. . . . . 0 1 2|3 4 5 6 7 8 9 A|   view: 2 bytes, offset 5
type shiftCopies struct {
	copies [8][]byte
	have   [8]int // bits of each copy brought up to date
}

// view returns the first n bits of bits at the offset s = -n mod 8, in a
// buffer that ends on a byte boundary, and s.
func (c *shiftCopies) view(bits []byte, n int) ([]byte, int) {
	s := (8 - n%8) % 8
	end := (s + n) / 8
	if s == 0 {
		return bits[:end:end], 0
	}
	cp := c.copies[s]
	need := bitutil.BytesForBits(s + n)
	switch {
	case cp == nil: // room for a quarter more, as the bitmap it copies
		cp = growBy[byte](nil, need+need/4)[:need]
	case need > len(cp):
		cp = growBy(cp, need-len(cp))
	}
	from := c.have[s]
	bitutil.CopyBits(cp, s+from, bits, from, n-from)
	c.copies[s], c.have[s] = cp, n
	return cp[:end:end], s
}
