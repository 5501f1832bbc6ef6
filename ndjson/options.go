package ndjson

import (
	"runtime"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

// Sentinel errors; every error of this package wraps one of them and
// starts with "ndjson: ".
var (
	// ErrInvalid is datatype.ErrInvalid: the input is not
	// newline-delimited JSON objects, or a value does not fit its field's
	// type.
	ErrInvalid = datatype.ErrInvalid
	// ErrNotSupported is datatype.ErrNotSupported: a type without a JSON
	// form here, or a bad option.
	ErrNotSupported = datatype.ErrNotSupported
	// ErrLimit is datatype.ErrLimit: a line or an inferred schema beyond
	// the reader's limits (WithMaxLineBytes, WithMaxFields).
	ErrLimit = datatype.ErrLimit
)

// The default limits of a Reader.
const (
	// DefaultMaxLineBytes is the default of WithMaxLineBytes.
	DefaultMaxLineBytes = 128 << 20
	// DefaultMaxFields is the default of WithMaxFields.
	DefaultMaxFields = 1 << 16
)

// maxDepth bounds the nesting of values read.
const maxDepth = 64

// ReaderOption configures a Reader.
type ReaderOption func(*readerConfig)

type readerConfig struct {
	schema      *alkaid.Schema
	batchRows   int
	inferRows   int
	inferAll    bool
	columns     []string
	layouts     []string
	trimSpace   bool
	concurrency int
	blockSize   int
	maxLine     int
	maxFields   int
}

func defaultReaderConfig() readerConfig {
	return readerConfig{batchRows: 16384, inferRows: 10000, concurrency: runtime.GOMAXPROCS(0), blockSize: 1 << 20,
		maxLine: DefaultMaxLineBytes, maxFields: DefaultMaxFields}
}

// WithSchema gives the schema; keys are matched to its fields by name.
func WithSchema(s *alkaid.Schema) ReaderOption { return func(c *readerConfig) { c.schema = s } }

// WithBatchSize sets the most rows per batch (default 16384). Batches of
// long lines or of wide schemas may hold fewer: a batch ends after about
// 4 MiB of input, and holds at most about 4M values (rows × fields,
// nested fields counted).
func WithBatchSize(n int) ReaderOption { return func(c *readerConfig) { c.batchRows = n } }

// WithInferRows sets how many lines inference reads (default 10000).
func WithInferRows(n int) ReaderOption { return func(c *readerConfig) { c.inferRows = n } }

// WithInferAll infers the schema from the whole input in a first pass
// (the input must be an io.Seeker; it is read twice).
func WithInferAll() ReaderOption { return func(c *readerConfig) { c.inferAll = true } }

// WithColumns reads only the named top-level keys, in this order; other
// keys are skipped (still checked to be valid JSON).
func WithColumns(names ...string) ReaderOption {
	return func(c *readerConfig) { c.columns = append([]string(nil), names...) }
}

// WithTrimSpace makes numbers, dates, times and timestamps written as
// strings drop spaces and tabs around their value; by default " 12" is
// not an integer (the text grammar, shared with compute.Cast and csv,
// refuses it everywhere unless asked).
func WithTrimSpace() ReaderOption { return func(c *readerConfig) { c.trimSpace = true } }

// WithTimestampLayouts adds time.Parse layouts for timestamp strings.
func WithTimestampLayouts(layouts ...string) ReaderOption {
	return func(c *readerConfig) { c.layouts = append([]string(nil), layouts...) }
}

// WithConcurrency sets how many goroutines parse (default GOMAXPROCS).
func WithConcurrency(n int) ReaderOption { return func(c *readerConfig) { c.concurrency = n } }

// WithMaxLineBytes sets the most bytes of one line (default
// DefaultMaxLineBytes, 128 MiB). A longer line is an error wrapping
// ErrLimit naming it, found before more than about twice the limit is
// held. The inference sample stops at this many bytes too.
func WithMaxLineBytes(n int) ReaderOption { return func(c *readerConfig) { c.maxLine = n } }

// WithMaxFields sets the most fields inference may find, nested ones
// and list elements counted (default DefaultMaxFields, 65536). More is
// an error wrapping ErrLimit naming the line, found as the sample is
// read: every field costs memory in every batch.
func WithMaxFields(n int) ReaderOption { return func(c *readerConfig) { c.maxFields = n } }

func withBlockSize(n int) ReaderOption { return func(c *readerConfig) { c.blockSize = n } }
