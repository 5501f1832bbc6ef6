package parquet

// Reading the page index and skipping pages with it.
//
// Design: the predicates' columns' page indexes give, for a row group,
// the row ranges of the pages that may hold matching rows (a union per
// predicate, intersected over the predicates). Each projected field
// whose leaves all have an offset index decodes only the pages that
// overlap those ranges: pages of different columns need not align, so a
// field of several leaves widens the ranges until every leaf's kept pages
// hold the same rows, and a nested leaf's pages begin at record
// boundaries (the format requires it where an offset index is written).
// A field with a leaf lacking an offset index is decoded whole.
// Every field's array, holding the rows of its decoded pages, is then
// cut down to exactly the selected ranges, so every column yields the
// same rows. The rows returned are a superset of the matching rows, in
// file order, and never a row a page index proves cannot match is lost.

import (
	"fmt"
	"sync/atomic"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

// pagesDecoded counts the data pages decoded, for tests of page skipping.
var pagesDecoded atomic.Int64

// rowRange is the rows [lo, hi) of a row group.
type rowRange struct{ lo, hi int64 }

// pageIndex is the checked page index of one column chunk; col is nil
// when the chunk has an offset index only.
type pageIndex struct {
	col *format.ColumnIndex
	off *format.OffsetIndex
	// rows[i] is the row range of page i.
	rows []rowRange
}

// readIndexBytes reads n bytes of a page index at off.
func (f *File) readIndexBytes(off *int64, n *int32, what string) ([]byte, error) {
	if off == nil || n == nil {
		return nil, invalidf("%s: offset or length missing", what)
	}
	end := f.size - 8
	if *off < 4 || *n < 0 || *off > end || int64(*n) > end-*off {
		return nil, invalidf("%s: bytes [%d, %d+%d) outside the file's data [4, %d)", what, *off, *off, *n, end)
	}
	if f.data != nil {
		return f.data[*off : *off+int64(*n)], nil
	}
	b := make([]byte, *n)
	if _, err := f.r.ReadAt(b, *off); err != nil {
		return nil, ioErr(err, "%s: reading %d bytes at %d", what, *n, *off)
	}
	return b, nil
}

// pageIndex reads and checks the page index of column leaf of row group
// g; nil when the chunk has no offset index.
func (f *File) pageIndex(g, leaf int) (*pageIndex, error) {
	if g < 0 || g >= len(f.meta.RowGroups) || leaf < 0 || leaf >= len(f.leaves) {
		return nil, fmt.Errorf("parquet: %w: page index of row group %d column %d out of range", ErrInvalid, g, leaf)
	}
	if err := f.checkRowGroup(g); err != nil {
		return nil, err
	}
	rg := &f.meta.RowGroups[g]
	cc := &rg.Columns[leaf]
	where := fmt.Sprintf("row group %d column %q", g, pathString(f.leaves[leaf].path))
	if cc.OffsetIndexOffset == nil {
		return nil, nil
	}
	b, err := f.readIndexBytes(cc.OffsetIndexOffset, cc.OffsetIndexLength, where+": offset index")
	if err != nil {
		return nil, err
	}
	pi := &pageIndex{off: &format.OffsetIndex{}}
	if _, err := thrift.Unmarshal(b, pi.off); err != nil {
		return nil, fmt.Errorf("parquet: %w: %s: offset index: %v", ErrInvalid, where, err)
	}
	locs := pi.off.PageLocations
	if len(locs) == 0 && rg.NumRows > 0 {
		return nil, invalidf("%s: offset index of no pages for %d rows", where, rg.NumRows)
	}
	pi.rows = make([]rowRange, len(locs))
	for i, l := range locs {
		hi := rg.NumRows
		if i+1 < len(locs) {
			hi = locs[i+1].FirstRowIndex
		}
		switch {
		case i == 0 && l.FirstRowIndex != 0:
			return nil, invalidf("%s: offset index: first page starts at row %d, not 0", where, l.FirstRowIndex)
		case l.FirstRowIndex < 0 || l.FirstRowIndex >= hi:
			return nil, invalidf("%s: offset index: page %d starts at row %d, the next at %d", where, i, l.FirstRowIndex, hi)
		case l.CompressedPageSize < 0 || l.Offset < 4 || l.Offset > f.size-8 || int64(l.CompressedPageSize) > f.size-8-l.Offset:
			return nil, invalidf("%s: offset index: page %d at [%d, %d+%d) outside the file's data", where, i, l.Offset, l.Offset, l.CompressedPageSize)
		}
		pi.rows[i] = rowRange{l.FirstRowIndex, hi}
	}
	if cc.ColumnIndexOffset == nil {
		return pi, nil
	}
	b, err = f.readIndexBytes(cc.ColumnIndexOffset, cc.ColumnIndexLength, where+": column index")
	if err != nil {
		return nil, err
	}
	ci := &format.ColumnIndex{}
	if _, err := thrift.Unmarshal(b, ci); err != nil {
		return nil, fmt.Errorf("parquet: %w: %s: column index: %v", ErrInvalid, where, err)
	}
	n := len(locs)
	if len(ci.NullPages) != n || len(ci.MinValues) != n || len(ci.MaxValues) != n ||
		(ci.NullCounts != nil && len(ci.NullCounts) != n) {
		return nil, invalidf("%s: column index of %d/%d/%d/%d entries for %d pages", where,
			len(ci.NullPages), len(ci.MinValues), len(ci.MaxValues), len(ci.NullCounts), n)
	}
	pi.col = ci
	return pi, nil
}

// pageMayMatch reports whether page i of a chunk with column index ci may
// hold a value satisfying p.
func pageMayMatch(l *node, ci *format.ColumnIndex, i int, rows int64, p Predicate) bool {
	if ci.NullPages[i] {
		return p.Op == IsNull
	}
	st := &format.Statistics{MinValue: ci.MinValues[i], MaxValue: ci.MaxValues[i]}
	if ci.NullCounts != nil {
		st.NullCount = &ci.NullCounts[i]
	}
	if *l.elem.Type == format.Boolean || *l.elem.Type == format.Int96 {
		return true // no order compareStat knows
	}
	return mayMatch(l, st, rows, p)
}

// selectRows returns the rows of row group g the page indexes of the
// predicates' columns do not rule out, or all=true when they rule out
// nothing (or there is no page index).
func (f *File) selectRows(g int, ps []Predicate) (sel []rowRange, all bool, err error) {
	n := f.meta.RowGroups[g].NumRows
	sel = []rowRange{{0, n}}
	for _, p := range ps {
		leaf := f.leafByPath(p.Column)
		if leaf < 0 {
			return nil, false, invalidf("WithPredicates: no column %q", p.Column)
		}
		pi, err := f.pageIndex(g, leaf)
		if err != nil {
			return nil, false, err
		}
		if pi == nil || pi.col == nil {
			continue
		}
		var may []rowRange
		for i, r := range pi.rows {
			if pageMayMatch(f.leaves[leaf], pi.col, i, r.hi-r.lo, p) {
				may = appendRange(may, r)
			}
		}
		sel = intersect(sel, may)
	}
	return sel, len(sel) == 1 && sel[0] == rowRange{0, n}, nil
}

// leafByPath is the index of the leaf of dotted path s, or -1.
func (f *File) leafByPath(s string) int {
	for i, l := range f.leaves {
		if pathString(l.path) == s {
			return i
		}
	}
	return -1
}

// appendRange appends r to sorted disjoint ranges, merging it with the
// last when they touch.
func appendRange(rs []rowRange, r rowRange) []rowRange {
	if r.lo >= r.hi {
		return rs
	}
	if k := len(rs) - 1; k >= 0 && rs[k].hi >= r.lo {
		rs[k].hi = max(rs[k].hi, r.hi)
		return rs
	}
	return append(rs, r)
}

// intersect is the intersection of two sorted lists of disjoint ranges.
func intersect(a, b []rowRange) []rowRange {
	var out []rowRange
	for i, j := 0, 0; i < len(a) && j < len(b); {
		lo, hi := max(a[i].lo, b[j].lo), min(a[i].hi, b[j].hi)
		out = appendRange(out, rowRange{lo, hi})
		if a[i].hi < b[j].hi {
			i++
		} else {
			j++
		}
	}
	return out
}

// rowCount is the number of rows in rs.
func rowCount(rs []rowRange) int64 {
	var n int64
	for _, r := range rs {
		n += r.hi - r.lo
	}
	return n
}

// keptPages marks the pages of pi overlapping sel and returns the rows
// they hold.
func keptPages(pi *pageIndex, sel []rowRange) ([]bool, []rowRange) {
	keep := make([]bool, len(pi.rows))
	var rows []rowRange
	j := 0
	for i, r := range pi.rows {
		for j < len(sel) && sel[j].hi <= r.lo {
			j++
		}
		if j < len(sel) && sel[j].lo < r.hi {
			keep[i] = true
			rows = appendRange(rows, r)
		}
	}
	return keep, rows
}

// fieldPages returns the page indexes of a field's leaves and the rows
// of row group g the field decodes to cover sel: the rows of the pages
// that hold rows of sel, in every leaf. The leaves' pages start at
// different rows, so the rows are the smallest set holding sel that is
// made of whole pages of each leaf (see coverRows). Without an offset
// index for every leaf, pis is nil and the field is decoded whole.
func (f *File) fieldPages(g int, leaves []*node, sel []rowRange) (pis []*pageIndex, rows []rowRange, err error) {
	all := []rowRange{{0, f.meta.RowGroups[g].NumRows}}
	for _, l := range leaves {
		pi, err := f.pageIndex(g, l.column)
		if err != nil {
			return nil, nil, err
		}
		if pi == nil {
			return nil, all, nil
		}
		pis = append(pis, pi)
	}
	return pis, coverRows(pis, sel), nil
}

// indexSteps counts the steps of coverRows, for tests of its cost.
var indexSteps atomic.Int64

// coverRows returns the smallest set of rows holding sel that is a union
// of whole pages of every leaf. Such a set begins and ends only at rows
// where a page begins in every leaf (or at the end), so it is the union
// of the stretches between consecutive such rows that overlap sel: one
// sweep over the leaves' sorted page starts, then one over the
// stretches and sel.
func coverRows(pis []*pageIndex, sel []rowRange) []rowRange {
	// Rows where a page starts in every leaf: the first leaf's page
	// starts, narrowed leaf by leaf by a merge of sorted lists.
	common := make([]int64, 0, len(pis[0].rows))
	for _, r := range pis[0].rows {
		common = append(common, r.lo)
	}
	steps := int64(len(common))
	for _, pi := range pis[1:] {
		kept := common[:0]
		j := 0
		for _, b := range common {
			for j < len(pi.rows) && pi.rows[j].lo < b {
				j++
			}
			if j < len(pi.rows) && pi.rows[j].lo == b {
				kept = append(kept, b)
			}
		}
		common = kept
		steps += int64(len(common) + len(pi.rows))
	}
	var end int64
	if n := len(pis[0].rows); n > 0 {
		end = pis[0].rows[n-1].hi
	}
	// Stretch i is [common[i], common[i+1]) (the last ends at end).
	var rows []rowRange
	i := 0
	for _, r := range sel {
		if r.lo >= r.hi {
			continue
		}
		for i+1 < len(common) && common[i+1] <= r.lo {
			i++
			steps++
		}
		for i < len(common) && common[i] < r.hi {
			hi := end
			if i+1 < len(common) {
				hi = common[i+1]
			}
			rows = appendRange(rows, rowRange{common[i], hi})
			steps++
			if hi >= r.hi || i+1 == len(common) {
				break
			}
			i++
		}
	}
	indexSteps.Add(steps)
	return rows
}

// cutRows returns the rows sel of a, whose rows are the rows have of the
// row group (sel lies within have).
func cutRows(a array.Array, have, sel []rowRange) (array.Array, error) {
	var parts []array.Array
	j := 0
	base := int64(0) // position in a of have[j].lo
	for _, r := range sel {
		for j < len(have) && have[j].hi <= r.lo {
			base += have[j].hi - have[j].lo
			j++
		}
		if j == len(have) || r.lo < have[j].lo || r.hi > have[j].hi {
			return nil, invalidf("rows [%d, %d) not in the decoded pages", r.lo, r.hi)
		}
		parts = append(parts, array.Slice(a, int(base+r.lo-have[j].lo), int(base+r.hi-have[j].lo)))
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	return array.Concatenate(parts...)
}

// passOver reports whether the data page of header h, ordinal k, at
// chunk byte at is skipped, and then its number of values.
func (cr *columnReader) passOver(h *format.PageHeader, k, at int) (int, bool, error) {
	if cr.keep == nil {
		return 0, false, nil
	}
	if k >= len(cr.keep) {
		return 0, false, invalidf("%s: more data pages than the %d of the offset index", cr.where, len(cr.keep))
	}
	if cr.start+int64(at) != cr.locs[k].Offset {
		return 0, false, invalidf("%s: data page %d at byte %d, the offset index says %d", cr.where, k, cr.start+int64(at), cr.locs[k].Offset)
	}
	if cr.keep[k] {
		return 0, false, nil
	}
	var n int32
	switch {
	case h.DataPageHeader != nil:
		n = h.DataPageHeader.NumValues
	case h.DataPageHeaderV2 != nil:
		n = h.DataPageHeaderV2.NumValues
	default:
		return 0, false, invalidf("%s: data page %d without its header", cr.where, k)
	}
	if n < 0 {
		return 0, false, invalidf("%s: data page %d of %d values", cr.where, k, n)
	}
	return int(n), true, nil
}

// pageSelection returns the rows of row group g to read given the
// predicates: nil for all of them; skip when the page index rules out
// every row.
func (f *File) pageSelection(g int, ps []Predicate) (sel []rowRange, skip bool, err error) {
	sel, all, err := f.selectRows(g, ps)
	if err != nil || all {
		return nil, false, err
	}
	return sel, len(sel) == 0, nil
}
