package arrayjson_test

import (
	"fmt"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

func ExampleParse() {
	a, err := arrayjson.Parse(datatype.ListOf(datatype.Int32), `[[1, 2], null, []]`)
	fmt.Println(a, err)
	_, err = arrayjson.Parse(datatype.Int8, `[1, 300]`)
	fmt.Println(err)
	// Output:
	// [[1 2] (null) []] <nil>
	// arrayjson: Parse int8: invalid: at [1] (offset 4): int8: value out of range
}

func ExampleAppend() {
	b := array.NewBuilder(datatype.String)
	b.AppendNull()
	if err := arrayjson.Append(b, `["a", "b"]`); err != nil {
		panic(err)
	}
	fmt.Println(b.NewArray())
	// Output:
	// [(null) "a" "b"]
}
