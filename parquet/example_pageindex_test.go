package parquet_test

import (
	"bytes"
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet"
)

// Write a file of small plain pages with a bloom filter on "id", then read only
// the pages that may hold id 4242: the page index leaves out the others.
func ExampleWithPredicates() {
	schema := alkaid.NewSchema([]datatype.Field{{Name: "id", Type: datatype.Int64}}, datatype.Metadata{})
	b := array.NewPrimitiveBuilder[int64](datatype.Int64)
	for i := range 10000 {
		b.Append(int64(i))
	}
	rec, _ := alkaid.NewRecord(schema, []array.Array{b.Finish()}, 10000)

	var buf bytes.Buffer
	w, _ := parquet.NewWriter(&buf, schema, parquet.WithPageSize(4096), parquet.WithDictionary(false, 0),
		parquet.WithBloomFilter("id"))
	_ = w.Write(rec)
	_ = w.Close()

	f, _ := parquet.NewFileBytes(buf.Bytes(), parquet.WithPredicates(parquet.Predicate{Column: "id", Op: parquet.Eq, Value: int64(4242)}))
	rows, found := 0, false
	for r, err := range f.Records() {
		if err != nil {
			fmt.Println(err)
			return
		}
		ids := r.Column(0).(*array.Int64)
		for i := range r.NumRows() {
			found = found || ids.Value(i) == 4242
		}
		rows += r.NumRows()
	}
	fmt.Println("found:", found, "rows read of 10000:", rows)
	// Output: found: true rows read of 10000: 512
}
