package cdata

// Option configures an import.
type Option func(*config)

type config struct {
	full    bool
	trusted bool
}

// WithFullValidation adds to the default checks of imported arrays those
// of [array.ValidateFull]: UTF-8, view prefixes, null counts, decimal
// precision, map keys.
func WithFullValidation() Option { return func(c *config) { c.full, c.trusted = true, false } }

// WithTrustedProducerNoValidation skips the O(n) checks of imported
// arrays: only the structure (counts, lengths, buffer sizes) is checked.
// Use it only for producers in this process that are known to be correct
// (this package's own exports, say): corrupt offsets or indices can then
// make accessors panic.
func WithTrustedProducerNoValidation() Option {
	return func(c *config) { c.trusted, c.full = true, false }
}

func newConfig(opts []Option) config {
	var c config
	for _, o := range opts {
		o(&c)
	}
	return c
}
