package cli

import (
	"io"
	"io/fs"
)

// Option configures [Main].
type Option func(*config)

// OpenFS opens the file system a URL names (the whole argument, say
// "s3://bucket/prefix"). A file system that also implements
// dataset.WriteFS can be written to.
type OpenFS func(url string) (fs.FS, error)

// WithFS makes every argument that starts with scheme + "://" open
// through open: every command reads a file there (integration its JSON
// and IPC files), the reading commands a prefix or glob pattern as a
// dataset, and writes its output file there
// (under a temporary name renamed into place when complete; a failed
// write is aborted when the writer has an Abort method, else removed);
// convert -partition-by (or an output ending with /) writes a dataset
// there. Writing needs a file system that is a dataset.WriteFS.
func WithFS(scheme string, open OpenFS) Option {
	return func(c *config) {
		if c.schemes == nil {
			c.schemes = map[string]OpenFS{}
		}
		c.schemes[scheme] = open
	}
}

// WithStdio replaces the standard input, output and error streams the
// command uses. Progress lines are drawn only on a terminal stderr, so
// never on a stderr given here.
func WithStdio(stdin io.Reader, stdout, stderr io.Writer) Option {
	return func(c *config) {
		c.stdio = true
		c.stdin, c.stdout, c.stderr = stdin, stdout, stderr
	}
}

// config is what the options of one Main call set.
type config struct {
	schemes        map[string]OpenFS
	stdio          bool
	stdin          io.Reader
	stdout, stderr io.Writer
}

// schemes are the URL schemes of the running command (see WithFS).
var schemes map[string]OpenFS

// remotes are the URL arguments the running command opened, each once
// (asking whether an argument is a file or a prefix, then opening it,
// costs no second request); their file systems that are io.Closers are
// closed when Main returns.
var remotes map[string]*remote

// apply installs c for one run and returns the function restoring the
// previous state.
func (c *config) apply() (restore func()) {
	oldSchemes, oldRemotes := schemes, remotes
	remotes = map[string]*remote{}
	oldIn, oldOut, oldErr, oldTerm := cmdStdin, cmdStdout, cmdStderr, cmdStderrIsTerminal
	schemes = c.schemes
	if c.stdio {
		cmdStdin, cmdStdout, cmdStderr, cmdStderrIsTerminal = c.stdin, c.stdout, c.stderr, false
	}
	return func() {
		for _, r := range remotes {
			if c, ok := r.fsys.(io.Closer); ok && !r.shared {
				c.Close()
			}
		}
		schemes, remotes = oldSchemes, oldRemotes
		cmdStdin, cmdStdout, cmdStderr, cmdStderrIsTerminal = oldIn, oldOut, oldErr, oldTerm
	}
}
