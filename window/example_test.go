package window_test

import (
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/window"
)

func ExampleEval() {
	country := array.NewBinaryBuilder[int32](datatype.String)
	country.AppendStrings([]string{"DE", "FR", "DE", "DE", "FR"}, nil)
	amount := array.NewPrimitiveBuilder[int64](datatype.Int64)
	amount.AppendValues([]int64{10, 30, 20, 10, 5}, nil)
	rec, _ := alkaid.NewRecord(alkaid.NewSchema([]datatype.Field{
		{Name: "country", Type: datatype.String}, {Name: "amount", Type: datatype.Int64}}, datatype.Metadata{}),
		[]array.Array{country.NewArray(), amount.NewArray()}, 5)

	spec := window.Spec{
		PartitionBy: []string{"country"},
		OrderBy:     []compute.SortKey{{Column: "amount", Order: compute.Order{Descending: true}}},
	}
	rank, _ := window.Eval(rec, spec, window.Rank, "")
	running, _ := window.Eval(rec, spec, window.CumSum, "amount")
	fmt.Println(rank)
	fmt.Println(running)
	// Output:
	// [2 1 1 2 2]
	// [30 30 20 40 35]
}
