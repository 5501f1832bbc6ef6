package join_test

import (
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
	"github.com/alkaid-go/alkaid/join"
)

func mustTable(fields []datatype.Field, cols ...array.Array) *alkaid.Table {
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), cols, -1)
	if err != nil {
		panic(err)
	}
	t, err := alkaid.TableFromRecords(rec.Schema(), []*alkaid.Record{rec})
	if err != nil {
		panic(err)
	}
	return t
}

// A left outer join of orders (streamed) with customers (in memory).
func ExampleNewReader() {
	orders := mustTable([]datatype.Field{
		{Name: "order", Type: datatype.Int64},
		{Name: "customer", Type: datatype.String, Nullable: true},
	},
		arrayjson.MustParse(datatype.Int64, `[1, 2, 3]`),
		arrayjson.MustParse(datatype.String, `["ana", "bo", null]`))
	customers := mustTable([]datatype.Field{
		{Name: "customer", Type: datatype.String},
		{Name: "city", Type: datatype.String},
	},
		arrayjson.MustParse(datatype.String, `["bo", "ana"]`),
		arrayjson.MustParse(datatype.String, `["Oslo", "Lima"]`))

	j, err := join.NewReader(orders, customers, join.LeftOuter, join.On("customer"),
		join.WithColumns("order", "customer", "city"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer j.Close()
	for rec, err := range j.Records() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(rec.Column(0), rec.Column(1), rec.Column(2))
	}
	// Output:
	// [1 2 3] ["ana" "bo" (null)] ["Lima" "Oslo" (null)]
}

// A residual filter: pairs with equal keys match only where an
// expression over the joined row is true (here price <= budget), as a
// condition added to SQL's ON clause.
func ExampleWithFilter() {
	wants := mustTable([]datatype.Field{
		{Name: "item", Type: datatype.String},
		{Name: "budget", Type: datatype.Int64},
	},
		arrayjson.MustParse(datatype.String, `["pen", "pen", "ink"]`),
		arrayjson.MustParse(datatype.Int64, `[1, 5, 9]`))
	offers := mustTable([]datatype.Field{
		{Name: "item", Type: datatype.String},
		{Name: "price", Type: datatype.Int64},
	},
		arrayjson.MustParse(datatype.String, `["pen", "ink"]`),
		arrayjson.MustParse(datatype.Int64, `[3, 4]`))
	affordable, err := expr.Parse("price <= budget")
	if err != nil {
		fmt.Println(err)
		return
	}
	j, err := join.NewReader(wants, offers, join.LeftAnti, join.On("item"), join.WithFilter(affordable))
	if err != nil {
		fmt.Println(err)
		return
	}
	for rec, err := range j.Records() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(rec.Column(0), rec.Column(1))
	}
	// Output:
	// ["pen"] [1]
}
