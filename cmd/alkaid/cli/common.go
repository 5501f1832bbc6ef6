package cli

// Shared plumbing of the data subcommands: exit codes, flag sets with -h,
// opening inputs (one alkaid.RecordReader over an IPC file of either
// magic or stream, a Parquet file or a dataset, a file without footer
// salvaged as a stream), creating outputs (one alkaid.RecordWriter of
// package files: IPC file or stream, either magic, compression, or
// Parquet), a progress line on a terminal, and the standard streams
// (variables so that tests can run the subcommands in-process).

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/dataset"
	"github.com/alkaid-go/alkaid/expr"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/internal/quote"
	"github.com/alkaid-go/alkaid/ipc"
)

// Exit codes of every subcommand.
const (
	exitOK      = 0 // success
	exitInvalid = 1 // invalid data, or any failure reading or writing it
	exitUsage   = 2 // bad flags or arguments
)

// The standard streams the subcommands use.
var (
	cmdStdin  io.Reader = os.Stdin
	cmdStdout io.Writer = os.Stdout
	cmdStderr io.Writer = os.Stderr
	// cmdStderrIsTerminal says whether progress lines may be drawn.
	cmdStderrIsTerminal = isTerminal(os.Stderr)
)

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// usageError is a bad command line; it exits with exitUsage. detail, if
// any, is printed after the message (lines showing where, say).
type usageError struct{ msg, detail string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// command describes a subcommand for its flag set and help text.
type command struct {
	name  string // e.g. "cat"
	args  string // the positional arguments, e.g. "PATH"
	short string // one line
	long  string // more text after the flags, may be empty
}

// newFlags returns a flag set printing the command's help on -h.
func (c command) newFlags() *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(cmdStderr)
	if parquetReaders[c.name] {
		pqRead.register(fs)
	}
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: alkaid %s [flags] %s\n\n%s\n", c.name, c.args, c.short)
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(w, "\nflags:")
			fs.PrintDefaults()
		}
		if c.long != "" {
			fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.long))
		}
	}
	return fs
}

// parse parses args; -h prints help and yields (done, exitOK); a bad flag
// yields (done, exitUsage) after the flag package's message. With want >= 0,
// exactly want positional arguments must follow the flags.
func (c command) parse(fs *flag.FlagSet, args []string, want int) (done bool, code int) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return true, exitOK
		}
		return true, exitUsage
	}
	if want >= 0 && fs.NArg() != want {
		fmt.Fprintf(cmdStderr, "alkaid %s: want %d argument(s) (%s), got %d; see alkaid %s -h\n", c.name, want, c.args, fs.NArg(), c.name)
		return true, exitUsage
	}
	return false, exitOK
}

// fail prints err as one line on stderr and returns its exit code.
func (c command) fail(err error) int {
	if err == nil {
		return exitOK
	}
	msg := cutMiddle(strings.ReplaceAll(err.Error(), "\n", " "), maxMessage)
	fmt.Fprintf(cmdStderr, "alkaid %s: %s\n", c.name, msg)
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprint(cmdStderr, ue.detail)
		return exitUsage
	}
	return exitInvalid
}

// maxMessage bounds an error line: whatever a message echoes (a path
// given on the command line, a reader's error quoting input), the line
// keeps its start and its end, where the cause is.
const maxMessage = 1024

// cutMiddle shortens s to about max bytes by replacing its middle with
// "…", at character boundaries.
func cutMiddle(s string, max int) string {
	if len(s) <= max {
		return s
	}
	head, tail := max/2, len(s)-max/2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + fmt.Sprintf("…(%d bytes cut)…", tail-head) + s[tail:]
}

// ---- inputs ----

