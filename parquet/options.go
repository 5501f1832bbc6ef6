package parquet

// Options of readers (NewFile, NewFileBytes, OpenFile, File.Select) and
// of the Writer: one type, each option marked with whom it is for.

import (
	"fmt"
	"runtime"
	"slices"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
)

// Option configures a [File] when it is opened ([NewFile], [NewFileBytes],
// [OpenFile]) or selected from ([File.Select]), or a [Writer]
// ([NewWriter]). Each option says in its documentation whether it is for
// reading, writing or both; an option given to the other side, or of an
// invalid value, makes the constructor fail with an error wrapping
// [ErrInvalid] that names the option. Options apply in order: of two
// that set the same thing, the later wins (WithPredicates and the
// per-column options add to what earlier ones gave).
type Option func(*options)

// role is whom an option is for.
type role uint8

const (
	forRead  role = 1 << iota // a reader's option
	forWrite                  // a Writer's option
	atOpen                    // with forRead: taken when the file is opened, not by Select
)

// setting is an option given: its name and role.
type setting struct {
	name string
	role role
}

// options is what the options given set, for a reader and a writer.
type options struct {
	read  readConfig
	write writerConfig
	set   []setting
	err   error // the first invalid value
}

// use records that the option name of role r was given.
func (o *options) use(name string, r role) { o.set = append(o.set, setting{name, r}) }

// invalid records that option call (e.g. "WithBatchSize(-1)") has an
// invalid value.
func (o *options) invalid(call, format string, args ...any) {
	if o.err == nil {
		o.err = invalidf("%s: "+format, append([]any{call}, args...)...)
	}
}

// apply runs opts on a copy of base's configuration for a user of role
// r (forRead, forRead without atOpen for Select, forWrite) and checks
// what they set.
func apply(base options, opts []Option, r role) (options, error) {
	o := options{read: base.read, write: base.write}
	for _, opt := range opts {
		if opt == nil {
			return o, invalidf("a nil Option")
		}
		opt(&o)
	}
	if o.err != nil {
		return o, o.err
	}
	for _, s := range o.set {
		switch {
		case r == forWrite && s.role&forWrite == 0:
			return o, invalidf("%s is an option of a reader, not of a Writer", s.name)
		case r&forRead != 0 && s.role&forRead == 0:
			return o, invalidf("%s is an option of a Writer, not of a reader", s.name)
		case r == forRead && s.role&atOpen != 0:
			return o, invalidf("%s is taken when the file is opened, not by Select", s.name)
		}
	}
	return o, nil
}

