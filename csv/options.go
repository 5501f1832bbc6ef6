package csv

import (
	"fmt"
	"runtime"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/optside"
)

// Sentinel errors; every error of this package wraps one of them and
// starts with "csv: ".
var (
	// ErrInvalid is datatype.ErrInvalid: the input is not CSV of the
	// expected shape, a cell is not a value of its column's type, a
	// record has another schema than the Writer's, or an option is bad.
	ErrInvalid = datatype.ErrInvalid
	// ErrNotSupported is datatype.ErrNotSupported: a type without a CSV
	// form, or an option combination that cannot work.
	ErrNotSupported = datatype.ErrNotSupported
	// ErrLimit is datatype.ErrLimit: a record or a header beyond the
	// reader's [Limits].
	ErrLimit = datatype.ErrLimit
)

// Limits bound what a Reader holds for one record. Zero fields take the
// values of [DefaultLimits]; negative ones are an error.
type Limits struct {
	// MaxRecordBytes is the most bytes of one record, line breaks inside
	// quotes included. A longer record, such as an unclosed quote running
	// on, is an error wrapping ErrLimit naming its line, found before more
	// than about twice the limit is held. The inference sample stops at
	// this many bytes too.
	MaxRecordBytes int
	// MaxColumns is the most columns of the input, counted in the header
	// or, without one, the first record. More is an error wrapping
	// ErrLimit, found while splitting that record.
	MaxColumns int
}

// DefaultLimits are the limits of a Reader without [WithLimits], and
// those of its zero fields: 128 MiB per record, 65536 columns.
var DefaultLimits = Limits{MaxRecordBytes: 128 << 20, MaxColumns: 1 << 16}

// Option configures a Reader or a Writer. Each option says whether it
// is for a Reader, a Writer or both; one given to the other is an error
// naming it, as is a bad value.
type Option func(*config)

// config holds the settings of both; the options record which of them
// they are for and the first bad value.
type config struct {
	r             readerConfig
	w             writerConfig
	optside.Sides // which side each option is for; the first bad value
}

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
	limits      Limits
}

type writerConfig struct {
	delim         byte
	quote         byte
	header        bool
	nulls         []string // the first is written; strings equal to any are quoted
	trueS, falseS string
	crlf          bool
	concurrency   int
}

