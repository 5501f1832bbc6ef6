// Command ours times alkaid-go's group-by and sort on the data that
// bench/duckdb/run.mjs gives DuckDB, and prints one JSON object per case.
//
// Every row i in [0, rows) holds, as in the DuckDB script:
//
//	h    = (i * 2654435761) % 4294967291
//	k1k  = h % 1000
//	k1m  = h % 1000000
//	v    = (i * 7919) % 1000
//	x    = h * 1000003
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

func main() {
	rows := flag.Int("rows", 10_000_000, "rows")
	reps := flag.Int("reps", 3, "runs per case; the fastest counts")
	flag.Parse()
	if err := run(*rows, *reps); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func column(n int, f func(i int64) int64) *array.Int64 {
	b := array.NewPrimitiveBuilder[int64](datatype.Int64)
	b.Reserve(n)
	for i := range int64(n) {
		b.Append(f(i))
	}
	return b.Finish()
}

func run(n, reps int) error {
	h := func(i int64) int64 { return (i * 2654435761) % 4294967291 }
	k1k := column(n, func(i int64) int64 { return h(i) % 1000 })
	k1m := column(n, func(i int64) int64 { return h(i) % 1000000 })
	v := column(n, func(i int64) int64 { return (i * 7919) % 1000 })
	x := column(n, func(i int64) int64 { return h(i) * 1000003 })
	f := func(name string) datatype.Field { return datatype.Field{Name: name, Type: datatype.Int64} }
	rec, err := alkaid.NewRecord(alkaid.NewSchema([]datatype.Field{f("k1k"), f("k1m"), f("v")}, datatype.Metadata{}),
		[]array.Array{k1k, k1m, v}, n)
	if err != nil {
		return err
	}
	xs, err := alkaid.NewRecord(alkaid.NewSchema([]datatype.Field{f("x")}, datatype.Metadata{}), []array.Array{x}, n)
	if err != nil {
		return err
	}
	aggs := []compute.Aggregate{{Func: compute.AggSum, Column: "v"}, {Func: compute.AggCount, Column: "v"},
		{Func: compute.AggMean, Column: "v"}}
	cases := []struct {
		name string
		run  func() (int, error)
	}{
		{"one pass (sum of two columns)", func() (int, error) {
			if _, err := compute.Sum(k1k); err != nil {
				return 0, err
			}
			_, err := compute.Sum(v)
			return 1, err
		}},
		{"group by, 1k groups", func() (int, error) {
			out, err := compute.GroupBy(rec, []string{"k1k"}, aggs)
			return rows(out), err
		}},
		{"group by, 1M groups", func() (int, error) {
			out, err := compute.GroupBy(rec, []string{"k1m"}, aggs)
			return rows(out), err
		}},
		{"sort 10M int64 into a table", func() (int, error) {
			out, err := compute.SortRecord(xs, []compute.SortKey{{Column: "x"}})
			return rows(out), err
		}},
	}
	for _, c := range cases {
		best := time.Duration(1 << 62)
		var out int
		for range reps {
			start := time.Now()
			var err error
			if out, err = c.run(); err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			best = min(best, time.Since(start))
		}
		line, _ := json.Marshal(map[string]any{"name": c.name, "ms": float64(best.Microseconds()) / 1000, "rows": n, "out": out})
		fmt.Println(string(line))
	}
	return nil
}

func rows(r *alkaid.Record) int {
	if r == nil {
		return 0
	}
	return r.NumRows()
}
