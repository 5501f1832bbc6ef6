package dataset

import (
	"fmt"
	"io"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/ndjson"
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

// writeConfig is what the options of Write set.
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
	ndjson      []ndjson.Option
}

// WithPartitionBy partitions the written files by these columns, in this
// order of directory levels; they are left out of the files. For Write.
func WithPartitionBy(columns ...string) Option {
	return func(o *options) {
		o.use("WithPartitionBy", forWrite)
		o.write.partitionBy = append([]string(nil), columns...)
	}
}

// WithLayout picks the directory layout of partitions: Hive (key=value,
// the default) or Directory (the value alone). For Write.
func WithLayout(s PartitionStyle) Option {
	return func(o *options) {
		o.use("WithLayout", forWrite)
		if s != Hive && s != Directory {
			o.invalid(fmt.Sprintf("WithLayout(%d)", s), "want Hive or Directory")
		}
		o.write.style = s
	}
}

// WithFileName names the files of each directory from template, in which
// "{i}" is replaced by the file's number in its directory from 0 (default
// "part-{i}" and the format's extension: .parquet, .arrow, .arrows, .csv,
// .ndjson). The name must not start with "." or "_" (readers would leave
// the file out) nor hold "/". For Write.
func WithFileName(template string) Option {
	return func(o *options) {
		o.use("WithFileName", forWrite)
		if !strings.Contains(template, "{i}") || strings.Contains(template, "/") ||
			hidden(strings.ReplaceAll(template, "{i}", "0"), false) {
			o.invalid(fmt.Sprintf("WithFileName(%q)", template), "want a name holding {i}, without /, not starting with . or _")
		}
		o.write.template = template
	}
}

// WithMaxRowsPerFile starts a new file in a directory once its current
// one holds n rows (default: no limit). For Write.
func WithMaxRowsPerFile(n int) Option {
	return func(o *options) {
		o.use("WithMaxRowsPerFile", forWrite)
		if n < 1 {
			o.invalid(fmt.Sprintf("WithMaxRowsPerFile(%d)", n), "want at least 1")
		}
		o.write.maxRows = n
	}
}

// WithExisting says what to do with data already in the directory
// (default ExistingError). For Write.
func WithExisting(e Existing) Option {
	return func(o *options) {
		o.use("WithExisting", forWrite)
		if e < ExistingError || e > ExistingDeleteMatching {
			o.invalid(fmt.Sprintf("WithExisting(%d)", e), "want ExistingError, ExistingOverwriteOrIgnore or ExistingDeleteMatching")
		}
		o.write.existing = e
	}
}

func (c *writeConfig) newWriter(w io.Writer, s *alkaid.Schema) (alkaid.RecordWriter, error) {
	return files.NewWriter(w, s, files.WithFormat(c.format),
		files.WithParquetOptions(c.pq...), files.WithIPCOptions(c.ipc...), files.WithCSVOptions(c.csv...),
		files.WithNDJSONOptions(c.ndjson...))
}
