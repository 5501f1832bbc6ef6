package ipc

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pierrec/lz4/v4"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

func TestXXH32(t *testing.T) {
	// Vectors of the xxHash reference implementation (seed 0).
	for _, c := range []struct {
		in   string
		want uint32
	}{
		{"", 0x02CC5D05},
		{"a", 0x550D7456},
		{"abc", 0x32D153FF},
		{"Nobody inspects the spammish repetition", 0xE2293B2F},
	} {
		require.Equal(t, c.want, xxh32([]byte(c.in)), "xxh32(%q)", c.in)
	}
}

// testPayloads are buffers the LZ4 framing must carry: empty, tiny,
// compressible, random, and larger than one 4 MiB block.
func testPayloads() map[string][]byte {
	r := rand.New(rand.NewPCG(5, 5))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	text := []byte(strings.Repeat("columnar data compresses well; ", 300_000)) // 9.3 MB
	mixed := append(random(3<<20), text[:3<<20]...)
	return map[string][]byte{
		"empty": {}, "one": {7}, "short": []byte("hello, frame"), "random-100k": random(100_000),
		"text-9MB": text, "mixed-6MB": mixed, "random-4MiB+13": random(4<<20 + 13),
	}
}

func TestLZ4FrameRoundTrip(t *testing.T) {
	for name, src := range testPayloads() {
		for _, level := range []int{0, 1} {
			if level > 0 && len(src) > 1<<20 {
				continue // the high-compression codec is slow; small inputs cover it
			}
			frame, err := appendLZ4Frame(nil, src, level)
			require.NoError(t, err)
			got := make([]byte, len(src))
			require.NoError(t, readLZ4Frames(got, frame), name)
			require.Equal(t, src, got, name)

			// Another implementation reads our frames.
			other, err := io.ReadAll(lz4.NewReader(bytes.NewReader(frame)))
			require.NoError(t, err, name)
			require.Equal(t, len(src), len(other), name)
			require.True(t, bytes.Equal(src, other), name)

			// A frame holding more or fewer bytes than stated is refused.
			if len(src) > 0 {
				require.Error(t, readLZ4Frames(make([]byte, len(src)-1), frame), name)
			}
			require.Error(t, readLZ4Frames(make([]byte, len(src)+1), frame), name)
		}
	}
}

// TestLZ4FrameReadsOtherWriters reads frames with every option another
// writer may set: checksums of blocks and content, content size, small
// blocks, and concatenated frames.
func TestLZ4FrameReadsOtherWriters(t *testing.T) {
	src := testPayloads()["mixed-6MB"]
	for _, c := range []struct {
		name string
		opts []lz4.Option
	}{
		{"default", nil},
		{"block-checksum", []lz4.Option{lz4.BlockChecksumOption(true)}},
		{"no-content-checksum", []lz4.Option{lz4.ChecksumOption(false)}},
		{"content-size-64k-blocks", []lz4.Option{lz4.SizeOption(uint64(len(src))), lz4.BlockSizeOption(lz4.Block64Kb)}},
		{"hc-256k", []lz4.Option{lz4.CompressionLevelOption(lz4.Level1), lz4.BlockSizeOption(lz4.Block256Kb)}},
	} {
		var buf bytes.Buffer
		w := lz4.NewWriter(&buf)
		require.NoError(t, w.Apply(c.opts...))
		_, err := w.Write(src)
		require.NoError(t, err)
		require.NoError(t, w.Close())
		got := make([]byte, len(src))
		require.NoError(t, readLZ4Frames(got, buf.Bytes()), c.name)
		require.True(t, bytes.Equal(src, got), c.name)

		// Two frames one after the other fill one buffer.
		twice := append(append([]byte{}, buf.Bytes()...), buf.Bytes()...)
		got2 := make([]byte, 2*len(src))
		require.NoError(t, readLZ4Frames(got2, twice), c.name)
		require.True(t, bytes.Equal(src, got2[len(src):]), c.name)

		// A flipped byte anywhere is an error (checksums or structure), or
		// at worst different bytes, never a panic.
		bad := append([]byte{}, buf.Bytes()...)
		for _, at := range []int{4, 5, 6, len(bad) / 2, len(bad) - 5, len(bad) - 1} {
			bad[at] ^= 0x5A
			_ = readLZ4Frames(make([]byte, len(src)), bad)
			bad[at] ^= 0x5A
		}
		if c.name == "default" {
			bad[len(bad)/2] ^= 1 // covered by the content checksum
			require.ErrorContains(t, readLZ4Frames(make([]byte, len(src)), bad), "checksum")
		}
	}
}

