package parquet

// Reading a column chunk batch by batch, and bounding what a read
// decodes by the size of the file.

import (
	"sync/atomic"

	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/memory"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// expansionAllowance is what one read may decompress and decode beyond
// Limits.MaxCompressionRatio times the file's size: a few million
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

func newBudget(l Limits, size int64) *budget {
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
		return limitf("%s: page at chunk byte %d: the read has decompressed and decoded %d bytes, more than %d times the file's %d bytes plus %d (Limits.MaxCompressionRatio)",
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
		return "Limits.MaxCompressionRatio"
	}
	return "Limits.MaxPageSize"
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

// newChunk is an empty chunk with room for about rows entries.
func (cr *columnReader) newChunk(rows int64) *chunk {
	out := &chunk{}
	out.vals.keepIdx = cr.keepIdx
	out.vals.width = physicalWidth(cr.leaf.elem)
	// Capacity hints, bounded by what the chunk's bytes can justify (a
	// hint too small only costs growth).
	hint := int(min(cr.want-cr.got+int64(cr.spilled()), cr.expect(rows), 16*int64(len(cr.data))+1<<16))
	if cr.defBits {
		out.valid = make([]byte, (hint+7)/8)
	} else if cr.leaf.maxDef > 0 {
		out.def = make([]int16, 0, hint)
	}
	if cr.leaf.maxRep > 0 {
		out.rep = make([]int16, 0, hint)
	}
	if cr.keepIdx {
		// Indices are appended: never read before they are written.
		out.vals.idx = memory.ViewBytes[int32](cr.buffer(int(min(int64(hint)*4, 16*int64(len(cr.data))+1<<16)), true))[:0]
	} else if w := out.vals.width; w > 0 {
		// Values are appended (or spread, nulls cleared): never read
		// before they are written.
		out.vals.fixed = cr.buffer(int(min(int64(hint)*int64(w), 16*int64(len(cr.data))+1<<16)), false)[:0]
	} else if *cr.leaf.elem.Type == format.ByteArray && !cr.keepIdx {
		// Byte arrays take at most the chunk's uncompressed size.
		out.vals.bin.Offsets = make([]int32, 1, hint+1)
		size := cr.meta.TotalUncompressedSize
		if cr.want > 0 {
			size = size / cr.want * int64(hint)
		}
		out.vals.bin.Data = make([]byte, 0, max(0, min(size, 16*int64(len(cr.data))+1<<16)))
	}
	return out
}

// buffer returns n bytes for values (dictionary indices: idx) written
// before they are read: of the pool for a reader of scratch values or
// indices, lent until its row group is done (see
// rowGroupReader.release), else new.
func (cr *columnReader) buffer(n int, idx bool) []byte {
	if !cr.scratch && !(idx && cr.scratchIdx) {
		return rawmem.Fillable(n)
	}
	b := pageBuffer(n)[:n]
	cr.lent = append(cr.lent, b)
	return b
}

// expect is how many entries a batch of rows rows likely holds.
func (cr *columnReader) expect(rows int64) int64 {
	if cr.leaf.maxRep > 0 && cr.lastRows > 0 {
		return rows * max(1, (cr.lastPage+cr.lastRows-1)/cr.lastRows)
	}
	return rows
}

// done reports whether every page of the chunk has been decoded.
func (cr *columnReader) done() bool { return cr.got >= cr.want || cr.pos >= len(cr.data) }

// spilled is the number of decoded entries waiting in the spill.
func (cr *columnReader) spilled() int {
	if cr.spill == nil {
		return 0
	}
	return cr.spill.entries - cr.spillAt
}

// next returns the entries of the chunk's next rows rows (records, where
// the column repeats), fewer at its end, decoding pages as needed. A
// page whose entries all belong to the batch is decoded into it; others
// are decoded into a spill of their own, which a batch lying wholly in it
// takes a view of, and batches straddling it copy from.
func (cr *columnReader) next(rows int64) (*chunk, error) {
	var out *chunk // made when a page is decoded into it or copied to it
	need := rows   // rows (records) the batch still has to begin
	cr.cut = false
	for {
		if cr.spilled() > 0 {
			full, err := cr.take(&out, &need, rows)
			if err != nil {
				return nil, err
			}
			if full {
				return out, nil
			}
			continue
		}
		if cr.done() {
			if cr.got != cr.want {
				return nil, invalidf("%s: %d values in the pages, %d in the metadata", cr.where, cr.got, cr.want)
			}
			break
		}
		if cr.leaf.maxRep == 0 && need == 0 {
			break
		}
		direct, err := cr.readPage(&out, need, rows)
		if err != nil {
			return nil, err
		}
		if direct {
			need -= int64(cr.lastPage)
		}
	}
	if out == nil {
		out = cr.newChunk(0)
	}
	return out, nil
}

// take gives *out the entries of the spill up to the start of the record
// after the need records the batch still begins (need goes down by those
// it takes), and reports whether the batch is then full (also when its
// byte arrays could take no more: see fitBytes). A batch that
// ends in the spill and has nothing yet is a view of it; others get a
// copy.
func (cr *columnReader) take(out **chunk, need *int64, rows int64) (bool, error) {
	sp := cr.spill
	e0, e1 := cr.spillAt, sp.entries
	full := false
	if cr.leaf.maxRep == 0 {
		if int64(e1-e0) >= *need {
			e1, full = e0+int(*need), true
		}
		*need -= int64(e1 - e0)
	} else {
		for i, r := range sp.rep[e0:e1] {
			if r != 0 {
				continue
			}
			if *need == 0 {
				e1, full = e0+i, true
				break
			}
			*need--
		}
	}
	if fit := cr.fitBytes(*out, e0, e1); fit < e1 {
		// The batch ends early: its byte arrays would not fit int32
		// offsets.
		if fit == e0 && (*out == nil || (*out).entries == 0) {
			return false, limitf("%s: the byte arrays of one row exceed %d bytes", cr.where, maxBatchBytes)
		}
		e1, full, cr.cut = fit, true, true
	}
	if *out == nil && (full || e1 == sp.entries && cr.done()) {
		*out = cr.viewSpill(e0, e1)
		return full, nil
	}
	if *out == nil {
		*out = cr.newChunk(rows)
	}
	cr.moveEntries(*out, e0, e1)
	cr.spillAt = e1
	return full, nil
}

// viewSpill returns entries [e0, e1) of the spill as a chunk sharing its
// memory (but for the validity bitmap, copied to start at bit 0).
func (cr *columnReader) viewSpill(e0, e1 int) *chunk {
	sp := cr.spill
	n := e1 - e0
	out := &chunk{entries: n}
	present := n
	switch {
	case sp.valid != nil:
		present = bitutil.CountSetBits(sp.valid, e0, n)
		out.valid = make([]byte, (n+7)/8)
		bitutil.CopyBits(out.valid, 0, sp.valid, e0, n)
		out.slots = n
	case cr.leaf.maxDef > 0:
		present = countLevel(sp.def[e0:e1], cr.leaf.maxDef)
		out.def = sp.def[e0:e1:e1]
	}
	if cr.leaf.maxRep > 0 {
		out.rep = sp.rep[e0:e1:e1]
	}
	k := present
	if cr.spread {
		k = n
	}
	v0, v1 := cr.spillVal, cr.spillVal+k
	src, dst := &sp.vals, &out.vals
	dst.width, dst.keepIdx, dst.n = src.width, src.keepIdx, present
	switch {
	case src.keepIdx:
		dst.idx = src.idx[v0:v1:v1]
	case src.width > 0:
		w := src.width
		dst.fixed = src.fixed[v0*w : v1*w : v1*w]
	case src.bools != nil:
		dst.bools = src.bools[v0:v1:v1]
	case len(src.bin.Offsets) > 0:
		offs := src.bin.Offsets[v0 : v1+1]
		base := offs[0]
		dst.bin.Offsets = make([]int32, len(offs))
		for i, o := range offs {
			dst.bin.Offsets[i] = o - base
		}
		dst.bin.Data = src.bin.Data[base:offs[len(offs)-1]:offs[len(offs)-1]]
	}
	cr.spillAt, cr.spillVal = e1, v1
	return out
}

// moveEntries appends entries [e0, e1) of the spill to out: their levels
// and values (from the spill's value cursor on).
func (cr *columnReader) moveEntries(out *chunk, e0, e1 int) {
	cr.spillVal = cr.appendEntries(out, cr.spill, e0, e1, cr.spillVal)
}

// appendEntries appends entries [e0, e1) of src, whose values start at
// value v0, to out, and returns the value index after them.
func (cr *columnReader) appendEntries(out, src *chunk, e0, e1, v0 int) int {
	n := e1 - e0
	if n == 0 {
		return v0
	}
	present := n
	switch {
	case src.valid != nil:
		present = bitutil.CountSetBits(src.valid, e0, n)
		growBits(&out.valid, out.slots+n)
		bitutil.CopyBits(out.valid, out.slots, src.valid, e0, n)
		out.slots += n
	case cr.leaf.maxDef > 0:
		present = countLevel(src.def[e0:e1], cr.leaf.maxDef)
		out.def = append(out.def, src.def[e0:e1]...)
	}
	if cr.leaf.maxRep > 0 {
		out.rep = append(out.rep, src.rep[e0:e1]...)
	}
	out.entries += n
	k := present // values to move
	if cr.spread {
		k = n
	}
	v1 := v0 + k
	sv, dst := &src.vals, &out.vals
	dst.n += present
	switch {
	case sv.keepIdx:
		dst.idx = append(dst.idx, sv.idx[v0:v1]...)
	case sv.width > 0:
		w := sv.width
		dst.fixed = append(dst.fixed, sv.fixed[v0*w:v1*w]...)
	case sv.bools != nil:
		dst.bools = append(dst.bools, sv.bools[v0:v1]...)
	case len(sv.bin.Offsets) > 0:
		offs := sv.bin.Offsets
		if len(dst.bin.Offsets) == 0 {
			dst.bin.Offsets = append(dst.bin.Offsets, 0)
		}
		base := int32(len(dst.bin.Data)) - offs[v0]
		dst.bin.Data = append(dst.bin.Data, sv.bin.Data[offs[v0]:offs[v1]]...)
		for _, o := range offs[v0+1 : v1+1] {
			dst.bin.Offsets = append(dst.bin.Offsets, o+base)
		}
	}
	return v1
}

// newSpill makes a spill for a page of n entries (batches may hold
// views of the last one).
func (cr *columnReader) newSpill(n int, keepIdx bool) *chunk {
	sp := &chunk{vals: values{width: physicalWidth(cr.leaf.elem), keepIdx: keepIdx}}
	switch {
	case cr.defBits:
		sp.valid = make([]byte, 0, (n+7)/8)
	case cr.leaf.maxDef > 0:
		sp.def = make([]int16, 0, n)
	}
	if cr.leaf.maxRep > 0 {
		sp.rep = make([]int16, 0, n)
	}
	switch {
	case keepIdx:
		sp.vals.idx = memory.ViewBytes[int32](cr.buffer(n*4, true))[:0] // written before read
	case sp.vals.width > 0:
		sp.vals.fixed = cr.buffer(n*sp.vals.width, false)[:0] // written before read, as in newChunk
	case *cr.leaf.elem.Type == format.ByteArray:
		sp.vals.bin.Offsets = make([]int32, 1, n+1)
	}
	cr.spill, cr.spillAt, cr.spillVal = sp, 0, 0
	return sp
}
