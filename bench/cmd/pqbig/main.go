// Command pqbig shows that reading a large Parquet file takes memory
// bounded by the row group being decoded, not by the file. It writes a
// file of about -mib MiB (row groups of -rows rows of the bench module's
// mixed schema, 5% nulls, snappy) to -dir, then reads it back record by
// record in a fresh process of its own and prints that process's peak
// resident set (VmHWM of /proc/self/status, Linux only) beside the file
// size.
//
//	go run ./cmd/pqbig -dir /tmp -mib 1024
//
// It is a measurement to run by hand, not a test: writing and reading a
// gibibyte takes a minute or so.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/bench"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/parquet"
)

func main() {
	dir := flag.String("dir", os.TempDir(), "directory of the temporary file")
	mib := flag.Int("mib", 1024, "approximate file size in MiB")
	rows := flag.Int("rows", 1<<20, "rows per row group")
	batch := flag.Int("batch", 64<<10, "rows per record read")
	read := flag.String("read", "", "read this file and report (the second process)")
	keep := flag.Bool("keep", false, "keep the file")
	flag.Parse()
	var err error
	if *read != "" {
		err = readFile(*read, *batch)
	} else {
		err = run(*dir, int64(*mib)<<20, *rows, *batch, *keep)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pqbig:", err)
		os.Exit(1)
	}
}

// run writes the file, then reads it in a child process.
func run(dir string, size int64, rows, batch int, keep bool) error {
	path := filepath.Join(dir, "pqbig.parquet")
	if !keep {
		defer os.Remove(path)
	}
	start := time.Now()
	groups, err := writeFile(path, size, rows)
	if err != nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	hwm, _ := peakRSS()
	fmt.Printf("write: %d row groups of %d rows, %.1f MiB in %.1f s; writer peak RSS %.1f MiB\n",
		groups, rows, float64(st.Size())/(1<<20), time.Since(start).Seconds(), float64(hwm)/(1<<20))
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(self, "-read", path, "-batch", fmt.Sprint(batch))
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}

// writeFile writes row groups of two alternating random batches until the
// file reaches size bytes, and returns the number of row groups.
func writeFile(path string, size int64, rows int) (int, error) {
	g := randdata.New(7)
	g.NullFraction = 0.05
	s := bench.FileSchema()
	recs := []*alkaid.Record{g.Record(s, rows), g.Record(s, rows)}
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	pw, err := parquet.NewWriter(bw, s, parquet.WithCompression(parquet.Snappy, 0), parquet.WithRowGroupRows(rows))
	if err != nil {
		f.Close()
		return 0, err
	}
	groups := 0
	for {
		if err := pw.Write(recs[groups%2]); err != nil {
			f.Close()
			return 0, err
		}
		groups++
		if err := bw.Flush(); err != nil {
			f.Close()
			return 0, err
		}
		if st, err := f.Stat(); err != nil || st.Size() >= size {
			break
		}
	}
	if err := pw.Close(); err != nil {
		f.Close()
		return 0, err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return 0, err
	}
	return groups, f.Close()
}

// readFile reads every record of the file through an *os.File (not a
// memory map, whose touched pages would count as resident) and reports.
func readFile(path string, batch int) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	start := time.Now()
	pf, err := parquet.NewFile(f, st.Size(), parquet.WithBatchSize(batch))
	if err != nil {
		return err
	}
	var recs, rows int
	for rec, err := range pf.Records() {
		if err != nil {
			return err
		}
		recs++
		rows += rec.NumRows()
	}
	hwm, err := peakRSS()
	if err != nil {
		return err
	}
	fmt.Printf("read: %d rows in %d records (%d row groups) from %.1f MiB in %.1f s; reader peak RSS %.1f MiB (%.1f%% of the file)\n",
		rows, recs, pf.NumRowGroups(), float64(st.Size())/(1<<20), time.Since(start).Seconds(),
		float64(hwm)/(1<<20), 100*float64(hwm)/float64(st.Size()))
	return nil
}

// peakRSS returns VmHWM of /proc/self/status in bytes.
func peakRSS() (int64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kb); err != nil {
				return 0, err
			}
			return kb << 10, nil
		}
	}
	return 0, errors.New("no VmHWM in /proc/self/status")
}
