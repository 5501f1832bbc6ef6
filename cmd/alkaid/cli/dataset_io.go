package cli

// Datasets in the data subcommands: an input path naming a directory, or a
// glob pattern matching no single file, is read through package dataset
// as one table (Hive partition directories become columns); convert
// writes a dataset when its output is a directory.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/dataset"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/internal/quote"
)

// datasetNote is the sentence the reading commands' help adds.
const datasetNote = `A directory (read recursively; files named .* or _* and *.tmp left
out; key=value directories read as Hive partition columns) or a glob
pattern ("**" crosses directories) is read as one dataset: the files'
schemas unified, their record batches in file order.`

// The reading commands take a dataset wherever they take a file: their
// help says so here, in one place.
func init() {
	for _, c := range []*command{&catCmd, &schemaCmd, &infoCmd, &validateCmd, &exportCmd, &convertCmd} {
		c.long = strings.TrimRight(c.long, "\n") + "\n\n" + datasetNote
	}
	validateCmd.long += `
validate checks each file of a dataset on its own (CSV and NDJSON files
as the dataset reads them), naming every invalid one on stderr, then that
their schemas unify.`
	convertCmd.long += `

OUT is written as a dataset directory when -partition-by is given, or OUT
ends with a separator or is a directory: Parquet files (or -to file,
-to stream) under one directory level per partition column (-layout),
each written under a temporary name and renamed once all are complete.`
}

// globChars are the characters that make a path a pattern.
const globChars = `*?[`

// isDatasetPath reports whether path names a dataset: an existing
// directory, or a pattern (holding * ? or [) that names no file.
func isDatasetPath(path string) bool {
	if path == "-" {
		return false
	}
	if schemeOf(path) != "" {
		return isRemoteDataset(path)
	}
	st, err := os.Stat(path)
	if err == nil {
		return st.IsDir()
	}
	return strings.ContainsAny(path, globChars)
}

// dsInput is an opened dataset: where its files are, and the dataset.
type dsInput struct {
	root string // the directory the dataset's paths are relative to
	fsys fs.FS  // the file system of the dataset's paths
	ds   *dataset.Dataset
}

// openDataset opens the directory or glob pattern at p; extra options
// (e.g. WithSkipCorrupt) are added to the CLI's (Hive partitions).
func openDataset(p string, extra ...dataset.Option) (*dsInput, error) {
	opts := append([]dataset.Option{dataset.WithPartitioning(dataset.Partitioning{Style: dataset.Hive}),
		dataset.WithParquetOptions(pqRead.options()...)}, extra...)
	var (
		d    *dataset.Dataset
		root = p
		fsys fs.FS
		err  error
	)
	if schemeOf(p) != "" {
		var r *remote
		if r, err = openRemote(p); err != nil {
			return nil, err
		}
		root, fsys = strings.TrimSuffix(p, "/"), r.fsys
		switch {
		case r.pattern:
			root = strings.TrimSuffix(root, "/"+r.name)
			d, err = dataset.OpenGlob(r.fsys, r.name, opts...)
		case r.dir:
			d, err = dataset.Open(r.fsys, r.name, opts...)
			root = strings.TrimSuffix(root, "/"+r.name)
		default:
			return nil, fmt.Errorf("%s: not a prefix or pattern", p)
		}
	} else if st, serr := os.Stat(p); serr == nil && st.IsDir() {
		fsys = os.DirFS(p)
		d, err = dataset.Open(fsys, ".", opts...)
	} else {
		var pattern string
		root, pattern = splitGlob(filepath.ToSlash(p))
		fsys = os.DirFS(root)
		d, err = dataset.OpenGlob(fsys, pattern, opts...)
	}
	if err != nil {
		return nil, datasetErr(root, err)
	}
	if len(d.Files()) == 0 && len(d.Skipped()) == 0 {
		return nil, fmt.Errorf("%s: no Parquet, IPC, CSV or NDJSON file there", p)
	}
	return &dsInput{root: root, fsys: fsys, ds: d}, nil
}

