package expr_test

import (
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
)

// Example_stringFunctions evaluates string and math functions over a
// column of names and one of prices.
func Example_stringFunctions() {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "name", Type: datatype.String, Nullable: true},
		{Name: "price", Type: datatype.Float64, Nullable: true},
	}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.String, `["Jürgen Straße 12", "ana-maria 7", null]`),
		arrayjson.MustParse(datatype.Float64, `[2.5, 3.5, 16]`),
	}, 3)
	for _, text := range []string{
		"lpad(upper(left(name, 3)), 5, '*')",
		"regexp_extract(name, '([0-9]+)$', 1)",
		"array_to_string(string_split(replace(name, '-', ' '), ' '), '/')",
		"strpos(name, 'a')",
		"round_even(price, 0)",
		"round(price, 0)",
		"sqrt(price) * sign(price)",
	} {
		e, err := expr.Parse(text)
		if err != nil {
			fmt.Println(err)
			return
		}
		b, err := expr.Bind(e, rec.Schema())
		if err != nil {
			fmt.Println(err)
			return
		}
		out, err := b.Eval(rec)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(out)
	}
	// Output:
	// ["**JÜR" "**ANA" (null)]
	// ["12" "7" (null)]
	// ["Jürgen/Straße/12" "ana/maria/7" (null)]
	// [11 1 (null)]
	// [2 4 16]
	// [3 4 16]
	// [1.5811388300841898 1.8708286933869707 4]
}
