package parquet

import (
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet/internal/encoding"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

// nestedRecord holds n rows of an id, a nullable int, a list of strings
// (null, empty or a few elements) and a struct with a list inside.
func nestedRecord(t *testing.T, n int) *alkaid.Record {
	t.Helper()
	r := rand.New(rand.NewPCG(5, 6))
	lt := datatype.ListOf(datatype.String)
	st := datatype.StructOf(datatype.Field{Name: "x", Type: datatype.Int32, Nullable: true},
		datatype.Field{Name: "ys", Type: datatype.ListOf(datatype.Int64), Nullable: true})
	var ids, xs, ls, ss []string
	for i := range n {
		ids = append(ids, fmt.Sprint(i))
		if r.IntN(4) == 0 {
			xs = append(xs, "null")
		} else {
			xs = append(xs, fmt.Sprint(r.IntN(1000)))
		}
		switch k := r.IntN(6); k {
		case 0:
			ls = append(ls, "null")
		case 1:
			ls = append(ls, "[]")
		default:
			var e []string
			for j := range k * 3 {
				e = append(e, fmt.Sprintf(`"s%d-%d"`, i, j))
			}
			ls = append(ls, "["+strings.Join(e, ",")+"]")
		}
		ss = append(ss, fmt.Sprintf(`{"x": %d, "ys": [%d, %d, %d]}`, i, i, -i, r.IntN(50)))
	}
	join := func(v []string) string { return "[" + strings.Join(v, ",") + "]" }
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "id", Type: datatype.Int64}, {Name: "x", Type: datatype.Int32, Nullable: true},
		{Name: "l", Type: lt, Nullable: true}, {Name: "st", Type: st},
	}, datatype.Metadata{})
	cols := []array.Array{arrayjson.MustParse(datatype.Int64, join(ids)), arrayjson.MustParse(datatype.Int32, join(xs)),
		arrayjson.MustParse(lt, join(ls)), arrayjson.MustParse(st, join(ss))}
	rec, err := alkaid.NewRecord(s, cols, n)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestDataPageV2Layout reads back the page headers the writer made with
// WithDataPageV2: every data page is v2, its levels are plain RLE of the
// lengths in the header, each page of a repeated column begins a row, the
// rows of the pages add up to the group's, values are left uncompressed
// when the codec would not shrink them, and the CRC covers the page.
func TestDataPageV2Layout(t *testing.T) {
	rec := nestedRecord(t, 1500)
	for _, c := range []Codec{Uncompressed, Snappy, Zstd} {
		t.Run(c.String(), func(t *testing.T) {
			data := writeFile(t, []*alkaid.Record{rec}, WithDataPageV2(), WithCompression(c, 0), WithPageCRC(true),
				WithRowGroupRows(700), WithPageSize(200), WithDictionary(false, 0))
			f, got := readFile(t, data, WithBatchSize(100))
			sameRows(t, []*alkaid.Record{rec}, got)
			packedPages := 0
			for g, rg := range f.meta.RowGroups {
				for ci, cc := range rg.Columns {
					l := f.leaves[ci]
					where := fmt.Sprintf("group %d column %s", g, pathString(l.path))
					m := cc.MetaData
					chunk := data[m.DataPageOffset : m.DataPageOffset+m.TotalCompressedSize]
					var rows int64
					pages := 0
					for pos := 0; pos < len(chunk); pages++ {
						var h format.PageHeader
						n, err := thrift.Unmarshal(chunk[pos:], &h)
						if err != nil {
							t.Fatalf("%s: page header at %d: %v", where, pos, err)
						}
						pos += n
						body := chunk[pos : pos+int(h.CompressedPageSize)]
						pos += int(h.CompressedPageSize)
						if h.Type != format.DataPageV2 || h.DataPageHeaderV2 == nil {
							t.Fatalf("%s: page %d of type %d", where, pages, h.Type)
						}
						if h.CRC == nil || uint32(*h.CRC) != crc32.ChecksumIEEE(body) {
							t.Errorf("%s: page %d: CRC %v does not match", where, pages, h.CRC)
						}
						v := h.DataPageHeaderV2
						rl, dl := int(v.RepetitionLevelsByteLength), int(v.DefinitionLevelsByteLength)
						if (rl > 0) != (l.maxRep > 0) || (dl > 0) != (l.maxDef > 0) {
							t.Errorf("%s: page %d: level lengths %d, %d for max levels %d, %d", where, pages, rl, dl, l.maxRep, l.maxDef)
						}
						if v.IsCompressed == nil {
							t.Fatalf("%s: page %d: is_compressed not set", where, pages)
						}
						if *v.IsCompressed {
							packedPages++
							if c == Uncompressed || int(h.CompressedPageSize) >= int(h.UncompressedPageSize) {
								t.Errorf("%s: page %d compressed with %s: %d bytes from %d", where, pages, c, h.CompressedPageSize, h.UncompressedPageSize)
							}
						} else if h.CompressedPageSize != h.UncompressedPageSize {
							t.Errorf("%s: page %d uncompressed but sizes %d, %d", where, pages, h.CompressedPageSize, h.UncompressedPageSize)
						}
						nv := int(v.NumValues)
						def := make([]int16, nv)
						if dl > 0 {
							if k, err := encoding.DecodeRLE(def, body[rl:rl+dl], encoding.BitWidth(uint64(l.maxDef))); err != nil || k != dl {
								t.Fatalf("%s: page %d: definition levels: %d of %d bytes, %v", where, pages, k, dl, err)
							}
						}
						nulls := 0
						for _, d := range def {
							if d < l.maxDef {
								nulls++
							}
						}
						if nulls != int(v.NumNulls) {
							t.Errorf("%s: page %d: num_nulls %d, levels say %d", where, pages, v.NumNulls, nulls)
						}
						pageRows := nv
						if rl > 0 {
							rep := make([]int16, nv)
							if k, err := encoding.DecodeRLE(rep, body[:rl], encoding.BitWidth(uint64(l.maxRep))); err != nil || k != rl {
								t.Fatalf("%s: page %d: repetition levels: %d of %d bytes, %v", where, pages, k, rl, err)
							}
							if rep[0] != 0 {
								t.Errorf("%s: page %d begins inside a row (repetition level %d)", where, pages, rep[0])
							}
							pageRows = 0
							for _, r := range rep {
								if r == 0 {
									pageRows++
								}
							}
						}
						if pageRows != int(v.NumRows) {
							t.Errorf("%s: page %d: num_rows %d, levels say %d", where, pages, v.NumRows, pageRows)
						}
						rows += int64(v.NumRows)
					}
					if rows != rg.NumRows {
						t.Errorf("%s: pages hold %d rows, group %d", where, rows, rg.NumRows)
					}
					if pages < 2 {
						t.Errorf("%s: %d pages, want several", where, pages)
					}
				}
			}
			if c == Uncompressed && packedPages != 0 {
				t.Errorf("%d pages marked compressed with no codec", packedPages)
			}
			if c == Zstd && packedPages == 0 {
				t.Errorf("no page compressed with zstd")
			}
		})
	}
}

