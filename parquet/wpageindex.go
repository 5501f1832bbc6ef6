package parquet

// Writing the page index: a ColumnIndex (per-page min, max and null
// counts) and an OffsetIndex (per-page location and first row) of every
// column chunk, after the row groups and before the footer.

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

// chunkIndex is the page index of one column chunk being written; page
// offsets count from the chunk's start until placeIndex moves them.
type chunkIndex struct {
	col *format.ColumnIndex // nil when a page has no min and max
	off format.OffsetIndex
	// lo and hi are the least and greatest of the pages' min and max,
	// the chunk's statistics (so values are scanned once, not twice).
	lo, hi []byte
}

// addPage records a data page written at chunk offset at, of size bytes,
// whose first row is row, holding the values v and nulls null entries.
func (ci *chunkIndex) addPage(l *wleaf, at int64, size int, row int64, v *values, nulls int64) {
	ci.off.PageLocations = append(ci.off.PageLocations,
		format.PageLocation{Offset: at, CompressedPageSize: int32(size), FirstRowIndex: row})
	var st *format.Statistics
	if v.n > 0 {
		st = stats(l, v, nulls)
		if st.MinValue != nil && st.MaxValue != nil {
			if ci.lo == nil || statLess(l, st.MinValue, ci.lo) {
				ci.lo = st.MinValue
			}
			if ci.hi == nil || statLess(l, ci.hi, st.MaxValue) {
				ci.hi = st.MaxValue
			}
		}
	}
	c := ci.col
	if c == nil {
		return
	}
	c.NullCounts = append(c.NullCounts, nulls)
	switch {
	case v.n == 0:
		c.NullPages = append(c.NullPages, true)
		c.MinValues = append(c.MinValues, []byte{})
		c.MaxValues = append(c.MaxValues, []byte{})
	case st.MinValue == nil || st.MaxValue == nil:
		ci.col = nil // no order for these values: no column index
	default:
		c.NullPages = append(c.NullPages, false)
		c.MinValues = append(c.MinValues, st.MinValue)
		c.MaxValues = append(c.MaxValues, st.MaxValue)
	}
}

// statLess compares two min or max statistics of leaf l as stats
// encodes them.
func statLess(l *wleaf, a, b []byte) bool {
	switch l.phys {
	case format.Int32:
		if l.signed {
			return int32(binary.LittleEndian.Uint32(a)) < int32(binary.LittleEndian.Uint32(b))
		}
		return binary.LittleEndian.Uint32(a) < binary.LittleEndian.Uint32(b)
	case format.Int64:
		if l.signed {
			return int64(binary.LittleEndian.Uint64(a)) < int64(binary.LittleEndian.Uint64(b))
		}
		return binary.LittleEndian.Uint64(a) < binary.LittleEndian.Uint64(b)
	case format.Float:
		x, y := math.Float32frombits(binary.LittleEndian.Uint32(a)), math.Float32frombits(binary.LittleEndian.Uint32(b))
		return x < y || (x == y && math.Signbit(float64(x)) && !math.Signbit(float64(y)))
	case format.Double:
		x, y := math.Float64frombits(binary.LittleEndian.Uint64(a)), math.Float64frombits(binary.LittleEndian.Uint64(b))
		return x < y || (x == y && math.Signbit(x) && !math.Signbit(y))
	}
	return bytes.Compare(a, b) < 0 // booleans (one byte) and byte arrays
}

// placeIndex moves the page offsets to the chunk's file position pos.
func (ci *chunkIndex) placeIndex(pos int64) {
	for i := range ci.off.PageLocations {
		ci.off.PageLocations[i].Offset += pos
	}
}

// writePageIndex writes the column indexes, then the offset indexes, of
// every chunk written, and sets their places in the chunks' metadata.
func (w *Writer) writePageIndex() error {
	for g := range w.groups {
		for c := range w.groups[g].Columns {
			ci := w.indexes[g][c]
			if ci == nil || ci.col == nil {
				continue
			}
			ci.col.BoundaryOrder = boundaryOrder(w.leaves[c], ci.col)
			b := thrift.Marshal(nil, ci.col)
			cc := &w.groups[g].Columns[c]
			cc.ColumnIndexOffset, cc.ColumnIndexLength = ptr(w.pos), ptr(int32(len(b)))
			if err := w.write(b); err != nil {
				return err
			}
		}
	}
	for g := range w.groups {
		for c := range w.groups[g].Columns {
			ci := w.indexes[g][c]
			if ci == nil {
				continue
			}
			b := thrift.Marshal(nil, &ci.off)
			cc := &w.groups[g].Columns[c]
			cc.OffsetIndexOffset, cc.OffsetIndexLength = ptr(w.pos), ptr(int32(len(b)))
			if err := w.write(b); err != nil {
				return err
			}
		}
	}
	w.indexes = nil
	return nil
}

// Boundary orders of a column index.
const (
	unordered  = 0
	ascending  = 1
	descending = 2
)

// boundaryOrder is ascending when the min and the max of the non-null
// pages never fall from page to page, descending when they never rise,
// otherwise unordered.
func boundaryOrder(l *wleaf, c *format.ColumnIndex) int32 {
	up, down := true, true
	prev := -1
	for i, null := range c.NullPages {
		if null {
			continue
		}
		if prev >= 0 {
			if statLess(l, c.MinValues[i], c.MinValues[prev]) || statLess(l, c.MaxValues[i], c.MaxValues[prev]) {
				up = false
			}
			if statLess(l, c.MinValues[prev], c.MinValues[i]) || statLess(l, c.MaxValues[prev], c.MaxValues[i]) {
				down = false
			}
		}
		prev = i
	}
	switch {
	case up:
		return ascending
	case down:
		return descending
	}
	return unordered
}
