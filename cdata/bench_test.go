//go:build cgo

package cdata

import (
	"fmt"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
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

// BenchmarkExportImportRecord exports a record and imports it back. The
// buffers are shared: ns/op must not grow with the rows, trusted (structure
// checks only) — with the default validation, the O(n) checks of offsets
// and indices do grow with them.
func BenchmarkExportImportRecord(b *testing.B) {
	for _, rows := range []int{1_000, 1_000_000} {
		rec := randdata.New(1).Record(benchSchema, rows)
		for _, v := range []struct {
			name string
			opts []Option
		}{{"trusted", []Option{WithValidation(array.ValidateStructure)}}, {"validated", nil}} {
			b.Run(fmt.Sprintf("rows=%d/%s", rows, v.name), func(b *testing.B) {
				ca, cs := NewArrowArray(), NewArrowSchema()
				defer Free(ca)
				defer Free(cs)
				b.ReportAllocs()
				for range b.N {
					if err := ExportRecord(rec, ca, cs); err != nil {
						b.Fatal(err)
					}
					if _, err := ImportRecord(ca, cs, v.opts...); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
