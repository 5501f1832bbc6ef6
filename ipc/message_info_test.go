package ipc

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/internal/randdata"
)

// What BatchInfo, NumSchemaFields and DictionaryFields say of each message
// of a stream agrees with what was written.
func TestMessageInfo(t *testing.T) {
	schema := randdata.AllTypes()
	rec := randdata.New(3).Record(schema, 20)
	for _, codec := range []Codec{Uncompressed, LZ4Frame, Zstd} {
		t.Run(codec.String(), func(t *testing.T) {
			var buf bytes.Buffer
			opts := []Option{WithoutCompressionProbe()}
			if codec != Uncompressed {
				opts = append(opts, WithCompression(codec, 0))
			}
			w, err := NewStreamWriter(&buf, schema, opts...)
			require.NoError(t, err)
			require.NoError(t, w.Write(rec))
			require.NoError(t, w.Close())

			r := bytes.NewReader(buf.Bytes())
			var dicts []DictionaryField
			seen := map[int64]bool{}
			var batches int
			for {
				m, err := ReadMessage(r)
				if errors.Is(err, io.EOF) {
					break
				}
				require.NoError(t, err)
				info, ok := m.BatchInfo()
				switch m.Type() {
				case MessageSchema:
					require.False(t, ok)
					require.Equal(t, schema.NumFields(), m.NumSchemaFields())
					dicts = m.DictionaryFields()
				case MessageDictionaryBatch:
					require.True(t, ok)
					require.False(t, info.IsDelta)
					require.Equal(t, codec, info.Compression)
					seen[info.DictionaryID] = true
				case MessageRecordBatch:
					require.True(t, ok)
					batches++
					require.Equal(t, int64(20), info.Length)
					require.Equal(t, codec, info.Compression)
					require.Greater(t, info.Nodes, schema.NumFields())
					require.Greater(t, info.Buffers, info.Nodes)
					require.Zero(t, info.DictionaryID)
					require.Nil(t, m.DictionaryFields())
					require.Zero(t, m.NumSchemaFields())
				}
			}
			require.Equal(t, 1, batches)
			paths := map[string]bool{}
			for _, d := range dicts {
				require.True(t, seen[d.ID], "dictionary %d of %s was not sent", d.ID, d.Path)
				paths[d.Path] = true
			}
			require.Len(t, seen, len(dicts))
			for _, p := range []string{"dictionary", "list_of_dictionary.item", "struct_of_dictionary.d"} {
				require.True(t, paths[p], "%s in %v", p, dicts)
			}
		})
	}
}

// A FileReader tells the footer's version, dictionary fields and where
// the indexed messages start and end.
func TestFileReaderFooterInfo(t *testing.T) {
	schema := randdata.AllTypes()
	rec := randdata.New(4).Record(schema, 5)
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, schema)
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	raw := buf.Bytes()

	fr, err := NewFileReader(bytes.NewReader(raw), int64(len(raw)))
	require.NoError(t, err)
	require.Equal(t, 5, fr.Version())
	require.Len(t, fr.DictionaryFields(), 4)
	// The stream part starts with the schema message; the first indexed
	// message (a dictionary batch) follows it.
	schemaMsg, err := ReadMessage(bytes.NewReader(raw[8:]))
	require.NoError(t, err)
	require.Equal(t, schemaMsg.DictionaryFields(), fr.DictionaryFields())
	start := fr.DataOffset()
	require.Greater(t, start, int64(8))
	require.Less(t, start, fr.FooterOffset())
	require.Less(t, fr.FooterOffset(), int64(len(raw)))
	m, err := ReadMessage(bytes.NewReader(raw[start:]))
	require.NoError(t, err)
	require.Equal(t, MessageDictionaryBatch, m.Type())
}