func TestLZ4FrameMalformed(t *testing.T) {
	good, err := appendLZ4Frame(nil, []byte(strings.Repeat("abcd", 1000)), 0)
	require.NoError(t, err)
	for _, c := range []struct {
		name string
		edit func([]byte) []byte
		want string
	}{
		{"truncated header", func(b []byte) []byte { return b[:5] }, "header truncated"},
		{"bad magic", func(b []byte) []byte { b[0] ^= 1; return b }, "magic"},
		{"bad version", func(b []byte) []byte { b[4] = 0x80 | b[4]&0x3F; return b }, "version"},
		{"bad header checksum", func(b []byte) []byte { b[6] ^= 1; return b }, "header checksum"},
		{"no end mark", func(b []byte) []byte { return b[:len(b)-4] }, "truncated"},
		{"trailing bytes", func(b []byte) []byte { return append(b, 1, 2, 3) }, ""},
		{"block larger than rest", func(b []byte) []byte { binary.LittleEndian.PutUint32(b[7:], 1<<20); return b }, "exceeds"},
	} {
		b := c.edit(append([]byte{}, good...))
		err := readLZ4Frames(make([]byte, 4000), b)
		require.Error(t, err, c.name)
		require.ErrorContains(t, err, c.want, c.name)
	}
}

// TestCompressionProbe checks that big buffers whose probe windows do not
// shrink are written raw, and that WithoutCompressionProbe compresses them
// whole, both reading back the same.
func TestCompressionProbe(t *testing.T) {
	const n = 2 << 20
	r := rand.New(rand.NewPCG(6, 6))
	random := make([]byte, n)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	// Zeros, except random bytes exactly where the probe looks.
	tricky := make([]byte, n)
	step := (n - probeWindow) / (probeWindows - 1)
	for i := range probeWindows {
		copy(tricky[i*step:i*step+probeWindow], random)
	}
	for _, codec := range []Codec{LZ4Frame, Zstd} {
		w, err := compressBuffer(codec, 0, random, true)
		require.NoError(t, err)
		require.Equal(t, int64(uncompressedMarker), int64(binary.LittleEndian.Uint64(w[0])), "%s random", codec)
		require.Equal(t, &random[0], &w[1][0], "%s: raw buffers are not copied", codec)

		w, err = compressBuffer(codec, 0, tricky, true)
		require.NoError(t, err)
		require.Equal(t, int64(uncompressedMarker), int64(binary.LittleEndian.Uint64(w[0])), "%s tricky, probed", codec)
		w, err = compressBuffer(codec, 0, tricky, false)
		require.NoError(t, err)
		require.Equal(t, int64(n), int64(binary.LittleEndian.Uint64(w[0])), "%s tricky, whole", codec)
		require.Less(t, len(w[0]), n/2, "%s tricky, whole", codec)

		// Both forms read back through the IPC readers, with every
		// validation, from a stream and from a file.
		col := array.MustMake(array.NewData(datatype.Int64, n/8,
			[]*memory.Buffer{nil, memory.NewBuffer(tricky)}, nil, 0, 0))
		s := alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int64}}, datatype.Metadata{})
		rec, err := alkaid.NewRecord(s, []array.Array{col}, n/8)
		require.NoError(t, err)
		for _, opts := range [][]Option{
			{WithCompression(codec, 0)},
			{WithCompression(codec, 0), WithoutCompressionProbe()},
			{WithCompression(codec, 0), WithAlignment(64)},
		} {
			recs := []*alkaid.Record{rec}
			raw := writeStream(t, s, recs, opts...)
			sr, err := NewStreamReaderBytes(raw, WithValidation(array.ValidateFull))
			require.NoError(t, err)
			var got []*alkaid.Record
			for r, err := range sr.Records() {
				require.NoError(t, err)
				got = append(got, r)
			}
			requireSameRecords(t, recs, got, codec.String())

			raw = writeFile(t, s, recs, opts...)
			fr, err := NewFileReader(bytes.NewReader(raw), int64(len(raw)), WithValidation(array.ValidateFull))
			require.NoError(t, err)
			got = got[:0]
			for r, err := range fr.Records() {
				require.NoError(t, err)
				got = append(got, r)
			}
			requireSameRecords(t, recs, got, codec.String())
		}
	}
}

