// Command timefn times package expr's year, month and floor_temporal
// over the timestamps that bench/duckdb/timefn.mjs gives DuckDB, and
// arrow-go's floor_temporal where it has the kernel (arrow-go has no
// year or month extraction), printing one JSON object per case.
//
// Row i in [0, rows) holds the instant
//
//	t = 2000-01-01 00:00:00 UTC + (i * 2654435761 % 946080000) seconds + i % 1000000 µs
//
// as timestamp[us, tz=America/New_York]. Each case evaluates batches of
// 65536 rows on two goroutines (DuckDB runs with two threads) and sums
// the results so both sides can be checked to agree.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sync"
	"time"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	acompute "github.com/apache/arrow-go/v18/arrow/compute"
	amemory "github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
)

const zone = "America/New_York"

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

func values(n int) []int64 {
	v := make([]int64, n)
	for i := range int64(n) {
		v[i] = 946684800e6 + (i*2654435761%946080000)*1e6 + i%1000000
	}
	return v
}

const batch = 1 << 16

// parallel runs f over the batches [lo, hi) with workers goroutines and
// sums what it returns.
func parallel(n, workers int, f func(lo, hi int) (int64, error)) (int64, error) {
	next := make(chan int)
	go func() {
		for lo := 0; lo < n; lo += batch {
			next <- lo
		}
		close(next)
	}()
	var mu sync.Mutex
	var sum int64
	var first error
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for lo := range next {
				s, err := f(lo, min(lo+batch, n))
				mu.Lock()
				sum += s
				if err != nil && first == nil {
					first = err
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return sum, first
}

type result struct {
	Name string  `json:"name"`
	Side string  `json:"side"`
	MS   float64 `json:"ms"`
	Sum  int64   `json:"sum"`
}

func run(rows, reps, workers int) error {
	vals := values(rows)
	typ, err := datatype.NewTimestamp(datatype.Microsecond, zone)
	if err != nil {
		return err
	}
	b := array.NewPrimitiveBuilder[datatype.Timestamp](typ)
	b.Reserve(rows)
	for _, v := range vals {
		b.Append(datatype.Timestamp(v))
	}
	schema := alkaid.NewSchema([]datatype.Field{{Name: "t", Type: typ}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(schema, []array.Array{b.NewArray()}, rows)
	if err != nil {
		return err
	}
	ours := func(text string) func(lo, hi int) (int64, error) {
		e, err := expr.Parse(text)
		var bound *expr.Bound
		if err == nil {
			bound, err = expr.Bind(e, schema)
		}
		return func(lo, hi int) (int64, error) {
			if err != nil {
				return 0, err
			}
			a, err := bound.Eval(rec.Slice(lo, hi))
			if err != nil {
				return 0, err
			}
			var s int64
			switch x := a.(type) {
			case *array.Int64:
				for _, v := range x.Values() {
					s += v
				}
			case *array.Timestamp:
				for _, v := range x.Values() {
					s += int64(v) / 1e6
				}
			}
			return s, nil
		}
	}
	ab := aarray.NewTimestampBuilder(amemory.DefaultAllocator, &aarrow.TimestampType{Unit: aarrow.Microsecond, TimeZone: zone})
	for _, v := range vals {
		ab.Append(aarrow.Timestamp(v))
	}
	arr := ab.NewArray()
	theirs := func(lo, hi int) (int64, error) {
		sl := aarray.NewSlice(arr, int64(lo), int64(hi))
		defer sl.Release()
		opts := acompute.RoundTemporalOptions{Multiple: 1, Unit: acompute.RoundTemporalMonth, WeekStartsMonday: true}
		out, err := acompute.FloorTemporal(context.Background(), opts, &acompute.ArrayDatum{Value: sl.Data()})
		if err != nil {
			return 0, err
		}
		defer out.Release()
		res := out.(*acompute.ArrayDatum).MakeArray().(*aarray.Timestamp)
		defer res.Release()
		var s int64
		for _, v := range res.TimestampValues() {
			s += int64(v) / 1e6
		}
		return s, nil
	}
	cases := []struct {
		name, side string
		f          func(lo, hi int) (int64, error)
	}{
		{"year of 10M timestamps in a zone", "ours", ours("year(t)")},
		{"month of 10M timestamps in a zone", "ours", ours("month(t)")},
		{"floor to the month in a zone", "ours", ours("floor_temporal(t, 'month')")},
		{"floor to the month in a zone", "arrow-go", theirs},
	}
	enc := json.NewEncoder(os.Stdout)
	for _, c := range cases {
		best := time.Duration(1 << 62)
		var sum int64
		for range reps {
			t0 := time.Now()
			s, err := parallel(rows, workers, c.f)
			if err != nil {
				return fmt.Errorf("%s (%s): %w", c.name, c.side, err)
			}
			best, sum = min(best, time.Since(t0)), s
		}
		if err := enc.Encode(result{c.name, c.side, float64(best.Microseconds()) / 1e3, sum}); err != nil {
			return err
		}
	}
	return nil
}
