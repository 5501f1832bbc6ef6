package cli

import (
	"bufio"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/expr"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/join"
)

var joinCmd = command{
	name:  "join",
	args:  "LEFT RIGHT OUT",
	short: "Join two files on equal keys (hash join) and write the result.",
	long: `
LEFT and RIGHT are files of any format the reading commands take (IPC file
or stream, Parquet, CSV, TSV, NDJSON), found by their content and
extension, or datasets (a directory or a pattern); OUT's format is that of its extension (.parquet, .arrow/.ipc,
.arrows/.ipcs, .csv, .tsv, .json/.jsonl/.ndjson) and it is written under a
temporary name, renamed into place once complete; "-" is stdout (an IPC
stream).

RIGHT is read into memory (up to -max-right-rows rows); LEFT is streamed.
-type is inner, left, right, full, semi (left semi), anti (left anti),
right-semi or right-anti. -on lists the key columns, NAME for a column
named the same on both sides or LEFTNAME=RIGHTNAME. A null key matches
nothing unless -nulls-equal; float keys match -0 with 0 and NaN with NaN.
The output has every LEFT column then every RIGHT column (one side for
semi and anti joins), a name both sides have suffixed per -suffixes;
-columns chooses by output name. -where adds a condition to the keys, as
in SQL's ON clause: a pair of rows with equal keys matches only where the
expression (the syntax of -where in cat, export and convert) over the
pair's columns, named as in the output before -columns, is true; an outer
join keeps with nulls a row whose every pair fails it. Rows come in LEFT's
order, each followed by its matches in RIGHT's order, then the RIGHT rows
that right and full joins add. For example:

  alkaid join -type left -on customer_id \
      -where "amount <= credit_limit" orders.parquet customers.csv out.csv`,
}

func runJoin(args []string) int {
	c := joinCmd
	fs := c.newFlags()
	typ := fs.String("type", "inner", "join type: inner, left, right, full, semi, anti, right-semi, right-anti")
	on := fs.String("on", "", "key columns, comma-separated: NAME or LEFTNAME=RIGHTNAME (required)")
	columns := fs.String("columns", "", "output columns, comma-separated, by output name (default all)")
	suffixes := fs.String("suffixes", ",_right", "LEFT,RIGHT suffixes of a column name both sides have")
	nullsEqual := fs.Bool("nulls-equal", false, "a null key matches a null key")
	concurrency := fs.Int("concurrency", 0, "goroutines probing (0: one per CPU)")
	maxRows := fs.Int64("max-right-rows", 0, "most rows RIGHT may have (0: 2147483647)")
	where := fs.String("where", "", "a pair of rows with equal keys matches only where the expression `EXPR` is true")
	if done, code := c.parse(fs, args, 3); done {
		return code
	}
	opts, err := joinOptions(*columns, *suffixes, *where, *nullsEqual, *concurrency, *maxRows)
	if err != nil {
		return c.fail(err)
	}
	return c.fail(joinFiles(fs.Arg(0), fs.Arg(1), fs.Arg(2), *typ, *on, opts))
}

func joinOptions(columns, suffixes, where string, nullsEqual bool, concurrency int, maxRows int64) ([]join.Option, error) {
	l, r, ok := strings.Cut(suffixes, ",")
	if !ok {
		return nil, usagef("-suffixes %q: want LEFT,RIGHT", suffixes)
	}
	opts := []join.Option{join.WithSuffixes(l, r), join.WithConcurrency(concurrency),
		join.WithLimits(join.Limits{MaxBuildRows: maxRows})}
	if columns != "" {
		opts = append(opts, join.WithColumns(strings.Split(columns, ",")...))
	}
	if nullsEqual {
		opts = append(opts, join.WithNullsEqual())
	}
	if where != "" {
		e, err := expr.Parse(where)
		if err != nil {
			return nil, exprSyntax("-where", where, err)
		}
		opts = append(opts, join.WithFilter(e)) // bound by join.NewReader
	}
	return opts, nil
}

