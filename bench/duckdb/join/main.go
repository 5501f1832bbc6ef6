// Command join times alkaid-go's hash join on the data that
// bench/duckdb/join.mjs gives DuckDB, and prints one JSON object per
// case.
//
// The build side b has rows i in [0, build) and the probe side p rows i
// in [0, probe), as in the DuckDB script:
//
//	b.k = (i * 7919) % build      (a permutation: every key once)
//	b.v = i % 1000
//	p.k = ((i * 2654435761) % 4294967291) % (2 * build)   (about half match)
//	p.w = i % 100
//
// The sparse case joins the same rows on k * 2654435761 (the keys no
// longer form a dense range, so the hashed table is measured rather
// than the direct one).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/join"
)

func main() {
	probe := flag.Int("probe", 10_000_000, "probe rows")
	build := flag.Int("build", 1_000_000, "build rows")
	reps := flag.Int("reps", 5, "runs per case; the fastest counts")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the cases to this file")
	flag.Parse()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if err := run(*probe, *build, *reps); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// cpuTime is the user and system time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func column(n int, f func(i int64) int64) *array.Int64 {
	b := array.NewPrimitiveBuilder[int64](datatype.Int64)
	b.Reserve(n)
	for i := range int64(n) {
		b.Append(f(i))
	}
	return b.Finish()
}

func table(n int, names []string, cols ...*array.Int64) (*alkaid.Table, error) {
	fields := make([]datatype.Field, len(names))
	arrays := make([]array.Array, len(cols))
	for i, name := range names {
		fields[i] = datatype.Field{Name: name, Type: datatype.Int64}
		arrays[i] = cols[i]
	}
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), arrays, n)
	if err != nil {
		return nil, err
	}
	// Batches of 64Ki rows, as a reader would yield them.
	var recs []*alkaid.Record
	for lo := 0; lo < n; lo += 1 << 16 {
		recs = append(recs, rec.Slice(lo, min(n, lo+1<<16)))
	}
	return alkaid.TableFromRecords(rec.Schema(), recs)
}

type result struct {
	Name  string  `json:"name"`
	Ms    float64 `json:"ms"`
	CPUMs float64 `json:"cpu_ms"` // user + system time of the process, all threads
	Count int64   `json:"count"`
	Sum   int64   `json:"sum"`
}

func run(np, nb, reps int) error {
	bk := func(i int64) int64 { return (i * 7919) % int64(nb) }
	pk := func(i int64) int64 { return ((i * 2654435761) % 4294967291) % (2 * int64(nb)) }
	bv := column(nb, func(i int64) int64 { return i % 1000 })
	pw := column(np, func(i int64) int64 { return i % 100 })
	b, err := table(nb, []string{"k", "v"}, column(nb, bk), bv)
	if err != nil {
		return err
	}
	p, err := table(np, []string{"k", "w"}, column(np, pk), pw)
	if err != nil {
		return err
	}
	const spread = 2654435761
	bs, err := table(nb, []string{"k", "v"}, column(nb, func(i int64) int64 { return bk(i) * spread }), bv)
	if err != nil {
		return err
	}
	ps, err := table(np, []string{"k", "w"}, column(np, func(i int64) int64 { return pk(i) * spread }), pw)
	if err != nil {
		return err
	}
	cases := []struct {
		name string
		typ  join.Type
		cols []string
		sum  string
		p, b *alkaid.Table
	}{
		{"inner join, count + sum", join.Inner, []string{"v"}, "v", p, b},
		{"inner join, three columns", join.Inner, []string{"k", "w", "v"}, "v", p, b},
		{"left join, count + sum", join.LeftOuter, []string{"v"}, "v", p, b},
		{"inner, sparse keys", join.Inner, []string{"v"}, "v", ps, bs},
	}
	for _, c := range cases {
		best, bestCPU := time.Duration(1<<63-1), time.Duration(1<<63-1)
		var count, sum int64
		for range reps {
			c0 := cpuTime()
			t0 := time.Now()
			j, err := join.NewReader(c.p, c.b, c.typ, join.On("k"), join.WithColumns(c.cols...), join.WithConcurrency(2))
			if err != nil {
				return err
			}
			count, sum = 0, 0
			for rec, err := range j.Records() {
				if err != nil {
					return err
				}
				count += int64(rec.NumRows())
				col, _ := rec.ColumnByName(c.sum)
				s, _ := compute.SumInts(col.(*array.Int64))
				sum += s
			}
			best = min(best, time.Since(t0))
			bestCPU = min(bestCPU, cpuTime()-c0)
		}
		line, err := json.Marshal(result{c.name, float64(best.Microseconds()) / 1e3, float64(bestCPU.Microseconds()) / 1e3, count, sum})
		if err != nil {
			return err
		}
		fmt.Println(string(line))
	}
	return nil
}
