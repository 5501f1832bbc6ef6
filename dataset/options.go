package dataset

import (
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/ndjson"
	"github.com/alkaid-go/alkaid/parquet"
)

// Option configures how a dataset is discovered and read.
type Option func(*config)

type config struct {
	format      files.Format
	part        Partitioning
	schema      *alkaid.Schema
	skipCorrupt bool
	pq          []parquet.Option
	ipc         []ipc.Option
	csv         []csv.Option
	ndjson      []ndjson.Option
	err         error
}

// WithFormat reads every file in format f instead of picking each file's
// format by its content and extension (files.FormatAuto, see files.Detect).
func WithFormat(f files.Format) Option {
	return func(c *config) {
		if f < files.FormatAuto || f > files.FormatNDJSON {
			c.err = fmt.Errorf("dataset: WithFormat: %w: unknown format %d", ErrInvalid, int(f))
		}
		c.format = f
	}
}

// WithPartitioning reads partition columns from directory names.
func WithPartitioning(p Partitioning) Option {
	return func(c *config) { c.part = p }
}

// WithSchema gives the schema of the files' columns instead of reading and
// unifying every file's: files are then not opened until scanned, a
// column a file lacks reads as nulls, and a file's column converts to the
// given type (an error when it cannot). Partition columns follow it.
// CSV and NDJSON files are still parsed with their readers' inference,
// then converted: to parse them as the schema says (keeping "007" a
// string), give it to their readers too, e.g. WithCSVOptions(csv.WithSchema(s))
// when every file has exactly its columns.
func WithSchema(s *alkaid.Schema) Option {
	return func(c *config) {
		if s == nil {
			c.err = fmt.Errorf("dataset: WithSchema: %w: nil schema", ErrInvalid)
		}
		c.schema = s
	}
}

// WithSkipCorrupt leaves out files that cannot be read, where the default
// is to fail with a FileError naming the file: a file that fails while its
// schema is read is left out of the dataset ([Dataset.Skipped]), one that
// fails during a scan ends its part of the scan (the rows already yielded
// stay yielded) and is counted in [Stats].FilesSkipped.
func WithSkipCorrupt() Option {
	return func(c *config) { c.skipCorrupt = true }
}

// WithParquetOptions passes options to every Parquet file opened.
func WithParquetOptions(opts ...parquet.Option) Option {
	return func(c *config) { c.pq = append(c.pq, opts...) }
}

// WithIPCOptions passes options to every IPC file and stream opened.
func WithIPCOptions(opts ...ipc.Option) Option {
	return func(c *config) { c.ipc = append(c.ipc, opts...) }
}

// WithCSVOptions passes options to every CSV file read.
func WithCSVOptions(opts ...csv.Option) Option {
	return func(c *config) { c.csv = append(c.csv, opts...) }
}

// WithNDJSONOptions passes options to every NDJSON file read.
func WithNDJSONOptions(opts ...ndjson.Option) Option {
	return func(c *config) { c.ndjson = append(c.ndjson, opts...) }
}
