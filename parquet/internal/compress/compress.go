package compress

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// ErrInvalid is datatype.ErrInvalid, wrapped by errors about corrupt
// compressed data.
var ErrInvalid = datatype.ErrInvalid

// ErrNotSupported is datatype.ErrNotSupported, wrapped for codecs this
// package does not handle.
var ErrNotSupported = datatype.ErrNotSupported

func invalidf(c format.Codec, format string, args ...any) error {
	return fmt.Errorf("parquet compress: %w: %s: "+format, append([]any{ErrInvalid, c}, args...)...)
}

// Supported reports whether c can be decompressed and compressed.
func Supported(c format.Codec) bool {
	switch c {
	case format.Uncompressed, format.Snappy, format.Gzip, format.Zstd, format.LZ4Raw, format.LZ4, format.Brotli:
		return true
	}
	return false
}

// Decompress decodes src, compressed with c, into exactly size bytes.
func Decompress(c format.Codec, src []byte, size int) ([]byte, error) {
	return DecompressInto(c, nil, src, size)
}

// DecompressInto is Decompress reusing scratch's memory for the result
// when it is large enough (SNAPPY and ZSTD pages); the result may alias
// scratch, or src when uncompressed.
func DecompressInto(c format.Codec, scratch, src []byte, size int) ([]byte, error) {
	if size < 0 {
		return nil, invalidf(c, "negative uncompressed size %d", size)
	}
	switch c {
	case format.Uncompressed:
		if len(src) != size {
			return nil, invalidf(c, "%d bytes where %d were announced", len(src), size)
		}
		return src, nil
	case format.Snappy:
		n, err := snappy.DecodedLen(src)
		if err != nil {
			return nil, invalidf(c, "%v", err)
		}
		if n != size {
			return nil, invalidf(c, "decodes to %d bytes where %d were announced", n, size)
		}
		out, err := snappy.Decode(sized(scratch, size), src)
		if err != nil {
			return nil, invalidf(c, "%v", err)
		}
		return out, nil
	case format.Gzip:
		zr, err := gzip.NewReader(bytes.NewReader(src))
		if err != nil {
			return nil, invalidf(c, "%v", err)
		}
		return readExactly(c, zr, size)
	case format.Zstd:
		// The frame header says how much the decoder will allocate: refuse
		// what the announced page size does not justify.
		var h zstd.Header
		if err := h.Decode(src); err != nil {
			h = zstd.Header{}
		}
		if !h.Skippable {
			if h.HasFCS && h.FrameContentSize > uint64(size) {
				return nil, invalidf(c, "frame of %d bytes in a page of %d", h.FrameContentSize, size)
			}
			if h.WindowSize > max(2*uint64(size), 8<<20) {
				return nil, invalidf(c, "window of %d bytes for a page of %d", h.WindowSize, size)
			}
		}
		d := zstdPool.Get().(*zstd.Decoder)
		defer zstdPool.Put(d)
		if h.HasFCS && h.FrameContentSize == uint64(size) {
			// The usual page: one frame that says its size. Decoding it
			// whole is much faster than streaming; a further frame could
			// only grow the output to the decoder's memory bound.
			out, err := d.DecodeAll(src, sized(scratch, size)[:0])
			if err != nil {
				return nil, invalidf(c, "%v", err)
			}
			if len(out) != size {
				return nil, invalidf(c, "decodes to %d bytes where %d were announced", len(out), size)
			}
			return out, nil
		}
		if err := d.Reset(bytes.NewReader(src)); err != nil {
			return nil, invalidf(c, "%v", err)
		}
		return readExactly(c, d, size)
	case format.Brotli:
		return readExactly(c, brotli.NewReader(bytes.NewReader(src)), size)
	case format.LZ4Raw:
		return lz4Block(c, src, size)
	case format.LZ4:
		if out, err := lz4Hadoop(src, size); err == nil {
			return out, nil
		}
		if len(src) >= 4 && binary.LittleEndian.Uint32(src) == lz4FrameMagic {
			if out, err := readExactly(c, lz4.NewReader(bytes.NewReader(src)), size); err == nil {
				return out, nil
			}
		}
		return lz4Block(c, src, size)
	}
	return nil, fmt.Errorf("parquet compress: %w: %s", ErrNotSupported, c)
}