// input is an opened input: its records (an alkaid.RecordReader over an
// IPC file read through its footer, an IPC stream, a Parquet file or a
// dataset), with what the commands need beyond them: an IPC file's random
// access and footer, each batch's message metadata, and the naming of
// read errors by batch. A file whose footer is unreadable is read as the
// stream it holds (salvaged, see damaged.go).
type input struct {
	alkaid.RecordReader
	path string
	// file is an IPC file read through its footer.
	file *ipc.FileReader
	// stream is set for a stream that is not a salvaged file: a new
	// output takes its form (see convert).
	stream bool
	// meta is the message metadata of the batch yielded last, or nil.
	meta func() map[string]string
	// named says which batch a read error came from.
	named func(i int, err error) error
	// footerErr is why a file (it has a magic) is read as a stream;
	// footerSaid is set once the command said so (see damaged.go).
	footerErr  error
	footerSaid bool
	closer     io.Closer
	// filterScan, set for a dataset (or a Parquet file, read as one),
	// makes its scan filter its rows by e, pruning its files, row groups
	// and pages (see -where); projectScan makes it read only the columns
	// cols, and changes the input's schema to theirs (see -select). An
	// IPC file or stream read from a file (not from a pipe) has
	// projectScan too: it is read again with ipc.WithColumns.
	filterScan  func(e *expr.Expr)
	projectScan func(cols []string) error
	// scan is the dataset scan that ran, for its statistics.
	scan *dataset.Scan
}

// isFile reports whether records come through the footer.
func (in *input) isFile() bool { return in.file != nil }

// salvaged reports whether a file was read as a stream because its footer
// could not be read.
func (in *input) salvaged() bool { return in.footerErr != nil }

// batchMeta is the message metadata of the batch Records yielded last.
func (in *input) batchMeta() map[string]string {
	if in.meta == nil {
		return nil
	}
	return in.meta()
}

// Records yields every record batch in order, one at a time, so that
// memory stays bounded by a batch; an error names the batch it came
// from. A file without footer yields its complete batches and then an
// error saying so.
func (in *input) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		i := 0
		for rec, err := range in.RecordReader.Records() {
			if err != nil {
				yield(nil, in.named(i, err))
				return
			}
			if !yield(rec, nil) {
				return
			}
			i++
		}
		if err := in.footerProblem(); err != nil {
			yield(nil, err)
		}
	}
}

// Close closes the input; a salvaged file whose footer problem no error
// reported (the command stopped before the end) is noted on stderr.
func (in *input) Close() error {
	if in.footerErr != nil && !in.footerSaid {
		in.footerSaid = true
		salvageNote(in.path, in.footerErr)
	}
	in.RecordReader.Close()
	if in.closer != nil {
		return in.closer.Close()
	}
	return nil
}

// footerProblem is the error of a salvaged file after its readable part
// (see damaged.go).
func (in *input) footerProblem() error {
	if in.footerErr == nil {
		return nil
	}
	in.footerSaid = true
	return fmt.Errorf("footer unreadable (%w); read the record batches before it as a stream", in.footerErr)
}

// batchNamed names a read error by its record batch.
func batchNamed(i int, err error) error { return fmt.Errorf("record batch %d: %w", i, err) }

// openInput opens path ("-" is stdin) as a dataset when it is a directory
// or a glob pattern (see isDatasetPath), else as the file files.Detect
// finds: an IPC file (read as a stream when its footer does not read),
// Parquet, and anything else as an IPC stream; a file on stdin is copied
// to disk first (see readStdin). Files are read with ReadAt, not mapped,
// so that reading a big file batch after batch keeps memory bounded.
func openInput(path string, opts ...ipc.Option) (*input, error) {
	if path == "-" {
		sin, err := readStdin()
		if err != nil {
			return nil, err
		}
		if sin.file != nil {
			return openFile("stdin", sin.file, sin.size, sin.file, opts)
		}
		in, err := openStream(path, sin.stream, opts)
		if err != nil {
			return nil, fmt.Errorf("stdin: %w", err)
		}
		return in, nil
	}
	if isDatasetPath(path) {
		return openDatasetInput(path)
	}
	if schemeOf(path) != "" {
		f, size, closer, err := openRemoteFile(path)
		if err != nil {
			return nil, err
		}
		return openFile(path, f, size, closer, opts)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s: is a directory", path)
	}
	return openFile(path, f, st.Size(), f, opts)
}

