package parquet

import (
	"fmt"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
)

// TestBatchSizes reads the same file of every type in batches of many
// sizes, pages cut at every size: each read gives the rows written, in
// records of the batch size (less at the end of a row group).
func TestBatchSizes(t *testing.T) {
	s, _ := parquetTypes()
	recs := []*alkaid.Record{randRecord(s, 700)}
	for _, opts := range [][]WriterOption{
		{WithPageSize(300), WithRowGroupRows(500)},
		{WithPageSize(4000), WithDictionary(false, 0), WithDataPageV2()},
		{WithPageSize(64), WithCodec(Zstd)},
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
