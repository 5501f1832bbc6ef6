package ipc

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
)

// growRecorder is a bytes.Buffer that records each Grow: the length the
// buffer had and the size announced.
type growRecorder struct {
	bytes.Buffer
	at, n []int
}

func (g *growRecorder) Grow(n int) {
	g.at = append(g.at, g.Len())
	g.n = append(g.n, n)
	g.Buffer.Grow(n)
}

// TestWriterAnnouncesMessageSizes checks that both writers tell a sink
// that can grow the exact size of each message before writing it, and
// that the bytes are the same as without the announcements.
func TestWriterAnnouncesMessageSizes(t *testing.T) {
	s, recs := randomBatches(9)
	for _, tc := range []struct {
		name  string
		file  bool
		codec Codec
	}{{"stream", false, Uncompressed}, {"stream-lz4", false, LZ4Frame}, {"file", true, Uncompressed}, {"file-zstd", true, Zstd}} {
		t.Run(tc.name, func(t *testing.T) {
			var g growRecorder
			opt := WithCompression(tc.codec, 0)
			var w interface {
				Write(*alkaid.Record) error
				Close() error
			}
			var err error
			if tc.file {
				w, err = NewFileWriter(&g, s, opt)
			} else {
				w, err = NewStreamWriter(&g, s, opt)
			}
			require.NoError(t, err)
			for _, r := range recs {
				require.NoError(t, w.Write(r))
			}
			require.NoError(t, w.Close())
			plain := writeStream(t, s, recs, opt)
			if tc.file {
				plain = writeFile(t, s, recs, opt)
			}
			require.Equal(t, plain, g.Bytes(), "same bytes with and without a growable sink")
			// Schema, dictionaries and batches: one announcement each.
			require.GreaterOrEqual(t, len(g.n), 1+len(recs))
			for i := range g.n {
				end := g.Len()
				if i+1 < len(g.n) {
					end = g.at[i+1]
				}
				// The next message starts where this one's announced size
				// ends; after the last come only the end marker and, in a
				// file, the footer.
				if i+1 < len(g.n) {
					require.Equal(t, g.at[i]+g.n[i], end, "message %d: announced %d bytes at %d", i, g.n[i], g.at[i])
				} else {
					require.LessOrEqual(t, g.at[i]+g.n[i], end, "last message")
				}
				require.Positive(t, g.n[i])
			}
		})
	}
}
