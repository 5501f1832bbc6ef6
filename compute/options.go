package compute

import (
	"fmt"
	"runtime"
)

// Option configures one call of a compute function. The functions that
// may split their work across goroutines — [Cast], the sorts
// ([SortIndices], [Sort] in every form), the hash functions ([Unique],
// [ValueCounts], [CountDistinct], [DictionaryEncode], [IsIn], [IndexIn])
// and [GroupBy] — take options as their last, variadic parameter, and so
// does [TopKIndices] with the sorts (its heap runs on the calling
// goroutine); the others run on the calling goroutine and take none. An invalid option value, or an option the function has no use for
// (a Cast option given to a sort), is an error wrapping [ErrInvalid] that
// names the option.
type Option func(*config)

// config is the resolved options of one call.
type config struct {
	// workers is the most goroutines the call may run at once (1 or less:
	// only the caller's).
	workers int
	// The Cast options.
	overflow, truncate, trimSpace bool
	// castOnly names the Cast options given, for functions other than
	// Cast to refuse.
	castOnly []string
	// bad is the first invalid option and why.
	bad, why string
}

// WithConcurrency sets the most goroutines a call may run at once: 0
// (the default) is runtime.GOMAXPROCS(0), 1 runs everything on the
// calling goroutine, a negative n is an error. Only inputs of at least
// 2^18 rows are split; the kernels split in two at most, so n above 2
// runs as 2. The result does not depend on n, except for the last bits
// of float sums in [GroupBy] (each half is added on its own).
func WithConcurrency(n int) Option {
	return func(c *config) {
		switch {
		case n < 0:
			c.fail(fmt.Sprintf("WithConcurrency(%d)", n), "concurrency must not be negative")
		case n == 0:
			c.workers = runtime.GOMAXPROCS(0)
		default:
			c.workers = n
		}
	}
}

// AllowOverflow lets [Cast] make an integer that does not fit its target
// wrap (as a Go conversion does), a float outside an integer's range
// convert as Go converts it, and a decimal or temporal value that does
// not fit keep only its low bits, instead of failing with ErrOverflow.
func AllowOverflow() Option {
	return func(c *config) { c.overflow = true; c.castOnly = append(c.castOnly, "AllowOverflow") }
}

// AllowTruncation lets [Cast] make a float with a fraction an integer
// (toward zero), a decimal lose digits of its scale, and a finer time unit
// a coarser one, instead of failing with ErrTruncation.
func AllowTruncation() Option {
	return func(c *config) { c.truncate = true; c.castOnly = append(c.castOnly, "AllowTruncation") }
}

// TrimSpace lets a string given to [Cast] for a number, boolean, decimal
// or temporal type have spaces and tabs around its value; by default " 12"
// is not a number (as for the csv and ndjson readers).
func TrimSpace() Option {
	return func(c *config) { c.trimSpace = true; c.castOnly = append(c.castOnly, "TrimSpace") }
}

func (c *config) fail(option, why string) {
	if c.bad == "" {
		c.bad, c.why = option, why
	}
}

// configure resolves the options of a call of fn (its name, for errors).
func configure(fn string, opts []Option) (config, error) {
	c := config{workers: runtime.GOMAXPROCS(0)}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.bad != "" {
		return c, errf(ErrInvalid, "%s: %s: %s", fn, c.bad, c.why)
	}
	if fn != "Cast" && len(c.castOnly) > 0 {
		return c, errf(ErrInvalid, "%s: %s() applies to Cast only", fn, c.castOnly[0])
	}
	return c, nil
}

// parallel reports whether work over n rows is split in two.
func (c *config) parallel(n int) bool { return c.workers > 1 && n >= parallelMin }

// parallelMin is the number of rows from which a kernel that can split
// its work runs on two goroutines.
const parallelMin = 1 << 18
