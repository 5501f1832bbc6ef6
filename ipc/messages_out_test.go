package ipc

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/memory"
)

// TestMessageEncoderMatchesStream frames the MessageEncoder's messages as
// the stream format does and checks the bytes equal the StreamWriter's,
// then decodes the messages one by one through Decoder.DecodeMessage.
func TestMessageEncoderMatchesStream(t *testing.T) {
	s := randdata.AllTypes()
	a, b := randdata.New(3).Record(s, 40), randdata.New(4).Record(s, 25)
	recs := []*alkaid.Record{a, a.Slice(5, 30), b, b}
	for _, tc := range []struct {
		name string
		opts []Option
	}{
		{"plain", nil},
		{"deltas", []Option{WithDictionaryDeltas()}},
		{"lz4", []Option{WithCompression(LZ4Frame, 0)}},
		{"zstd-align64", []Option{WithCompression(Zstd, 0), WithAlignment(64)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			enc := mustEncoder(t, s, tc.opts...)
			sm, err := enc.Schema()
			require.NoError(t, err)
			require.Equal(t, MessageSchema, sm.Type)
			msgs := []OutMessage{sm}
			for i, r := range recs {
				out, err := enc.Record(r, map[string]string{"batch": string(rune('a' + i))})
				require.NoError(t, err)
				require.NotEmpty(t, out)
				require.Equal(t, MessageRecordBatch, out[len(out)-1].Type)
				for _, m := range out[:len(out)-1] {
					require.Equal(t, MessageDictionaryBatch, m.Type)
				}
				msgs = append(msgs, out...)
			}
			align := 8
			if tc.name == "zstd-align64" {
				align = 64
			}
			var framed bytes.Buffer
			for _, m := range msgs {
				total := 8 + len(m.Metadata)
				padded := (framed.Len()+total+align-1)/align*align - framed.Len()
				var hdr [8]byte
				binary.LittleEndian.PutUint32(hdr[:], continuation)
				binary.LittleEndian.PutUint32(hdr[4:], uint32(padded-8))
				framed.Write(hdr[:])
				framed.Write(m.Metadata)
				framed.Write(make([]byte, padded-total))
				body := m.AppendBody(nil)
				require.Len(t, body, int(m.BodyLen))
				framed.Write(body)
			}
			framed.Write(eos)

			var want bytes.Buffer
			w, err := NewStreamWriter(&want, s, tc.opts...)
			require.NoError(t, err)
			for i, r := range recs {
				require.NoError(t, w.WriteWithMetadata(r, map[string]string{"batch": string(rune('a' + i))}))
			}
			require.NoError(t, w.Close())
			require.Equal(t, want.Bytes(), framed.Bytes())

			dec := mustDecoder(t, WithValidation(array.ValidateFull))
			var got []*alkaid.Record
			for _, m := range msgs {
				msg, err := NewMessage(m.Metadata, memory.NewBuffer(m.AppendBody(nil)), Limits{})
				require.NoError(t, err)
				ev, err := dec.DecodeMessage(msg)
				require.NoError(t, err)
				if ev.Kind == EventRecord {
					got = append(got, ev.Record)
				}
			}
			requireSameRecords(t, recs, got, tc.name)
		})
	}
}

// TestFrameSchema reads a framed schema back with ReadMessage.
func TestFrameSchema(t *testing.T) {
	s := randdata.AllTypes()
	sm, err := mustEncoder(t, s).Schema()
	require.NoError(t, err)
	m, err := ReadMessage(bytes.NewReader(FrameSchema(sm.Metadata)))
	require.NoError(t, err)
	ev, err := mustDecoder(t).DecodeMessage(m)
	require.NoError(t, err)
	require.True(t, s.Equal(ev.Schema))
}

// TestMessageEncoderRefusesForeignSchema: a record of another schema is an
// error, and the encoder stays usable.
func TestMessageEncoderRefusesForeignSchema(t *testing.T) {
	s := randdata.AllTypes()
	enc := mustEncoder(t, s)
	rec := randdata.New(1).Record(s, 3)
	one := alkaid.NewSchema(s.Fields()[:1], s.Metadata())
	sub, err := alkaid.NewRecord(one, rec.Columns()[:1], 3)
	require.NoError(t, err)
	_, err = enc.Record(sub, nil)
	require.ErrorContains(t, err, "schema differs")
	_, err = enc.Record(rec, nil)
	require.NoError(t, err)
}
