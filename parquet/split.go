package parquet

// Ending a batch early when its byte arrays would not fit the int32
// offsets of utf8 and binary arrays, and giving back the rows of the
// other columns beyond where it ended.

import (
	"math"

	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// maxBatchBytes is the most bytes of byte arrays one column of a batch
// holds (what int32 offsets reach); tests lower it.
var maxBatchBytes = math.MaxInt32

// binaryBatch reports whether the column's batches hold byte arrays
// (not dictionary indices), whose bytes maxBatchBytes bounds.
func (cr *columnReader) binaryBatch() bool {
	return *cr.leaf.elem.Type == format.ByteArray && !cr.keepIdx
}

// mayOverflow reports whether decoding the data page h into out could
// take out's byte arrays beyond maxBatchBytes; such a page is decoded
// into the spill, from which take moves what fits.
func (cr *columnReader) mayOverflow(h *format.PageHeader, out *chunk, entries int64) bool {
	if !cr.binaryBatch() {
		return false
	}
	have := int64(0)
	if out != nil {
		have = int64(len(out.vals.bin.Data))
	}
	var enc format.Encoding
	switch {
	case h.DataPageHeader != nil:
		enc = h.DataPageHeader.Encoding
	case h.DataPageHeaderV2 != nil:
		enc = h.DataPageHeaderV2.Encoding
	}
	var bound int64
	switch enc {
	case format.PlainDictionary, format.RLEDictionary:
		bound = entries * int64(cr.dictMax)
	case format.DeltaByteArray:
		// Shared prefixes make the values longer than the page: only an
		// empty batch takes the page directly.
		return have > 0
	default:
		bound = int64(h.UncompressedPageSize)
	}
	return have+bound > int64(maxBatchBytes)
}

// fitBytes returns the end, at most e1, of the entries of the spill from
// e0 on whose byte arrays fit in out beside what it holds: the start of
// the first record that would take it past maxBatchBytes (e0 when none
// fits).
func (cr *columnReader) fitBytes(out *chunk, e0, e1 int) int {
	sp := cr.spill
	if !cr.binaryBatch() || len(sp.vals.bin.Offsets) == 0 {
		return e1
	}
	offs := sp.vals.bin.Offsets
	room := int64(maxBatchBytes)
	if out != nil {
		room -= int64(len(out.vals.bin.Data))
	}
	base := int64(offs[cr.spillVal])
	if int64(offs[len(offs)-1])-base <= room {
		return e1
	}
	v := cr.spillVal // value index of entry e
	fit := e0
	for e := e0; e < e1; e++ {
		if cr.leaf.maxRep == 0 || sp.rep[e] == 0 {
			if int64(offs[v])-base > room {
				return fit
			}
			fit = e
		}
		if cr.present(sp, e) {
			v++
		}
	}
	if int64(offs[v])-base > room {
		return fit
	}
	return e1
}

// present reports whether entry e of ch has a value.
func (cr *columnReader) present(ch *chunk, e int) bool {
	switch {
	case ch.valid != nil:
		return bitutil.GetBit(ch.valid, e)
	case cr.leaf.maxDef > 0:
		return ch.def[e] == cr.leaf.maxDef
	}
	return true
}

// chunkRows is the number of rows (records) a batch's chunk holds.
func (cr *columnReader) chunkRows(ch *chunk) int64 {
	if cr.leaf.maxRep == 0 {
		return int64(ch.entries)
	}
	return int64(countLevel(ch.rep, 0))
}

// unread cuts ch, the column's last batch, to its first rows rows and
// puts the entries after them back in front of the spill, for the next
// batch.
func (cr *columnReader) unread(ch *chunk, rows int64) error {
	e := int(rows)
	if cr.leaf.maxRep == 0 && e > ch.entries {
		return invalidf("%s: %d values where the batch has %d rows", cr.where, ch.entries, rows)
	}
	if cr.leaf.maxRep > 0 {
		e = ch.entries
		k := int64(0)
		for i, r := range ch.rep {
			if r == 0 {
				if k == rows {
					e = i
					break
				}
				k++
			}
		}
	}
	present := 0
	for i := 0; i < e; i++ {
		if cr.present(ch, i) {
			present++
		}
	}
	v := present // value index of entry e
	if cr.spread {
		v = e
	}
	sp := &chunk{vals: values{width: ch.vals.width, keepIdx: ch.vals.keepIdx}}
	cr.appendEntries(sp, ch, e, ch.entries, v)
	if cr.spilled() > 0 {
		if sp.vals.keepIdx && !cr.spill.vals.keepIdx {
			if err := cr.keepIndices(&sp.vals); err != nil {
				return err
			}
		}
		cr.appendEntries(sp, cr.spill, cr.spillAt, cr.spill.entries, cr.spillVal)
	}
	cr.spill, cr.spillAt, cr.spillVal = sp, 0, 0
	// ch keeps its first e entries and v values.
	if ch.valid != nil {
		ch.slots = e
	}
	if ch.def != nil {
		ch.def = ch.def[:e]
	}
	if ch.rep != nil {
		ch.rep = ch.rep[:e]
	}
	ch.entries = e
	cv := &ch.vals
	cv.n = present
	switch {
	case cv.keepIdx:
		cv.idx = cv.idx[:v]
	case cv.width > 0:
		cv.fixed = cv.fixed[:v*cv.width]
	case cv.bools != nil:
		cv.bools = cv.bools[:v]
	case len(cv.bin.Offsets) > 0:
		cv.bin.Offsets = cv.bin.Offsets[:v+1]
		cv.bin.Data = cv.bin.Data[:cv.bin.Offsets[v]]
	}
	return nil
}
