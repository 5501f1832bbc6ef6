package ipc

import (
	"cmp"
	"encoding/binary"
	"runtime"
	"slices"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/memory"
)

// A compressed body buffer is the uncompressed length as a little-endian
// int64 followed by the codec's frame; a length of -1 means the bytes that
// follow are not compressed (compression would not have shrunk them).
const uncompressedMarker = -1

// rawMarker is the length prefix of a raw buffer, shared by every writer
// (pieces are only read).
var rawMarker = binary.LittleEndian.AppendUint64(nil, uint64(uncompressedMarker&0xFFFFFFFFFFFFFFFF))

// Buffers of at least probeMin bytes are probed before they are compressed
// whole: probeWindows windows of probeWindow bytes spread over the buffer
// are compressed, and when together they shrink by less than 1/16 the
// buffer is stored raw, skipping the codec's pass over bytes that it could
// not shrink (random numbers, already-compressed payloads).
const (
	probeMin     = 1 << 20
	probeWindow  = 16 << 10
	probeWindows = 4
)

// compressBuffer returns the wire form of one buffer in two pieces, to be
// written one after the other: the uncompressed length as an int64 (or -1
// for a raw buffer) followed by the codec's frame, or by the raw bytes,
// which are src itself, not a copy.
func compressBuffer(codec Codec, level int, src []byte, probe bool) ([2][]byte, error) {
	if len(src) == 0 {
		return [2][]byte{}, nil
	}
	if codec != LZ4Frame && codec != Zstd {
		return [2][]byte{}, unsupportedf("compression codec %d", codec)
	}
	raw := [2][]byte{rawMarker, src}
	if probe && len(src) >= probeMin && !compressible(codec, level, src) {
		return raw, nil
	}
	// Room for the codec's worst case, so that the frame is written
	// without regrowing.
	out := make([]byte, 8, 8+compressBound(len(src)))
	binary.LittleEndian.PutUint64(out, uint64(len(src)))
	var err error
	if codec == LZ4Frame {
		out, err = appendLZ4Frame(out, src, level)
	} else {
		out = zstdEncoder(level).EncodeAll(src, out)
	}
	if err != nil {
		return [2][]byte{}, err
	}
	if len(out) >= 8+len(src) {
		return raw, nil
	}
	return [2][]byte{out}, nil
}

// compressBuffers returns the wire pieces of each buffer (those of
// compressBuffer), compressed on up to workers goroutines. With LZ4 the
// work is split by block, so that one big buffer does not leave the other
// goroutines idle; the frames are the bytes compressBuffer would write.
func compressBuffers(codec Codec, level int, bufs [][]byte, probe bool, workers int) ([][][]byte, error) {
	out := make([][][]byte, len(bufs))
	if codec != LZ4Frame || workers <= 1 {
		err := parallel(len(bufs), workers, func(i int) error {
			w, err := compressBuffer(codec, level, bufs[i], probe)
			out[i] = w[:]
			return err
		})
		return out, err
	}
	raw := make([]bool, len(bufs))
	_ = parallel(len(bufs), workers, func(i int) error {
		raw[i] = probe && len(bufs[i]) >= probeMin && !compressible(codec, level, bufs[i])
		return nil
	})
	type job struct{ buf, lo int }
	var jobs []job
	for i, b := range bufs {
		for lo := 0; lo < len(b) && !raw[i]; lo += lz4BlockMax {
			jobs = append(jobs, job{i, lo})
		}
	}
	blocks := make([][]byte, len(jobs))
	_ = parallel(len(jobs), workers, func(j int) error {
		b := bufs[jobs[j].buf][jobs[j].lo:]
		b = b[:min(len(b), lz4BlockMax)]
		blocks[j] = appendLZ4Block(make([]byte, 0, 4+len(b)), b, level)
		return nil
	})
	j := 0
	for i, b := range bufs {
		if len(b) == 0 {
			continue
		}
		if raw[i] {
			out[i] = [][]byte{rawMarker, b}
			continue
		}
		k := j
		for k < len(jobs) && jobs[k].buf == i {
			k++
		}
		head := appendLZ4Header(binary.LittleEndian.AppendUint64(make([]byte, 0, 16), uint64(len(b))))
		pieces, size := make([][]byte, 0, k-j+2), len(head)+len(lz4EndMark)
		pieces = append(pieces, head)
		for ; j < k; j++ {
			pieces = append(pieces, blocks[j])
			size += len(blocks[j])
		}
		out[i] = append(pieces, lz4EndMark)
		if size >= 8+len(b) {
			out[i] = [][]byte{rawMarker, b}
		}
	}
	return out, nil
}

