// Command ds times alkaid-go's dataset scans on the Hive-partitioned
// Parquet dataset that bench/duckdb/dataset.mjs has DuckDB write
// (year=/month= directories, columns id, x, f): a full scan's count and
// sum of f, the same under a partition filter, and a filter on x with a
// sum of f per month. It prints one JSON object per case: the fastest of
// -reps runs in milliseconds, the CPU time (user and system) per run
// averaged over them, and the case's result, which dataset.mjs
// checks against DuckDB's.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"syscall"
	"time"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/dataset"
	"github.com/alkaid-go/alkaid/expr"
)

func main() {
	dir := flag.String("dir", "", "the dataset's directory")
	reps := flag.Int("reps", 3, "runs per case; the fastest counts")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the runs to this file")
	memprofile := flag.String("memprofile", "", "write an allocation profile of the runs to this file")
	tracefile := flag.String("trace", "", "write an execution trace of the runs to this file")
	only := flag.Int("case", -1, "run only this case (0, 1 or 2); -1 runs all")
	flag.Int64Var(&readahead, "readahead", 0, "the scans' readahead in bytes (0: the default)")
	flag.Parse()
	if *profile != "" {
		pf, err := os.Create(*profile)
		if err == nil {
			err = pprof.StartCPUProfile(pf)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "ds:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if *tracefile != "" {
		tf, err := os.Create(*tracefile)
		if err == nil {
			err = trace.Start(tf)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "ds:", err)
			os.Exit(1)
		}
		defer trace.Stop()
	}
	if *memprofile != "" {
		runtime.MemProfileRate = 64 << 10
		defer func() {
			if f, err := os.Create(*memprofile); err == nil {
				pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
		}()
	}
	if err := run(*dir, *reps, *only); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "ds:", err)
		os.Exit(1)
	}
}

// cpuTime is the user and system CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type result struct {
	Count int64              `json:"count"`
	Sum   float64            `json:"sum"`
	Group map[string]float64 `json:"groups,omitempty"`
}

func run(dir string, reps, only int) error {
	d, err := dataset.Open(os.DirFS(dir), ".", dataset.WithPartitioning(dataset.Partitioning{Style: dataset.Hive}))
	if err != nil {
		return err
	}
	cases := []struct {
		name string
		f    func() (result, error)
	}{
		{"full scan: count, sum(f)", func() (result, error) { return sum(d) }},
		{"partition filter: count, sum(f)", func() (result, error) {
			return sum(d, dataset.WithFilter(expr.And(
				expr.Eq(expr.Field("year"), expr.Lit(2024)), expr.Eq(expr.Field("month"), expr.Lit(3)))))
		}},
		{"x < 100000: sum(f) by month", func() (result, error) { return byMonth(d) }},
	}
	for i, c := range cases {
		if only >= 0 && i != only {
			continue
		}
		var res result
		ms := 0.0
		cpu0 := cpuTime()
		for k := range reps {
			t0 := time.Now()
			if res, err = c.f(); err != nil {
				return err
			}
			if t := float64(time.Since(t0).Microseconds()) / 1e3; k == 0 || t < ms {
				ms = t
			}
		}
		cpu := float64((cpuTime() - cpu0).Microseconds()) / 1e3 / float64(max(reps, 1))
		b, _ := json.Marshal(map[string]any{"name": c.name, "ms": ms, "cpu_ms": cpu, "result": res})
		fmt.Println(string(b))
	}
	return nil
}

func sum(d *dataset.Dataset, filter ...dataset.Option) (result, error) {
	s, err := d.Scan(context.Background(), append(scanOptions(dataset.WithColumns("f")), filter...)...)
	if err != nil {
		return result{}, err
	}
	var r result
	for rec, err := range s.Records() {
		if err != nil {
			return result{}, err
		}
		sum, _ := compute.SumFloats(rec.Column(0).(*array.Float64))
		r.Sum += sum
		r.Count += int64(rec.NumRows())
	}
	return r, nil
}

func byMonth(d *dataset.Dataset) (result, error) {
	s, err := d.Scan(context.Background(), append(scanOptions(dataset.WithColumns("month", "f")),
		dataset.WithFilter(expr.Lt(expr.Field("x"), expr.Lit(100000))))...)
	if err != nil {
		return result{}, err
	}
	groups := map[int64]float64{}
	var r result
	for rec, err := range s.Records() {
		if err != nil {
			return result{}, err
		}
		// month is constant in each record: a record comes from one file.
		month := rec.Column(0).(*array.Int64).Value(0)
		sum, _ := compute.SumFloats(rec.Column(1).(*array.Float64))
		groups[month] += sum
		r.Count += int64(rec.NumRows())
	}
	r.Group = map[string]float64{}
	keys := make([]int64, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		r.Group[fmt.Sprint(k)] = groups[k]
		r.Sum += groups[k]
	}
	return r, nil
}

// readahead is the -readahead flag.
var readahead int64

// scanOptions are the options of every scan: unordered, with the
// -readahead flag's readahead, and more.
func scanOptions(more ...dataset.Option) []dataset.Option {
	opts := append([]dataset.Option{dataset.WithUnordered()}, more...)
	if readahead > 0 {
		opts = append(opts, dataset.WithReadahead(readahead))
	}
	return opts
}
