package parquet

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

// pagesAt is the page index of a chunk of n rows whose pages start at
// the rows starts (the first 0).
func pagesAt(starts []int64, n int64) *pageIndex {
	pi := &pageIndex{}
	for i, s := range starts {
		hi := n
		if i+1 < len(starts) {
			hi = starts[i+1]
		}
		pi.rows = append(pi.rows, rowRange{s, hi})
	}
	return pi
}

// coverByRounds is the smallest union of whole pages of every leaf
// holding sel, found by widening until nothing changes (the reference).
func coverByRounds(pis []*pageIndex, sel []rowRange) []rowRange {
	rows := sel
	for {
		var grown []rowRange
		for _, pi := range pis {
			_, kept := keptPages(pi, rows)
			grown = union(grown, kept)
		}
		if rowCount(grown) == rowCount(rows) {
			return grown
		}
		rows = grown
	}
}

// TestCoverRowsLinear: two leaves of 40,000 pages of two rows, one
// shifted by a row, share no page boundary but the first: selecting one
// row takes every page, in steps linear in the pages (widening page by
// page took a round per page, 17 s for such a file).
func TestCoverRowsLinear(t *testing.T) {
	const pages = 40000
	n := int64(2 * pages)
	var a, b []int64
	for i := range int64(pages) {
		a = append(a, 2*i)
		if i == 0 {
			b = append(b, 0)
		} else {
			b = append(b, 2*i-1)
		}
	}
	pis := []*pageIndex{pagesAt(a, n), pagesAt(b, n)}
	before := indexSteps.Load()
	got := coverRows(pis, []rowRange{{5, 6}})
	steps := indexSteps.Load() - before
	if want := []rowRange{{0, n}}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if steps > 8*pages {
		t.Errorf("%d steps for %d pages per leaf: not linear", steps, pages)
	}
}

// TestCoverRowsMatchesRounds compares coverRows with widening round by
// round on random pages and selections.
func TestCoverRowsMatchesRounds(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		n := int64(1 + r.IntN(60))
		var pis []*pageIndex
		for range 1 + r.IntN(3) {
			starts := []int64{0}
			for s := int64(1); s < n; s++ {
				if r.IntN(3) == 0 {
					starts = append(starts, s)
				}
			}
			pis = append(pis, pagesAt(starts, n))
		}
		var sel []rowRange
		for lo := int64(0); lo < n; {
			hi := min(n, lo+1+int64(r.IntN(5)))
			if r.IntN(3) == 0 {
				sel = append(sel, rowRange{lo, hi})
			}
			lo = hi + int64(r.IntN(6))
		}
		if got, want := coverRows(pis, sel), coverByRounds(pis, sel); !slices.Equal(got, want) {
			t.Fatalf("pages %v, sel %v: got %v, want %v", pis, sel, got, want)
		}
	}
}

// union is the union of two sorted lists of disjoint ranges.
func union(a, b []rowRange) []rowRange {
	var out []rowRange
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		if j == len(b) || (i < len(a) && a[i].lo <= b[j].lo) {
			out = appendRange(out, a[i])
			i++
		} else {
			out = appendRange(out, b[j])
			j++
		}
	}
	return out
}

