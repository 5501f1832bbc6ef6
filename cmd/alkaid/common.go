package main

// Shared plumbing of the data subcommands: exit codes, flag sets with -h,
// opening inputs (file or stream, either magic, salvage of a file without
// footer), creating outputs (file or stream, either magic, compression),
// a progress line on a terminal, and the standard streams (variables so
// that tests can run the subcommands in-process).

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/internal/quote"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/parquet"
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

// usageError is a bad command line; it exits with exitUsage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
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

// input is an opened IPC input: a file read through its footer, or a
// stream (including a file read as a stream: from stdin, or salvaged
// because its footer is missing or broken).
type input struct {
	path   string
	magic  string // ipc.Magic, ipc.ArrowMagic, or "" for a stream
	file   *ipc.FileReader
	stream *ipc.StreamReader
	pq     *parquet.File // a Parquet file (PAR1 magic), read in batches
	ds     *dsInput      // a directory or glob read as a dataset (see dataset_io.go)
	// footerErr is why a file (it has a magic) is read as a stream;
	// footerSaid is set once the command said so (see damaged.go).
	footerErr  error
	footerSaid bool
	size       int64 // bytes, when known (-1 otherwise)
	counter    *countingReader
	closer     io.Closer
}

// isFile reports whether records come through the footer.
func (in *input) isFile() bool { return in.file != nil }

// salvaged reports whether a file was read as a stream because its footer
// could not be read.
func (in *input) salvaged() bool { return in.footerErr != nil }

func (in *input) schema() *alkaid.Schema {
	if in.file != nil {
		return in.file.Schema()
	}
	if in.pq != nil {
		return in.pq.Schema()
	}
	if in.ds != nil {
		return in.ds.ds.Schema()
	}
	return in.stream.Schema()
}

// formatName is "file (ALKAID1)", "stream", …
func (in *input) formatName() string {
	switch {
	case in.pq != nil:
		return "Parquet"
	case in.ds != nil:
		return "dataset"
	case in.file != nil:
		return "file (" + in.magic + ")"
	case in.magic != "":
		return "file (" + in.magic + ") read as a stream"
	}
	return "stream"
}

// bytesRead is how far a stream input has been read, or -1 for a file.
func (in *input) bytesRead() int64 {
	if in.counter == nil {
		return -1
	}
	return in.counter.n
}

// Close closes the input; a salvaged file whose footer problem no error
// reported (the command stopped before the end) is noted on stderr.
func (in *input) Close() error {
	if in.footerErr != nil && !in.footerSaid {
		in.footerSaid = true
		salvageNote(in.path, in.footerErr)
	}
	if in.file != nil {
		in.file.Close()
	}
	if in.closer != nil {
		return in.closer.Close()
	}
	return nil
}

