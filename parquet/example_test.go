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

// Write records with nested columns to Parquet and read them back.
func Example() {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "id", Type: datatype.Int64},
		{Name: "tags", Type: datatype.ListOf(datatype.String), Nullable: true},
	}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.Int64, "[1, 2, 3]"),
		arrayjson.MustParse(datatype.ListOf(datatype.String), `[["a", "b"], null, ["c", null]]`),
	}, 3)

	var buf bytes.Buffer
	w, _ := parquet.NewWriter(&buf, schema, parquet.WithCompression(parquet.Zstd, 0))
	_ = w.Write(rec)
	_ = w.Close()

	f, err := parquet.NewFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()), parquet.WithBatchSize(2))
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
	// [1 2] [["a" "b"] (null)]
	// [3] [["c" (null)]]
}

// Read only some columns of a file into a table.
func ExampleWithColumns() {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "a", Type: datatype.Int32},
		{Name: "b", Type: datatype.String},
	}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.Int32, "[7, 8]"),
		arrayjson.MustParse(datatype.String, `["x", "y"]`),
	}, 2)
	var buf bytes.Buffer
	w, _ := parquet.NewWriter(&buf, schema)
	_ = w.Write(rec)
	_ = w.Close()

	f, _ := parquet.NewFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()), parquet.WithColumns("b"))
	t, _ := alkaid.ReadAll(f)
	fmt.Println(t.NumCols(), t.Schema().Field(0).Name, array.Format(t.Column(0).Chunks()[0]))
	// Output:
	// 1 b ["x" "y"]
}

// Describe a file's row groups from its footer, without reading pages.
func ExampleFile_RowGroup() {
	schema := alkaid.NewSchema([]datatype.Field{{Name: "a", Type: datatype.Int32}}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(schema, []array.Array{arrayjson.MustParse(datatype.Int32, "[1, 2, 3, 4, 5]")}, 5)
	var buf bytes.Buffer
	w, _ := parquet.NewWriter(&buf, schema, parquet.WithCompression(parquet.Gzip, 0), parquet.WithRowGroupRows(3))
	_ = w.Write(rec)
	_ = w.Close()
	f, _ := parquet.NewFileBytes(buf.Bytes())
	for i := range f.NumRowGroups() {
		g := f.RowGroup(i)
		fmt.Println(i, g.Rows, g.Codecs)
	}
	// Output:
	// 0 3 map[GZIP:1]
	// 1 2 map[GZIP:1]
}

// Read two projections of one open file: Select shares the footer read
// once.
func ExampleFile_Select() {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "a", Type: datatype.Int32},
		{Name: "b", Type: datatype.String},
	}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.Int32, "[1, 2, 3, 4, 5]"),
		arrayjson.MustParse(datatype.String, `["v", "w", "x", "y", "z"]`),
	}, 5)
	var buf bytes.Buffer
	w, _ := parquet.NewWriter(&buf, schema, parquet.WithRowGroupRows(3))
	_ = w.Write(rec)
	_ = w.Close()

	f, _ := parquet.NewFileBytes(buf.Bytes())
	for _, opts := range [][]parquet.Option{
		{parquet.WithColumns("a")},
		{parquet.WithColumns("b"), parquet.WithRowGroups(1)},
	} {
		sel, err := f.Select(opts...)
		if err != nil {
			fmt.Println(err)
			return
		}
		for r, err := range sel.Records() {
			if err != nil {
				fmt.Println(err)
				return
			}
			fmt.Println(r.Schema().Field(0).Name, array.Format(r.Column(0)))
		}
	}
	// Output:
	// a [1 2 3]
	// a [4 5]
	// b ["y" "z"]
}
