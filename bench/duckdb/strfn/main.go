// Command strfn times package expr's lower, contains and regexp_matches
// over the strings that bench/duckdb/strfn.mjs gives DuckDB, and prints
// one JSON object per case.
//
// Row i in [0, rows) holds, as in the DuckDB script,
//
//	s = words[(i * 31) % 7 % 5] + " " + i   utf8
//
// with words the five phrases below (ASCII, Latin-1 letters, an emoji).
// The rows are cut into batches of 65536 evaluated by two goroutines, as
// DuckDB runs with two threads.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
)

// Words are the phrases the strings start with.
var Words = []string{"Hello World", "ÄÖÜ straße", "banana split", "emoji 🎉 party", "MiXeD cAsE text"}

// Cases are the expressions timed, with the names strfn.mjs gives them.
var Cases = []struct{ Name, Text string }{
	{"lower, materialised", "lower(s)"},
	{"contains, count", "contains(s, 'an')"},
	{"regexp_matches, count", "regexp_matches(s, '[0-9]{3}$')"},
}

func main() {
	rows := flag.Int("rows", 1_000_000, "rows")
	reps := flag.Int("reps", 3, "runs per case; the fastest counts")
	workers := flag.Int("workers", 2, "goroutines")
	flag.Parse()
	if err := run(*rows, *reps, *workers); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func data(n int) (*alkaid.Record, error) {
	s := array.NewBinaryBuilder[int32](datatype.String)
	s.Reserve(n)
	var buf []byte
	for i := range int64(n) {
		buf = append(append(buf[:0], Words[(i*31)%7%5]...), ' ')
		s.Append(strconv.AppendInt(buf, i, 10))
	}
	schema := alkaid.NewSchema([]datatype.Field{{Name: "s", Type: datatype.String, Nullable: true}}, datatype.Metadata{})
	return alkaid.NewRecord(schema, []array.Array{s.NewArray()}, n)
}

// eval evaluates b over the batches with the workers; it returns the
// number of true rows of a boolean result, else the number of rows.
func eval(b *expr.Bound, rec *alkaid.Record, workers int) (int, error) {
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
				out, err := b.Eval(rec.Slice(i, min(i+batch, n)))
				k := 0
				if err == nil {
					k = out.Len()
					if m, ok := out.(*array.Boolean); ok {
						k = trueCount(m)
					}
				}
				mu.Lock()
				total += k
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

// trueCount is the number of valid true slots of m: a popcount of its
// value bits when no slot is null.
func trueCount(m *array.Boolean) int {
	if m.NullN() == 0 {
		bits, off := m.Bitmap()
		return bitutil.CountSetBits(bits, off, m.Len())
	}
	k := 0
	for j := range m.Len() {
		if m.IsValid(j) && m.Value(j) {
			k++
		}
	}
	return k
}

func run(n, reps, workers int) error {
	rec, err := data(n)
	if err != nil {
		return err
	}
	for _, c := range Cases {
		e, err := expr.Parse(c.Text)
		if err != nil {
			return err
		}
		b, err := expr.Bind(e, rec.Schema())
		if err != nil {
			return err
		}
		best := time.Duration(1 << 62)
		rows := 0
		for range reps {
			start := time.Now()
			if rows, err = eval(b, rec, workers); err != nil {
				return err
			}
			best = min(best, time.Since(start))
		}
		out, _ := json.Marshal(map[string]any{"name": c.Name, "ms": float64(best.Microseconds()) / 1e3, "rows": rows})
		fmt.Println(string(out))
	}
	return nil
}
