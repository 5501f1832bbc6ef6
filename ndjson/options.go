package ndjson

import (
	"runtime"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/optside"
)

// Sentinel errors; every error of this package wraps one of them and
// starts with "ndjson: ".
var (
	// ErrInvalid is datatype.ErrInvalid: the input is not
	// newline-delimited JSON objects, a value does not fit its field's
	// type, a record has another schema than the Writer's, or an option
	// is bad.
	ErrInvalid = datatype.ErrInvalid
	// ErrNotSupported is datatype.ErrNotSupported: a type without a JSON
	// form here, or an input that cannot do what an option needs.
	ErrNotSupported = datatype.ErrNotSupported
	// ErrLimit is datatype.ErrLimit: a line or an inferred schema beyond
	// the reader's [Limits].
	ErrLimit = datatype.ErrLimit
)

// Limits bound what a Reader holds for one line and one schema. Zero
// fields take the values of [DefaultLimits]; negative ones are an error.
type Limits struct {
	// MaxLineBytes is the most bytes of one line. A longer line is an
	// error wrapping ErrLimit naming it, found before more than about
	// twice the limit is held. The inference sample stops at this many
	// bytes too.
	MaxLineBytes int
	// MaxFields is the most fields inference may find, nested ones and
	// list elements counted. More is an error wrapping ErrLimit naming the
	// line, found as the sample is read: every field costs memory in
	// every batch.
	MaxFields int
}

// DefaultLimits are the limits of a Reader without [WithLimits], and
// those of its zero fields: 128 MiB per line, 65536 fields.
var DefaultLimits = Limits{MaxLineBytes: 128 << 20, MaxFields: 1 << 16}

// maxDepth bounds the nesting of values read.
const maxDepth = 64

// Option configures a Reader or a Writer. Each option says which it is
// for; one given to the other is an error naming it, as is a bad value.
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
	batchRows   int
	inferRows   int
	inferAll    bool
	columns     []string
	layouts     []string
	trimSpace   bool
	concurrency int
	blockSize   int
	limits      Limits
}

type writerConfig struct {
	unionCodes bool
}

func newConfig(opts []Option) config {
	c := config{Sides: optside.New("ndjson"), r: readerConfig{batchRows: 16384, inferRows: 10000, concurrency: runtime.GOMAXPROCS(0),
		blockSize: 1 << 20, limits: DefaultLimits}}
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
	return c.r, nil
}

// writerOptions returns a Writer's configuration, or the error of a bad
// or reader-only option.
func writerOptions(opts []Option) (writerConfig, error) {
	c := newConfig(opts)
	if err := c.ForWriter(); err != nil {
		return writerConfig{}, err
	}
	return c.w, nil
}

// WithSchema gives a Reader the schema; keys are matched to its fields by
// name.
func WithSchema(s *alkaid.Schema) Option {
	return func(c *config) {
		c.Reader("WithSchema")
		if s == nil {
			c.Badf("WithSchema(nil)")
		}
		c.r.schema = s
	}
}

// WithBatchSize sets the most rows per batch a Reader yields (default
// 16384). Batches of long lines or of wide schemas may hold fewer: a
// batch ends after about 4 MiB of input, and holds at most about 4M
// values (rows × fields, nested fields counted).
func WithBatchSize(n int) Option {
	return func(c *config) {
		c.Reader("WithBatchSize")
		if n <= 0 {
			c.Badf("WithBatchSize(%d): the batch size must be positive", n)
		}
		c.r.batchRows = n
	}
}

// WithInferRows sets how many lines a Reader's inference reads (default
// 10000).
func WithInferRows(n int) Option {
	return func(c *config) {
		c.Reader("WithInferRows")
		if n <= 0 {
			c.Badf("WithInferRows(%d): must be positive", n)
		}
		c.r.inferRows = n
	}
}

// WithInferAll makes a Reader infer the schema from the whole input in a
// first pass (the input must be an io.Seeker; it is read twice).
func WithInferAll() Option {
	return func(c *config) { c.Reader("WithInferAll"); c.r.inferAll = true }
}

// WithColumns makes a Reader read only the named top-level keys, in this
// order; other keys are skipped (still checked to be valid JSON).
func WithColumns(names ...string) Option {
	return func(c *config) {
		c.Reader("WithColumns")
		c.r.columns = append([]string(nil), names...)
	}
}

// WithTrimSpace makes a Reader's numbers, dates, times and timestamps
// written as strings drop spaces and tabs around their value; by default
// " 12" is not an integer (the text grammar, shared with compute.Cast and
// csv, refuses it everywhere unless asked).
func WithTrimSpace() Option {
	return func(c *config) { c.Reader("WithTrimSpace"); c.r.trimSpace = true }
}

// WithTimestampLayouts adds time.Parse layouts for a Reader's timestamp
// strings.
func WithTimestampLayouts(layouts ...string) Option {
	return func(c *config) {
		c.Reader("WithTimestampLayouts")
		c.r.layouts = append([]string(nil), layouts...)
	}
}

// WithConcurrency sets how many goroutines a Reader parses on: 0 is
// runtime.GOMAXPROCS(0) (the default), 1 is serial, negative is an error.
// The records are the same for any value. A Writer formats on the
// goroutine that calls Write, and refuses the option.
func WithConcurrency(n int) Option {
	return func(c *config) {
		c.Reader("WithConcurrency")
		if n < 0 {
			c.Badf("WithConcurrency(%d): must not be negative", n)
		}
		if n == 0 {
			n = runtime.GOMAXPROCS(0)
		}
		c.r.concurrency = n
	}
}

// WithLimits sets a Reader's limits (default [DefaultLimits]); zero
// fields keep their defaults.
func WithLimits(l Limits) Option {
	return func(c *config) {
		c.Reader("WithLimits")
		switch {
		case l.MaxLineBytes < 0:
			c.Badf("WithLimits: MaxLineBytes %d: must not be negative", l.MaxLineBytes)
		case l.MaxFields < 0:
			c.Badf("WithLimits: MaxFields %d: must not be negative", l.MaxFields)
		}
		if l.MaxLineBytes == 0 {
			l.MaxLineBytes = DefaultLimits.MaxLineBytes
		}
		if l.MaxFields == 0 {
			l.MaxFields = DefaultLimits.MaxFields
		}
		c.r.limits = l
	}
}

// WithUnionTypeCodes makes a Writer write a union slot as
// {"type_code": c, "value": v} instead of the value alone, so that a
// reader can tell children of the same JSON kind apart (and which child a
// null belongs to). The Reader takes both forms.
func WithUnionTypeCodes() Option {
	return func(c *config) { c.Writer("WithUnionTypeCodes"); c.w.unionCodes = true }
}

// withBlockSize sets a Reader's read size (tests use small ones).
func withBlockSize(n int) Option {
	return func(c *config) { c.Reader("withBlockSize"); c.r.blockSize = max(n, 1) }
}