// each calls fn with every record batch in order, one at a time, so that
// memory stays bounded by a batch. It stops at fn's first error or at the
// first read error; a file without footer yields its complete batches and
// then an error saying so.
func (in *input) each(fn func(i int, rec *alkaid.Record, meta map[string]string) error) error {
	if in.file != nil {
		for i := range in.file.NumRecords() {
			rec, meta, err := in.file.RecordWithMetadata(i)
			if err != nil {
				return fmt.Errorf("record batch %d: %w", i, err)
			}
			if err := fn(i, rec, meta); err != nil {
				return err
			}
		}
		return nil
	}
	if in.pq != nil {
		return eachParquet(in.pq, fn)
	}
	if in.ds != nil {
		return in.ds.each(fn)
	}
	i := 0
	for rec, err := range in.stream.Records() {
		if err != nil {
			if in.footerErr != nil {
				in.footerSaid = true
				return fmt.Errorf("record batch %d: %w (read as a stream, the footer being unreadable)", i, err)
			}
			return fmt.Errorf("record batch %d: %w", i, err)
		}
		if err := fn(i, rec, in.stream.Metadata()); err != nil {
			return err
		}
		i++
	}
	return in.footerProblem()
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

// openInput opens path ("-" is stdin) as a dataset when it is a directory
// or a glob pattern (see isDatasetPath), as a file when it starts with a
// file magic and its footer reads, as Parquet when it starts with PAR1,
// and as a stream otherwise; a file on stdin is copied to disk first (see
// readStdin). Files are read with ReadAt, not mapped, so that reading a
// big file batch after batch keeps memory bounded.
func openInput(path string, opts ...ipc.Option) (*input, error) {
	if path == "-" {
		sin, err := readStdin()
		if err != nil {
			return nil, err
		}
		if sin.file != nil {
			return openFile("stdin", sin.file, sin.size, sin.file, opts)
		}
		br := sin.stream
		cr := &countingReader{r: br}
		sr, err := ipc.NewStreamReader(cr, opts...)
		if err != nil {
			return nil, fmt.Errorf("stdin: %w", err)
		}
		return &input{path: path, stream: sr, size: -1, counter: cr}, nil
	}
	if isDatasetPath(path) {
		ds, err := openDataset(path)
		if err != nil {
			return nil, err
		}
		return &input{path: path, ds: ds, size: -1}, nil
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

// openFile opens f (size bytes; closer closes it, or nil) as a file when
// it starts with a file magic and its footer reads, and as a stream
// otherwise.
func openFile(path string, f fileInput, size int64, closer io.Closer, opts []ipc.Option) (*input, error) {
	in := &input{path: path, size: size, closer: closer}
	fail := func(err error) (*input, error) {
		if closer != nil {
			closer.Close()
		}
		return nil, err
	}
	head := make([]byte, 8)
	n, _ := io.ReadFull(f, head)
	if isParquetHead(head[:n]) {
		pq, err := openParquet(path, f, size)
		if err != nil {
			return fail(err)
		}
		in.pq = pq
		return in, nil
	}
	if err := headlessParquet(path, f, size, head[:n]); err != nil {
		return fail(err)
	}
	in.magic = ipc.DetectMagic(head[:n])
	if in.magic != "" {
		fr, footerErr, err := openThroughFooter(f, size, opts)
		switch {
		case err != nil:
			return fail(fmt.Errorf("%s: %w", path, err))
		case footerErr != nil:
			in.footerErr = footerErr
		default:
			in.file = fr
			return in, nil
		}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fail(err)
	}
	in.counter = &countingReader{r: bufio.NewReaderSize(f, 1<<20)}
	sr, err := ipc.NewStreamReader(in.counter, opts...)
	if err != nil {
		if closer != nil {
			closer.Close()
		}
		if in.footerErr != nil {
			return nil, fmt.Errorf("%s: not readable as a file (footer unreadable) nor as a stream: %w", path, err)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	in.stream = sr
	return in, nil
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

// recordWriter is what FileWriter and StreamWriter share.
type recordWriter interface {
	WriteWithMetadata(rec *alkaid.Record, meta map[string]string) error
	Close() error
}

// output is an IPC writer over a file or stdout.
type output struct {
	path    string
	isFile  bool
	w       recordWriter
	buf     *bufio.Writer
	counter *countingWriter
	f       *outFile // nil for stdout
	unify   *dictUnifier
	parquet bool // a Parquet file: useless without its footer
	rows    int64
	batches int
}

// createOutput creates path ("-" is stdout) and writes the schema. A
// file is written beside path and renamed into place by close (see
// output.go); path must not be one of inputs.
func createOutput(path string, schema *alkaid.Schema, file bool, opts []ipc.Option, inputs ...string) (*output, error) {
	o := &output{path: path, isFile: file}
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
	var err error
	if file {
		o.w, err = ipc.NewFileWriter(o.buf, schema, opts...)
		o.unify = newDictUnifier(schema)
	} else {
		o.w, err = ipc.NewStreamWriter(o.buf, schema, opts...)
	}
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
	if err := o.w.WriteWithMetadata(rec, meta); err != nil {
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
