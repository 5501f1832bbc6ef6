package cdata

import "github.com/alkaid-go/alkaid/array"

// Option configures an import.
type Option func(*config)

type config struct {
	validation array.ValidationLevel
	maxNodes   int
}

// DefaultMaxNodes is how many schema or array nodes one import visits at
// most, unless [WithMaxNodes] says otherwise.
const DefaultMaxNodes = 1 << 18

// WithMaxNodes bounds the nodes (fields, children, dictionaries) one
// import visits, counted once per reference: a producer may point several
// children at one struct, and each reference is a node to read, so a
// small graph of shared nodes could otherwise cost time and memory
// exponential in its size. A schema import and an array import count
// apart. Beyond it the import fails with an error wrapping [ErrLimit].
// n <= 0 means [DefaultMaxNodes].
func WithMaxNodes(n int) Option {
	return func(c *config) { c.maxNodes = n }
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
	if c.maxNodes <= 0 {
		c.maxNodes = DefaultMaxNodes
	}
	return c
}

// budget counts what one import has visited against its limits.
type budget struct {
	nodes, maxNodes int
	// metadata is the bytes of serialized metadata decoded so far, which
	// maxMetadataSize bounds for the whole import, not each node: nodes
	// shared by reference could repeat one large metadata blob.
	metadata int
}

// visit counts one node, or fails when the limit is passed, naming the
// node with at.
func (b *budget) visit(at func() string) error {
	b.nodes++
	if b.nodes > b.maxNodes {
		return limitf("%s: more than %d nodes (counted once per reference; see WithMaxNodes)", at(), b.maxNodes)
	}
	return nil
}
