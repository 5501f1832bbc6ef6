package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/parquet"
)

var validateCmd = command{
	name:  "validate",
	args:  "PATH",
	short: "Check a stream, file (either magic) or Parquet file completely: structure, offsets, UTF-8, value ranges.",
	long: `
Exit 0 when valid, 1 with one line naming the fault (message or record
batch index, byte offset, column path, row) when not, whatever the bytes.
A file is checked through its footer, every record batch and dictionary.
A file whose footer is missing or unreadable (its writer died) is read as
the stream it holds; validate then reports what could be salvaged (record
batches and rows up to the last complete batch) and exits 1. A file whose
stream part starts at its first batch (Arrow JS writes them) is valid; one
whose leading schema message is malformed but whose footer is good is
read through the footer with a warning on stderr naming the writer's
defect, and is invalid only with -strict; one whose leading schema
message says otherwise than its footer is invalid (the footer being fine,
nothing is read as a stream). Every command reads a file whose footer is
unusable as the stream it holds and says so once. A union's field-node null count
carries no meaning: any count up to the length is accepted (and writers
write 0). "-" reads stdin: a stream, or a file (starting with a file
magic or PAR1), which is copied to a temporary file in $TMPDIR, up to
64 GiB, to reach its footer (a pipe cannot be read backwards). A stream
must end with its end-of-stream marker: the format lets readers accept
one that just stops between two messages, but that is also what a stream
cut short looks like, so validate exits 1 naming the byte where it stops.
A Parquet file (PAR1 magic) is valid when its footer reads
and every row group decodes into columns that pass the same full checks
(exit 1 naming the row group and column otherwise).`,
}

func runValidate(args []string) int {
	c := validateCmd
	fs := c.newFlags()
	quiet := fs.Bool("q", false, "print nothing when valid")
	strict := fs.Bool("strict", false, "a file's malformed leading schema message makes it invalid, not a warning")
	if done, code := c.parse(fs, args, 1); done {
		return code
	}
	return c.fail(validate(fs.Arg(0), *quiet, *strict))
}

// tally counts what a stream held.
type tally struct {
	messages, dictBatches, batches int
	rows                           int64
	lastGood                       int64 // byte offset after the last complete record batch
}

func validate(path string, quiet, strict bool) error {
	if isDatasetPath(path) {
		return validateDataset(path, quiet, strict)
	}
	opts := []ipc.Option{ipc.WithValidation(array.ValidateFull)}
	if path == "-" {
		sin, err := readStdin()
		if err != nil {
			return err
		}
		defer sin.Close()
		if sin.file != nil {
			if isParquetHead(sin.head) {
				pf, err := parquet.NewFile(sin.file, sin.size, pqRead.options()...)
				if err != nil {
					return fmt.Errorf("stdin: invalid: %w", err)
				}
				return validateParquet("stdin", pf, sin.size, quiet)
			}
			return validateFile("stdin", sin.file, sin.size, ipc.DetectMagic(sin.head), opts, quiet, strict)
		}
		t, err := validateStream(sin.stream, 0, opts)
		if err != nil {
			return fmt.Errorf("stdin: invalid: %w", err)
		}
		if !quiet {
			fmt.Fprintf(cmdStdout, "stdin: valid stream: %d record batches, %d rows, %d dictionary batches\n", t.batches, t.rows, t.dictBatches)
		}
		return nil
	}
	f, size, closer, err := openPathFile(path)
	if err != nil {
		return err
	}
	defer closer.Close()
	head := make([]byte, 8)
	n, _ := io.ReadFull(f, head)
	if isParquetHead(head[:n]) {
		pf, err := parquet.NewFile(f, size, pqRead.options()...)
		if err != nil {
			return fmt.Errorf("%s: invalid: %w", path, err)
		}
		return validateParquet(path, pf, size, quiet)
	}
	if err := headlessParquet(path, f, size, head[:n]); err != nil {
		return err
	}
	magic := ipc.DetectMagic(head[:n])
	if magic == "" {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		t, err := validateStream(bufio.NewReaderSize(f, 1<<20), 0, opts)
		if err != nil {
			return fmt.Errorf("%s: invalid: %w", path, err)
		}
		if !quiet {
			fmt.Fprintf(cmdStdout, "%s: valid stream: %d record batches, %d rows, %d dictionary batches, %d bytes\n", path, t.batches, t.rows, t.dictBatches, size)
		}
		return nil
	}
	return validateFile(path, f, size, magic, opts, quiet, strict)
}

