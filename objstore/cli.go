package objstore

import (
	"io/fs"

	"github.com/alkaid-go/alkaid/cmd/alkaid/cli"
)

// CLIOption registers the s3 scheme with the alkaid command
// (cli.Main): every s3://bucket/prefix argument opens with [Open] and
// opts. Command objstore/cmd/alkaid is cli.Main with this option.
func CLIOption(opts ...Option) cli.Option {
	return cli.WithFS("s3", func(url string) (fs.FS, error) { return Open(url, opts...) })
}