// TestDataPageV2PageIndex: with v2 pages, the page index lets predicates
// skip pages and still returns every matching row (flat and nested
// columns).
func TestDataPageV2PageIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	d := newPagedData(r, 3000)
	v1 := writeFile(t, []*alkaid.Record{d.record(t)}, WithRowGroupRows(1000), WithPageSize(100))
	v2 := writeFile(t, []*alkaid.Record{d.record(t)}, WithRowGroupRows(1000), WithPageSize(100), WithDataPageV2())
	_, all := readFiltered(t, v2, d, nil)
	for range 30 {
		lo := r.Int64N(3000)
		p := []Predicate{{Column: "a", Op: Between, Value: lo, Value2: lo + r.Int64N(200)}}
		want, _ := readFiltered(t, v1, d, p)
		got, some := readFiltered(t, v2, d, p)
		if !slices.Equal(got, want) {
			t.Fatalf("%v: v2 read %d rows, v1 %d", p, len(got), len(want))
		}
		if some >= all {
			t.Errorf("%v: %d pages decoded of %d", p, some, all)
		}
	}

	rec := nestedRecord(t, 2000)
	data := writeFile(t, []*alkaid.Record{rec}, WithDataPageV2(), WithRowGroupRows(1000), WithPageSize(100), WithDictionary(false, 0))
	f, err := NewFileBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for got, err := range records(f, WithPredicates(Predicate{Column: "id", Op: Between, Value: int64(1200), Value2: int64(1230)})) {
		if err != nil {
			t.Fatal(err)
		}
		id := got.Column(0).(*array.Int64)
		for i := range got.NumRows() {
			k := int(id.Value(i))
			for c := range rec.NumCols() {
				if g, w := array.Format(array.Slice(got.Column(c), i, i+1)), array.Format(array.Slice(rec.Column(c), k, k+1)); g != w {
					t.Fatalf("row %d (id %d) column %d: %s, want %s", i, k, c, g, w)
				}
			}
		}
		rows += got.NumRows()
	}
	if rows < 31 || rows >= 1000 {
		t.Errorf("%d rows read for 31 matching", rows)
	}
}
