package datatype_test

import (
	"fmt"

	"github.com/alkaid-go/alkaid/datatype"
)

func Example() {
	ts, _ := datatype.NewTimestamp(datatype.Millisecond, "UTC")
	person := datatype.StructOf(
		datatype.Field{Name: "name", Type: datatype.String},
		datatype.Field{Name: "born", Type: ts, Nullable: true},
		datatype.Field{Name: "tags", Type: datatype.ListOf(datatype.String), Nullable: true},
	)
	fmt.Println(person)
	_, err := datatype.NewDictionary(datatype.Float64, datatype.String, false)
	fmt.Println(err)
	// Output:
	// struct<name: utf8 not null, born: timestamp[ms, tz=UTC], tags: list<item: utf8>>
	// datatype: invalid: dictionary index type float64 is not an integer type
}
