package arrowbridge

import (
	"fmt"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

var benchSchema = alkaid.NewSchema([]datatype.Field{
	{Name: "i", Type: datatype.Int64, Nullable: true},
	{Name: "s", Type: datatype.String, Nullable: true},
	{Name: "l", Type: datatype.ListOf(datatype.Int32), Nullable: true},
	{Name: "st", Type: datatype.StructOf(datatype.Field{Name: "a", Type: datatype.Float64, Nullable: true}), Nullable: true},
	{Name: "d", Type: must(datatype.NewDictionary(datatype.Int32, datatype.String, false)), Nullable: true},
}, datatype.Metadata{})

// The conversions share buffers: ns/op must not grow with the rows (a
// copy would grow 1000-fold from 1k to 1M rows). The cost is per buffer:
// view arrays, whose builders start a new data buffer every few tens of
// kilobytes, cost one buffer wrapper per data buffer, so they are left
// out of benchSchema.
func BenchmarkToArrowRecord(b *testing.B) {
	for _, rows := range []int{1_000, 1_000_000} {
		rec := randdata.New(1).Record(benchSchema, rows)
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				arec, err := ToArrowRecord(rec)
				if err != nil {
					b.Fatal(err)
				}
				arec.Release()
			}
		})
	}
}

func BenchmarkFromArrowRecord(b *testing.B) {
	for _, rows := range []int{1_000, 1_000_000} {
		rec := randdata.New(1).Record(benchSchema, rows)
		arec, err := ToArrowRecord(rec)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := FromArrowRecord(arec); err != nil {
					b.Fatal(err)
				}
			}
		})
		arec.Release()
	}
}
