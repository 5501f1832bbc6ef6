package parquet

import (
	"fmt"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestBatchSizes reads the same file of every type in batches of many
// sizes, pages cut at every size: each read gives the rows written, in
// records of the batch size (less at the end of a row group).
func TestBatchSizes(t *testing.T) {
	s, _ := parquetTypes()
	recs := []*alkaid.Record{randRecord(s, 700)}
	for _, opts := range [][]Option{
		{WithPageSize(300), WithRowGroupRows(500)},
		{WithPageSize(4000), WithDictionary(false, 0), WithDataPageV2()},
		{WithPageSize(64), WithCompression(Zstd, 0)},
	} {
		data := writeFile(t, recs, opts...)
		for _, batch := range []int{1, 3, 64, 333, 499, 500, 501, 1 << 20} {
			t.Run(fmt.Sprint(batch), func(t *testing.T) {
				f, got := readFile(t, data, WithBatchSize(batch))
				rows := 0
				for i, r := range got {
					if r.NumRows() > batch {
						t.Fatalf("record %d of %d rows, batch %d", i, r.NumRows(), batch)
					}
					rows += r.NumRows()
				}
				if rows != 700 {
					t.Fatalf("%d rows", rows)
				}
				want := 0
				for g := range f.NumRowGroups() {
					n := int(f.meta.RowGroups[g].NumRows)
					want += (n + batch - 1) / batch
				}
				if len(got) != want {
					t.Errorf("%d records, want %d", len(got), want)
				}
				sameRows(t, recs, got)
			})
		}
	}
}

// TestBatchesAcrossDictionaryFallback reads, in batches of many sizes
// and as dictionary arrays or not, a column whose chunks fall back from
// dictionary-encoded pages to PLAIN ones midway: every value comes back.
func TestBatchesAcrossDictionaryFallback(t *testing.T) {
	const n = 3000
	var ss []string
	for i := range n {
		if i%11 == 3 {
			ss = append(ss, "null")
		} else {
			ss = append(ss, fmt.Sprintf("%q", fmt.Sprintf("value-%04d", i/2)))
		}
	}
	s := alkaid.NewSchema([]datatype.Field{{Name: "s", Type: datatype.String, Nullable: true}}, datatype.Metadata{})
	col := arrayjson.MustParse(datatype.String, "["+strings.Join(ss, ",")+"]")
	rec, err := alkaid.NewRecord(s, []array.Array{col}, n)
	if err != nil {
		t.Fatal(err)
	}
	data := writeFile(t, []*alkaid.Record{rec}, WithDictionary(true, 4000), WithPageSize(500), WithRowGroupRows(2000))
	f, err := NewFileBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, batch := range []int{1, 7, 250, 999, 1500} {
		for _, asDict := range []bool{false, true} {
			opts := []Option{WithBatchSize(batch)}
			if asDict {
				opts = append(opts, WithDictionaryArrays())
			}
			row := 0
			for got, err := range records(f, opts...) {
				if err != nil {
					t.Fatalf("batch %d, dictionary %v: %v", batch, asDict, err)
				}
				a := got.Column(0)
				if _, isDict := a.(*array.Dictionary); isDict != asDict {
					t.Fatalf("batch %d: a %T read with dictionary arrays %v", batch, a, asDict)
				}
				for i := range a.Len() {
					if g, w := array.FormatValue(a, i), array.FormatValue(col, row); a.IsNull(i) != col.IsNull(row) || !a.IsNull(i) && g != w {
						t.Fatalf("batch %d, dictionary %v: row %d is %s, want %s", batch, asDict, row, g, w)
					}
					row++
				}
			}
			if row != n {
				t.Errorf("batch %d, dictionary %v: %d rows", batch, asDict, row)
			}
		}
	}
}
