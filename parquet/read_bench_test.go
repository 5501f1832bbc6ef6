package parquet_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet"
)

// benchScanFile writes one file shaped like a file of the dataset
// benchmarks in bench/: 500,000 rows of x (int64, ~400,000 distinct) and f
// (float64, dictionary-friendly), snappy; optional columns (without
// nulls) as DuckDB writes them, or required ones.
func benchScanFile(b *testing.B, optional bool) []byte {
	b.Helper()
	const rows = 500_000
	schema := alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int64, Nullable: optional},
		{Name: "f", Type: datatype.Float64, Nullable: optional}}, datatype.Metadata{})
	xb := array.NewPrimitiveBuilder[int64](datatype.Int64)
	fb := array.NewPrimitiveBuilder[float64](datatype.Float64)
	for k := range rows {
		i := 20 * k
		xb.Append(int64(uint64(i) * 2654435761 % 4294967291 % 1000000))
		fb.Append(float64(i*7919%100000) / 7)
	}
	return writeSnappy(b, schema, []array.Array{xb.Finish(), fb.Finish()}, rows)
}

// writeSnappy writes one record of cols as a snappy Parquet file.
func writeSnappy(b *testing.B, schema *alkaid.Schema, cols []array.Array, rows int) []byte {
	b.Helper()
	rec, err := alkaid.NewRecord(schema, cols, rows)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := parquet.NewWriter(&buf, schema, parquet.WithCompression(parquet.Snappy, 0))
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkReadScan reads every column of a snappy file serially, as a
// dataset scan reads each of its files.
func BenchmarkReadScan(b *testing.B) {
	for _, optional := range []bool{false, true} {
		data := benchScanFile(b, optional)
		for _, cols := range [][]string{{"f"}, {"x", "f"}} {
			name := "required/"
			if optional {
				name = "optional/"
			}
			benchScan(b, name+strings.Join(cols, ","), data, cols)
		}
	}
}

// benchScan reads cols of the file data, serially, in each operation.
func benchScan(b *testing.B, name string, data []byte, cols []string) {
	b.Run(name, func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		cpu0 := cpuTime()
		for b.Loop() {
			f, err := parquet.NewFile(bytes.NewReader(data), int64(len(data)), parquet.WithColumns(cols...), parquet.WithConcurrency(1))
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			for rec, err := range f.Records() {
				if err != nil {
					b.Fatal(err)
				}
				n += rec.NumRows()
			}
			if n != 500_000 {
				b.Fatalf("%d rows", n)
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	})
}

// BenchmarkNewFileSmallFooter opens a small file as a dataset discovery
// does, one of the files of the dataset benchmarks in bench/: the footer
// of one row group of 100,000 rows of three columns (id, x int64 and f
// float64), snappy, with statistics and the stored ARROW:schema, read and
// decoded.
func BenchmarkNewFileSmallFooter(b *testing.B) {
	const rows = 100_000
	schema := alkaid.NewSchema([]datatype.Field{{Name: "id", Type: datatype.Int64},
		{Name: "x", Type: datatype.Int64}, {Name: "f", Type: datatype.Float64}}, datatype.Metadata{})
	ib := array.NewPrimitiveBuilder[int64](datatype.Int64)
	xb := array.NewPrimitiveBuilder[int64](datatype.Int64)
	fb := array.NewPrimitiveBuilder[float64](datatype.Float64)
	for i := range rows {
		ib.Append(int64(i))
		xb.Append(int64(uint64(i) * 2654435761 % 4294967291 % 1000000))
		fb.Append(float64(i*7919%100000) / 7)
	}
	data := writeSnappy(b, schema, []array.Array{ib.Finish(), xb.Finish(), fb.Finish()}, rows)
	b.ReportAllocs()
	for b.Loop() {
		f, err := parquet.NewFile(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			b.Fatal(err)
		}
		if f.NumRows() != rows {
			b.Fatalf("%d rows", f.NumRows())
		}
	}
}