// splitGlob cuts a slash-separated pattern into the directory of its
// leading segments without pattern characters and the rest.
func splitGlob(p string) (root, pattern string) {
	segs := strings.Split(p, "/")
	i := 0
	for i < len(segs)-1 && !strings.ContainsAny(segs[i], globChars+`\`) {
		i++
	}
	root = strings.Join(segs[:i], "/")
	switch {
	case i == 1 && segs[0] == "":
		root = "/"
	case root == "":
		root = "."
	}
	return filepath.FromSlash(root), strings.Join(segs[i:], "/")
}

// file is the operating system's path of the dataset's file name.
func (d *dsInput) file(name string) string {
	if schemeOf(d.root) != "" {
		return joinRemote(d.root, name)
	}
	return filepath.Join(d.root, filepath.FromSlash(name))
}

// files lists the operating system's paths of the dataset's files.
func (d *dsInput) files() []string {
	var out []string
	for _, name := range d.ds.Files() {
		out = append(out, d.file(name))
	}
	return out
}

// datasetErr names a dataset's file by its path from the working
// directory rather than from root.
func datasetErr(root string, err error) error {
	var fe *dataset.FileError
	if errors.As(err, &fe) && schemeOf(root) != "" {
		return fmt.Errorf("%s: %w", joinRemote(root, fe.Path), fe.Err)
	}
	if errors.As(err, &fe) {
		return fmt.Errorf("%s: %w", filepath.Join(root, filepath.FromSlash(fe.Path)), fe.Err)
	}
	return err
}

// openDatasetInput opens the dataset at p as an input: its records in
// file order, an error naming its file by its path from the working
// directory.
func openDatasetInput(p string) (*input, error) {
	d, err := openDataset(p)
	if err != nil {
		return nil, err
	}
	return scanInput(d.ds, p, func(_ int, err error) error { return datasetErr(d.root, err) }), nil
}

// ---- convert to a dataset ----

// dsOutFlags are convert's flags for a directory output.
type dsOutFlags struct {
	partitionBy string
	layout      string
	maxRows     int
	existing    string
}

func (f *dsOutFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.partitionBy, "partition-by", "", "write OUT as a dataset directory partitioned by the columns `COL[,COL]` (their values in directory names)")
	fs.StringVar(&f.layout, "layout", "hive", "dataset directory names: hive (key=value) or directory (the value)")
	fs.IntVar(&f.maxRows, "max-rows-per-file", 0, "dataset: start a new file after `N` rows (0: no limit)")
	fs.StringVar(&f.existing, "existing", "error", "dataset: files already in OUT: error, overwrite (same names replaced, others kept) or delete-matching (each partition written replaces its files)")
}

// set reports whether a flag other than -partition-by left its default.
func (f *dsOutFlags) set() bool {
	return f.layout != "hive" || f.maxRows != 0 || f.existing != "error"
}

// wanted reports whether OUT is a dataset directory: -partition-by is
// given, OUT ends with a separator or is a directory.
func (f *dsOutFlags) wanted(out string) bool {
	if f.partitionBy != "" || strings.HasSuffix(out, "/") || strings.HasSuffix(out, string(filepath.Separator)) {
		return true
	}
	st, err := os.Stat(out)
	return err == nil && st.IsDir()
}

// options checks the flags and returns the write options, the file
// format chosen from of (-to: parquet, the default, file or stream).
func (f *dsOutFlags) options(of *outFlags) ([]dataset.Option, error) {
	var opts []dataset.Option
	if f.partitionBy != "" {
		cols := strings.Split(f.partitionBy, ",")
		for i := range cols {
			cols[i] = strings.TrimSpace(cols[i])
		}
		opts = append(opts, dataset.WithPartitionBy(cols...))
	}
	switch f.layout {
	case "hive":
	case "directory":
		opts = append(opts, dataset.WithLayout(dataset.Directory))
	default:
		return nil, usagef("-layout %q: want hive or directory", f.layout)
	}
	if f.maxRows < 0 {
		return nil, usagef("-max-rows-per-file %d: must not be negative", f.maxRows)
	}
	if f.maxRows > 0 {
		opts = append(opts, dataset.WithMaxRowsPerFile(f.maxRows))
	}
	switch f.existing {
	case "error":
	case "overwrite":
		opts = append(opts, dataset.WithExisting(dataset.ExistingOverwriteOrIgnore))
	case "delete-matching":
		opts = append(opts, dataset.WithExisting(dataset.ExistingDeleteMatching))
	default:
		return nil, usagef("-existing %q: want error, overwrite or delete-matching", f.existing)
	}
	switch of.to {
	case "", "parquet":
		pq, err := of.parquetOptions()
		if err != nil {
			return nil, err
		}
		opts = append(opts, dataset.WithFormat(files.FormatParquet), dataset.WithParquetOptions(pq...))
	case "file", "stream":
		if of.codec != "" || of.rowGroupRows != 0 {
			return nil, usagef("-codec and -row-group-rows apply to Parquet outputs")
		}
		_, ipcOpts, err := of.resolve("", false)
		if err != nil {
			return nil, err
		}
		format := files.FormatIPCFile
		if of.to == "stream" {
			format = files.FormatIPCStream
		}
		opts = append(opts, dataset.WithFormat(format), dataset.WithIPCOptions(ipcOpts...))
	default:
		return nil, usagef("-to %q: want parquet, file or stream", of.to)
	}
	return opts, nil
}

// writeDataset writes in as a dataset in the directory out, refusing a
// directory that holds the input or lies inside it.
func writeDataset(in *input, inPath, out string, opts []dataset.Option) error {
	if schemeOf(out) != "" {
		if remoteOverlaps(inPath, out) {
			return usagef("output %s overlaps input %s: refusing to write where it reads", out, inPath)
		}
		return writeRemoteDataset(in, out, opts)
	}
	if overlaps(inPath, out) {
		return usagef("output directory %s overlaps input %s: refusing to write where it reads", out, inPath)
	}
	if err := os.MkdirAll(out, 0o777); err != nil {
		return err
	}
	_, err := dataset.Write(context.Background(), dataset.DirFS(out), ".", in, opts...)
	var fe *dataset.FileError
	if err != nil && !errors.As(err, &fe) {
		return fmt.Errorf("%s: %w", out, err)
	}
	return datasetErr(out, err)
}

// overlaps reports whether one of the paths a and b lies within the other
// (a directory input and the output directory, or the file input and it).
func overlaps(a, b string) bool {
	if a == "-" {
		return false
	}
	if st, err := os.Stat(a); (err != nil || !st.IsDir()) && isDatasetPath(a) {
		a, _ = splitGlob(filepath.ToSlash(a))
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	if err1 != nil || err2 != nil {
		return false
	}
	within := func(x, y string) bool {
		rel, err := filepath.Rel(y, x)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	return within(aa, bb) || within(bb, aa)
}

// ---- schema, info, validate ----

// datasetInfo prints a summary of the dataset at p: its files, bytes,
// fields, partition columns and rows (from Parquet footers where they
// suffice).
func datasetInfo(p string) error {
	d, err := openDataset(p)
	if err != nil {
		return err
	}
	var size int64
	for _, name := range d.ds.Files() {
		st, err := fs.Stat(d.fsys, name)
		if err != nil {
			return fmt.Errorf("%s: %w", d.file(name), err)
		}
		size += st.Size()
	}
	rows, _, err := d.ds.CountRows(context.Background())
	if err != nil {
		return datasetErr(d.root, err)
	}
	s := d.ds.Schema()
	var parts []string
	for _, f := range d.ds.Partitions() {
		parts = append(parts, fmt.Sprintf("%s (%s)", f.Name, f.Type))
	}
	w := cmdStdout
	fmt.Fprintf(w, "path:           %s\n", p)
	fmt.Fprintf(w, "format:         dataset of %d files\n", len(d.ds.Files()))
	fmt.Fprintf(w, "size:           %s bytes (%s)\n", groupDigits(size), humanBytes(size))
	fmt.Fprintf(w, "fields:         %d\n", s.NumFields())
	if len(parts) > 0 {
		fmt.Fprintf(w, "partitions:     %s\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(w, "rows:           %s\n", groupDigits(rows))
	return nil
}

// validateDataset validates every file of the dataset at p on its own, as
// validate checks a file, naming each invalid one on stderr, then checks
// that the files' schemas unify. It returns an error when a file is
// invalid or the schemas conflict.
func validateDataset(p string, quiet, strict bool) error {
	// An empty schema given: the files are listed, not yet read.
	d, err := openDataset(p, dataset.WithSkipCorrupt(), dataset.WithSchema(alkaid.NewSchema(nil, datatype.Metadata{})))
	if err != nil {
		return fmt.Errorf("%s: invalid dataset: %w", p, err)
	}
	names := d.files()
	for _, e := range d.ds.Skipped() {
		var fe *dataset.FileError
		if errors.As(e, &fe) {
			names = append(names, d.file(fe.Path))
		}
	}
	slices.Sort(names)
	var bad []string
	for _, name := range names {
		var err error
		if f, size, closer, format := textFile(name); f != nil {
			err = validateText(name, f, size, format, quiet)
			closer.Close()
		} else {
			err = validate(name, quiet, strict)
		}
		if err != nil {
			bad = append(bad, name)
			fmt.Fprintf(cmdStderr, "alkaid validate: %s\n", cutMiddle(strings.ReplaceAll(err.Error(), "\n", " "), maxMessage))
		}
	}
	switch {
	case len(bad) == 1:
		return fmt.Errorf("%s: invalid dataset: %s is invalid", p, bad[0])
	case len(bad) > 1:
		return fmt.Errorf("%s: invalid dataset: %d of %d files are invalid, the first %s", p, len(bad), len(names), bad[0])
	}
	// Every file reads: their schemas must also make one table.
	if _, err := openDataset(p); err != nil {
		return fmt.Errorf("%s: invalid dataset: %w", p, err)
	}
	if !quiet {
		fmt.Fprintf(cmdStdout, "%s: valid dataset: %d files\n", p, len(names))
	}
	return nil
}

// textFile opens the dataset file name when it is read as CSV or NDJSON
// (see files.Detect): the file, its size and format; else f is nil.
func textFile(name string) (f fileInput, size int64, closer io.Closer, format files.Format) {
	f, size, closer, err := openPathFile(name)
	if err != nil {
		return nil, 0, nil, 0
	}
	format, err = files.Detect(f, size, name)
	if err == nil && (format == files.FormatCSV || format == files.FormatNDJSON) {
		return f, size, closer, format
	}
	closer.Close()
	return nil, 0, nil, 0
}

// validateText reads the CSV or NDJSON file f (named name, of size bytes)
// as a dataset reads it (files.OpenReaderAt) and checks every column
// fully.
func validateText(name string, f io.ReaderAt, size int64, format files.Format, quiet bool) error {
	r, err := files.OpenReaderAt(f, size, name, files.WithFormat(format))
	if err != nil {
		return fmt.Errorf("%s: invalid: %w", name, err)
	}
	var rows int64
	i := 0
	for rec, err := range r.Records() {
		if err != nil {
			return fmt.Errorf("%s: invalid: %w", name, err)
		}
		for c := range rec.NumCols() {
			if err := array.Validate(rec.Column(c).Data(), array.ValidateFull); err != nil {
				return fmt.Errorf("%s: invalid: record batch %d column %s: %w", name, i, quote.String(rec.ColumnName(c)), err)
			}
		}
		rows += int64(rec.NumRows())
		i++
	}
	if !quiet {
		fmt.Fprintf(cmdStdout, "%s: valid text file: %d rows\n", name, rows)
	}
	return nil
}

// writeRemoteDataset writes in as a dataset under the URL out, whose file
// system must be a dataset.WriteFS.
func writeRemoteDataset(in *input, out string, opts []dataset.Option) error {
	scheme := schemeOf(out)
	fsys, err := schemes[scheme](strings.TrimSuffix(out, "/"))
	if err != nil {
		return fmt.Errorf("%s: %w", out, err)
	}
	if c, ok := fsys.(io.Closer); ok {
		defer c.Close()
	}
	dst, ok := fsys.(dataset.WriteFS)
	if !ok {
		return fmt.Errorf("%s: %w: the %s file system cannot be written (no dataset.WriteFS)", out, datatype.ErrNotSupported, scheme)
	}
	_, err = dataset.Write(context.Background(), dst, ".", in, opts...)
	var fe *dataset.FileError
	if err != nil && !errors.As(err, &fe) {
		return fmt.Errorf("%s: %w", out, err)
	}
	return datasetErr(strings.TrimSuffix(out, "/"), err)
}