// compressible reports whether probe windows of src shrink by at least
// 1/16 under the codec.
func compressible(codec Codec, level int, src []byte) bool {
	step := (len(src) - probeWindow) / (probeWindows - 1)
	var in, out int
	buf := make([]byte, 0, compressBound(probeWindow)+64)
	for i := range probeWindows {
		w := src[i*step : i*step+probeWindow]
		var n int
		if codec == LZ4Frame {
			c := lz4Compressors.Get().(*lz4.Compressor)
			n, _ = c.CompressBlock(w, buf[:len(w)-len(w)/16])
			lz4Compressors.Put(c)
			if n == 0 {
				n = len(w)
			}
		} else {
			n = len(zstdEncoder(level).EncodeAll(w, buf[:0]))
		}
		in += len(w)
		out += n
	}
	return out <= in-in/16
}

// compressBound is at least the size of an LZ4 or zstd frame of n
// incompressible bytes: the bytes, one length or block header per 64 KiB
// (LZ4 blocks are up to 4 MiB, zstd blocks 128 KiB), frame header and
// checksum.
func compressBound(n int) int { return n + n/255 + 4*(n>>16) + 64 }

var zstdEncoders sync.Map // level → *zstd.Encoder (EncodeAll is safe for concurrent use)

// zstdEncoder returns the shared encoder for the level. It holds one
// block encoder per P (EncodeAll calls beyond that wait for one), so that
// buffers compressed on several goroutines run in parallel. Frames carry
// no content checksum, as Apache Arrow's C++ writer does; the reader still
// verifies one when a frame has it.
func zstdEncoder(level int) *zstd.Encoder {
	if e, ok := zstdEncoders.Load(level); ok {
		return e.(*zstd.Encoder)
	}
	opts := []zstd.EOption{zstd.WithEncoderConcurrency(runtime.GOMAXPROCS(0)), zstd.WithEncoderCRC(false)}
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
		// Stored as they are (the loader uses these in place instead).
		b := rawmem.Fillable(len(src) - 8)
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
	dst := rawmem.Fillable(int(n))
	var got int
	var err error
	switch codec {
	case LZ4Frame:
		if err := readLZ4Frames(dst, src[8:]); err != nil {
			return nil, invalidf("%s buffer (stated %d bytes): %v", codec, n, err)
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
// returns the error of the lowest i that failed: the error a serial run
// returns, whichever goroutine failed first in time. Once some i failed,
// no index above it is started.
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
		wg     sync.WaitGroup
		mu     sync.Mutex
		lowest = n // the lowest index that failed, n while none did
		first  error
		next   int
	)
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				stop := i >= lowest
				mu.Unlock()
				if stop {
					return
				}
				if err := f(i); err != nil {
					mu.Lock()
					if i < lowest {
						lowest, first = i, err
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// withinRatio stores raw, largest first, the compressed buffers that make
// a message state more uncompressed bytes than default readers accept
// (Limits.MaxCompressionRatio), for its body alone and for the stream so
// far (spent: the messages written before), or than Limits.MaxDecompressed
// for the message; wire holds each buffer's
// pieces as compressBuffers returns them, bufs the buffers. It returns
// what the compressed buffers left state.
func withinRatio(wire [][][]byte, bufs [][]byte, spent ratioSpent) int64 {
	var stated, body int64
	var compressed []int
	for i, pieces := range wire {
		for _, p := range pieces {
			body += int64(len(p))
		}
		if len(pieces) > 0 && len(pieces[0]) >= 8 && int64(binary.LittleEndian.Uint64(pieces[0])) != uncompressedMarker {
			stated += int64(len(bufs[i]))
			compressed = append(compressed, i)
		}
	}
	ratio := DefaultLimits.MaxCompressionRatio
	within := func() bool {
		return stated <= DefaultLimits.MaxDecompressed &&
			stated <= maxDecompressed(ratio, body) && spent.inflated+stated <= maxDecompressed(ratio, spent.input+body)
	}
	if within() {
		return stated
	}
	slices.SortFunc(compressed, func(a, b int) int { return cmp.Compare(len(bufs[b]), len(bufs[a])) })
	for _, i := range compressed {
		if within() {
			break
		}
		for _, p := range wire[i] {
			body -= int64(len(p))
		}
		wire[i] = [][]byte{rawMarker, bufs[i]}
		stated -= int64(len(bufs[i]))
		body += int64(8 + len(bufs[i]))
	}
	return stated
}
