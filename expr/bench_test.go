package expr

import (
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// benchRecord has the columns of bench/duckdb/filter: a, b, s, c.
func benchRecord(n int) *alkaid.Record {
	a := array.NewPrimitiveBuilder[int64](datatype.Int64)
	b := array.NewPrimitiveBuilder[float64](datatype.Float64)
	s := array.NewBinaryBuilder[int32](datatype.String)
	c := array.NewPrimitiveBuilder[int64](datatype.Int64)
	names := []string{"x", "y", "z", "w"}
	for i := range int64(n) {
		a.Append((i * 2654435761) % 4294967291 % 1000)
		b.Append(float64((i*7919)%1000) / 1000)
		s.AppendString(names[(i*31)%7%4])
		if i%10 == 0 {
			c.AppendNull()
		} else {
			c.Append(i)
		}
	}
	f := func(name string, t datatype.DataType) datatype.Field {
		return datatype.Field{Name: name, Type: t, Nullable: true}
	}
	schema := alkaid.NewSchema([]datatype.Field{f("a", datatype.Int64), f("b", datatype.Float64),
		f("s", datatype.String), f("c", datatype.Int64)}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(schema, []array.Array{a.NewArray(), b.NewArray(), s.NewArray(), c.NewArray()}, n)
	return rec
}

// BenchmarkFilter4 evaluates a filter of four predicates over batches of
// 65536 rows.
func BenchmarkFilter4(b *testing.B) {
	for _, text := range []string{
		"a > 100 AND b < 0.5 AND s IN ('x', 'y') AND c IS NOT NULL",
		"a > 100", "b < 0.5", "s IN ('x', 'y')", "c IS NOT NULL",
	} {
		b.Run(text, func(b *testing.B) {
			rec := benchRecord(1 << 16)
			bd, err := Bind(mustParse(b, text), rec.Schema())
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(rec.NumRows()))
			for b.Loop() {
				if _, err := bd.Eval(rec); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
