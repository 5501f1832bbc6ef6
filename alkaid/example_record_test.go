package alkaid_test

import (
	"fmt"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// Columns are found by name, and string columns are *array.String.
func ExampleRecord_ColumnByName() {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "star", Type: datatype.String},
		{Name: "catalogued", Type: datatype.Date32Type},
	}, datatype.Metadata{})
	stars := array.NewBinaryBuilder[int32](datatype.String)
	stars.AppendStrings([]string{"Alkaid", "Mizar"}, nil)
	days := array.NewPrimitiveBuilder[datatype.Date32](datatype.Date32Type)
	days.Append(datatype.Date32Of(time.Date(1603, time.January, 1, 0, 0, 0, 0, time.UTC)))
	days.Append(datatype.Date32Of(time.Date(1650, time.June, 30, 0, 0, 0, 0, time.UTC)))
	rec, err := alkaid.NewRecord(schema, []array.Array{stars.Finish(), days.Finish()}, -1)
	if err != nil {
		panic(err)
	}
	col, ok := rec.ColumnByName("star")
	fmt.Println(ok, col.(*array.String).ValueString(1))
	_, ok = rec.ColumnByName("planet")
	fmt.Println(ok)
	dates, _ := rec.ColumnByName("catalogued")
	fmt.Println(dates.(*array.Date32).Value(0).Time().Format(time.DateOnly))
	// Output:
	// true Mizar
	// false
	// 1603-01-01
}