func newConfig(opts []Option) config {
	procs := runtime.GOMAXPROCS(0)
	c := config{
		Sides: optside.New("csv"),
		r: readerConfig{batchRows: 16384, delim: ',', quote: '"', nulls: []string{""}, header: true,
			inferRows: 10000, concurrency: procs, blockSize: 4 << 20, limits: DefaultLimits},
		w: writerConfig{delim: ',', quote: '"', header: true, nulls: []string{""}, trueS: "true", falseS: "false",
			concurrency: procs},
	}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// readerOptions returns a Reader's configuration, or the error of a bad
// or writer-only option.
func readerOptions(opts []Option) (readerConfig, error) {
	c := newConfig(opts)
	if err := c.ForReader(); err != nil {
		return readerConfig{}, err
	}
	if err := checkChars("Reader", c.r.delim, c.r.quote, c.r.comment); err != nil {
		return readerConfig{}, err
	}
	return c.r, nil
}

// writerOptions returns a Writer's configuration, or the error of a bad
// or reader-only option.
func writerOptions(opts []Option) (writerConfig, error) {
	c := newConfig(opts)
	if err := c.ForWriter(); err != nil {
		return writerConfig{}, err
	}
	if len(c.w.nulls) == 0 {
		return writerConfig{}, fmt.Errorf("csv: %w: WithNullValues(): a Writer needs the text of a null", ErrInvalid)
	}
	if err := checkChars("Writer", c.w.delim, c.w.quote, 0); err != nil {
		return writerConfig{}, err
	}
	return c.w, nil
}

// checkChars checks that the delimiter, quote and comment characters can
// be told apart.
func checkChars(of string, delim, quote, comment byte) error {
	bad := func(what string) error { return fmt.Errorf("csv: %w: %s: %s", ErrInvalid, of, what) }
	switch {
	case delim == quote:
		return bad(fmt.Sprintf("WithDelimiter(%q) and WithQuote(%q): the delimiter and the quote are the same character", delim, quote))
	case comment != 0 && (comment == delim || comment == quote):
		return bad(fmt.Sprintf("WithComment(%q): the comment character is the delimiter or the quote", comment))
	}
	return nil
}

// lineChar reports whether b cannot be a delimiter, quote or comment
// character.
func lineChar(b byte) bool { return b == '\n' || b == '\r' || b == 0 }

// WithSchema gives a Reader the schema. With a header, its fields are
// matched to the columns by name: a field without a column or a column
// without a field is an error naming them (see WithPositional,
// WithColumns).
func WithSchema(s *alkaid.Schema) Option {
	return func(c *config) {
		c.Reader("WithSchema")
		if s == nil {
			c.Badf("WithSchema(nil)")
		}
		c.r.schema = s
	}
}

// WithPositional makes a Reader match the schema's fields to the columns
// by position (the header's names are then ignored). Without a header
// this is always so.
func WithPositional() Option {
	return func(c *config) { c.Reader("WithPositional"); c.r.positional = true }
}

// WithBatchSize sets the most rows per batch a Reader yields (default
// 16384). A batch of long records holds fewer: it ends at the first
// record end past about 4 MiB of input.
func WithBatchSize(n int) Option {
	return func(c *config) {
		c.Reader("WithBatchSize")
		if n <= 0 {
			c.Badf("WithBatchSize(%d): the batch size must be positive", n)
		}
		c.r.batchRows = n
	}
}

// WithDelimiter sets the field delimiter of a Reader or a Writer
// (default ','). It must differ from the quote and not be a line break or
// NUL.
func WithDelimiter(d byte) Option {
	return func(c *config) {
		if lineChar(d) {
			c.Badf("WithDelimiter(%q): the delimiter must not be a line break or NUL", d)
		}
		c.r.delim, c.w.delim = d, d
	}
}

// WithQuote sets the quote character of a Reader or a Writer (default
// '"'). It must differ from the delimiter and not be a line break or NUL.
func WithQuote(q byte) Option {
	return func(c *config) {
		if lineChar(q) {
			c.Badf("WithQuote(%q): the quote must not be a line break or NUL", q)
		}
		c.r.quote, c.w.quote = q, q
	}
}

// WithComment makes a Reader skip the lines that start with ch (default:
// none).
func WithComment(ch byte) Option {
	return func(c *config) {
		c.Reader("WithComment")
		if lineChar(ch) {
			c.Badf("WithComment(%q): the comment character must not be a line break or NUL", ch)
		}
		c.r.comment = ch
	}
}

// WithNullValues sets the texts of a null. A Reader reads each of them,
// unquoted, as null (default: the empty cell only; a quoted cell is never
// null); a Writer writes the first, and quotes a string equal to any of
// them so that it reads back as a string. A Writer needs at least one.
func WithNullValues(v ...string) Option {
	return func(c *config) {
		c.r.nulls = append([]string(nil), v...)
		c.w.nulls = c.r.nulls
	}
}

// WithBooleans sets the spellings of true and false (default
// true/True/TRUE and false/False/FALSE). A Reader takes all of them; a
// Writer writes the first of each (default true and false).
func WithBooleans(trues, falses []string) Option {
	return func(c *config) {
		c.r.trues, c.r.falses = append([]string(nil), trues...), append([]string(nil), falses...)
		if len(trues) > 0 {
			c.w.trueS = trues[0]
		}
		if len(falses) > 0 {
			c.w.falseS = falses[0]
		}
	}
}

// WithHeader says whether the first record holds the column names: a
// Reader reads them, a Writer writes them (default true). A Reader
// without one names the columns col_1, col_2, …
func WithHeader(h bool) Option {
	return func(c *config) { c.r.header, c.w.header = h, h }
}

// WithSkipRows makes a Reader skip n records before the header (or the
// data).
func WithSkipRows(n int) Option {
	return func(c *config) {
		c.Reader("WithSkipRows")
		if n < 0 {
			c.Badf("WithSkipRows(%d): must not be negative", n)
		}
		c.r.skipRows = n
	}
}

// WithSkipBadRows makes a Reader skip the records with a wrong number of
// fields instead of stopping with an error; Reader.Skipped counts them.
func WithSkipBadRows() Option {
	return func(c *config) { c.Reader("WithSkipBadRows"); c.r.skipBad = true }
}

// WithColumns makes a Reader read only the named columns, in this order
// (projection).
func WithColumns(names ...string) Option {
	return func(c *config) {
		c.Reader("WithColumns")
		c.r.columns = append([]string(nil), names...)
	}
}

// WithInferRows sets how many records a Reader's inference reads
// (default 10000). Later cells that do not fit the inferred types are
// errors.
func WithInferRows(n int) Option {
	return func(c *config) {
		c.Reader("WithInferRows")
		if n <= 0 {
			c.Badf("WithInferRows(%d): must be positive", n)
		}
		c.r.inferRows = n
	}
}

// WithInferAll makes a Reader infer the types from the whole input in a
// first pass; the input must be an io.Seeker, and is read twice.
func WithInferAll() Option {
	return func(c *config) { c.Reader("WithInferAll"); c.r.inferAll = true }
}

// WithInvalidUTF8AsBinary makes a Reader's inference type a column
// holding invalid UTF-8 as binary (its cells read as raw bytes) instead
// of failing.
func WithInvalidUTF8AsBinary() Option {
	return func(c *config) { c.Reader("WithInvalidUTF8AsBinary"); c.r.utf8Binary = true }
}

// WithTrimSpace makes a Reader's number, boolean, date, time and
// timestamp cells drop spaces and tabs around their value; by default
// " 12" is not an integer (the text grammar, shared with compute.Cast and
// ndjson, refuses it everywhere unless asked).
func WithTrimSpace() Option {
	return func(c *config) { c.Reader("WithTrimSpace"); c.r.trimSpace = true }
}

// WithTimestampLayouts adds time.Parse layouts for a Reader's
// timestamps, tried after ISO-8601 (inference types such columns
// timestamp[us]).
func WithTimestampLayouts(layouts ...string) Option {
	return func(c *config) {
		c.Reader("WithTimestampLayouts")
		c.r.layouts = append([]string(nil), layouts...)
	}
}

// WithConcurrency sets how many goroutines parse chunks (a Reader) or
// format the rows of a large batch (a Writer): 0 is runtime.GOMAXPROCS(0)
// (the default), 1 is serial, negative is an error. The output is the
// same for any value.
func WithConcurrency(n int) Option {
	return func(c *config) {
		if n < 0 {
			c.Badf("WithConcurrency(%d): must not be negative", n)
		}
		if n == 0 {
			n = runtime.GOMAXPROCS(0)
		}
		c.r.concurrency, c.w.concurrency = n, n
	}
}

// WithLimits sets a Reader's limits (default [DefaultLimits]); zero
// fields keep their defaults.
func WithLimits(l Limits) Option {
	return func(c *config) {
		c.Reader("WithLimits")
		switch {
		case l.MaxRecordBytes < 0:
			c.Badf("WithLimits: MaxRecordBytes %d: must not be negative", l.MaxRecordBytes)
		case l.MaxColumns < 0:
			c.Badf("WithLimits: MaxColumns %d: must not be negative", l.MaxColumns)
		}
		if l.MaxRecordBytes == 0 {
			l.MaxRecordBytes = DefaultLimits.MaxRecordBytes
		}
		if l.MaxColumns == 0 {
			l.MaxColumns = DefaultLimits.MaxColumns
		}
		c.r.limits = l
	}
}

// WithCRLF makes a Writer end lines with "\r\n" instead of "\n".
func WithCRLF() Option {
	return func(c *config) { c.Writer("WithCRLF"); c.w.crlf = true }
}

// withBlockSize sets a Reader's read size (tests use small ones).
func withBlockSize(n int) Option {
	return func(c *config) { c.Reader("withBlockSize"); c.r.blockSize = max(n, 1) }
}
