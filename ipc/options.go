package ipc

import (
	"fmt"
	"runtime"

	"github.com/alkaid-go/alkaid/array"
)

// Codec is a buffer compression codec.
type Codec uint8

// The codecs of the format.
const (
	Uncompressed Codec = iota
	LZ4Frame
	Zstd
)

// String implements fmt.Stringer: the readable form of the Codec.
func (c Codec) String() string {
	switch c {
	case LZ4Frame:
		return "lz4"
	case Zstd:
		return "zstd"
	}
	return "none"
}

// Limits bound what a reader accepts from untrusted bytes. Zero fields
// take the defaults of [DefaultLimits].
type Limits struct {
	MaxMetadataSize int   // bytes of one message's Flatbuffers metadata
	MaxDepth        int   // nesting depth of fields
	MaxBodySize     int64 // bytes of one message body (read from a stream)
	MaxDecompressed int64 // bytes one message's compressed buffers may expand to, together
	// MaxRows bounds the length of every array read (field node lengths
	// and batch lengths). Arrays of null, empty-struct or zero-width
	// types take no bytes at any length, so only this limit keeps a small
	// input from declaring a batch that takes hours to iterate.
	MaxRows int64
	// MaxTables bounds the Flatbuffers tables one metadata buffer (a
	// message's or the file footer's) may hold, counted as a reader visits
	// them: once per reference, so that shared sub-tables cannot make a
	// small buffer cost exponential time. Writers refuse a schema that
	// needs more than the default.
	MaxTables int
	// MaxMetadataExpansion bounds what a reader copies out of one
	// metadata buffer (strings, vectors and tables, counted once per
	// reference) to this many times the buffer's size plus 64 KiB. A
	// writer never shares strings or tables, so its metadata stays far
	// below; a crafted buffer whose thousand entries all refer to one
	// large string would otherwise cost a thousand copies of it.
	MaxMetadataExpansion int
	// MaxCompressionRatio bounds what the compressed buffers of one
	// message state they expand to, together: this many times the
	// message body plus 64 MiB, checked from the stated lengths before
	// anything is allocated, so that a small input cannot claim
	// gigabytes (a zstd block of 4 bytes may expand to 128 KiB). A stream
	// read in order (StreamReader, Decoder) is bounded the same way as a
	// whole: all its messages together may state this many times all
	// their bodies plus 64 MiB. Writers store buffers uncompressed where
	// needed to stay within the default; streams from other writers of
	// long runs of constant values may need it raised.
	MaxCompressionRatio int
}

// DefaultLimits are used for zero fields of [Limits].
var DefaultLimits = Limits{
	MaxMetadataSize: 64 << 20,
	MaxDepth:        64,
	MaxBodySize:     16 << 30,
	MaxDecompressed: 4 << 30,
	MaxRows:         1<<31 - 1,
	MaxTables:       1 << 20,

	MaxMetadataExpansion: 4,
	MaxCompressionRatio:  1000,
}

func (l Limits) withDefaults() Limits {
	if l.MaxMetadataSize <= 0 {
		l.MaxMetadataSize = DefaultLimits.MaxMetadataSize
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultLimits.MaxDepth
	}
	if l.MaxBodySize <= 0 {
		l.MaxBodySize = DefaultLimits.MaxBodySize
	}
	if l.MaxDecompressed <= 0 {
		l.MaxDecompressed = DefaultLimits.MaxDecompressed
	}
	if l.MaxRows <= 0 {
		l.MaxRows = DefaultLimits.MaxRows
	}
	if l.MaxTables <= 0 {
		l.MaxTables = DefaultLimits.MaxTables
	}
	if l.MaxMetadataExpansion <= 0 {
		l.MaxMetadataExpansion = DefaultLimits.MaxMetadataExpansion
	}
	if l.MaxCompressionRatio <= 0 {
		l.MaxCompressionRatio = DefaultLimits.MaxCompressionRatio
	}
	return l
}

// check names the first negative field of l, or returns "".
func (l Limits) check() string {
	fields := []struct {
		name string
		v    int64
	}{
		{"MaxMetadataSize", int64(l.MaxMetadataSize)}, {"MaxDepth", int64(l.MaxDepth)},
		{"MaxBodySize", l.MaxBodySize}, {"MaxDecompressed", l.MaxDecompressed},
		{"MaxRows", l.MaxRows}, {"MaxTables", int64(l.MaxTables)},
		{"MaxMetadataExpansion", int64(l.MaxMetadataExpansion)}, {"MaxCompressionRatio", int64(l.MaxCompressionRatio)},
	}
	for _, f := range fields {
		if f.v < 0 {
			return fmt.Sprintf("%s is %d, must be 0 (the default) or more", f.name, f.v)
		}
	}
	return ""
}

