package window_test

import (
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/window"
)

// sales is a table of two record batches: a partition spans both.
func sales() *alkaid.Table {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "country", Type: datatype.String}, {Name: "amount", Type: datatype.Int64}}, datatype.Metadata{})
	batch := func(countries []string, amounts []int64) *alkaid.Record {
		c := array.NewBinaryBuilder[int32](datatype.String)
		c.AppendStrings(countries, nil)
		a := array.NewPrimitiveBuilder[int64](datatype.Int64)
		a.AppendValues(amounts, nil)
		rec, _ := alkaid.NewRecord(schema, []array.Array{c.NewArray(), a.NewArray()}, len(amounts))
		return rec
	}
	t, _ := alkaid.TableFromRecords(schema, []*alkaid.Record{
		batch([]string{"DE", "FR", "DE"}, []int64{10, 30, 20}),
		batch([]string{"DE", "FR"}, []int64{10, 5}),
	})
	return t
}

func ExampleEval() {
	spec := window.Spec{
		PartitionBy: []string{"country"},
		OrderBy:     []compute.SortKey{{Column: "amount", Order: compute.Order{Descending: true}}},
	}
	r, err := window.Eval(sales(), spec,
		window.Call{Func: window.Rank},
		window.Call{Func: window.CumSum, Column: "amount", Name: "running"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	for rec, err := range r.Records() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(rec.Column(2), rec.Column(3))
	}
	// Output:
	// [2 1 1] [30 30 20]
	// [2 2] [40 35]
}

// A running sum over the input's order needs no sort: it is computed
// batch by batch, the sum carried from one batch to the next.
func ExampleEval_stream() {
	r, err := window.Eval(sales(), window.Spec{}, window.Call{Func: window.CumSum, Column: "amount"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	fmt.Println(r.Schema().Field(2).Name)
	for rec, err := range r.Records() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(rec.Column(2))
	}
	// Output:
	// cumulative_sum(amount)
	// [10 40 60]
	// [70 75]
}
