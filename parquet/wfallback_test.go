package parquet

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

// chunkPageEncodings returns the encoding of each data page of column c
// in every row group, and whether each chunk has a dictionary page.
func chunkPageEncodings(t *testing.T, f *File, data []byte, c int) ([][]format.Encoding, []bool) {
	t.Helper()
	var encs [][]format.Encoding
	var dicts []bool
	for _, rg := range f.meta.RowGroups {
		md := rg.Columns[c].MetaData
		start := md.DataPageOffset
		if md.DictionaryPageOffset != nil && *md.DictionaryPageOffset < start {
			start = *md.DictionaryPageOffset
		}
		chunk := data[start : start+md.TotalCompressedSize]
		var e []format.Encoding
		dict := false
		for pos := 0; pos < len(chunk); {
			var h format.PageHeader
			n, err := thrift.Unmarshal(chunk[pos:], &h)
			if err != nil {
				t.Fatal(err)
			}
			pos += n + int(h.CompressedPageSize)
			switch {
			case h.DictionaryPageHeader != nil:
				dict = true
			case h.DataPageHeader != nil:
				e = append(e, h.DataPageHeader.Encoding)
			case h.DataPageHeaderV2 != nil:
				e = append(e, h.DataPageHeaderV2.Encoding)
			}
		}
		encs = append(encs, e)
		dicts = append(dicts, dict)
	}
	return encs, dicts
}

// TestDictionaryFallbackMidChunk: when a chunk's dictionary outgrows its
// limit, the pages before stay dictionary-encoded and the rest are
// PLAIN (or the column's encoding), each dictionary page ending at a row
// boundary; every reading gives the values written, with predicates too.
func TestDictionaryFallbackMidChunk(t *testing.T) {
	const n = 3000
	lt := datatype.ListOf(datatype.String)
	var ids, ss, ls []string
	for i := range n {
		ids = append(ids, fmt.Sprint(i))
		if i%11 == 3 {
			ss = append(ss, "null")
		} else {
			ss = append(ss, fmt.Sprintf("%q", fmt.Sprintf("value-%04d", i/2)))
		}
		var elems []string
		for k := range i % 4 {
			elems = append(elems, fmt.Sprintf("%q", fmt.Sprintf("e%05d", i+k)))
		}
		ls = append(ls, "["+strings.Join(elems, ",")+"]")
	}
	join := func(v []string) string { return "[" + strings.Join(v, ",") + "]" }
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "id", Type: datatype.Int64},
		{Name: "s", Type: datatype.String, Nullable: true},
		{Name: "l", Type: lt, Nullable: true},
	}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{arrayjson.MustParse(datatype.Int64, join(ids)),
		arrayjson.MustParse(datatype.String, join(ss)), arrayjson.MustParse(lt, join(ls))}, n)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opts []Option
		rest [2]format.Encoding // of columns s and l's pages after the fallback
	}{
		{"v1", nil, [2]format.Encoding{format.Plain, format.Plain}},
		{"v2", []Option{WithDataPageV2()}, [2]format.Encoding{format.Plain, format.Plain}},
		{"delta", []Option{WithColumnEncoding("s", DeltaLengthByteArray), WithColumnEncoding("l.list.element", DeltaByteArray)},
			[2]format.Encoding{format.DeltaLengthByteArray, format.DeltaByteArray}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := append([]Option{WithDictionary(true, 4000), WithPageSize(500), WithRowGroupRows(2000)}, tc.opts...)
			data := writeFile(t, []*alkaid.Record{rec}, opts...)
			f, got := readFile(t, data)
			sameRows(t, []*alkaid.Record{rec}, got)
			for c := 1; c <= 2; c++ {
				encs, dicts := chunkPageEncodings(t, f, data, c)
				for g, e := range encs {
					k := slices.IndexFunc(e, func(x format.Encoding) bool { return x != format.RLEDictionary })
					if !dicts[g] || k <= 0 {
						t.Fatalf("column %d row group %d: pages %v (dictionary page %v): want dictionary pages, then others", c, g, e, dicts[g])
					}
					for _, x := range e[k:] {
						if x != tc.rest[c-1] {
							t.Fatalf("column %d row group %d: pages %v after the fallback", c, g, e)
						}
					}
					md := f.meta.RowGroups[g].Columns[c].MetaData
					if !slices.Contains(md.Encodings, format.RLEDictionary) || !slices.Contains(md.Encodings, e[k]) {
						t.Errorf("column %d row group %d: chunk encodings %v for pages %v", c, g, md.Encodings, e)
					}
				}
			}
			// Rows selected by the page index come back whole.
			p := Predicate{Column: "id", Op: Between, Value: int64(1200), Value2: int64(1300)}
			pf, err := NewFileBytes(data)
			if err != nil {
				t.Fatal(err)
			}
			for got, err := range records(pf, WithPredicates(p)) {
				if err != nil {
					t.Fatal(err)
				}
				id := got.Column(0).(*array.Int64)
				for r := range got.NumRows() {
					i := int(id.Value(r))
					for c := range 3 {
						if g, w := array.Format(array.Slice(got.Column(c), r, r+1)), array.Format(array.Slice(rec.Column(c), i, i+1)); g != w {
							t.Fatalf("row %d column %d: %s, want %s", i, c, g, w)
						}
					}
				}
			}
		})
	}
}
