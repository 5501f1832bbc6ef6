package ipc

import (
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

// ReaderOption configures stream and file readers and the Decoder.
type ReaderOption func(*readerConfig)

type readerConfig struct {
	validation  array.ValidationLevel
	limits      Limits
	refuseSwap  bool
	concurrency int
	splitMin    int64             // bodies of this many bytes or more are read in ranges
	strictLead  bool              // see WithStrictSchemaMessage
	skipChecks  array.ValueChecks // see WithoutValueChecks
}

func newReaderConfig(opts []ReaderOption) readerConfig {
	c := readerConfig{concurrency: runtime.GOMAXPROCS(0), splitMin: splitCopyMin, validation: array.ValidateSafe}
	for _, o := range opts {
		o(&c)
	}
	c.limits = c.limits.withDefaults()
	return c
}

func (c readerConfig) split() copySplit { return copySplit{c.concurrency, c.splitMin} }

// WithValidation sets how much returned arrays are checked, with the
// levels of package array (default [array.ValidateSafe]):
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
// A level above array.ValidateFull makes every record batch an error
// wrapping [ErrNotSupported].
func WithValidation(level array.ValidationLevel) ReaderOption {
	return func(c *readerConfig) { c.validation = level }
}

// WithLimits sets the limits on untrusted input (default [DefaultLimits]).
func WithLimits(l Limits) ReaderOption { return func(c *readerConfig) { c.limits = l } }

// WithoutByteSwap makes readers refuse big-endian data with an error
// wrapping [ErrNotSupported] instead of swapping it to native order.
func WithoutByteSwap() ReaderOption { return func(c *readerConfig) { c.refuseSwap = true } }

// WithReadConcurrency sets how many goroutines decompress buffers and,
// from a reader that can also read at an offset (io.ReaderAt and
// io.Seeker: bytes.Reader, os.File), read a message body of 4 MiB or more
// in ranges (default GOMAXPROCS; 1 does both serially).
func WithReadConcurrency(n int) ReaderOption {
	return func(c *readerConfig) { c.concurrency = max(n, 1) }
}

// WriterOption configures stream and file writers.
type WriterOption func(*writerConfig)

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

func newWriterConfig(opts []WriterOption) writerConfig {
	c := writerConfig{alignment: 8, concurrency: runtime.GOMAXPROCS(0), splitMin: splitCopyMin}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// WithCompression compresses body buffers with the codec at the level
// (0 = the codec's default). Buffers that would not shrink are written
// uncompressed, as the format allows.
func WithCompression(codec Codec, level int) WriterOption {
	return func(c *writerConfig) { c.codec, c.level = codec, level }
}

// WithAlignment pads body buffers to 8 (the default) or 64 bytes.
func WithAlignment(n int) WriterOption {
	return func(c *writerConfig) {
		if n == 64 {
			c.alignment = 64
		} else {
			c.alignment = 8
		}
	}
}

// WithoutCompressionProbe makes compressing writers compress every buffer
// whole. By default a buffer of 1 MiB or more is first probed: when four
// 16 KiB windows spread over it shrink by less than 1/16 together, the
// buffer is written uncompressed (as the format allows), which saves the
// codec's pass over data it cannot shrink, such as random numbers.
func WithoutCompressionProbe() WriterOption { return func(c *writerConfig) { c.compressAll = true } }

// WithArrowCompat writes Apache Arrow's names: the ARROW1 file magic and
// the ARROW: metadata namespace for extension types.
func WithArrowCompat() WriterOption { return func(c *writerConfig) { c.arrowCompat = true } }

// WithDictionaryDeltas makes the stream writer send a delta batch when a
// dictionary only grew since it was last sent (default: a replacement).
func WithDictionaryDeltas() WriterOption { return func(c *writerConfig) { c.deltas = true } }

// WithWriteConcurrency sets how many goroutines compress buffers and copy
// a message body of 4 MiB or more into a sink that lends its spare room
// (AvailableBuffer: bytes.Buffer, bufio.Writer) when it has room for the
// body (default GOMAXPROCS; 1 does both serially).
func WithWriteConcurrency(n int) WriterOption {
	return func(c *writerConfig) { c.concurrency = max(n, 1) }
}

// full reports whether the reader validates at array.ValidateFull, which
// adds the file reader's own full checks (the leading schema message).
func (c readerConfig) full() bool { return c.validation == array.ValidateFull }
