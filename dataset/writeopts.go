package dataset

import (
	"fmt"
	"io"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/parquet"
)

// Existing is what Write does with data already in its directory.
type Existing int

// The behaviours towards existing data.
const (
	// ExistingError fails with ErrExists when the directory holds a file.
	ExistingError Existing = iota
	// ExistingOverwriteOrIgnore replaces the files of the names written
	// and leaves every other file.
	ExistingOverwriteOrIgnore
	// ExistingDeleteMatching deletes the files of each partition
	// directory written to (once its new files are complete), leaving
	// other partitions.
	ExistingDeleteMatching
)

// WriteOption configures Write.
type WriteOption func(*writeConfig)

type writeConfig struct {
	partitionBy []string
	style       PartitionStyle
	template    string
	maxRows     int
	format      files.Format
	existing    Existing
	pq          []parquet.Option
	ipc         []ipc.Option
	csv         []csv.Option
	err         error
}

// WithPartitionBy partitions the written files by these columns, in this
// order of directory levels; they are left out of the files.
func WithPartitionBy(columns ...string) WriteOption {
	return func(c *writeConfig) { c.partitionBy = append([]string(nil), columns...) }
}

// WithLayout picks the directory layout of partitions: Hive (key=value,
// the default) or Directory (the value alone).
func WithLayout(s PartitionStyle) WriteOption {
	return func(c *writeConfig) {
		if s != Hive && s != Directory {
			c.err = fmt.Errorf("dataset: WithLayout: %w: style %d (want Hive or Directory)", ErrInvalid, s)
		}
		c.style = s
	}
}

// WithFileName names the files of each directory from template, in which
// "{i}" is replaced by the file's number in its directory from 0 (default
// "part-{i}" and the format's extension: .parquet, .arrow, .arrows, .csv,
// .ndjson). The name must not start with "." or "_" (readers would leave
// the file out) nor hold "/".
func WithFileName(template string) WriteOption {
	return func(c *writeConfig) {
		if !strings.Contains(template, "{i}") || strings.Contains(template, "/") ||
			hidden(strings.ReplaceAll(template, "{i}", "0"), false) {
			c.err = fmt.Errorf("dataset: WithFileName(%q): %w: want a name holding {i}, without /, not starting with . or _", template, ErrInvalid)
		}
		c.template = template
	}
}

// WithMaxRowsPerFile starts a new file in a directory once its current
// one holds n rows (default: no limit).
func WithMaxRowsPerFile(n int) WriteOption {
	return func(c *writeConfig) {
		if n < 1 {
			c.err = fmt.Errorf("dataset: WithMaxRowsPerFile(%d): %w: want at least 1", n, ErrInvalid)
		}
		c.maxRows = n
	}
}

// WithWriteFormat writes files in format f (default files.FormatParquet).
func WithWriteFormat(f files.Format) WriteOption {
	return func(c *writeConfig) {
		if f <= files.FormatAuto || f > files.FormatNDJSON {
			c.err = fmt.Errorf("dataset: WithWriteFormat: %w: format %s", ErrInvalid, f)
		}
		c.format = f
	}
}

// WithExisting says what to do with data already in the directory
// (default ExistingError).
func WithExisting(e Existing) WriteOption {
	return func(c *writeConfig) {
		if e < ExistingError || e > ExistingDeleteMatching {
			c.err = fmt.Errorf("dataset: WithExisting: %w: %d", ErrInvalid, e)
		}
		c.existing = e
	}
}

// WithParquetWriterOptions passes options to every Parquet writer
// (codec, row group rows, …).
func WithParquetWriterOptions(opts ...parquet.Option) WriteOption {
	return func(c *writeConfig) { c.pq = append(c.pq, opts...) }
}

// WithIPCWriterOptions passes options to every IPC file or stream writer.
func WithIPCWriterOptions(opts ...ipc.Option) WriteOption {
	return func(c *writeConfig) { c.ipc = append(c.ipc, opts...) }
}

// WithCSVWriterOptions passes options to every CSV writer.
func WithCSVWriterOptions(opts ...csv.Option) WriteOption {
	return func(c *writeConfig) { c.csv = append(c.csv, opts...) }
}

func (c *writeConfig) newWriter(w io.Writer, s *alkaid.Schema) (alkaid.RecordWriter, error) {
	return files.NewWriter(w, s, files.WithFormat(c.format),
		files.WithParquetOptions(c.pq...), files.WithIPCOptions(c.ipc...), files.WithCSVOptions(c.csv...))
}
