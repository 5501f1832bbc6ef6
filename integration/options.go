package integration

import (
	"fmt"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
)

// Option configures the readers of JSON ([Read], [ReadFile]) and of
// IPC data ([ReadIPC], [ReadIPCStream]).
type Option func(*readConfig)

type readConfig struct {
	skip   array.ValueChecks
	limits Limits
	err    error // the first invalid option
}

// Limits bounds what reading JSON may hold in memory.
type Limits struct {
	// MaxJSONBytes is the most bytes of JSON text read, counted after
	// gzip decompression, so that a small compressed input cannot expand
	// into gigabytes (gzip reaches about 1000 to 1).
	MaxJSONBytes int64
}

// DefaultLimits are the limits of a reader given no [WithLimits]: 1 GiB
// of JSON text, far above the largest file of Arrow's test suite.
var DefaultLimits = Limits{MaxJSONBytes: 1 << 30}

// WithLimits replaces [DefaultLimits] for [Read] and [ReadFile];
// MaxJSONBytes must be positive.
func WithLimits(l Limits) Option {
	return func(c *readConfig) {
		if l.MaxJSONBytes <= 0 && c.err == nil {
			c.err = fmt.Errorf("integration: %w: WithLimits: MaxJSONBytes %d must be positive", datatype.ErrInvalid, l.MaxJSONBytes)
		}
		c.limits = l
	}
}

func newReadConfig(opts []Option) readConfig {
	c := readConfig{limits: DefaultLimits}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// ipcOptions are the IPC reader options of the configuration.
func (c readConfig) ipcOptions() []ipc.Option {
	opts := []ipc.Option{ipc.WithValidation(array.ValidateFull)}
	if c.skip != 0 {
		opts = append(opts, ipc.WithoutValueChecks(c.skip))
	}
	return opts
}

// SkipValueChecks leaves the value checks c out of the full validation
// of every column read (see [array.ValueChecks]): Arrow's integration
// runner turns decimal precision, date64 and time checks off for golden
// files that Arrow 0.14.1 to 1.0 wrote, whose generator produced values
// outside those rules. Structure and everything an accessor relies on
// are still checked.
func SkipValueChecks(c array.ValueChecks) Option {
	return func(cfg *readConfig) { cfg.skip |= c }
}