// FuzzLZ4Frame feeds arbitrary frames to the LZ4 frame reader: it must
// return an error or fill the destination, never panic or hang.
func FuzzLZ4Frame(f *testing.F) {
	for _, src := range testPayloads() {
		if len(src) > 1<<16 {
			src = src[:1<<16]
		}
		frame, err := appendLZ4Frame(nil, src, 0)
		require.NoError(f, err)
		f.Add(uint16(len(src)), frame)
	}
	var buf bytes.Buffer
	w := lz4.NewWriter(&buf)
	_ = w.Apply(lz4.BlockChecksumOption(true), lz4.SizeOption(5000), lz4.BlockSizeOption(lz4.Block64Kb))
	_, _ = w.Write([]byte(strings.Repeat("fuzz", 1250)))
	_ = w.Close()
	f.Add(uint16(5000), buf.Bytes())
	f.Fuzz(func(t *testing.T, n uint16, frame []byte) {
		dst := make([]byte, n)
		if readLZ4Frames(dst, frame) != nil {
			return
		}
		// What was accepted survives our own round trip.
		again, err := appendLZ4Frame(nil, dst, 0)
		require.NoError(t, err)
		back := make([]byte, len(dst))
		require.NoError(t, readLZ4Frames(back, again))
		require.Equal(t, dst, back)
	})
}

// TestCompressBuffersParallelSameBytes checks that compressing by block on
// several goroutines writes the very bytes the serial writer does, for
// empty, small, probe-skipped, multi-block and mixed buffers.
func TestCompressBuffersParallelSameBytes(t *testing.T) {
	p := testPayloads()
	bufs := [][]byte{p["empty"], p["one"], p["short"], p["random-4MiB+13"], p["text-9MB"], p["mixed-6MB"], p["random-100k"]}
	flat := func(w [][][]byte) []byte {
		var b []byte
		for _, pieces := range w {
			b = append(b, 0xEE) // buffer boundary
			for _, piece := range pieces {
				b = append(b, piece...)
			}
		}
		return b
	}
	for _, codec := range []Codec{LZ4Frame, Zstd} {
		for _, probe := range []bool{true, false} {
			serial, err := compressBuffers(codec, 0, bufs, probe, 1)
			require.NoError(t, err)
			for _, workers := range []int{2, 3, 8} {
				par, err := compressBuffers(codec, 0, bufs, probe, workers)
				require.NoError(t, err)
				require.True(t, bytes.Equal(flat(serial), flat(par)), "%s probe=%v workers=%d", codec, probe, workers)
			}
			// And each buffer's wire form reads back.
			for i, pieces := range serial {
				var wire []byte
				for _, piece := range pieces {
					wire = append(wire, piece...)
				}
				got, err := decompressBuffer(codec, wire, 1<<30)
				require.NoError(t, err)
				require.True(t, bytes.Equal(bufs[i], got.Bytes()), "%s buffer %d", codec, i)
			}
		}
	}
}
