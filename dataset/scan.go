package dataset

import (
	"context"
	"fmt"
	"iter"
	"runtime"
	"slices"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
)

// scanConfig is what the options of Scan and CountRows set.
type scanConfig struct {
	columns     []string
	projected   bool
	filter      *expr.Expr
	batchSize   int
	concurrency int
	readahead   int64
	unordered   bool
	files       []string
	only        bool
}

// WithColumns keeps only these columns (files' or partition columns, by
// name), in this order. A dotted path ("s.a.b") names a field nested in
// struct columns: the output column, named by the path, holds its values
// (null where an enclosing struct is). No names keeps no column: records
// then carry only their row counts. For Scan/CountRows.
func WithColumns(names ...string) Option {
	return func(o *options) {
		o.use("WithColumns", forScan)
		o.scan.columns, o.scan.projected = append([]string(nil), names...), true
	}
}

// WithBatchSize cuts records to at most n rows (default: as the files'
// readers return them; a Parquet row group per record). For
// Scan/CountRows.
func WithBatchSize(n int) Option {
	return func(o *options) {
		o.use("WithBatchSize", forScan)
		if n < 1 {
			o.invalid(fmt.Sprintf("WithBatchSize(%d)", n), "want at least 1")
		}
		o.scan.batchSize = n
	}
}

// WithConcurrency decodes up to n units at once (a unit is a Parquet
// row group or a whole file of another format): 0 means
// runtime.GOMAXPROCS(0), the default, 1 one unit after another; a
// negative n is an error. How many units are read ahead of the consumer
// is WithReadahead's. For Scan/CountRows.
func WithConcurrency(n int) Option {
	return func(o *options) {
		o.use("WithConcurrency", forScan)
		if n < 0 {
			o.invalid(fmt.Sprintf("WithConcurrency(%d)", n), "must not be negative")
		}
		if n == 0 {
			n = runtime.GOMAXPROCS(0)
		}
		o.scan.concurrency = n
	}
}

// DefaultReadahead is the readahead of a scan without WithReadahead.
const DefaultReadahead = 64 << 20

// WithReadahead bounds the memory a scan holds ahead of its consumer to
// about n bytes beyond what the units being decoded hold: up to the
// concurrency's number of units run whatever their size, and more start
// while the sizes estimated from the files' metadata of those started
// and not yet consumed fit in n. A Parquet row group counts its column
// chunks and the arrays of the records it holds (at most two; all of
// them with the default batch size, a row group a record); a whole file
// of another format its size, up to n divided by the concurrency.
// Memory thus stays bounded by n and the concurrency, not by the
// dataset's size; a larger n lets more units wait decoded for the
// consumer, and more chunks of files on an object store be fetched
// while others are decoded (the default is DefaultReadahead). n must be
// positive. For Scan/CountRows.
func WithReadahead(n int64) Option {
	return func(o *options) {
		o.use("WithReadahead", forScan)
		if n < 1 {
			o.invalid(fmt.Sprintf("WithReadahead(%d)", n), "must be positive")
		}
		o.scan.readahead = n
	}
}

// WithUnordered yields records as units finish, instead of in file order
// (row group order within a file). For Scan/CountRows.
func WithUnordered() Option {
	return func(o *options) {
		o.use("WithUnordered", forScan)
		o.scan.unordered = true
	}
}

// WithFiles scans only these files of the dataset (paths as Files lists
// them), in the dataset's file order: a part of the dataset, with its
// schema and partition columns, such as one a client fetches in
// parallel with others. A path that is not a file of the dataset is
// ErrInvalid. For Scan/CountRows.
func WithFiles(paths ...string) Option {
	return func(o *options) {
		o.use("WithFiles", forScan)
		o.scan.files, o.scan.only = append([]string(nil), paths...), true
	}
}

// Scan is a planned scan of a dataset: a schema and the records of the
// rows that satisfy its filter, read on demand. It is the record-source
// shape of the library: Schema, and Records as an iter.Seq2 that yields
// each record with a nil error, or a nil record with the error that ends
// the sequence.
type Scan struct {
	d      *Dataset
	ctx    context.Context
	cfg    scanConfig
	schema *alkaid.Schema
	out    []int     // dataset field of each output column
	paths  [][]int   // the struct child indices of each output column
	need   []int     // dataset fields read: out, then the filter's
	files  []*source // the files scanned (all, or WithFiles's)
	// filter is WithFilter's expression, filterCols the dataset fields
	// it reads; filterSchema is that of the record it is evaluated over,
	// the columns of need at filterAt.
	filter       *expr.Expr
	filterCols   []int
	filterAt     []int
	filterSchema *alkaid.Schema
	// rowSchema is that of the filter's columns alone (filterCols), over
	// which a Parquet reader filters rows (see keepRows).
	rowSchema *alkaid.Schema
	stats     statCounters
}

