package dataset

// Options of Open, OpenFiles and OpenGlob, of Scan and CountRows, and of
// Write: one type, each option marked with the calls it applies to.

import (
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/ndjson"
	"github.com/alkaid-go/alkaid/parquet"
)

// Option configures how a dataset is discovered and read ([Open],
// [OpenFiles], [OpenGlob]), a scan of it ([Dataset.Scan],
// [Dataset.CountRows]) or a [Write]. Each option says in its
// documentation which calls it applies to; an option given to another
// call, or of an invalid value, makes the call fail with an error
// wrapping [ErrInvalid] that names the option. Of two options that set
// the same thing, the later wins (WithFilter and the format packages'
// options add to what earlier ones gave).
type Option func(*options)

// calls is the set of calls an option applies to.
type calls uint8

const (
	forOpen  calls = 1 << iota // Open, OpenFiles, OpenGlob
	forScan                    // Scan, CountRows
	forWrite                   // Write
)

// String names the calls of c, as in "Open/OpenFiles/OpenGlob and Write".
func (c calls) String() string {
	var s string
	for _, k := range []struct {
		c    calls
		name string
	}{{forOpen, "Open/OpenFiles/OpenGlob"}, {forScan, "Scan/CountRows"}, {forWrite, "Write"}} {
		if c&k.c == 0 {
			continue
		}
		if s != "" {
			s += " and "
		}
		s += k.name
	}
	return s
}

// setting is an option given: its name and the calls it applies to.
type setting struct {
	name  string
	calls calls
}

// options is what the options given set, for each kind of call.
type options struct {
	open  config
	scan  scanConfig
	write writeConfig
	set   []setting
	err   error // the first invalid value
}

// use records that the option name, applying to calls c, was given.
func (o *options) use(name string, c calls) { o.set = append(o.set, setting{name, c}) }

// invalid records that option call (e.g. "WithBatchSize(-1)") has an
// invalid value, as the first such error.
func (o *options) invalid(call, format string, args ...any) {
	if o.err == nil {
		o.err = fmt.Errorf("dataset: %s: %w: %s", call, ErrInvalid, fmt.Sprintf(format, args...))
	}
}

// apply runs opts over base for the call named name, of kind c, and
// checks that each option given applies to it.
func apply(base options, opts []Option, c calls, name string) (options, error) {
	o := base
	for _, opt := range opts {
		if opt == nil {
			return o, fmt.Errorf("dataset: %s: %w: a nil Option", name, ErrInvalid)
		}
		opt(&o)
	}
	if o.err != nil {
		return o, o.err
	}
	for _, s := range o.set {
		if s.calls&c == 0 {
			return o, fmt.Errorf("dataset: %w: %s applies to %s, not to %s", ErrInvalid, s.name, s.calls, name)
		}
	}
	return o, nil
}

// config is what the options of Open, OpenFiles and OpenGlob set.
type config struct {
	format      files.Format
	part        Partitioning
	schema      *alkaid.Schema
	skipCorrupt bool
	pq          []parquet.Option
	ipc         []ipc.Option
	csv         []csv.Option
	ndjson      []ndjson.Option
}

// WithFormat names the format of the files. Opening, every file is read
// in format f instead of the format found from each file's content and
// extension (files.FormatAuto, the default: see files.Detect). Writing,
// files are written in format f (default files.FormatParquet;
// files.FormatAuto is then an error). For Open/OpenFiles/OpenGlob and
// Write.
func WithFormat(f files.Format) Option {
	return func(o *options) {
		o.use("WithFormat", forOpen|forWrite)
		if f < files.FormatAuto || f > files.FormatNDJSON {
			o.invalid(fmt.Sprintf("WithFormat(%d)", int(f)), "unknown format")
		}
		o.open.format, o.write.format = f, f
	}
}

// WithPartitioning reads partition columns from directory names. For
// Open/OpenFiles/OpenGlob.
func WithPartitioning(p Partitioning) Option {
	return func(o *options) {
		o.use("WithPartitioning", forOpen)
		o.open.part = p
	}
}

// WithSchema gives the schema of the files' columns instead of reading and
// unifying every file's: files are then not read until scanned (discovery
// reads a file's first bytes for its format, and with WithFormat too it
// only lists the files), a column a file lacks reads as nulls, and a file's column converts to the
// given type (an error when it cannot). Partition columns follow it.
// CSV and NDJSON files are still parsed with their readers' inference,
// then converted: to parse them as the schema says (keeping "007" a
// string), give it to their readers too, e.g. WithCSVOptions(csv.WithSchema(s))
// when every file has exactly its columns. For Open/OpenFiles/OpenGlob.
func WithSchema(s *alkaid.Schema) Option {
	return func(o *options) {
		o.use("WithSchema", forOpen)
		if s == nil {
			o.invalid("WithSchema", "nil schema")
		}
		o.open.schema = s
	}
}

// WithSkipCorrupt leaves out files that cannot be read, where the default
// is to fail with a FileError naming the file: a file that fails while its
// schema is read is left out of the dataset ([Dataset.Skipped]), one that
// fails during a scan ends its part of the scan (the rows already yielded
// stay yielded) and is counted in [Stats].FilesSkipped. For
// Open/OpenFiles/OpenGlob.
func WithSkipCorrupt() Option {
	return func(o *options) {
		o.use("WithSkipCorrupt", forOpen)
		o.open.skipCorrupt = true
	}
}

// WithParquetOptions passes options to every Parquet file opened, or to
// every Parquet writer (codec, row group rows, …). Each must be one the
// parquet package takes for that side: a writer's option given to Open
// fails when a file is opened. For Open/OpenFiles/OpenGlob and Write.
func WithParquetOptions(opts ...parquet.Option) Option {
	return func(o *options) {
		o.use("WithParquetOptions", forOpen|forWrite)
		o.open.pq = append(o.open.pq, opts...)
		o.write.pq = append(o.write.pq, opts...)
	}
}

// WithIPCOptions passes options to every IPC file and stream opened, or
// to every IPC file or stream writer. For Open/OpenFiles/OpenGlob and
// Write.
func WithIPCOptions(opts ...ipc.Option) Option {
	return func(o *options) {
		o.use("WithIPCOptions", forOpen|forWrite)
		o.open.ipc = append(o.open.ipc, opts...)
		o.write.ipc = append(o.write.ipc, opts...)
	}
}

// WithCSVOptions passes options to every CSV file read, or to every CSV
// writer. For Open/OpenFiles/OpenGlob and Write.
func WithCSVOptions(opts ...csv.Option) Option {
	return func(o *options) {
		o.use("WithCSVOptions", forOpen|forWrite)
		o.open.csv = append(o.open.csv, opts...)
		o.write.csv = append(o.write.csv, opts...)
	}
}

// WithNDJSONOptions passes options to every NDJSON file read, or to
// every NDJSON writer. For Open/OpenFiles/OpenGlob and Write.
func WithNDJSONOptions(opts ...ndjson.Option) Option {
	return func(o *options) {
		o.use("WithNDJSONOptions", forOpen|forWrite)
		o.open.ndjson = append(o.open.ndjson, opts...)
		o.write.ndjson = append(o.write.ndjson, opts...)
	}
}
