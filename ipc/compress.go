package ipc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/alkaid-go/alkaid/memory"
)

// A compressed body buffer is the uncompressed length as a little-endian
// int64 followed by the codec's frame; a length of -1 means the bytes that
// follow are not compressed (compression would not have shrunk them).
const uncompressedMarker = -1

// compressBuffer returns the wire form of one buffer.
func compressBuffer(codec Codec, level int, src []byte) ([]byte, error) {
	if len(src) == 0 {
		return nil, nil
	}
	// Room for the codec's worst case: the frame is written without
	// regrowing, and a buffer that does not shrink is stored raw in the
	// same allocation.
	out := make([]byte, 8, 8+compressBound(len(src)))
	binary.LittleEndian.PutUint64(out, uint64(len(src)))
	var err error
	switch codec {
	case LZ4Frame:
		out, err = compressLZ4(out, src, level)
	case Zstd:
		out = zstdEncoder(level).EncodeAll(src, out)
	default:
		return nil, unsupportedf("compression codec %d", codec)
	}
	if err != nil {
		return nil, err
	}
	if len(out) >= 8+len(src) {
		raw := out[:8+len(src)]
		binary.LittleEndian.PutUint64(raw, uint64(uncompressedMarker&0xFFFFFFFFFFFFFFFF))
		copy(raw[8:], src)
		return raw, nil
	}
	return out, nil
}

// compressBound is at least the size of an LZ4 or zstd frame of n
// incompressible bytes: the bytes, one length or block header per 64 KiB
// (LZ4 blocks are up to 4 MiB, zstd blocks 128 KiB), frame header and
// checksum.
func compressBound(n int) int { return n + n/255 + 4*(n>>16) + 64 }

func compressLZ4(dst, src []byte, level int) ([]byte, error) {
	buf := bytes.NewBuffer(dst)
	w := lz4.NewWriter(buf)
	opts := []lz4.Option{lz4.ConcurrencyOption(1)}
	if level > 0 {
		opts = append(opts, lz4.CompressionLevelOption(lz4.CompressionLevel(1<<(8+min(level, 9)))))
	}
	if err := w.Apply(opts...); err != nil {
		return nil, fmt.Errorf("ipc: lz4: %w", err)
	}
	if _, err := w.Write(src); err != nil {
		return nil, fmt.Errorf("ipc: lz4: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("ipc: lz4: %w", err)
	}
	return buf.Bytes(), nil
}

var zstdEncoders sync.Map // level → *zstd.Encoder (EncodeAll is safe for concurrent use)

func zstdEncoder(level int) *zstd.Encoder {
	if e, ok := zstdEncoders.Load(level); ok {
		return e.(*zstd.Encoder)
	}
	opts := []zstd.EOption{zstd.WithEncoderConcurrency(1)}
	if level > 0 {
		opts = append(opts, zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(level)))
	}
	e, _ := zstd.NewWriter(nil, opts...)
	actual, _ := zstdEncoders.LoadOrStore(level, e)
	return actual.(*zstd.Encoder)
}

var zstdDecoder = sync.OnceValue(func() *zstd.Decoder {
	// DecodeAll writes into the destination we size from the stated
	// length and may not grow it: a frame that holds more is an error.
	d, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecodeAllCapLimit(true),
		zstd.WithDecoderMaxMemory(uint64(DefaultLimits.MaxDecompressed)))
	return d
})

// decompressBuffer turns a wire buffer back into its bytes, which must be
// exactly the stated length, at most max bytes.
func decompressBuffer(codec Codec, src []byte, max int64) (*memory.Buffer, error) {
	if len(src) == 0 {
		return memory.NewBuffer(nil), nil
	}
	if len(src) < 8 {
		return nil, invalidf("compressed buffer of %d bytes lacks its 8-byte length", len(src))
	}
	n := int64(binary.LittleEndian.Uint64(src))
	if n == uncompressedMarker {
		// The bytes are stored as they are; copy them into aligned memory
		// (they start 8 bytes into the body buffer).
		b := memory.DefaultAllocator.Allocate(len(src) - 8)
		copy(b, src[8:])
		return memory.NewBuffer(b), nil
	}
	if n < 0 {
		return nil, invalidf("compressed buffer states length %d", n)
	}
	if n > max {
		return nil, limitf("compressed buffer would expand to %d bytes (limit %d)", n, max)
	}
	// A frame cannot expand beyond a bounded ratio; refuse lengths that no
	// input of this size could produce before allocating them.
	if n > maxExpansion(codec, len(src)) {
		return nil, invalidf("compressed buffer of %d bytes claims %d uncompressed bytes", len(src), n)
	}
	dst := memory.DefaultAllocator.Allocate(int(n))
	var got int
	var err error
	switch codec {
	case LZ4Frame:
		zr := lz4.NewReader(bytes.NewReader(src[8:]))
		got, err = io.ReadFull(zr, dst)
		if err == nil {
			// More output than stated is a lie too.
			var one [1]byte
			if k, _ := zr.Read(one[:]); k != 0 {
				err = fmt.Errorf("frame holds more than the stated length")
			}
		}
	case Zstd:
		var out []byte
		out, err = zstdDecoder().DecodeAll(src[8:], dst[:0:n])
		got = len(out)
		if err == nil && (got != int(n) || (got > 0 && &out[0] != &dst[0])) {
			return nil, invalidf("zstd buffer decompressed to %d bytes, stated %d", got, n)
		}
	default:
		return nil, unsupportedf("compression codec %d", codec)
	}
	if err != nil {
		return nil, invalidf("%s buffer (stated %d bytes, got %d): %v", codec, n, got, err)
	}
	return memory.NewBuffer(dst), nil
}

// maxExpansion bounds what n compressed bytes can legitimately expand to,
// so that larger claims are refused before anything is allocated: an LZ4
// sequence spends at least one byte per 255 bytes of match, and the
// densest zstd block (RLE: 4 bytes for 128 KiB) expands 32768 times.
func maxExpansion(codec Codec, n int) int64 {
	if codec == LZ4Frame {
		return 256*int64(n) + 64<<10
	}
	return 32768*int64(n) + 128<<10
}

// parallel runs f(i) for i in [0, n) on up to workers goroutines and
// returns the first error.
func parallel(n, workers int, f func(i int) error) error {
	if workers <= 1 || n <= 1 {
		for i := range n {
			if err := f(i); err != nil {
				return err
			}
		}
		return nil
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  int
	)
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				stop := first != nil
				mu.Unlock()
				if i >= n || stop {
					return
				}
				if err := f(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return first
}
