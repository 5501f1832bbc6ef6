package parquet

// Bounding what a read decodes by the size of the file.

import (
	"sync/atomic"

	"github.com/alkaid-go/alkaid/parquet/internal/format"
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
// read (fewer when n is negative, correcting an estimate), refusing them
// beyond the budget.
func (cr *columnReader) charge(n int64) error {
	b := cr.budget
	if b == nil || n == 0 {
		return nil
	}
	if used := b.used.Add(n); used > b.limit {
		return limitf("%s: page at chunk byte %d: the read has decompressed and decoded %d bytes, more than %d times the file's %d bytes plus %d (ReaderLimits.MaxCompressionRatio)",
			cr.where, cr.pageAt, used, b.ratio, b.size, expansionAllowance)
	}
	return nil
}

// pageLimit is the most bytes a page may decode to: the page size limit,
// or what is left of the read's budget when that is less.
func (cr *columnReader) pageLimit() int64 {
	lim := cr.limits.MaxPageSize
	if b := cr.budget; b != nil {
		lim = max(0, min(lim, b.limit-b.used.Load()))
	}
	return lim
}

// pageLimitName names the limit pageLimit gives, for errors.
func (cr *columnReader) pageLimitName() string {
	if cr.pageLimit() < cr.limits.MaxPageSize {
		return "ReaderLimits.MaxCompressionRatio"
	}
	return "ReaderLimits.MaxPageSize"
}

// estimate is what a data page of n entries will likely decode to,
// charged before it is decoded (and corrected after) so that a page
// declaring more than the budget is refused before anything is
// allocated for it.
func (cr *columnReader) estimate(n int64) int64 {
	per := int64(4) // a byte array's offset, or an index
	if w := physicalWidth(cr.leaf.elem); w > 0 {
		per = int64(w)
	} else if *cr.leaf.elem.Type == format.Boolean {
		per = 1
	}
	if cr.leaf.maxDef > 0 && !cr.defBits {
		per += 2
	}
	if cr.leaf.maxRep > 0 {
		per += 2
	}
	return n * per
}

// size is the bytes the values take.
func (v *values) size() int64 {
	return int64(len(v.fixed) + len(v.bools) + len(v.bin.Data) + 4*len(v.bin.Offsets) + 4*len(v.idx))
}

// size is the bytes the chunk's levels and values take.
func (c *chunk) size() int64 {
	return int64(2*len(c.def)+2*len(c.rep)+len(c.valid)) + c.vals.size()
}
