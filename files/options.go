package files

import (
	"fmt"

	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/ndjson"
	"github.com/alkaid-go/alkaid/parquet"
)

// Option configures Open, OpenReaderAt, Create and NewWriter.
type Option func(*config)

type config struct {
	format Format
	// Each format's options. Every format package has one option type
	// for its readers and writers, and its constructors refuse an option
	// of the other side.
	ipc     []ipc.Option
	parquet []parquet.Option
	csv     []csv.Option
	ndjson  []ndjson.Option
	err     error
}

func newConfig(opts []Option) (*config, error) {
	c := &config{}
	for _, o := range opts {
		o(c)
		if c.err != nil {
			return nil, c.err
		}
	}
	return c, nil
}

// WithFormat reads or writes format f instead of the one Detect (reading)
// or the file's extension (writing) picks. It is how a CSV or NDJSON file
// of another extension is read, and how a writer without a file name
// (NewWriter) is told its format.
func WithFormat(f Format) Option {
	return func(c *config) {
		if !f.valid() {
			c.err = fmt.Errorf("files: WithFormat(%d): %w: unknown format", int(f), datatype.ErrInvalid)
		}
		c.format = f
	}
}

// WithIPCOptions passes options to the IPC stream and file reader (given
// to Open) or writer (given to Create); package ipc refuses an option of
// the other side.
func WithIPCOptions(opts ...ipc.Option) Option {
	return func(c *config) { c.ipc = append(c.ipc, opts...) }
}

// WithParquetOptions passes options to the Parquet reader (given to Open)
// or writer (given to Create); package parquet refuses an option of the
// other side.
func WithParquetOptions(opts ...parquet.Option) Option {
	return func(c *config) { c.parquet = append(c.parquet, opts...) }
}

// WithCSVOptions passes options to the CSV reader (given to Open) or
// writer (given to Create). A .tsv file is read and written with a tab
// delimiter unless these options name another.
func WithCSVOptions(opts ...csv.Option) Option {
	return func(c *config) { c.csv = append(c.csv, opts...) }
}

// WithNDJSONOptions passes options to the NDJSON reader (given to Open)
// or writer (given to Create).
func WithNDJSONOptions(opts ...ndjson.Option) Option {
	return func(c *config) { c.ndjson = append(c.ndjson, opts...) }
}
