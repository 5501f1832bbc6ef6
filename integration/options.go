package integration

import (
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/ipc"
)

// Option configures the readers of JSON ([Read], [ReadFile]) and of
// IPC data ([ReadIPC], [ReadIPCStream]).
type Option func(*readConfig)

type readConfig struct {
	skip array.ValueChecks
}

func newReadConfig(opts []Option) readConfig {
	var c readConfig
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
