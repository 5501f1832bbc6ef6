package shred_test

import (
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/shred"
)

// benchData is 20,000 rows of list<struct<a: int64, b: list<utf8>>>, 10%
// nulls at every level and lists of up to 4 values.
func benchData(b *testing.B) (datatype.Field, array.Array, []shred.Column, int) {
	typ := datatype.ListOf(datatype.StructOf(
		datatype.Field{Name: "a", Type: datatype.Int64, Nullable: true},
		datatype.Field{Name: "b", Type: datatype.ListOf(datatype.String), Nullable: true},
	))
	f := datatype.Field{Name: "l", Type: typ, Nullable: true}
	g := randdata.New(1)
	a := g.Array(typ, 20000, true)
	cols, err := shred.ShredField(f, a)
	if err != nil {
		b.Fatal(err)
	}
	entries := 0
	for _, c := range cols {
		entries += c.Len()
	}
	return f, a, cols, entries
}

// Throughput in values/s counts the entries of every column (values,
// nulls and empty lists alike).
func BenchmarkShred(b *testing.B) {
	f, a, _, entries := benchData(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := shred.ShredField(f, a); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(entries)*float64(b.N)/b.Elapsed().Seconds(), "values/s")
}

func BenchmarkAssemble(b *testing.B) {
	f, _, cols, entries := benchData(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := shred.Assemble(f, cols); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(entries)*float64(b.N)/b.Elapsed().Seconds(), "values/s")
}