// lz4FrameMagic starts an LZ4 frame (the format some older writers used
// for the LZ4 codec).
const lz4FrameMagic = 0x184d2204

var zstdPool = sync.Pool{New: func() any {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(1<<27),
		zstd.WithDecoderMaxMemory(1<<28))
	if err != nil {
		panic(err) // only bad options fail here
	}
	return d
}}

// readExactly reads size bytes from r and checks that nothing follows.
func readExactly(c format.Codec, r io.Reader, size int) ([]byte, error) {
	out := make([]byte, size)
	if _, err := io.ReadFull(r, out); err != nil {
		return nil, invalidf(c, "decoding %d bytes: %v", size, err)
	}
	var one [1]byte
	for range 64 { // bounded: a reader might return 0, nil forever
		n, err := r.Read(one[:])
		if n != 0 {
			return nil, invalidf(c, "decodes to more than the %d bytes announced", size)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, invalidf(c, "after %d bytes: %v", size, err)
		}
	}
	return out, nil
}

func lz4Block(c format.Codec, src []byte, size int) ([]byte, error) {
	if size == 0 {
		if len(src) == 0 || (len(src) == 1 && src[0] == 0) {
			return []byte{}, nil
		}
		return nil, invalidf(c, "%d bytes decode to more than the 0 announced", len(src))
	}
	out := make([]byte, size)
	n, err := lz4.UncompressBlock(src, out)
	if err != nil {
		return nil, invalidf(c, "%v", err)
	}
	if n != size {
		return nil, invalidf(c, "decodes to %d bytes where %d were announced", n, size)
	}
	return out, nil
}

// lz4Hadoop decodes Hadoop's framing: blocks of a 4-byte big-endian
// uncompressed length, a 4-byte big-endian compressed length and an LZ4
// block.
func lz4Hadoop(src []byte, size int) ([]byte, error) {
	out := make([]byte, 0, size)
	for len(src) > 0 {
		if len(src) < 8 {
			return nil, invalidf(format.LZ4, "truncated Hadoop block header")
		}
		un := binary.BigEndian.Uint32(src)
		cn := binary.BigEndian.Uint32(src[4:])
		src = src[8:]
		if uint64(cn) > uint64(len(src)) || uint64(un) > uint64(size-len(out)) {
			return nil, invalidf(format.LZ4, "Hadoop block of %d/%d bytes exceeds the page", cn, un)
		}
		n, err := lz4.UncompressBlock(src[:cn], out[len(out):len(out)+int(un)])
		if err != nil || n != int(un) {
			return nil, invalidf(format.LZ4, "Hadoop block: %v", err)
		}
		out = out[:len(out)+n]
		src = src[cn:]
	}
	if len(out) != size {
		return nil, invalidf(format.LZ4, "decodes to %d bytes where %d were announced", len(out), size)
	}
	return out, nil
}

// Compress appends src compressed with c to dst, at the codec's default
// level.
func Compress(c format.Codec, dst, src []byte) ([]byte, error) {
	return CompressLevel(c, 0, dst, src)
}

// Levels returns the compression levels c accepts (GZIP 1-9, ZSTD 1-22,
// BROTLI 0-11); ok is false for codecs without levels.
func Levels(c format.Codec) (lo, hi int, ok bool) {
	switch c {
	case format.Gzip:
		return gzip.BestSpeed, gzip.BestCompression, true
	case format.Zstd:
		return 1, 22, true
	case format.Brotli:
		return brotli.BestSpeed, brotli.BestCompression, true
	}
	return 0, 0, false
}