// Option configures the readers of this package ([NewStreamReader],
// [NewStreamReaderBytes], [NewFileReader], [OpenFile], [NewDecoder],
// [ReadMessage]) and its writers ([NewStreamWriter], [NewFileWriter],
// [NewMessageEncoder]). An option that makes sense only on one side
// (WithAlignment on a reader, WithLimits on a writer) and an invalid
// value (WithAlignment(7), WithConcurrency(-1)) make the constructor
// return an error wrapping [ErrInvalid] that names the option. When an
// option is given twice, the last one wins.
type Option func(*settings)

// settings collects what the options say, for either side.
type settings struct {
	r   readerConfig
	w   writerConfig
	err error // the first invalid option
	// the first reader-only and writer-only options given, by name
	readerOnly, writerOnly string
}

func (s *settings) fail(format string, args ...any) {
	if s.err == nil {
		s.err = invalidf(format, args...)
	}
}

func (s *settings) readerOption(name string) {
	if s.readerOnly == "" {
		s.readerOnly = name
	}
}

func (s *settings) writerOption(name string) {
	if s.writerOnly == "" {
		s.writerOnly = name
	}
}

func applyOptions(opts []Option) settings {
	procs := runtime.GOMAXPROCS(0)
	s := settings{
		r: readerConfig{concurrency: procs, splitMin: splitCopyMin, validation: array.ValidateSafe},
		w: writerConfig{alignment: 8, concurrency: procs, splitMin: splitCopyMin},
	}
	for _, o := range opts {
		o(&s)
	}
	return s
}

type readerConfig struct {
	validation  array.ValidationLevel
	limits      Limits
	refuseSwap  bool
	concurrency int
	splitMin    int64             // bodies of this many bytes or more are read in ranges
	strictLead  bool              // see WithStrictSchemaMessage
	skipChecks  array.ValueChecks // see WithoutValueChecks
	columns     []string          // see WithColumns, when projected
	projected   bool
}

// newReaderConfig is the reader's configuration of opts, or the error of
// an invalid option or of a writer option.
func newReaderConfig(opts []Option) (readerConfig, error) {
	s := applyOptions(opts)
	if s.err != nil {
		return readerConfig{}, s.err
	}
	if s.writerOnly != "" {
		return readerConfig{}, invalidf("%s is a writer option, given to a reader", s.writerOnly)
	}
	s.r.limits = s.r.limits.withDefaults()
	return s.r, nil
}

func (c readerConfig) split() copySplit { return copySplit{c.concurrency, c.splitMin} }

// WithValidation sets how much a reader checks the arrays it returns,
// with the levels of package array (default [array.ValidateSafe]):
//
//   - [array.ValidateSafe] checks everything an accessor relies on, in
//     O(n): offsets, sizes, view ranges, dictionary indices, union type
//     ids and offsets, run ends. No accessor of a returned array can panic
//     or read out of bounds.
//   - [array.ValidateFull] adds UTF-8, view prefixes, null counts and value
//     ranges; a file reader also requires a well-formed schema message at
//     the start of the file to agree with the footer's copy, which it
//     reads otherwise (a malformed one is a warning: see
//     [WithStrictSchemaMessage]).
//   - [array.ValidateStructure] (and [array.ValidateNone], which is the
//     same here: an array is never made without it) skips the O(n)
//     checks; only structure (buffer sizes against lengths) is checked.
//     Use it only for trusted input, bytes this process wrote itself:
//     corrupt input can then make accessors panic.
//
// Any other level is an invalid option.
func WithValidation(level array.ValidationLevel) Option {
	return func(s *settings) {
		s.readerOption("WithValidation")
		if level < array.ValidateNone || level > array.ValidateFull {
			s.fail("WithValidation(%d): not a validation level", level)
			return
		}
		s.r.validation = level
	}
}

// WithLimits sets a reader's limits on untrusted input (default
// [DefaultLimits]). Zero fields take the default; a negative field is an
// invalid option.
func WithLimits(l Limits) Option {
	return func(s *settings) {
		s.readerOption("WithLimits")
		if err := l.check(); err != "" {
			s.fail("WithLimits: %s", err)
			return
		}
		s.r.limits = l
	}
}

