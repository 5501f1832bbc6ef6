package ipc

import "github.com/alkaid-go/alkaid/array"

// WithoutValueChecks leaves the value checks c out of [array.ValidateFull] (it
// has no effect at the other levels, which do not make them). Arrow's
// integration runner asks this of its tools for golden files that Arrow
// 0.14.1 to 1.0 wrote with decimals beyond their declared precision,
// date64 values that are not whole days and out-of-day times; the
// structure and every check an accessor relies on are still made.
func WithoutValueChecks(c array.ValueChecks) Option {
	return func(s *settings) {
		s.readerOption("WithoutValueChecks")
		s.r.skipChecks |= c
	}
}
