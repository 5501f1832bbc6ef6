package join

import (
	"fmt"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
)

// Option configures [NewReader].
type Option func(*config) error

// Limits bounds the build (right) side, which is held in memory.
type Limits struct {
	// MaxBuildRows is the most rows the build side may have; 0 means
	// the default, 1<<31 - 1 (row numbers are 32-bit), which is also
	// the largest value allowed.
	MaxBuildRows int64
	// MaxBuildBytes is the most bytes the build side's buffers may
	// take, each buffer counted once however many batches share it (0
	// means no limit). The hash table and the encoded keys come on top:
	// about 17 to 61 bytes per row for one key of at most 8 bytes, the
	// keys' bytes and about 30 to 40 bytes per row for others.
	MaxBuildBytes int64
}

type config struct {
	concurrency int
	limits      Limits
	batchSize   int
	columns     []string
	suffixes    [2]string
	nullsEqual  bool
	filter      *expr.Expr
}

const maxBuildRows = 1<<31 - 1

func defaults() config {
	return config{
		limits:    Limits{MaxBuildRows: maxBuildRows},
		batchSize: 64 << 10,
		suffixes:  [2]string{"", "_right"},
	}
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("join: "+format+": %w", append(args, datatype.ErrInvalid)...)
}

// WithConcurrency sets how many goroutines probe the hash table: 0 (the
// default) means runtime.GOMAXPROCS(0), 1 probes serially; negative is
// an error. The output is the same whatever n is.
func WithConcurrency(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return invalid("WithConcurrency(%d): must not be negative", n)
		}
		c.concurrency = n
		return nil
	}
}

// WithLimits bounds the build side (see [Limits]). A build side over a
// limit makes NewReader return an error wrapping datatype.ErrLimit.
func WithLimits(l Limits) Option {
	return func(c *config) error {
		if l.MaxBuildRows < 0 || l.MaxBuildRows > maxBuildRows || l.MaxBuildBytes < 0 {
			return invalid("WithLimits(%+v): MaxBuildRows must lie in [0, %d] and MaxBuildBytes must not be negative", l, maxBuildRows)
		}
		if l.MaxBuildRows == 0 {
			l.MaxBuildRows = maxBuildRows
		}
		c.limits = l
		return nil
	}
}

// WithBatchSize sets the most rows of an output batch (default 65536).
func WithBatchSize(rows int) Option {
	return func(c *config) error {
		if rows <= 0 {
			return invalid("WithBatchSize(%d): must be positive", rows)
		}
		c.batchSize = rows
		return nil
	}
}

// WithColumns chooses the output columns, in the order given, by their
// output names (after suffixes; semi and anti joins output one side's
// columns under their own names). By default every column of the left
// side then every column of the right side is output (only the left
// side's for left semi and anti joins, only the right side's for right
// semi and anti joins).
func WithColumns(names ...string) Option {
	return func(c *config) error {
		if len(names) == 0 {
			return invalid("WithColumns(): no column named")
		}
		c.columns = names
		return nil
	}
}

// WithSuffixes sets what is appended to the name of a column that
// both sides have: left to the left side's, right to the right side's
// (defaults "" and "_right"). They must differ.
func WithSuffixes(left, right string) Option {
	return func(c *config) error {
		if left == right {
			return invalid("WithSuffixes(%q, %q): the suffixes must differ", left, right)
		}
		c.suffixes = [2]string{left, right}
		return nil
	}
}

// WithNullsEqual makes a null key match a null key (per column for
// several keys), as SQL's IS NOT DISTINCT FROM does. By default a key
// with a null in any column matches nothing.
func WithNullsEqual() Option {
	return func(c *config) error {
		c.nullsEqual = true
		return nil
	}
}

// WithFilter sets a residual filter: a pair of rows with equal keys
// matches only where e is true (null counts as false), as a condition
// added to SQL's ON clause. NewReader binds e to the candidate pairs:
// every left column then every right column, named as in the output
// before WithColumns selects (a name both sides have takes its side's
// suffix), so e may name any column of either side. A field e names
// that is not there, or a type that is not boolean, makes NewReader
// return an error wrapping datatype.ErrInvalid.
func WithFilter(e *expr.Expr) Option {
	return func(c *config) error {
		if e == nil {
			return invalid("WithFilter(nil)")
		}
		c.filter = e
		return nil
	}
}