// WithoutByteSwap makes a reader refuse big-endian data with an error
// wrapping [ErrNotSupported] instead of swapping it to native order.
func WithoutByteSwap() Option {
	return func(s *settings) {
		s.readerOption("WithoutByteSwap")
		s.r.refuseSwap = true
	}
}

// WithConcurrency sets how many goroutines a reader or writer uses
// (0, the default, means runtime.GOMAXPROCS(0); 1 does everything on the
// calling goroutine; negative is an invalid option). Readers decompress
// buffers on them and, from an input that can also read at an offset
// (io.ReaderAt and io.Seeker: bytes.Reader, os.File), read a message body
// of 4 MiB or more in ranges; writers compress buffers on them and copy a
// body of 4 MiB or more into a sink that lends its spare room
// (AvailableBuffer: bytes.Buffer, bufio.Writer) when it has room for the
// body. Results and errors do not depend on n.
func WithConcurrency(n int) Option {
	return func(s *settings) {
		if n < 0 {
			s.fail("WithConcurrency(%d): goroutines must be 0 (GOMAXPROCS) or more", n)
			return
		}
		if n == 0 {
			n = runtime.GOMAXPROCS(0)
		}
		s.r.concurrency, s.w.concurrency = n, n
	}
}

type writerConfig struct {
	codec       Codec
	level       int
	alignment   int
	arrowCompat bool
	deltas      bool
	concurrency int
	compressAll bool
	splitMin    int64 // bodies of this many bytes or more are copied in ranges
}

// newWriterConfig is the writer's configuration of opts, or the error of
// an invalid option or of a reader option.
func newWriterConfig(opts []Option) (writerConfig, error) {
	s := applyOptions(opts)
	if s.err != nil {
		return writerConfig{}, s.err
	}
	if s.readerOnly != "" {
		return writerConfig{}, invalidf("%s is a reader option, given to a writer", s.readerOnly)
	}
	return s.w, nil
}

// WithCompression makes a writer compress body buffers with the codec at
// the level: 0 is the codec's default, LZ4Frame takes 1 to 9 (its
// high-compression levels), Zstd 1 to 22. Buffers that would not shrink
// are written uncompressed, as the format allows. Uncompressed takes only
// level 0; other codecs and levels are invalid options.
func WithCompression(codec Codec, level int) Option {
	return func(s *settings) {
		s.writerOption("WithCompression")
		var most int // the highest level
		switch codec {
		case Uncompressed:
		case LZ4Frame:
			most = 9
		case Zstd:
			most = 22
		default:
			s.fail("WithCompression(%d, %d): unknown codec", codec, level)
			return
		}
		if level < 0 || level > most {
			s.fail("WithCompression(%s, %d): level must be 0 to %d", codec, level, most)
			return
		}
		s.w.codec, s.w.level = codec, level
	}
}

// WithAlignment makes a writer pad body buffers to 8 (the default) or 64
// bytes; other values are invalid options.
func WithAlignment(n int) Option {
	return func(s *settings) {
		s.writerOption("WithAlignment")
		if n != 8 && n != 64 {
			s.fail("WithAlignment(%d): alignment must be 8 or 64", n)
			return
		}
		s.w.alignment = n
	}
}

// WithoutCompressionProbe makes compressing writers compress every buffer
// whole. By default a buffer of 1 MiB or more is first probed: when four
// 16 KiB windows spread over it shrink by less than 1/16 together, the
// buffer is written uncompressed (as the format allows), which saves the
// codec's pass over data it cannot shrink, such as random numbers.
func WithoutCompressionProbe() Option {
	return func(s *settings) {
		s.writerOption("WithoutCompressionProbe")
		s.w.compressAll = true
	}
}

// WithArrowCompat makes a writer write Apache Arrow's names: the ARROW1
// file magic and the ARROW: metadata namespace for extension types.
func WithArrowCompat() Option {
	return func(s *settings) {
		s.writerOption("WithArrowCompat")
		s.w.arrowCompat = true
	}
}

// WithDictionaryDeltas makes the stream writer send a delta batch when a
// dictionary only grew since it was last sent (default: a replacement).
func WithDictionaryDeltas() Option {
	return func(s *settings) {
		s.writerOption("WithDictionaryDeltas")
		s.w.deltas = true
	}
}

// full reports whether the reader validates at array.ValidateFull, which
// adds the file reader's own full checks (the leading schema message).
func (c readerConfig) full() bool { return c.validation == array.ValidateFull }