// workers is the number of goroutines concurrency n stands for.
func workers(n int) int {
	if n == 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// WithConcurrency sets the goroutines a reader decodes columns on, or a
// Writer shreds fields and encodes and compresses column chunks on: 0
// (the default) for runtime.GOMAXPROCS(0), 1 for none beside the
// caller's. A negative n is an error. The records read, and the file
// written, are the same whatever n. For reading and writing.
func WithConcurrency(n int) Option {
	return func(o *options) {
		o.use("WithConcurrency", forRead|forWrite)
		if n < 0 {
			o.invalid(fmt.Sprintf("WithConcurrency(%d)", n), "the number of goroutines must be 0 (GOMAXPROCS) or more")
		}
		o.read.concurrency, o.write.concurrency = n, n
	}
}

// WithPageCRC sets whether pages carry a CRC-32: a Writer writes one in
// every page header when on (default off); a reader checks the pages that
// carry one when on (default on). For reading (when the file is opened)
// and writing.
func WithPageCRC(on bool) Option {
	return func(o *options) {
		o.use("WithPageCRC", forRead|atOpen|forWrite)
		o.read.checkCRC, o.write.crc = on, on
	}
}

// Limits bound what reading a file may allocate, so that a small
// malformed file cannot ask for a large allocation. A size or count left
// zero takes its value in [DefaultLimits].
type Limits struct {
	// MaxPageSize is the largest uncompressed page, in bytes, and the
	// largest total of byte-array values one page may decode to.
	// Default 256 MiB.
	MaxPageSize int64
	// MaxPageValues is the largest number of entries in one page.
	// Default 1<<24.
	MaxPageValues int64
	// MaxChunkValues is the largest number of entries in one column chunk
	// (one column of one row group). Default 1<<28.
	MaxChunkValues int64
	// MaxFooterSize is the largest file metadata, in bytes. Default 64 MiB.
	MaxFooterSize int64
	// MaxCompressionRatio bounds what one read of the file (one
	// [File.Records] sequence) decompresses and decodes, all columns and
	// batches together: this many times the file's size plus 64 MiB, so
	// that a small file cannot claim gigabytes (a few hundred bytes of
	// dictionary indices or levels may declare millions of values, and
	// column chunks may share pages). Default 1000; files of long runs of
	// constant values or nulls may need it raised.
	MaxCompressionRatio int
}

// DefaultLimits are the limits used unless WithLimits says otherwise.
var DefaultLimits = Limits{MaxPageSize: 256 << 20, MaxPageValues: 1 << 24, MaxChunkValues: 1 << 28,
	MaxFooterSize: 64 << 20, MaxCompressionRatio: 1000}

// WithLimits replaces DefaultLimits; a field left zero takes its default,
// a negative one is an error. For reading, when the file is opened.
func WithLimits(l Limits) Option {
	return func(o *options) {
		o.use("WithLimits", forRead|atOpen)
		d := DefaultLimits
		for _, p := range []struct {
			name   string
			v, def *int64
		}{
			{"MaxPageSize", &l.MaxPageSize, &d.MaxPageSize}, {"MaxPageValues", &l.MaxPageValues, &d.MaxPageValues},
			{"MaxChunkValues", &l.MaxChunkValues, &d.MaxChunkValues}, {"MaxFooterSize", &l.MaxFooterSize, &d.MaxFooterSize},
		} {
			if *p.v < 0 {
				o.invalid("WithLimits", "%s %d is negative", p.name, *p.v)
			}
			if *p.v == 0 {
				*p.v = *p.def
			}
		}
		if l.MaxCompressionRatio < 0 {
			o.invalid("WithLimits", "MaxCompressionRatio %d is negative", l.MaxCompressionRatio)
		}
		if l.MaxCompressionRatio == 0 {
			l.MaxCompressionRatio = d.MaxCompressionRatio
		}
		o.read.limits = l
	}
}

// WithStoredSchemaWarnings makes an ARROW:schema key that does not decode,
// or that does not describe the file's columns, a warning read from
// [File.Warnings] (the file is then read with the types of its Parquet
// schema) instead of an error wrapping [ErrInvalid] from [NewFile]. For
// reading, when the file is opened.
func WithStoredSchemaWarnings() Option {
	return func(o *options) {
		o.use("WithStoredSchemaWarnings", forRead|atOpen)
		o.read.schemaWarn = true
	}
}

// WithDecryption reads an encrypted file with these keys. For reading,
// when the file is opened.
func WithDecryption(d FileDecryption) Option {
	return func(o *options) {
		o.use("WithDecryption", forRead|atOpen)
		o.read.decrypt = &d
	}
}

// WithColumns reads the top-level fields of these names, or nested
// columns by dotted path (the top-level field of the path is kept
// whole), in schema order; [File.Schema] is then the schema of those
// fields. A name that is no column makes the reader fail. For reading.
func WithColumns(names ...string) Option {
	return func(o *options) {
		o.use("WithColumns", forRead)
		o.read.columns = append([]string{}, names...)
	}
}

// WithRowGroups reads only these row groups, in this order; an index
// outside [0, NumRowGroups()) makes the reader fail. For reading.
func WithRowGroups(idx ...int) Option {
	return func(o *options) {
		o.use("WithRowGroups", forRead)
		o.read.rowGroups = append([]int{}, idx...)
	}
}

// DefaultBatchSize is the most rows of a record unless WithBatchSize
// says otherwise.
const DefaultBatchSize = 1 << 16

// WithBatchSize cuts records of at most rows rows (default
// DefaultBatchSize; rows must be positive); a record never spans row
// groups. Pages are decoded as the batches need them, so memory follows
// the batch size, not the row group's (but for the rows of a row group
// that WithPredicates selects by the page index, decoded together, then
// cut). A record has fewer rows where a column's byte arrays would pass
// the 2 GiB that the int32 offsets of utf8 and binary reach; the row
// group's next record starts there. For reading.
func WithBatchSize(rows int) Option {
	return func(o *options) {
		o.use("WithBatchSize", forRead)
		if rows <= 0 {
			o.invalid(fmt.Sprintf("WithBatchSize(%d)", rows), "the batch size must be positive")
		}
		o.read.batch = rows
	}
}

// WithDictionaryArrays reads top-level string and binary columns as
// dictionary<int32, string or binary> arrays: from the column's own
// dictionary and indices when every page of a row group's chunk is
// dictionary-encoded, otherwise by encoding the values. [File.Schema]
// then has those dictionary types. For reading.
func WithDictionaryArrays() Option {
	return func(o *options) {
		o.use("WithDictionaryArrays", forRead)
		o.read.asDict = true
	}
}

// WithRowFilter keeps only the rows for which keep returns true (a null
// or false drops the row). For each batch, the top-level fields columns
// names are decoded first and passed to keep as a record of the batch's
// rows, in that order; the fields the read selects (see WithColumns) are
// then filtered by its result. Those that are a flat column whose pages
// are all dictionary-encoded keep their dictionary indices until
// filtered, so that only the kept rows' values are made. A filter field
// the read does not select is read for keep alone: its memory is reused
// once the row group is read, so keep must not hold on to it after it
// returns. Records hold the kept rows only, and a batch keeping none is
// not yielded. keep must not modify the record; an error it returns ends
// the read. A name of no top-level field makes the reader fail. For
// reading.
func WithRowFilter(columns []string, keep func(*alkaid.Record) (*array.Boolean, error)) Option {
	return func(o *options) {
		o.use("WithRowFilter", forRead)
		if keep == nil {
			o.invalid("WithRowFilter", "no keep function")
		}
		o.read.filter = &rowFilter{columns: slices.Clone(columns), keep: keep}
	}
}

// ReadStats counts what a read skipped (see WithReadStats).
type ReadStats struct {
	// PagesPruned counts the data pages of the columns read that the
	// page index let the reader skip (WithPredicates), in the row groups
	// read in part. A row group ruled out whole is not read, and its
	// pages not counted here.
	PagesPruned int64
}

// WithReadStats has every Records sequence of the File add its counts to
// st as it reads; they are complete once the loop over the records has
// ended. For reading.
func WithReadStats(st *ReadStats) Option {
	return func(o *options) {
		o.use("WithReadStats", forRead)
		if st == nil {
			o.invalid("WithReadStats(nil)", "no ReadStats to count into")
		}
		o.read.stats = st
	}
}

// WithPredicates skips the row groups that the statistics and bloom
// filters, and the pages that the page index, prove hold no row
// satisfying every predicate (given here and by earlier WithPredicates).
// The row groups and pages to read are chosen when the reader is made; a
// predicate on a column that does not exist makes it fail. For reading.
func WithPredicates(ps ...Predicate) Option {
	return func(o *options) {
		o.use("WithPredicates", forRead)
		o.read.preds = append(slices.Clip(o.read.preds), ps...)
	}
}
