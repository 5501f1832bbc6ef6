package cdata

import "github.com/alkaid-go/alkaid/array"

// Option configures an import.
type Option func(*config)

type config struct {
	validation array.ValidationLevel
}

// WithValidation sets how much imported arrays are checked, with the
// levels of package array, as readers of IPC do (default
// [array.ValidateSafe]: no accessor of an imported array can panic).
// [array.ValidateFull] adds UTF-8, view prefixes, null counts, decimal
// precision and map keys. [array.ValidateStructure] (and
// [array.ValidateNone], the same here: an array is never made without
// it) keeps only the structure (counts, lengths, buffer sizes): use it
// only for producers in this process known to be correct (this package's
// own exports, say), as corrupt offsets or indices can then make
// accessors panic.
func WithValidation(level array.ValidationLevel) Option {
	return func(c *config) { c.validation = level }
}

func newConfig(opts []Option) config {
	c := config{validation: array.ValidateSafe}
	for _, o := range opts {
		o(&c)
	}
	return c
}
