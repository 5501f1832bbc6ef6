package compute_test

import (
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

func salesRecord() *alkaid.Record {
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "city", Type: datatype.String, Nullable: true},
		{Name: "amount", Type: datatype.Int64, Nullable: true},
	}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{
		arrayjson.MustParse(datatype.String, `["Oslo", "Lima", "Oslo", null, "Lima", "Oslo"]`),
		arrayjson.MustParse(datatype.Int64, `[10, 5, null, 7, 20, 4]`),
	}, -1)
	if err != nil {
		panic(err)
	}
	return rec
}

func ExampleGroupBy() {
	out, err := compute.GroupBy(salesRecord(), []string{"city"}, []compute.Aggregate{
		{Func: compute.AggSum, Column: "amount"},
		{Func: compute.AggCount, Name: "rows"},
		{Func: compute.AggMean, Column: "amount"},
	})
	if err != nil {
		panic(err)
	}
	fmt.Print(out)
	// Output:
	// record: 3 rows
	//   city: ["Oslo" "Lima" (null)]
	//   sum(amount): [14 25 7]
	//   rows: [3 2 1]
	//   mean(amount): [7 12.5 7]
}

func ExampleSortRecord() {
	sorted, err := compute.SortRecord(salesRecord(), []compute.SortKey{
		{Column: "city", Order: compute.Order{NullsFirst: true}},
		{Column: "amount", Order: compute.Order{Descending: true}},
	})
	if err != nil {
		panic(err)
	}
	fmt.Print(sorted)
	// Output:
	// record: 6 rows
	//   city: [(null) "Lima" "Lima" "Oslo" "Oslo" "Oslo"]
	//   amount: [7 20 5 10 4 (null)]
}

func ExampleCast() {
	text := arrayjson.MustParse(datatype.String, `["12", "-3", null]`)
	n, err := compute.Cast(text, datatype.Int8)
	fmt.Println(n, err)
	_, err = compute.Cast(arrayjson.MustParse(datatype.String, `["1", "300"]`), datatype.Int8)
	fmt.Println(err)
	f, _ := compute.Cast(arrayjson.MustParse(datatype.Float64, `[1.5, 2]`), datatype.Int32, compute.AllowTruncation())
	fmt.Println(f)
	// Output:
	// [12 -3 (null)] <nil>
	// compute: overflow: cast utf8 to int8: row 1: value 300
	// [1 2]
}

func ExampleUnique() {
	a := arrayjson.MustParse(datatype.String, `["b", "a", "b", null, "a"]`)
	u, _ := compute.Unique(a)
	values, counts, _ := compute.ValueCounts(a)
	in, _ := compute.IsIn(a, arrayjson.MustParse(datatype.String, `["a"]`))
	fmt.Println(u, values, counts, in)
	// Output:
	// ["b" "a" (null)] ["b" "a" (null)] [2 2 1] [false true false false true]
}
