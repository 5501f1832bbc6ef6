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
	// Each format's options, reader and writer apart; a reader given
	// writer options (or a writer reader options) is an error.
	ipc     []ipc.Option
	pqRead  []parquet.ReaderOption
	pqWrite []parquet.WriterOption
	// The text formats have one option type for both sides; their own
	// constructors refuse an option of the other side.
	csv    []csv.Option
	ndjson []ndjson.Option
	err    error
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

// forReading returns an error when c holds options only a writer takes.
func (c *config) forReading() error {
	switch {
	case len(c.pqWrite) > 0:
		return errWrongSide("WithParquetOptions", "writer", "Open")
	}
	return nil
}

// forWriting returns an error when c holds options only a reader takes.
func (c *config) forWriting() error {
	switch {
	case len(c.pqRead) > 0:
		return errWrongSide("WithParquetOptions", "reader", "Create")
	}
	return nil
}

func errWrongSide(option, side, fn string) error {
	return fmt.Errorf("files: %s: %w: %s options given to %s", option, datatype.ErrInvalid, side, fn)
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
// or writer (given to Create). O is parquet's reader or writer option
// type.
func WithParquetOptions[O parquet.ReaderOption | parquet.WriterOption](opts ...O) Option {
	return func(c *config) {
		switch o := any(opts).(type) {
		case []parquet.ReaderOption:
			c.pqRead = append(c.pqRead, o...)
		case []parquet.WriterOption:
			c.pqWrite = append(c.pqWrite, o...)
		}
	}
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
