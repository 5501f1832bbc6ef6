package ipc

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/pierrec/lz4/v4"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

// TestLZ4FrameErrorKinds: every way an LZ4 frame can be wrong is an error
// that wraps ErrInvalid, starts with "ipc: " and says what was wrong (the
// frame reader's own messages, wrapped once where a buffer is
// decompressed).
func TestLZ4FrameErrorKinds(t *testing.T) {
	text := bytes.Repeat([]byte("alkaid "), 500)
	random := make([]byte, 100) // incompressible: stored as a raw block
	for i := range random {
		random[i] = byte(i*131 + i*i*17)
	}
	frameOf := func(src []byte, opts ...lz4.Option) []byte {
		var buf bytes.Buffer
		w := lz4.NewWriter(&buf)
		require.NoError(t, w.Apply(opts...))
		_, err := w.Write(src)
		require.NoError(t, err)
		require.NoError(t, w.Close())
		return buf.Bytes()
	}
	ours := func(src []byte) []byte {
		f, err := appendLZ4Frame(nil, src, 0)
		require.NoError(t, err)
		return f
	}
	// rehash sets the header checksum of a frame whose descriptor is
	// desc bytes long.
	rehash := func(f []byte, desc int) []byte {
		f[4+desc] = byte(xxh32(f[4:4+desc]) >> 8)
		return f
	}
	firstBlock := func(f []byte) int { // size of the first block of a frame without a content size
		return int(binary.LittleEndian.Uint32(f[7:]) &^ lz4Uncompressed)
	}
	for _, c := range []struct {
		name   string
		stated int // the buffer's stated length
		frame  []byte
		want   string
	}{
		{"magic", len(text), func() []byte { f := ours(text); f[0] ^= 1; return f }(), "lz4 frame magic"},
		{"version", len(text), func() []byte { f := ours(text); f[4] = 0x80 | lz4FlagIndep; return f }(), "is not version 01"},
		{"block maximum code", len(text), func() []byte { f := ours(text); f[5] = 3 << 4; return f }(), "block maximum size code 3"},
		{"header checksum", len(text), func() []byte { f := ours(text); f[6] ^= 0xff; return f }(), "header checksum"},
		{"header truncated", len(text), ours(text)[:6], "header truncated"},
		{"dictionary", len(text), func() []byte {
			f := ours(text)
			f[4] |= lz4FlagDictID
			f = append(f[:6:6], append([]byte{1, 2, 3, 4, 0}, f[7:]...)...)
			return rehash(f, 6)
		}(), "needs a dictionary"},
		{"content size over the stated length", len(text) - 1, frameOf(text, lz4.SizeOption(uint64(len(text)))), "content size 3500 exceeds the 3499 bytes stated"},
		{"content size not what it holds", len(text), func() []byte {
			f := frameOf(text, lz4.SizeOption(uint64(len(text))))
			binary.LittleEndian.PutUint64(f[6:], uint64(len(text)-1))
			return rehash(f, 10)
		}(), "states content size 3499, holds 3500"},
		{"no end mark", len(text), func() []byte { f := ours(text); return f[:len(f)-4] }(), "truncated before its end mark"},
		{"block over the maximum", len(text), func() []byte {
			f := ours(text)
			binary.LittleEndian.PutUint32(f[7:], 16<<20)
			return f
		}(), "exceeds the frame's block maximum"},
		{"block checksum", len(text), func() []byte {
			f := frameOf(text, lz4.BlockChecksumOption(true))
			f[7+4+firstBlock(f)] ^= 1
			return f
		}(), "block checksum"},
		{"block checksum truncated", len(text), func() []byte {
			f := frameOf(text, lz4.BlockChecksumOption(true))
			return f[:7+4+firstBlock(f)]
		}(), "block checksum truncated"},
		{"raw block over the stated length", 50, ours(random), "holds more than the 50 bytes stated"},
		{"corrupt block", len(text), func() []byte {
			f := ours(text)
			for i := 11; i < len(f)-4; i++ {
				f[i] = 0xff
			}
			return f
		}(), "lz4 block at output byte 0"},
		{"content checksum", len(text), func() []byte { f := frameOf(text, lz4.ChecksumOption(true)); f[len(f)-1] ^= 1; return f }(), "content checksum"},
		{"content checksum truncated", len(text), func() []byte { f := frameOf(text, lz4.ChecksumOption(true)); return f[:len(f)-4] }(), "content checksum truncated"},
		{"fewer bytes than stated", len(text) + 5, ours(text), "holds 3500 bytes, stated 3505"},
	} {
		t.Run(c.name, func(t *testing.T) {
			wire := binary.LittleEndian.AppendUint64(nil, uint64(c.stated))
			_, err := decompressBuffer(LZ4Frame, append(wire, c.frame...), 1<<30)
			require.ErrorIs(t, err, ErrInvalid)
			require.True(t, strings.HasPrefix(err.Error(), "ipc: "), "%v", err)
			require.ErrorContains(t, err, c.want)
		})
	}
}

// TestCorruptLZ4StreamErrorKind: a stream whose LZ4 frame is corrupt is an
// ErrInvalid error from the reader, naming the frame's fault.
func TestCorruptLZ4StreamErrorKind(t *testing.T) {
	s := alkaid.NewSchema([]datatype.Field{{Name: "s", Type: datatype.String, Nullable: true}}, datatype.Metadata{})
	rec := randdata.New(4).Record(s, 200)
	var buf bytes.Buffer
	w, err := NewStreamWriter(&buf, s, WithCompression(LZ4Frame, 0))
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	data := buf.Bytes()
	magic := binary.LittleEndian.AppendUint32(nil, lz4Magic)
	at := bytes.Index(data, magic)
	require.Positive(t, at, "an LZ4 frame in the stream")
	data[at+6] ^= 0xff // the header checksum
	r, err := NewStreamReaderBytes(data)
	require.NoError(t, err)
	for _, err = range r.Records() {
		if err != nil {
			break
		}
	}
	require.ErrorIs(t, err, ErrInvalid)
	require.ErrorContains(t, err, "lz4 frame header checksum")
	require.True(t, strings.HasPrefix(err.Error(), "ipc: "), "%v", err)
}