// TestInterleavedPagesLinear: a file whose struct field has two leaves
// whose pages never start at the same row but the first (pages of two
// rows, one leaf's shifted by a row) is read with a predicate selecting
// one page: the rows to decode widen to the whole row group, in steps
// linear in the pages, and the selected rows come back.
func TestInterleavedPagesLinear(t *testing.T) {
	const pages = 20000
	const rows = 2 * pages
	st := datatype.StructOf(datatype.Field{Name: "a", Type: datatype.Int32}, datatype.Field{Name: "b", Type: datatype.Int32})
	fld := datatype.Field{Name: "st", Type: st}
	tmpl, err := alkaid.NewRecord(alkaid.NewSchema([]datatype.Field{fld}, datatype.Metadata{}),
		[]array.Array{arrayjson.MustParse(st, `[{"a": 1, "b": 1}]`)}, 1)
	if err != nil {
		t.Fatal(err)
	}
	_, tf := writeAndOpen(t, tmpl, WithCompression(Uncompressed, 0), WithoutStoredSchema())
	md := tf.meta
	cols := append([]format.ColumnChunk{}, md.RowGroups[0].Columns...)
	data := append([]byte{}, magic...)
	var indexes [][]byte
	for leaf, shift := range []int{1, 0} {
		// Pages start at rows 0, then 2-shift, 4-shift, ...
		starts := []int{0}
		for r := 2 - shift; r < rows; r += 2 {
			starts = append(starts, r)
		}
		var oi format.OffsetIndex
		ci := format.ColumnIndex{BoundaryOrder: 1}
		first := int64(len(data))
		for i, lo := range starts {
			hi := rows
			if i+1 < len(starts) {
				hi = starts[i+1]
			}
			var vals []int32
			for r := lo; r < hi; r++ {
				vals = append(vals, int32(r))
			}
			page := dataPageV1(len(vals), format.Plain, int32s(vals...))
			oi.PageLocations = append(oi.PageLocations, format.PageLocation{Offset: int64(len(data)), CompressedPageSize: int32(len(page)), FirstRowIndex: int64(lo)})
			ci.NullPages = append(ci.NullPages, false)
			ci.MinValues = append(ci.MinValues, int32s(int32(lo)))
			ci.MaxValues = append(ci.MaxValues, int32s(int32(hi-1)))
			data = append(data, page...)
		}
		cm := *cols[leaf].MetaData
		cm.Codec, cm.NumValues, cm.DataPageOffset, cm.DictionaryPageOffset = format.Uncompressed, rows, first, nil
		cm.TotalCompressedSize = int64(len(data)) - first
		cm.TotalUncompressedSize = cm.TotalCompressedSize
		cm.Statistics, cm.EncodingStats = nil, nil
		cols[leaf] = format.ColumnChunk{FileOffset: first, MetaData: &cm}
		indexes = append(indexes, thrift.Marshal(nil, &ci), thrift.Marshal(nil, &oi))
	}
	for leaf := range cols {
		ci, oi := indexes[2*leaf], indexes[2*leaf+1]
		cols[leaf].ColumnIndexOffset, cols[leaf].ColumnIndexLength = ptr(int64(len(data))), ptr(int32(len(ci)))
		data = append(data, ci...)
		cols[leaf].OffsetIndexOffset, cols[leaf].OffsetIndexLength = ptr(int64(len(data))), ptr(int32(len(oi)))
		data = append(data, oi...)
	}
	md.RowGroups = []format.RowGroup{{Columns: cols, NumRows: rows, TotalByteSize: int64(len(data))}}
	md.NumRows = rows
	footer := thrift.Marshal(nil, &md)
	data = append(data, footer...)
	data = binary.LittleEndian.AppendUint32(data, uint32(len(footer)))
	data = append(data, magic...)

	f, err := NewFileBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	before, decoded := indexSteps.Load(), pagesDecoded.Load()
	var got []*alkaid.Record
	for r, err := range records(f, WithPredicates(Predicate{Column: "st.b", Op: Eq, Value: int64(rows / 2)}), WithConcurrency(1)) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	steps, decoded := indexSteps.Load()-before, pagesDecoded.Load()-decoded
	if steps > 8*2*pages {
		t.Errorf("%d steps for %d pages per leaf: not linear", steps, pages)
	}
	if decoded < 2*pages {
		t.Errorf("%d pages decoded: the rows did not widen to every page", decoded)
	}
	// The page of b holding the value is rows [rows/2, rows/2+2).
	if len(got) != 1 || got[0].NumRows() != 2 {
		t.Fatalf("%d records, want one of 2 rows", len(got))
	}
	if v := array.Format(got[0].Column(0)); v != fmt.Sprintf("[{a: %d, b: %d} {a: %d, b: %d}]", rows/2, rows/2, rows/2+1, rows/2+1) {
		t.Errorf("read %s", v)
	}
}