// CompressLevel is Compress at a level of c (see Levels); level 0 is the
// codec's default, and codecs without levels ignore it. A level out of
// range is an error.
func CompressLevel(c format.Codec, level int, dst, src []byte) ([]byte, error) {
	if level != 0 {
		if lo, hi, ok := Levels(c); ok && (level < lo || level > hi) {
			return nil, fmt.Errorf("parquet compress: %w: %s level %d outside [%d, %d]", ErrInvalid, c, level, lo, hi)
		}
	}
	switch c {
	case format.Uncompressed:
		return append(dst, src...), nil
	case format.Snappy:
		// The Snappy format at s2's fast level (snappy.Encode is its
		// slower "better" level).
		n := s2.MaxEncodedLen(len(src))
		if n < 0 {
			return nil, fmt.Errorf("parquet compress: %w: snappy: a block of %d bytes is too large", datatype.ErrLimit, len(src))
		}
		dst = slices.Grow(dst, n)
		out := s2.EncodeSnappy(dst[len(dst):len(dst)+n], src)
		return dst[:len(dst)+len(out)], nil
	case format.Gzip:
		if level == 0 {
			level = gzip.DefaultCompression
		}
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, level) // level checked above
		_, _ = zw.Write(src)
		_ = zw.Close()
		return append(dst, b.Bytes()...), nil
	case format.Zstd:
		pool := &zstdEncPool
		if level != 0 {
			pool = zstdLevelPool(level)
		}
		e := pool.Get().(*zstd.Encoder)
		defer pool.Put(e)
		return e.EncodeAll(src, dst), nil
	case format.Brotli:
		if level == 0 {
			level = 3
		}
		var b bytes.Buffer
		bw := brotli.NewWriterLevel(&b, level)
		_, _ = bw.Write(src)
		_ = bw.Close()
		return append(dst, b.Bytes()...), nil
	case format.LZ4Raw:
		return appendLZ4Block(dst, src), nil
	case format.LZ4:
		start := len(dst)
		dst = append(dst, make([]byte, 8)...)
		dst = appendLZ4Block(dst, src)
		binary.BigEndian.PutUint32(dst[start:], uint32(len(src)))
		binary.BigEndian.PutUint32(dst[start+4:], uint32(len(dst)-start-8))
		return dst, nil
	}
	return nil, fmt.Errorf("parquet compress: %w: %s", ErrNotSupported, c)
}

var zstdEncPool = sync.Pool{New: func() any { return newZstdEncoder() }}

// zstdLevelPools holds a pool of encoders per explicit ZSTD level.
var zstdLevelPools [23]sync.Pool

func init() {
	for level := range zstdLevelPools {
		zstdLevelPools[level].New = func() any {
			return newZstdEncoder(zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(level)))
		}
	}
}

func zstdLevelPool(level int) *sync.Pool { return &zstdLevelPools[level] }

func newZstdEncoder(opts ...zstd.EOption) *zstd.Encoder {
	e, err := zstd.NewWriter(nil, append([]zstd.EOption{zstd.WithEncoderConcurrency(1)}, opts...)...)
	if err != nil {
		panic(err) // only bad options fail here, and the options are fixed
	}
	return e
}

func appendLZ4Block(dst, src []byte) []byte {
	start := len(dst)
	dst = append(dst, make([]byte, lz4.CompressBlockBound(len(src)))...)
	var c lz4.Compressor
	n, err := c.CompressBlock(src, dst[start:])
	if err != nil || (n == 0 && len(src) > 0) {
		// Incompressible: store the input as literals.
		return appendLiterals(dst[:start], src)
	}
	return dst[:start+n]
}

// appendLiterals writes src as one LZ4 sequence of literals only.
func appendLiterals(dst, src []byte) []byte {
	n := len(src)
	if n < 15 {
		dst = append(dst, byte(n<<4))
	} else {
		dst = append(dst, 0xf0)
		n -= 15
		for n >= 255 {
			dst = append(dst, 255)
			n -= 255
		}
		dst = append(dst, byte(n))
	}
	return append(dst, src...)
}

// sized returns scratch cut to size bytes, or new memory when it is too
// small.
func sized(scratch []byte, size int) []byte {
	if cap(scratch) >= size {
		return scratch[:size]
	}
	return make([]byte, size)
}