// openStream reads the IPC stream r, each batch with its metadata.
func openStream(path string, r io.Reader, opts []ipc.Option) (*input, error) {
	sr, err := ipc.NewStreamReader(r, opts...)
	if err != nil {
		return nil, err
	}
	return &input{RecordReader: alkaid.NewRecordReader(sr.Schema(), sr.Records(), nil), path: path,
		stream: true, meta: sr.Metadata, named: batchNamed}, nil
}

// openFile opens f (size bytes; closer closes it, or nil) in the format
// files.Detect finds, a file that is none of them as a stream.
func openFile(path string, f fileInput, size int64, closer io.Closer, opts []ipc.Option) (*input, error) {
	fail := func(err error) (*input, error) {
		if closer != nil {
			closer.Close()
		}
		return nil, err
	}
	head := make([]byte, 8)
	n, _ := f.ReadAt(head, 0)
	if err := headlessParquet(path, f, size, head[:n]); err != nil {
		return fail(err)
	}
	format, err := files.Detect(f, size, path)
	if err != nil || format != files.FormatParquet && format != files.FormatIPCFile {
		format = files.FormatIPCStream // the stream reader names what is wrong
	}
	var in *input
	var footerErr error
	switch format {
	case files.FormatParquet:
		var err error
		if in, err = openParquetInput(path, f, size); err != nil {
			return fail(fmt.Errorf("%s: %w", path, err))
		}
	case files.FormatIPCFile:
		fr, ferr, err := openThroughFooter(f, size, opts)
		if err != nil {
			return fail(fmt.Errorf("%s: %w", path, err))
		}
		if ferr == nil {
			in = fileRecords(fr)
			in.projectScan = func(cols []string) error {
				fr, err := ipc.NewFileReader(f, size, append(opts[:len(opts):len(opts)], ipc.WithColumns(cols...))...)
				if err != nil {
					return fmt.Errorf("%s: %w", path, err)
				}
				p := fileRecords(fr)
				in.RecordReader, in.file, in.meta = p.RecordReader, p.file, p.meta
				return nil
			}
			break
		}
		footerErr = ferr
		fallthrough
	default:
		in, err = openStream(path, bufio.NewReaderSize(io.NewSectionReader(f, 0, size), 1<<20), opts)
		if err != nil {
			if closer != nil {
				closer.Close()
			}
			if footerErr != nil {
				return nil, fmt.Errorf("%s: not readable as a file (footer unreadable) nor as a stream: %w", path, err)
			}
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		in.projectScan = func(cols []string) error {
			p, err := openStream(path, bufio.NewReaderSize(io.NewSectionReader(f, 0, size), 1<<20),
				append(opts[:len(opts):len(opts)], ipc.WithColumns(cols...)))
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			in.RecordReader, in.meta = p.RecordReader, p.meta
			return nil
		}
		if footerErr != nil {
			in.stream, in.footerErr = false, footerErr
			in.named = func(i int, err error) error {
				in.footerSaid = true
				return fmt.Errorf("record batch %d: %w (read as a stream, the footer being unreadable)", i, err)
			}
		}
	}
	in.path, in.closer = path, closer
	return in, nil
}

// fileRecords reads the IPC file fr through its footer, batch by batch
// with each one's metadata.
func fileRecords(fr *ipc.FileReader) *input {
	var meta map[string]string
	recs := func(yield func(*alkaid.Record, error) bool) {
		for i := range fr.NumRecords() {
			var rec *alkaid.Record
			var err error
			rec, meta, err = fr.RecordWithMetadata(i)
			if !yield(rec, err) || err != nil {
				return
			}
		}
	}
	return &input{RecordReader: alkaid.NewRecordReader(fr.Schema(), recs, fr.Close), file: fr,
		meta: func() map[string]string { return meta }, named: batchNamed}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// ---- outputs ----

// outFlags are the flags choosing an output's form.
type outFlags struct {
	to          string
	compression string
	level       int
	magic       string
	alignment   int
	// Parquet outputs (see parquet_io.go).
	codec        string
	rowGroupRows int
}

func (o *outFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&o.to, "to", "", "output form: `stream`, file or parquet (default: from OUT's extension: .ipc/.arrow file, .ipcs/.arrows stream, .parquet Parquet)")
	fs.StringVar(&o.compression, "compression", "none", "body compression: none, lz4 or zstd")
	fs.IntVar(&o.level, "level", 0, "compression level (0: the codec's default; Parquet: gzip 1-9, zstd 1-22, brotli 0-11)")
	fs.StringVar(&o.magic, "magic", "", "names to write: alkaid or arrow (ARROW1 magic, ARROW: metadata) (default: arrow for .arrow/.arrows, else alkaid)")
	fs.IntVar(&o.alignment, "align", 8, "body buffer alignment: 8 or 64")
	fs.StringVar(&o.codec, "codec", "", "Parquet page codec: "+parquetCodecNames()+" (default snappy)")
	fs.IntVar(&o.rowGroupRows, "row-group-rows", 0, "Parquet rows per row group (0: the writer's default, 1048576)")
}

// resolve decides the output form for path: file (true) or stream, and
// the writer options. fallbackFile is the form when neither -to nor the
// extension says.
func (o *outFlags) resolve(path string, fallbackFile bool) (file bool, opts []ipc.Option, err error) {
	ext := strings.ToLower(filepath.Ext(path))
	switch o.to {
	case "file":
		file = true
	case "stream":
	case "":
		switch ext {
		case ".ipc", ".arrow", ".feather":
			file = true
		case ".ipcs", ".arrows":
		default:
			file = fallbackFile && path != "-"
		}
	default:
		return false, nil, usagef("-to %s: want stream, file or parquet", quote.String(o.to))
	}
	switch o.compression {
	case "none", "":
	case "lz4":
		opts = append(opts, ipc.WithCompression(ipc.LZ4Frame, o.level))
	case "zstd":
		opts = append(opts, ipc.WithCompression(ipc.Zstd, o.level))
	default:
		return false, nil, usagef("-compression %s: want none, lz4 or zstd", quote.String(o.compression))
	}
	switch o.magic {
	case "alkaid":
	case "arrow":
		opts = append(opts, ipc.WithArrowCompat())
	case "":
		if ext == ".arrow" || ext == ".arrows" {
			opts = append(opts, ipc.WithArrowCompat())
		}
	default:
		return false, nil, usagef("-magic %s: want alkaid or arrow", quote.String(o.magic))
	}
	switch o.alignment {
	case 8:
	case 64:
		opts = append(opts, ipc.WithAlignment(64))
	default:
		return false, nil, usagef("-align %d: want 8 or 64", o.alignment)
	}
	return file, opts, nil
}

// output is an IPC or Parquet writer over a file or stdout.
type output struct {
	path    string
	w       alkaid.RecordWriter
	buf     *bufio.Writer
	counter *countingWriter
	f       *outFile // nil for stdout
	unify   *dictUnifier
	parquet bool // a Parquet file: useless without its footer
	rows    int64
	batches int
}

// createOutput creates path ("-" is stdout) in format (with the writer's
// opts) and writes the schema. A file is written beside path and renamed
// into place by close (see output.go); path must not be one of inputs.
func createOutput(path string, schema *alkaid.Schema, format files.Format, opts []files.Option, inputs ...string) (*output, error) {
	o := &output{path: path, parquet: format == files.FormatParquet}
	var dst io.Writer = cmdStdout
	if path != "-" {
		f, err := createOutFile(path, inputs...)
		if err != nil {
			return nil, err
		}
		o.f, dst = f, f
	}
	o.counter = &countingWriter{w: dst}
	o.buf = bufio.NewWriterSize(o.counter, 1<<20)
	if format == files.FormatIPCFile {
		o.unify = newDictUnifier(schema)
	}
	var err error
	o.w, err = files.NewWriter(o.buf, schema, append([]files.Option{files.WithFormat(format)}, opts...)...)
	if err != nil {
		return nil, o.abort(fmt.Errorf("%s: %w", path, err))
	}
	return o, nil
}

// write writes one record batch. In the file format, whose dictionaries
// may only grow, a batch whose dictionaries were replaced is re-encoded
// against one dictionary that grows (values kept, indices remapped).
func (o *output) write(rec *alkaid.Record, meta map[string]string) error {
	if o.unify != nil {
		var err error
		if rec, err = o.unify.apply(rec); err != nil {
			return fmt.Errorf("%s: %w", o.path, err)
		}
	}
	var err error
	if mw, ok := o.w.(interface {
		WriteWithMetadata(*alkaid.Record, map[string]string) error
	}); ok && meta != nil {
		err = mw.WriteWithMetadata(rec, meta) // IPC keeps message metadata, Parquet has none
	} else {
		err = o.w.Write(rec)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", o.path, err)
	}
	o.rows += int64(rec.NumRows())
	o.batches++
	return nil
}

// bytes is the number of bytes written so far (flushed or buffered).
func (o *output) bytes() int64 { return o.counter.n + int64(o.buf.Buffered()) }

// close finishes the output (end-of-stream marker or footer) and puts a
// file in place.
func (o *output) close() error {
	err := o.w.Close()
	if ferr := o.buf.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return o.abort(fmt.Errorf("%s: %w", o.path, err))
	}
	if o.f != nil {
		return o.f.commit()
	}
	return nil
}

