package csv

import (
	"runtime"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

// Sentinel errors; every error of this package wraps one of them and
// starts with "csv: ".
var (
	// ErrInvalid is datatype.ErrInvalid: the input is not CSV of the
	// expected shape or a cell is not a value of its column's type.
	ErrInvalid = datatype.ErrInvalid
	// ErrNotSupported is datatype.ErrNotSupported: a type without a CSV
	// form, or an option combination that cannot work.
	ErrNotSupported = datatype.ErrNotSupported
	// ErrLimit is datatype.ErrLimit: a record or a header beyond the
	// reader's limits (WithMaxRecordBytes, WithMaxColumns).
	ErrLimit = datatype.ErrLimit
)

// The default limits of a Reader.
const (
	// DefaultMaxRecordBytes is the default of WithMaxRecordBytes.
	DefaultMaxRecordBytes = 128 << 20
	// DefaultMaxColumns is the default of WithMaxColumns.
	DefaultMaxColumns = 1 << 16
)

// ReaderOption configures a Reader.
type ReaderOption func(*readerConfig)

type readerConfig struct {
	schema      *alkaid.Schema
	positional  bool
	batchRows   int
	delim       byte
	quote       byte
	comment     byte
	nulls       []string
	trues       []string
	falses      []string
	header      bool
	skipRows    int
	skipBad     bool
	columns     []string
	inferRows   int
	inferAll    bool
	utf8Binary  bool
	layouts     []string
	trimSpace   bool
	concurrency int
	blockSize   int
	maxRecord   int
	maxColumns  int
}

func defaultReaderConfig() readerConfig {
	return readerConfig{batchRows: 16384, delim: ',', quote: '"', nulls: []string{""}, header: true,
		inferRows: 10000, concurrency: runtime.GOMAXPROCS(0), blockSize: 4 << 20,
		maxRecord: DefaultMaxRecordBytes, maxColumns: DefaultMaxColumns}
}

// WithSchema gives the schema. With a header, its fields are matched to the
// columns by name: a field without a column or a column without a field is
// an error naming them (see WithPositional, WithColumns).
func WithSchema(s *alkaid.Schema) ReaderOption { return func(c *readerConfig) { c.schema = s } }

// WithPositional matches the schema's fields to the columns by position
// (the header's names are then ignored). Without a header this is always
// so.
func WithPositional() ReaderOption { return func(c *readerConfig) { c.positional = true } }

// WithBatchSize sets the most rows per batch (default 16384). A batch of
// long records holds fewer: it ends at the first record end past about
// 4 MiB of input.
func WithBatchSize(n int) ReaderOption { return func(c *readerConfig) { c.batchRows = n } }

// WithDelimiter sets the field delimiter (default ',').
func WithDelimiter(d byte) ReaderOption { return func(c *readerConfig) { c.delim = d } }

// WithQuote sets the quote character (default '"').
func WithQuote(q byte) ReaderOption { return func(c *readerConfig) { c.quote = q } }

// WithComment makes lines that start with ch comments (default: none).
func WithComment(ch byte) ReaderOption { return func(c *readerConfig) { c.comment = ch } }

// WithNullValues sets the unquoted cell texts read as null (default: the
// empty cell only). A quoted cell is never null.
func WithNullValues(v ...string) ReaderOption {
	return func(c *readerConfig) { c.nulls = append([]string(nil), v...) }
}

// WithBooleans sets the spellings of true and false (default true/True/TRUE
// and false/False/FALSE).
func WithBooleans(trues, falses []string) ReaderOption {
	return func(c *readerConfig) { c.trues, c.falses = trues, falses }
}

// WithHeader says whether the first record holds the column names (default
// true). Without one the columns are named col_1, col_2, …
func WithHeader(h bool) ReaderOption { return func(c *readerConfig) { c.header = h } }

// WithSkipRows skips n records before the header (or the data).
func WithSkipRows(n int) ReaderOption { return func(c *readerConfig) { c.skipRows = n } }

// WithSkipBadRows skips the records with a wrong number of fields instead
// of stopping with an error; Reader.Skipped counts them.
func WithSkipBadRows() ReaderOption { return func(c *readerConfig) { c.skipBad = true } }

// WithColumns reads only the named columns, in this order (projection).
func WithColumns(names ...string) ReaderOption {
	return func(c *readerConfig) { c.columns = append([]string(nil), names...) }
}

// WithInferRows sets how many records the inference reads (default 10000).
// Later cells that do not fit the inferred types are errors.
func WithInferRows(n int) ReaderOption { return func(c *readerConfig) { c.inferRows = n } }

// WithInferAll infers the types from the whole input in a first pass; the
// input must be an io.Seeker, and is read twice.
func WithInferAll() ReaderOption { return func(c *readerConfig) { c.inferAll = true } }

// WithInvalidUTF8AsBinary makes inference type a column holding invalid
// UTF-8 as binary (its cells read as raw bytes) instead of failing.
func WithInvalidUTF8AsBinary() ReaderOption { return func(c *readerConfig) { c.utf8Binary = true } }

// WithTrimSpace makes number, boolean, date, time and timestamp cells
// drop spaces and tabs around their value; by default " 12" is not an
// integer (the text grammar, shared with compute.Cast and ndjson, refuses
// it everywhere unless asked).
func WithTrimSpace() ReaderOption { return func(c *readerConfig) { c.trimSpace = true } }

// WithTimestampLayouts adds time.Parse layouts for timestamps, tried after
// ISO-8601 (inference types such columns timestamp[us]).
func WithTimestampLayouts(layouts ...string) ReaderOption {
	return func(c *readerConfig) { c.layouts = append([]string(nil), layouts...) }
}

// WithConcurrency sets how many goroutines parse chunks (default
// GOMAXPROCS).
func WithConcurrency(n int) ReaderOption { return func(c *readerConfig) { c.concurrency = n } }

// WithMaxRecordBytes sets the most bytes of one record, line breaks
// inside quotes included (default DefaultMaxRecordBytes, 128 MiB). A
// longer record, such as an unclosed quote running on, is an error
// wrapping ErrLimit naming its line, found before more than about twice
// the limit is held. The inference sample stops at this many bytes too.
func WithMaxRecordBytes(n int) ReaderOption { return func(c *readerConfig) { c.maxRecord = n } }

// WithMaxColumns sets the most columns of the input, counted in the
// header or, without one, the first record (default DefaultMaxColumns,
// 65536). More is an error wrapping ErrLimit, found while splitting that
// record.
func WithMaxColumns(n int) ReaderOption { return func(c *readerConfig) { c.maxColumns = n } }

// withBlockSize sets the read size (tests use small ones).
func withBlockSize(n int) ReaderOption { return func(c *readerConfig) { c.blockSize = n } }

// WriterOption configures a Writer.
type WriterOption func(*writerConfig)

type writerConfig struct {
	delim         byte
	quote         byte
	header        bool
	null          string
	trueS, falseS string
	crlf          bool
	concurrency   int
}

func defaultWriterConfig() writerConfig {
	return writerConfig{delim: ',', quote: '"', header: true, trueS: "true", falseS: "false", concurrency: runtime.GOMAXPROCS(0)}
}

// WriteDelimiter sets the field delimiter (default ',').
func WriteDelimiter(d byte) WriterOption { return func(c *writerConfig) { c.delim = d } }

// WriteQuote sets the quote character (default '"').
func WriteQuote(q byte) WriterOption { return func(c *writerConfig) { c.quote = q } }

// WriteHeader says whether to write the column names first (default true).
func WriteHeader(h bool) WriterOption { return func(c *writerConfig) { c.header = h } }

// WriteNull sets the text of a null (default: an empty cell). String values
// equal to it are quoted, so they read back as strings.
func WriteNull(s string) WriterOption { return func(c *writerConfig) { c.null = s } }

// WriteBooleans sets the spellings of true and false.
func WriteBooleans(t, f string) WriterOption {
	return func(c *writerConfig) { c.trueS, c.falseS = t, f }
}

// WriteCRLF ends lines with "\r\n" instead of "\n".
func WriteCRLF() WriterOption { return func(c *writerConfig) { c.crlf = true } }

// WriteConcurrency sets how many goroutines format the rows of a large
// batch (default GOMAXPROCS); the output is the same for any value.
func WriteConcurrency(n int) WriterOption { return func(c *writerConfig) { c.concurrency = n } }
