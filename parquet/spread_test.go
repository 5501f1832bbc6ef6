package parquet

import (
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestSpreadLeaves: optional int32/int64/float64 columns, whose values
// are placed in their slots page by page, read back equal through
// dictionary pages, a fallback to PLAIN and many small pages, with no
// nulls, some nulls and only nulls.
func TestSpreadLeaves(t *testing.T) {
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "i32", Type: datatype.Int32, Nullable: true},
		{Name: "i64", Type: datatype.Int64, Nullable: true},
		{Name: "f64", Type: datatype.Float64, Nullable: true},
	}, datatype.Metadata{})
	tests := []struct {
		name  string
		nulls func(i int) bool
	}{
		{"none", func(int) bool { return false }},
		{"some", func(i int) bool { return i%7 == 2 || (i/50)%9 == 0 }},
		// Pages with nulls between pages without (decoded straight into
		// the batch) in the same chunks and batches.
		{"some pages", func(i int) bool { return (i/300)%2 == 0 && i%3 == 0 }},
		{"all", func(int) bool { return true }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			const n = 4000
			b32 := array.NewPrimitiveBuilder[int32](datatype.Int32)
			b64 := array.NewPrimitiveBuilder[int64](datatype.Int64)
			bf := array.NewPrimitiveBuilder[float64](datatype.Float64)
			for i := range n {
				if tc.nulls(i) {
					b32.AppendNull()
					b64.AppendNull()
					bf.AppendNull()
					continue
				}
				// Few distinct values first (dictionary pages), then many
				// (the writer falls back to PLAIN).
				v := i % 10
				if i > n/2 {
					v = i * 7919
				}
				b32.Append(int32(v))
				b64.Append(int64(v) << 20)
				bf.Append(float64(v) / 3)
			}
			rec, err := alkaid.NewRecord(s, []array.Array{b32.NewArray(), b64.NewArray(), bf.NewArray()}, n)
			if err != nil {
				t.Fatal(err)
			}
			data := writeFile(t, []*alkaid.Record{rec}, WithDictionary(true, 2048), WithPageSize(300), WithRowGroupRows(1500))
			_, got := readFile(t, data)
			sameRows(t, []*alkaid.Record{rec}, got)
			f, _ := readFile(t, data)
			if tc.name == "some" && !plainDataPages(t, f, data) {
				t.Error("no PLAIN data page: the fallback was not exercised")
			}
		})
	}
}