// abort gives up an output after cause: a file with complete record
// batches is kept beside the output path (readable as a stream), else
// removed; a file already at the output path is untouched. It returns
// cause, saying where the batches are.
func (o *output) abort(cause error) error {
	if o.f == nil {
		return cause
	}
	o.buf.Flush()
	return o.f.fail(cause, o.batches > 0 && !o.parquet)
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// ---- progress ----

// progress draws "rows, bytes, rate" on one terminal line at most five
// times a second; it is silent when stderr is not a terminal or with -q.
type progress struct {
	on    bool
	verb  string
	start time.Time
	last  time.Time
	drawn bool
	total int64 // bytes of the whole input, when known (see withTotal)
}

// progressEvery is the time between redraws.
var progressEvery = 200 * time.Millisecond

func newProgress(verb string, quiet bool) *progress {
	now := time.Now()
	return &progress{on: !quiet && cmdStderrIsTerminal, verb: verb, start: now, last: now}
}

// update redraws the line if 200ms passed since the last time.
func (p *progress) update(rows, bytes int64) {
	if !p.on {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < progressEvery {
		return
	}
	p.last = now
	p.draw(rows, bytes, now)
}

func (p *progress) draw(rows, bytes int64, now time.Time) {
	secs := now.Sub(p.start).Seconds()
	rate := 0.0
	if secs > 0 {
		rate = float64(bytes) / secs
	}
	fmt.Fprintf(cmdStderr, "\r%s: %s rows, %s, %s/s, %.0fs%s   ", p.verb, groupDigits(rows), humanBytes(bytes), humanBytes(int64(rate)), secs, p.totalSuffix(bytes, now))
	p.drawn = true
}

// done draws the final state and ends the line.
func (p *progress) done(rows, bytes int64) {
	if !p.on || !p.drawn {
		return
	}
	p.draw(rows, bytes, time.Now())
	fmt.Fprintln(cmdStderr)
}

func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// groupDigits prints n with thousands separators: 1,234,567.
func groupDigits(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
