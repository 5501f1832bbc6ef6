package parquet

// Reading a column chunk batch by batch: the entries decoded beyond a
// batch are split off and wait for the next one, and what a read decodes
// is bounded by the size of the file.

import (
	"sync/atomic"

	"github.com/alkaid-go/alkaid/bitutil"
)

// expansionAllowance is what one read may decompress and decode beyond
// ReaderLimits.MaxCompressionRatio times the file's size: a few million
// constant values or nulls compress to almost nothing.
const expansionAllowance = 64 << 20

// budget bounds the bytes one read of a file (one Records sequence)
// decompresses and decodes, all columns together.
type budget struct {
	used  atomic.Int64
	limit int64
	ratio int
	size  int64 // of the file
}

func newBudget(l ReaderLimits, size int64) *budget {
	b := &budget{ratio: l.MaxCompressionRatio, size: size, limit: 1<<63 - 1}
	if r := int64(l.MaxCompressionRatio); r > 0 && size < (b.limit-expansionAllowance)/r {
		b.limit = r*size + expansionAllowance
	}
	return b
}

// charge counts n more bytes decompressed or decoded by the page being
// read, refusing them beyond the budget.
func (cr *columnReader) charge(n int64) error {
	b := cr.budget
	if b == nil || n <= 0 {
		return nil
	}
	if used := b.used.Add(n); used > b.limit {
		return limitf("%s: page at chunk byte %d: the read has decompressed and decoded %d bytes, more than %d times the file's %d bytes plus %d (ReaderLimits.MaxCompressionRatio)",
			cr.where, cr.pageAt, used, b.ratio, b.size, expansionAllowance)
	}
	return nil
}

// size is the bytes the values take.
func (v *values) size() int64 {
	return int64(len(v.fixed) + len(v.bools) + len(v.bin.Data) + 4*len(v.bin.Offsets) + 4*len(v.idx))
}

// size is the bytes the chunk's levels and values take.
func (c *chunk) size() int64 {
	return int64(2*len(c.def)+2*len(c.rep)+len(c.valid)) + c.vals.size()
}

// splitChunk cuts c after its first e entries: c keeps them and the
// entries after are returned in new memory (c's buffers become arrays).
// spread says c's values are one per slot (see columnReader.spread).
func splitChunk(c *chunk, e int, maxDef int16, spread bool) *chunk {
	rest := &chunk{entries: c.entries - e}
	present := e // values of the first e entries
	switch {
	case c.valid != nil:
		present = bitutil.CountSetBits(c.valid, 0, e)
		n := c.slots - e
		rest.valid = make([]byte, (n+7)/8, max((n+7)/8, cap(c.valid)-len(c.valid)))
		bitutil.CopyBits(rest.valid, 0, c.valid, e, n)
		rest.slots, c.slots = n, e
		c.valid = c.valid[: (e+7)/8 : (e+7)/8]
	case c.def != nil:
		present = countLevel(c.def[:e], maxDef)
		rest.def = append(make([]int16, 0, max(len(c.def)-e, cap(c.def)/2)), c.def[e:]...)
		c.def = c.def[:e:e]
	}
	if c.rep != nil {
		rest.rep = append(make([]int16, 0, max(len(c.rep)-e, cap(c.rep)/2)), c.rep[e:]...)
		c.rep = c.rep[:e:e]
	}
	v, rv := &c.vals, &rest.vals
	rv.width, rv.keepIdx = v.width, v.keepIdx
	k := present // values to keep
	if spread {
		k = e
	}
	switch {
	case v.keepIdx && len(v.idx) > 0:
		rv.idx = append(make([]int32, 0, len(v.idx)-k), v.idx[k:]...)
		v.idx = v.idx[:k:k]
	case v.width > 0:
		rv.fixed = append(make([]byte, 0, len(v.fixed)-k*v.width), v.fixed[k*v.width:]...)
		v.fixed = v.fixed[: k*v.width : k*v.width]
	case v.bools != nil:
		rv.bools = append(make([]byte, 0, len(v.bools)-k), v.bools[k:]...)
		v.bools = v.bools[:k:k]
	case len(v.bin.Offsets) > 0:
		offs := v.bin.Offsets
		cut := offs[k]
		rv.bin.Data = append(make([]byte, 0, len(v.bin.Data)-int(cut)), v.bin.Data[cut:]...)
		rv.bin.Offsets = make([]int32, len(offs)-k)
		for i, o := range offs[k:] {
			rv.bin.Offsets[i] = o - cut
		}
		v.bin.Offsets = offs[: k+1 : k+1]
		v.bin.Data = v.bin.Data[:cut:cut]
	}
	rv.n, v.n = v.n-present, present
	return rest
}