// fileInput is what validateFile reads: a file by path or a file on stdin
// copied to disk.
type fileInput interface {
	io.ReaderAt
	io.ReadSeeker
}

// validateFile checks f (size bytes, starting with magic) through its
// footer, or salvages the stream it holds when the footer is unusable.
func validateFile(path string, f fileInput, size int64, magic string, opts []ipc.Option, quiet, strict bool) error {
	fileOpts := opts
	if strict {
		fileOpts = append(fileOpts[:len(fileOpts):len(fileOpts)], ipc.WithStrictSchemaMessage())
	}
	fr, footerErr, err := openThroughFooter(f, size, fileOpts)
	if err != nil {
		how := "invalid"
		if strict {
			how = "invalid (-strict)"
		}
		return fmt.Errorf("%s: %s: %w", path, how, err)
	}
	if footerErr == nil {
		var rows int64
		for i := range fr.NumRecords() {
			rec, err := fr.Record(i)
			if err != nil {
				return fmt.Errorf("%s: invalid: record batch %d (footer block %d): %w", path, i, i, err)
			}
			rows += int64(rec.NumRows())
		}
		// Printed once the file is found valid: a failure is one line.
		for _, w := range fr.Warnings() {
			fmt.Fprintf(cmdStderr, "alkaid validate: warning: %s: %v\n", path, w)
		}
		if !quiet {
			fmt.Fprintf(cmdStdout, "%s: valid file (%s): %d record batches, %d rows, %d bytes\n", path, magic, fr.NumRecords(), rows, size)
		}
		return nil
	}
	// Salvage (see damaged.go): the bytes after the 8-byte magic are a
	// stream.
	if _, err := f.Seek(8, io.SeekStart); err != nil {
		return err
	}
	t, streamErr := validateStream(bufio.NewReaderSize(f, 1<<20), 8, opts)
	fmt.Fprintf(cmdStdout, "%s: file (%s) without a usable footer; read as a stream: salvaged %d record batch(es), %d rows, %d dictionary batch(es) (bytes 0..%d of %d)\n",
		path, magic, t.batches, t.rows, t.dictBatches, t.lastGood, size)
	if streamErr != nil {
		return fmt.Errorf("%s: invalid: footer unreadable (%w); stream stopped: %w", path, footerErr, streamErr)
	}
	return fmt.Errorf("%s: invalid: footer unreadable: %w", path, footerErr)
}

// validateStream decodes every message of r with full validation. base is
// the byte offset of r's start in its file, for messages.
func validateStream(r io.Reader, base int64, opts []ipc.Option) (tally, error) {
	cr := &countingReader{r: r}
	dec, err := ipc.NewDecoder(opts...)
	if err != nil {
		return tally{}, err
	}
	var t tally
	t.lastGood = base
	for idx := 0; ; idx++ {
		at := base + cr.n
		m, marker, err := ipc.ReadMessageOrEnd(cr, opts...)
		if errors.Is(err, io.EOF) {
			if idx == 0 {
				return t, fmt.Errorf("ipc: %w: empty input, no schema message", ipc.ErrInvalid)
			}
			if !marker {
				return t, fmt.Errorf("ipc: %w: the stream ends at byte %d without its end-of-stream marker (cut short after %d record batches?)", ipc.ErrInvalid, at, t.batches)
			}
			return t, nil
		}
		if err != nil {
			return t, fmt.Errorf("message %d at byte %d: %w", idx, at, err)
		}
		what := m.Type().String()
		if m.Type() == ipc.MessageRecordBatch {
			what = fmt.Sprintf("record batch %d", t.batches)
		}
		ev, err := dec.DecodeMessage(m)
		if err != nil {
			return t, fmt.Errorf("message %d (%s) at byte %d: %w", idx, what, at, err)
		}
		t.messages++
		switch ev.Kind {
		case ipc.EventDictionary:
			t.dictBatches++
		case ipc.EventRecord:
			t.batches++
			t.rows += int64(ev.Record.NumRows())
			t.lastGood = base + cr.n
		case ipc.EventEnd:
			return t, nil
		}
	}
}
