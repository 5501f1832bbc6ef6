package parquet_test

import (
	"bytes"
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet"
)

// Write data pages v2 (levels kept uncompressed ahead of the values) and
// read the list column back.
func ExampleWithDataPageV2() {
	lt := datatype.ListOf(datatype.Int64)
	schema := alkaid.NewSchema([]datatype.Field{{Name: "l", Type: lt, Nullable: true}}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(schema, []array.Array{arrayjson.MustParse(lt, "[[1, 2], null, [], [3]]")}, 4)

	var buf bytes.Buffer
	w, _ := parquet.NewWriter(&buf, schema, parquet.WithDataPageV2(), parquet.WithCompression(parquet.Zstd, 0))
	_ = w.Write(rec)
	_ = w.Close()

	f, err := parquet.NewFileBytes(buf.Bytes())
	if err != nil {
		fmt.Println(err)
		return
	}
	for r, err := range f.Records() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(array.Format(r.Column(0)))
	}
	// Output:
	// [[1 2] (null) [] [3]]
}
