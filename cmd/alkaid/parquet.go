package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/parquet"
)

var parquetCmd = command{
	name:  "parquet",
	args:  "schema|info|cat|to-ipc|from-ipc ARGS",
	short: "Read Apache Parquet files, convert them to and from Alkaid IPC.",
	long: `
  alkaid parquet schema IN.parquet          the Alkaid schema of the rows
  alkaid parquet info IN.parquet            rows, row groups, schema
  alkaid parquet cat IN.parquet             print the records
  alkaid parquet to-ipc IN.parquet OUT.ipc  convert to an IPC file
  alkaid parquet from-ipc IN OUT.parquet    convert an IPC file or stream

from-ipc takes -codec (uncompressed, snappy, gzip, zstd, lz4raw, brotli;
default snappy) and -rows (rows per row group, default 1048576) before
its arguments. Outputs are written to a temporary file renamed into place
once complete.`,
}

var parquetCodecs = map[string]parquet.Codec{
	"uncompressed": parquet.Uncompressed, "snappy": parquet.Snappy, "gzip": parquet.Gzip,
	"zstd": parquet.Zstd, "lz4raw": parquet.LZ4Raw, "brotli": parquet.Brotli,
}

func runParquet(args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		parquetCmd.newFlags().Usage()
		return 2
	}
	sub, rest := args[0], args[1:]
	fs := parquetCmd.newFlags()
	codec := fs.String("codec", "snappy", "from-ipc: page codec")
	rows := fs.Int("rows", 1<<20, "from-ipc: rows per row group")
	if err := fs.Parse(rest); err != nil {
		return 2
	}
	rest = fs.Args()
	want := map[string]int{"schema": 1, "info": 1, "cat": 1, "to-ipc": 2, "from-ipc": 2}
	n, ok := want[sub]
	if !ok || len(rest) != n {
		fmt.Fprintf(cmdStderr, "alkaid parquet: want %q with %d path(s); see alkaid help parquet\n", sub, max(n, 1))
		return 2
	}
	var err error
	switch sub {
	case "from-ipc":
		c, ok := parquetCodecs[strings.ToLower(*codec)]
		if !ok {
			fmt.Fprintf(cmdStderr, "alkaid parquet: unknown codec %q\n", *codec)
			return 2
		}
		err = parquetFromIPC(rest[0], rest[1], c, *rows)
	default:
		err = parquetRead(sub, rest)
	}
	if err != nil {
		fmt.Fprintf(cmdStderr, "alkaid parquet %s: %v\n", sub, err)
		return 1
	}
	return 0
}

func parquetRead(sub string, paths []string) error {
	f, err := parquet.OpenFile(paths[0])
	if err != nil {
		return err
	}
	defer f.Close()
	switch sub {
	case "schema":
		fmt.Fprintln(cmdStdout, f.Schema())
		return nil
	case "info":
		fmt.Fprintf(cmdStdout, "format: Parquet\nrows: %d\nrow groups: %d\n%s\n", f.NumRows(), f.NumRowGroups(), f.Schema())
		return nil
	case "cat":
		for rec, err := range f.Records(parquet.WithBatchSize(1024)) {
			if err != nil {
				return err
			}
			fmt.Fprintln(cmdStdout, rec)
		}
		return nil
	}
	return writeAtomically(paths[1], func(w *bufio.Writer) error {
		fw, err := ipc.NewFileWriter(w, f.Schema())
		if err != nil {
			return err
		}
		// Row groups carry their own dictionaries; the file format wants
		// one that only grows.
		unify := newDictUnifier(f.Schema())
		for rec, err := range f.Records(parquet.WithBatchSize(64 << 10)) {
			if err != nil {
				return err
			}
			if rec, err = unify.apply(rec); err != nil {
				return err
			}
			if err := fw.Write(rec); err != nil {
				return err
			}
		}
		return fw.Close()
	})
}

func parquetFromIPC(in, out string, codec parquet.Codec, rows int) error {
	src, err := openInput(in)
	if err != nil {
		return err
	}
	defer src.Close()
	return writeAtomically(out, func(w *bufio.Writer) error {
		pw, err := parquet.NewWriter(w, src.schema(), parquet.WithCodec(codec), parquet.WithRowGroupRows(rows))
		if err != nil {
			return err
		}
		err = src.each(func(_ int, rec *alkaid.Record, _ map[string]string) error { return pw.Write(rec) })
		if err != nil {
			return err
		}
		return pw.Close()
	})
}

// writeAtomically writes path through a temporary file in the same
// directory, renamed over path only when fill succeeded.
func writeAtomically(path string, fill func(*bufio.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriterSize(tmp, 1<<20)
	if err := fill(w); err != nil {
		tmp.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
