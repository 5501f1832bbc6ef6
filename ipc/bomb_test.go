package ipc

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/memory"
)

// zstdBomb is a zstd frame of blocks RLE blocks, each 4 bytes that
// expand to 128 KiB of the byte 7, prefixed by the buffer's stated length.
func zstdBomb(blocks int) []byte {
	const blockMax = 128 << 10
	n := uint64(blocks) * blockMax
	out := binary.LittleEndian.AppendUint64(nil, n)
	out = binary.LittleEndian.AppendUint32(out, 0xFD2FB528)
	// Frame header: 8-byte content size, not single-segment, no checksum;
	// a 128 KiB window.
	out = append(out, 0xC0, (17-10)<<3)
	out = binary.LittleEndian.AppendUint64(out, n)
	for i := range blocks {
		hdr := uint32(1)<<1 | blockMax<<3 // RLE, size 128 KiB
		if i == blocks-1 {
			hdr |= 1 // last block
		}
		out = append(out, byte(hdr), byte(hdr>>8), byte(hdr>>16), 7)
	}
	return out
}

// bombStream is a stream of batches record batches of one int8 column
// whose values buffer is a zstd bomb of blocks blocks.
func bombStream(batches, blocks int) []byte {
	rows := int64(blocks) * 128 << 10
	frame := zstdBomb(blocks)
	body := pad8(frame)
	msg := batch{length: rows, nodes: [][2]int64{{rows, 0}}, buffers: [][2]int64{{0, 0}, {0, int64(len(frame))}},
		codec: 2, body: body, bodyLen: -2, dictID: -1}.bytes()
	parts := [][]byte{schemaMsg(schemaOf(datatype.Field{Name: "b", Type: datatype.Int8}))}
	for range batches {
		parts = append(parts, msg)
	}
	return cat(append(parts, eos)...)
}

// TestDecompressionBomb (item 3): a 131 KB stream of one zstd buffer that
// states 4 GiB is refused before anything is allocated, by the default
// ratio limit; one within the limit decompresses, and reading many such
// batches never holds two of them at once.
func TestDecompressionBomb(t *testing.T) {
	in := bombStream(1, 32768) // 131 KB stating 4 GiB
	require.Less(t, len(in), 140_000)
	var err error
	got := allocated(func() { err = readStreamFully(in) })
	require.ErrorIs(t, err, ErrLimit)
	require.Contains(t, err.Error(), "MaxCompressionRatio")
	require.Less(t, got, uint64(4<<20), "allocated %d bytes", got)
	// The limit is proportional to the input: a 16 MiB bomb of 512 bytes
	// is within the allowance, decompresses, and holds the right values.
	r, err := NewStreamReaderBytes(bombStream(1, 128))
	require.NoError(t, err)
	col := firstRecord(t, r).Column(0).(*array.Primitive[int8])
	require.Equal(t, 128<<17, col.Len())
	require.Equal(t, int8(7), col.Value(col.Len()-1))
	// A raised ratio lets the big one through its check (it then fails
	// only on MaxDecompressed, which a lower value makes quick to hit).
	err = readStreamFully(in, WithLimits(Limits{MaxCompressionRatio: 1 << 20, MaxDecompressed: 1 << 20}))
	require.ErrorIs(t, err, ErrLimit)
	require.NotContains(t, err.Error(), "MaxCompressionRatio")

	// Eight batches of 48 MiB each from 13 KB: each is within the ratio
	// on its own, but the stream as a whole is not, so the default limits
	// stop at the second batch.
	eight := bombStream(8, 384)
	r, err = NewStreamReader(bytes.NewReader(eight))
	require.NoError(t, err)
	read, err := drain(r)
	require.Len(t, read, 1)
	require.ErrorIs(t, err, ErrLimit)
	require.Contains(t, err.Error(), "the stream's")

	// With the ratio raised the reader lets go of each batch when it
	// moves on, so the live heap stays near one batch.
	r, err = NewStreamReader(bytes.NewReader(eight), WithLimits(Limits{MaxCompressionRatio: 1 << 20}))
	require.NoError(t, err)
	var peak uint64
	var ms runtime.MemStats
	batches := 0
	for _, err := range r.Records() {
		require.NoError(t, err)
		batches++
		runtime.GC()
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapAlloc-min(ms.HeapAlloc, rawmem.Pooled()))
	}
	require.Equal(t, 8, batches)
	require.Less(t, peak, uint64(100<<20), "live heap %d bytes", peak)
}

// TestWriterStaysWithinRatio (item 3): the writer stores raw what would
// make a message exceed the default ratio, so that default readers read
// what it writes.
func TestWriterStaysWithinRatio(t *testing.T) {
	n := 12 << 20 // 96 MiB of zeros: zstd shrinks them far past 1000:1
	col := array.MustMake(array.NewData(datatype.Int64, n, []*memory.Buffer{nil, memory.NewBuffer(make([]byte, 8*n))}, nil, 0, 0))
	s := schemaOf(datatype.Field{Name: "z", Type: datatype.Int64})
	rec, err := alkaid.NewRecord(s, []array.Array{col}, n)
	require.NoError(t, err)
	raw := writeStream(t, s, []*alkaid.Record{rec}, WithCompression(Zstd, 0))
	r, err := NewStreamReaderBytes(raw)
	require.NoError(t, err)
	require.Equal(t, n, firstRecord(t, r).NumRows())
	// Many batches of zeros: each is compressed until the stream as a
	// whole would exceed the ratio; then they are written raw, and the
	// default reader reads them all.
	var recs []*alkaid.Record
	for range 12 {
		recs = append(recs, rec.Slice(0, 1<<20)) // 8 MiB of zeros each
	}
	many := writeStream(t, s, recs, WithCompression(Zstd, 0))
	require.Less(t, len(many), 12<<23, "some batches stay compressed")
	require.Len(t, readAll(t, many), 12)
	// Small enough constant columns stay compressed.
	small := writeStream(t, s, []*alkaid.Record{rec.Slice(0, 1<<20)}, WithCompression(Zstd, 0))
	require.Less(t, len(small), 1<<16)
	require.NoError(t, readStreamFully(small))
}