func parseKeys(on string) ([]join.Key, error) {
	if on == "" {
		return nil, usagef("-on is required: the key columns, NAME or LEFTNAME=RIGHTNAME, comma-separated")
	}
	var keys []join.Key
	for _, k := range strings.Split(on, ",") {
		l, r, ok := strings.Cut(k, "=")
		if !ok {
			r = l
		}
		if l == "" || r == "" {
			return nil, usagef("-on %q: empty column name in %q", on, k)
		}
		keys = append(keys, join.Key{Left: l, Right: r})
	}
	return keys, nil
}

func joinFiles(leftPath, rightPath, outPath, typName, on string, opts []join.Option) (err error) {
	typ, err := join.ParseType(typName)
	if err != nil {
		return usagef("-type: %v", err)
	}
	keys, err := parseKeys(on)
	if err != nil {
		return err
	}
	if outPath == leftPath || outPath == rightPath {
		return usagef("OUT is the same file as LEFT or RIGHT")
	}
	left, err := openJoinInput(leftPath)
	if err != nil {
		return err
	}
	defer left.Close()
	right, err := openJoinInput(rightPath)
	if err != nil {
		return err
	}
	defer right.Close()
	j, err := join.NewReader(left, right, typ, keys, opts...)
	if err != nil {
		return err
	}
	defer j.Close()
	if outPath == "-" {
		w, err := files.NewWriter(cmdStdout, j.Schema(), files.WithFormat(files.FormatIPCStream))
		if err != nil {
			return err
		}
		if _, err := alkaid.Copy(w, j); err != nil {
			return err
		}
		return w.Close()
	}
	if schemeOf(outPath) != "" {
		return joinToRemote(j, outPath, leftPath, rightPath)
	}
	w, err := files.Create(outPath, j.Schema())
	if err != nil {
		return err
	}
	if _, err := alkaid.Copy(w, j); err != nil {
		w.Abort()
		return err
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("%s: %w", outPath, err)
	}
	return nil
}

// openJoinInput opens one side of a join: a directory, pattern or
// prefix read as a dataset, a local file (files.Open), or a file at a
// URL of a registered scheme, read at offsets.
func openJoinInput(path string) (alkaid.RecordReader, error) {
	if isDatasetPath(path) {
		return openDatasetInput(path)
	}
	if schemeOf(path) == "" {
		return files.Open(path)
	}
	f, size, closer, err := openRemoteFile(path)
	if err != nil {
		return nil, err
	}
	r, err := files.OpenReaderAt(f, size, path)
	if err != nil {
		closer.Close()
		return nil, err
	}
	return alkaid.NewRecordReader(r.Schema(), r.Records(), func() error { return errors.Join(r.Close(), closer.Close()) }), nil
}

// joinToRemote writes the join's records to the URL out, in the format
// its extension names, whole or not at all (see remoteOut).
func joinToRemote(j alkaid.RecordReader, out string, inputs ...string) error {
	format, err := files.FormatOf(out)
	if err != nil {
		return err
	}
	opts := []files.Option{files.WithFormat(format)}
	if strings.EqualFold(path.Ext(out), ".tsv") {
		opts = append(opts, files.WithCSVOptions(csv.WithDelimiter('\t')))
	}
	f, err := createOutFile(out, inputs...)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	w, err := files.NewWriter(bw, j.Schema(), opts...)
	if err != nil {
		return f.fail(err, false)
	}
	if _, err := alkaid.Copy(w, j); err != nil {
		return f.fail(err, false)
	}
	if err := w.Close(); err != nil {
		return f.fail(fmt.Errorf("%s: %w", out, err), false)
	}
	if err := bw.Flush(); err != nil {
		return f.fail(fmt.Errorf("%s: %w", out, err), false)
	}
	return f.commit()
}
