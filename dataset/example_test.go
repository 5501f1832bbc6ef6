package dataset_test

import (
	"context"
	"fmt"
	"iter"
	"os"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/dataset"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
	"github.com/alkaid-go/alkaid/files"
)

// table is an alkaid.RecordReader of one record.
type table struct{ rec *alkaid.Record }

func (t table) Close() error { return nil }

func (t table) Schema() *alkaid.Schema { return t.rec.Schema() }
func (t table) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) { yield(t.rec, nil) }
}

func Example() {
	dir, _ := os.MkdirTemp("", "sales")
	defer os.RemoveAll(dir)

	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "year", Type: datatype.Int64},
		{Name: "city", Type: datatype.String},
		{Name: "amount", Type: datatype.Float64},
	}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.Int64, "[2023, 2024, 2024, 2024]"),
		arrayjson.MustParse(datatype.String, `["Oslo", "Oslo", "Lima", "Oslo"]`),
		arrayjson.MustParse(datatype.Float64, "[1.5, 2, 3, 4.5]"),
	}, -1)

	// Write it partitioned by year, then read it back.
	written, err := dataset.Write(context.Background(), dataset.DirFS(dir), "sales", table{rec}, dataset.WithPartitionBy("year"))
	fmt.Println(written, err)

	d, err := dataset.Open(os.DirFS(dir), "sales", dataset.WithPartitioning(dataset.Partitioning{Style: dataset.Hive}))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Schema())
	scan, _ := d.Scan(context.Background(),
		dataset.WithColumns("city", "amount"),
		dataset.WithFilter(expr.And(
			expr.Eq(expr.Field("year"), expr.Lit(2024)),
			expr.Gt(expr.Field("amount"), expr.Lit(2.5)),
		)))
	for r, err := range scan.Records() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(r)
	}
	st := scan.Stats()
	fmt.Printf("files: %d, pruned by partition: %d, rows read: %d, kept: %d\n", st.Files, st.FilesPruned, st.RowsRead, st.Rows)
	// Output:
	// [sales/year=2023/part-0.parquet sales/year=2024/part-0.parquet] <nil>
	// schema:
	//   city: utf8 not null
	//   amount: float64 not null
	//   year: int64
	// record: 2 rows
	//   city: ["Lima" "Oslo"]
	//   amount: [3 4.5]
	//
	// files: 2, pruned by partition: 1, rows read: 3, kept: 2
}

func ExampleOpenGlob() {
	dir, _ := os.MkdirTemp("", "logs")
	defer os.RemoveAll(dir)
	rec, _ := alkaid.NewRecord(alkaid.NewSchema([]datatype.Field{{Name: "n", Type: datatype.Int32}}, datatype.Metadata{}),
		[]array.Array{arrayjson.MustParse(datatype.Int32, "[1, 2, 3]")}, -1)
	for _, name := range []string{"a", "b"} {
		dataset.Write(context.Background(), dataset.DirFS(dir), "logs/"+name, table{rec},
			dataset.WithFormat(files.FormatNDJSON))
	}
	os.WriteFile(dir+"/logs/a/_SUCCESS", nil, 0o644)

	d, _ := dataset.OpenGlob(os.DirFS(dir), "logs/**/*.ndjson")
	fmt.Println(d.Files())
	n, _, _ := d.CountRows(context.Background(), dataset.WithFilter(expr.Gt(expr.Field("n"), expr.Lit(1))))
	fmt.Println(n)
	// Output:
	// [logs/a/part-0.ndjson logs/b/part-0.ndjson]
	// 4
}

// A scan of one file of a dataset, in the dataset's schema and with its
// partition columns, such as one of several readers sharing the files.
func ExampleWithFiles() {
	dir, _ := os.MkdirTemp("", "parts")
	defer os.RemoveAll(dir)
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "year", Type: datatype.Int64},
		{Name: "n", Type: datatype.Int32},
	}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.Int64, "[2023, 2024, 2024]"),
		arrayjson.MustParse(datatype.Int32, "[1, 2, 3]"),
	}, -1)
	dataset.Write(context.Background(), dataset.DirFS(dir), "t", table{rec},
		dataset.WithPartitionBy("year"), dataset.WithFormat(files.FormatIPCFile))

	d, _ := dataset.Open(os.DirFS(dir), "t", dataset.WithPartitioning(dataset.Partitioning{Style: dataset.Hive}))
	last := d.Files()[len(d.Files())-1]
	scan, _ := d.Scan(context.Background(), dataset.WithFiles(last))
	for r, err := range scan.Records() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(last, r.Column(0), r.Column(1))
	}
	// Output:
	// t/year=2024/part-0.arrow [2 3] [2024 2024]
}
