package cli

// How every command reads an IPC file it cannot read through its footer,
// decided here once:
//
//   - The footer is unusable (missing, cut short, damaged): the file is
//     read as the stream it holds, up to its last complete record batch.
//     A command that reads to the end exits 1 saying so
//     (input.footerProblem; validate also prints what it salvaged); one
//     that stops before (cat -n) says so on stderr when it closes the
//     input (salvageNote). Either way the command says it once.
//   - The footer reads but the file is invalid otherwise (its leading
//     schema message disagrees with the footer's copy under full
//     validation, or is malformed under -strict): an error, nothing read
//     as a stream, since the footer is fine and reading past it would
//     read something else than what the footer says.
//
// Messages name the fault once and briefly: the reader's error is not
// wrapped in another "footer:", and no schema is printed whole.

import (
	"fmt"
	"io"

	"github.com/alkaid-go/alkaid/ipc"
)

// openThroughFooter opens the IPC file f (size bytes) with opts. When it
// cannot, footerErr says why the footer is unusable (read the file as a
// stream), or err why the file is invalid although its footer reads (do
// not).
func openThroughFooter(f io.ReaderAt, size int64, opts []ipc.Option) (fr *ipc.FileReader, footerErr, err error) {
	fr, err = ipc.NewFileReader(f, size, opts...)
	if err == nil {
		return fr, nil, nil
	}
	if len(opts) > 0 {
		// Opened with the reader's defaults (no full validation, no
		// strict leading message), a file whose footer reads opens.
		if _, plainErr := ipc.NewFileReader(f, size); plainErr == nil {
			return nil, nil, err
		}
	}
	return nil, err, nil
}

// salvageNote says on stderr, as a warning of the running command, that
// the file name, whose footer is unusable, was read as a stream.
func salvageNote(name string, footerErr error) {
	fmt.Fprintf(cmdStderr, "alkaid %s: warning: %s: footer unreadable (%v); read the record batches before it as a stream\n", runningCmd, name, footerErr)
}

// runningCmd is the subcommand being run, for warnings printed below it.
var runningCmd = "alkaid"
