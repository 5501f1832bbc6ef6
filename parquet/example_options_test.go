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

// Record a sort order in the file and read a string column back as a
// dictionary array.
func ExampleWithDictionaryArrays() {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "city", Type: datatype.String},
		{Name: "day", Type: datatype.Int32},
	}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.String, `["Oslo", "Oslo", "Lima", "Oslo"]`),
		arrayjson.MustParse(datatype.Int32, "[1, 2, 3, 4]"),
	}, 4)

	var buf bytes.Buffer
	w, _ := parquet.NewWriter(&buf, schema, parquet.WithSortingColumns(parquet.SortingColumn{Path: "day"}))
	_ = w.Write(rec)
	_ = w.Close()

	f, err := parquet.NewFileBytes(buf.Bytes(), parquet.WithDictionaryArrays())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("sorted by %+v\n", f.SortingColumns(0))
	for r, err := range f.Records() {
		if err != nil {
			fmt.Println(err)
			return
		}
		d := r.Column(0).(*array.Dictionary)
		fmt.Println(r.Schema().Field(0).Type, array.Format(d.Dictionary()), array.Format(d.Indices()))
	}
	// Output:
	// sorted by [{Path:day Descending:false NullsFirst:false}]
	// dictionary<values=utf8, indices=int32> ["Oslo" "Lima"] [0 0 1 0]
}

// Keep the rows where day is even: day is decoded first, then city only
// at the rows kept.
func ExampleWithRowFilter() {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "city", Type: datatype.String},
		{Name: "day", Type: datatype.Int32},
	}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.String, `["Oslo", "Oslo", "Lima", "Oslo"]`),
		arrayjson.MustParse(datatype.Int32, "[1, 2, 3, 4]"),
	}, 4)
	var buf bytes.Buffer
	w, _ := parquet.NewWriter(&buf, schema)
	_ = w.Write(rec)
	_ = w.Close()

	even := func(r *alkaid.Record) (*array.Boolean, error) {
		day := r.Column(0).(*array.Int32)
		b := array.NewBooleanBuilder(datatype.Bool)
		for i := range day.Len() {
			b.Append(day.Value(i)%2 == 0)
		}
		return b.Finish(), nil
	}
	f, err := parquet.NewFileBytes(buf.Bytes(), parquet.WithRowFilter([]string{"day"}, even))
	if err != nil {
		fmt.Println(err)
		return
	}
	for r, err := range f.Records() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(array.Format(r.Column(0)), array.Format(r.Column(1)))
	}
	// Output:
	// ["Oslo" "Oslo"] [2 4]
}
