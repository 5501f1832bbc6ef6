// Command filter times package expr on a filter of four predicates over
// the rows that bench/duckdb/filter.mjs gives DuckDB, and prints one
// JSON object per case.
//
// Every row i in [0, rows) holds, as in the DuckDB script:
//
//	a = (i * 2654435761) % 4294967291 % 1000     int64
//	b = (i * 7919) % 1000 / 1000.0               float64
//	s = ["x", "y", "z", "w"][(i * 31) % 7 % 4]   utf8
//	c = null when i % 10 = 0, else i             int64
//
// and the filter is a > 100 AND b < 0.5 AND s IN ('x', 'y') AND c IS NOT
// NULL. The rows are cut into batches of 65536 evaluated by two
// goroutines, as DuckDB runs with two threads.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
)

// Filter is the expression both sides evaluate.
const Filter = "a > 100 AND b < 0.5 AND s IN ('x', 'y') AND c IS NOT NULL"

func main() {
	rows := flag.Int("rows", 10_000_000, "rows")
	reps := flag.Int("reps", 3, "runs per case; the fastest counts")
	workers := flag.Int("workers", 2, "goroutines")
	flag.Parse()
	if err := run(*rows, *reps, *workers); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func data(n int) (*alkaid.Record, error) {
	a := array.NewPrimitiveBuilder[int64](datatype.Int64)
	b := array.NewPrimitiveBuilder[float64](datatype.Float64)
	s := array.NewBinaryBuilder[int32](datatype.String)
	c := array.NewPrimitiveBuilder[int64](datatype.Int64)
	a.Reserve(n)
	b.Reserve(n)
	s.Reserve(n)
	c.Reserve(n)
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
	return alkaid.NewRecord(schema, []array.Array{a.NewArray(), b.NewArray(), s.NewArray(), c.NewArray()}, n)
}

// count evaluates the filter over the batches with the workers and
// returns the number of rows kept (materialising them when filter).
func count(b *expr.Bound, rec *alkaid.Record, workers int, filter bool) (int, error) {
	const batch = 1 << 16
	n := rec.NumRows()
	next := make(chan int)
	go func() {
		for i := 0; i < n; i += batch {
			next <- i
		}
		close(next)
	}()
	var mu sync.Mutex
	total := 0
	var first error
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				part := rec.Slice(i, min(i+batch, n))
				var kept int
				var err error
				if filter {
					var out *alkaid.Record
					if out, err = b.Filter(part); err == nil {
						kept = out.NumRows()
					}
				} else {
					var m array.Array
					if m, err = b.Eval(part); err == nil {
						kept = m.Len() - compute.CountNull(m) - countFalse(m.(*array.Boolean))
					}
				}
				mu.Lock()
				total += kept
				if err != nil && first == nil {
					first = err
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return total, first
}

func countFalse(m *array.Boolean) int {
	f := 0
	for i := range m.Len() {
		if m.IsValid(i) && !m.Value(i) {
			f++
		}
	}
	return f
}

func run(n, reps, workers int) error {
	rec, err := data(n)
	if err != nil {
		return err
	}
	e, err := expr.Parse(Filter)
	if err != nil {
		return err
	}
	b, err := expr.Bind(e, rec.Schema())
	if err != nil {
		return err
	}
	for _, c := range []struct {
		name   string
		filter bool
	}{{"filter of 4 predicates, count", false}, {"filter of 4 predicates, rows kept", true}} {
		best := time.Duration(1 << 62)
		kept := 0
		for range reps {
			start := time.Now()
			k, err := count(b, rec, workers, c.filter)
			if err != nil {
				return err
			}
			best = min(best, time.Since(start))
			kept = k
		}
		out, _ := json.Marshal(map[string]any{"name": c.name, "ms": float64(best.Microseconds()) / 1e3, "rows": kept})
		fmt.Println(string(out))
	}
	return nil
}
