package integration_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/integration"
)

// Write a record batch as integration JSON, read it back, and compare it
// with a batch that differs in one value.
func Example() {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "id", Type: datatype.Int64},
		{Name: "name", Type: datatype.String, Nullable: true},
	}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.Int64, `[1, 2, 3]`),
		arrayjson.MustParse(datatype.String, `["a", null, "c"]`),
	}, -1)

	var buf bytes.Buffer
	if err := integration.Write(&buf, schema, []*alkaid.Record{rec}); err != nil {
		fmt.Println(err)
		return
	}
	firstField, _, _ := strings.Cut(buf.String(), `,{"name":"name"`)
	fmt.Println(firstField)

	file, err := integration.Read(&buf)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("same:", integration.Compare(file, &integration.File{Schema: schema, Records: []*alkaid.Record{rec}}) == nil)

	other, _ := alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.Int64, `[1, 2, 3]`),
		arrayjson.MustParse(datatype.String, `["a", null, "x"]`),
	}, -1)
	fmt.Println(integration.Compare(file, &integration.File{Schema: schema, Records: []*alkaid.Record{other}}))
	// Output:
	// {"schema":{"fields":[{"name":"id","nullable":false,"type":{"name":"int","isSigned":true,"bitWidth":64},"children":[]}
	// same: true
	// batch 0, column name, row 2: values differ: "c" vs "x"
}
