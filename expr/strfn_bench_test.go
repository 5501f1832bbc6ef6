package expr

import (
	"strconv"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// stringsRecord has n rows of one utf8 column s, the strings of
// bench/duckdb/strfn: a phrase (ASCII, Latin-1 letters or an emoji),
// a space and the row number.
func stringsRecord(b *testing.B, n int) *alkaid.Record {
	words := []string{"Hello World", "ÄÖÜ straße", "banana split", "emoji 🎉 party", "MiXeD cAsE text"}
	s := array.NewBinaryBuilder[int32](datatype.String)
	var buf []byte
	for i := range int64(n) {
		buf = append(append(buf[:0], words[(i*31)%7%5]...), ' ')
		s.Append(strconv.AppendInt(buf, i, 10))
	}
	schema := alkaid.NewSchema([]datatype.Field{{Name: "s", Type: datatype.String, Nullable: true}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(schema, []array.Array{s.NewArray()}, n)
	if err != nil {
		b.Fatal(err)
	}
	return rec
}

// BenchmarkStringFunctions evaluates string functions over 1M strings
// in one goroutine (bench/duckdb/strfn.mjs compares with DuckDB); the
// process's CPU time per operation (the collector's included) is
// steadier than wall time on a busy machine.
func BenchmarkStringFunctions(b *testing.B) {
	rec := stringsRecord(b, 1<<20)
	for _, text := range []string{"lower(s)", "upper(s)", "contains(s, 'an')", "regexp_matches(s, '[0-9]{3}$')",
		"regexp_matches(s, 'an')", "strpos(s, 'ß')", "replace(s, 'a', 'o')"} {
		b.Run(text, func(b *testing.B) {
			e, err := Parse(text)
			if err != nil {
				b.Fatal(err)
			}
			bound, err := Bind(e, rec.Schema())
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(rec.NumRows()))
			cpu0 := cpuTime()
			for b.Loop() {
				if _, err := bound.Eval(rec); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
