// Command pq times alkaid-go's Parquet writer and reader on the table
// that bench/duckdb/parquet.mjs has DuckDB write: it reads DuckDB's
// snappy file once into memory, then writes it with snappy and with zstd
// to files beside it and reads those files back, and prints one JSON
// object per case (the fastest of -reps runs).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/parquet"
)

func main() {
	in := flag.String("in", "", "DuckDB's Parquet file of the table")
	reps := flag.Int("reps", 3, "runs per case; the fastest counts")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the runs to this file")
	flag.Parse()
	if *profile != "" {
		pf, err := os.Create(*profile)
		if err == nil {
			err = pprof.StartCPUProfile(pf)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "pq:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if err := run(*in, *reps); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "pq:", err)
		os.Exit(1)
	}
}

func run(in string, reps int) error {
	f, err := parquet.OpenFile(in)
	if err != nil {
		return err
	}
	var recs []*alkaid.Record
	rows := 0
	for r, err := range f.Records() {
		if err != nil {
			return err
		}
		recs = append(recs, r)
		rows += r.NumRows()
	}
	if err := f.Close(); err != nil {
		return err
	}
	for _, c := range []struct {
		name  string
		codec parquet.Codec
	}{{"snappy", parquet.Snappy}, {"zstd", parquet.Zstd}} {
		out := filepath.Join(filepath.Dir(in), "ours-"+c.name+".parquet")
		w, err := best(reps, func() error { return write(out, recs, c.codec) })
		if err != nil {
			return err
		}
		r, err := best(reps, func() error { return read(out, rows) })
		if err != nil {
			return err
		}
		for _, x := range []struct {
			name string
			ms   float64
		}{{"write " + c.name, w}, {"read " + c.name, r}} {
			b, _ := json.Marshal(map[string]any{"name": x.name, "ms": x.ms})
			fmt.Println(string(b))
		}
	}
	return nil
}

// best runs f reps times and returns its fastest time in milliseconds.
func best(reps int, f func() error) (float64, error) {
	ms := 0.0
	for k := range reps {
		t0 := time.Now()
		if err := f(); err != nil {
			return 0, err
		}
		if d := float64(time.Since(t0).Microseconds()) / 1e3; k == 0 || d < ms {
			ms = d
		}
	}
	return ms, nil
}

// write writes the records as one row group per 1M rows.
func write(path string, recs []*alkaid.Record, codec parquet.Codec) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	pw, err := parquet.NewWriter(bw, recs[0].Schema(), parquet.WithCompression(codec, 0))
	if err == nil {
		for _, r := range recs {
			if err = pw.Write(r); err != nil {
				break
			}
		}
	}
	if err == nil {
		err = pw.Close()
	}
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// read reads every record of the file and checks the row count.
func read(path string, rows int) error {
	f, err := parquet.OpenFile(path)
	if err != nil {
		return err
	}
	defer f.Close()
	n := 0
	for r, err := range f.Records() {
		if err != nil {
			return err
		}
		n += r.NumRows()
	}
	if n != rows {
		return fmt.Errorf("%s: %d rows, want %d", path, n, rows)
	}
	return nil
}