// Scan plans a scan of d. ctx bounds every run of Records: once it is
// done, the run stops its goroutines and yields ctx's error.
func (d *Dataset) Scan(ctx context.Context, opts ...Option) (*Scan, error) {
	return d.scan(ctx, opts, "Scan")
}

// scan is Scan, called as call.
func (d *Dataset) scan(ctx context.Context, opts []Option, call string) (_ *Scan, err error) {
	o, err := apply(options{scan: scanConfig{concurrency: runtime.GOMAXPROCS(0), readahead: DefaultReadahead}}, opts, forScan, call)
	if err != nil {
		return nil, err
	}
	s := &Scan{d: d, ctx: ctx, cfg: o.scan}
	if s.files, err = d.choose(s.cfg); err != nil {
		return nil, err
	}
	if !s.cfg.projected {
		for i := range d.schema.NumFields() {
			s.out = append(s.out, i)
		}
	}
	s.paths = make([][]int, len(s.out))
	fields := make([]datatype.Field, len(s.out))
	for k, i := range s.out {
		fields[k] = d.schema.Field(i)
	}
	for _, name := range s.cfg.columns {
		i, path, f, err := d.resolve(name)
		if err != nil {
			return nil, err
		}
		s.out = append(s.out, i)
		s.paths = append(s.paths, path)
		fields = append(fields, f)
	}
	s.schema = alkaid.NewSchema(fields, d.schema.Metadata())
	s.need = slices.Clone(s.out)
	if err := s.planFilter(); err != nil {
		return nil, err
	}
	return s, nil
}

// choose returns the files a scan of cfg reads: every file, or those
// WithFiles names, in file order.
func (d *Dataset) choose(cfg scanConfig) ([]*source, error) {
	if !cfg.only {
		return d.files, nil
	}
	want := make(map[string]bool, len(cfg.files))
	for _, p := range cfg.files {
		want[p] = true
	}
	var out []*source
	for _, src := range d.files {
		if want[src.path] {
			out = append(out, src)
			delete(want, src.path)
		}
	}
	for _, p := range cfg.files {
		if want[p] {
			return nil, fmt.Errorf("dataset: WithFiles: %w: %q is not a file of the dataset", ErrInvalid, p)
		}
	}
	return out, nil
}

// resolve finds the column name: a field of the dataset, or a dotted path
// into struct columns.
func (d *Dataset) resolve(name string) (int, []int, datatype.Field, error) {
	if i := d.schema.FieldIndex(name); i >= 0 {
		return i, nil, d.schema.Field(i), nil
	}
	segs := strings.Split(name, ".")
	i := d.schema.FieldIndex(segs[0])
	if i < 0 || len(segs) == 1 {
		return 0, nil, datatype.Field{}, fmt.Errorf("dataset: %w: no column %q", ErrInvalid, name)
	}
	f := d.schema.Field(i)
	var path []int
	for _, seg := range segs[1:] {
		st, ok := f.Type.(*datatype.StructType)
		j := -1
		if ok {
			j = st.FieldIndex(seg)
		}
		if j < 0 {
			return 0, nil, datatype.Field{}, fmt.Errorf("dataset: %w: no column %q (%s of type %s has no field %q)", ErrInvalid, name, f.Name, f.Type, seg)
		}
		path = append(path, j)
		f = st.Field(j)
	}
	f.Name = name
	f.Nullable = true
	return i, path, f, nil
}

// Schema is the schema of the scan's records.
func (s *Scan) Schema() *alkaid.Schema { return s.schema }

// Stats returns the counts of the last run of Records (complete or not).
func (s *Scan) Stats() Stats { return s.stats.snapshot() }

// Close does nothing: a Scan holds no file or goroutine between runs of
// Records (each run closes what it opened before it returns). It is there
// so that a Scan is an alkaid.RecordReader; Records may still run after
// it.
func (s *Scan) Close() error { return nil }

// CountRows counts the rows a scan with these options yields, from the
// files' metadata where that suffices (when the filter is on partition
// columns only: for Parquet files the row counts discovery read from
// their footers, or, with WithSchema, their footers; for IPC files the
// footer and each record batch's metadata, no batch body) and by reading
// the others.
func (d *Dataset) CountRows(ctx context.Context, opts ...Option) (int64, Stats, error) {
	s, err := d.scan(ctx, append(slices.Clone(opts), WithColumns()), "CountRows")
	if err != nil {
		return 0, Stats{}, err
	}
	var n int64
	for rec, err := range s.Records() {
		if err != nil {
			return 0, s.Stats(), err
		}
		n += int64(rec.NumRows())
	}
	return n, s.Stats(), nil
}

// Records runs the scan (see Scan). Breaking out of the loop stops it:
// the files are closed and every goroutine of the run has ended when the
// loop statement does.
func (s *Scan) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		s.stats.reset()
		s.run(yield)
	}
}
