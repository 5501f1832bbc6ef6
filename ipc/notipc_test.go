package ipc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/memory"
)

// TestNotIPC feeds bytes that are no IPC at all to every reader: each
// says so, as invalid input quoting the first bytes, never as a limit
// error about the huge metadata length the bytes would mean.
func TestNotIPC(t *testing.T) {
	inputs := []struct {
		name string
		data []byte
	}{
		{"text", []byte("hello, world\nthis is text\n")},
		{"csv", []byte("a,b,c\n1,2,3\n")},
		{"parquet", append([]byte("PAR1\x15\x04\x15\x10"), make([]byte, 32)...)},
		{"json", []byte(`{"a": 1, "b": [1, 2]}`)},
		{"binary", []byte{0xfe, 0xff, 0xff, 0xff, 0, 1, 2, 3}},
	}
	readers := []struct {
		name string
		want string
		read func([]byte) error
	}{
		{"stream reader", "not an Alkaid/Arrow IPC stream: starts with ", func(b []byte) error {
			_, err := NewStreamReader(bytes.NewReader(b))
			return err
		}},
		{"stream reader over an io.Reader without Len", "not an Alkaid/Arrow IPC stream: starts with ", func(b []byte) error {
			_, err := NewStreamReader(struct{ *bytes.Reader }{bytes.NewReader(b)})
			return err
		}},
		{"bytes stream reader", "not an Alkaid/Arrow IPC stream: starts with ", func(b []byte) error {
			_, err := NewStreamReaderBytes(b)
			return err
		}},
		{"ReadMessage", "not an Alkaid/Arrow IPC stream: starts with ", func(b []byte) error {
			_, err := ReadMessage(bytes.NewReader(b))
			return err
		}},
		{"decoder", "not an Alkaid/Arrow IPC stream: starts with ", func(b []byte) error {
			d := mustDecoder(t)
			_, _ = d.Write(b)
			_, err := d.Next()
			return err
		}},
		{"file reader", "not an Alkaid/Arrow IPC file: starts with ", func(b []byte) error {
			_, err := NewFileReader(bytes.NewReader(b), int64(len(b)))
			return err
		}},
	}
	for _, in := range inputs {
		for _, r := range readers {
			t.Run(in.name+"/"+r.name, func(t *testing.T) {
				err := r.read(in.data)
				require.Error(t, err)
				require.ErrorIs(t, err, ErrInvalid)
				require.False(t, errors.Is(err, ErrLimit), "a limit error for bytes that are not IPC: %v", err)
				require.ErrorContains(t, err, r.want)
				q := strconv.QuoteToASCII(string(in.data[:4])) // every reader quotes 4 bytes at least
				require.ErrorContains(t, err, q[:len(q)-1])
			})
		}
	}
}

// TestLegacyPrefixStillReads checks that a stream framed with the legacy
// prefix (a length without the continuation marker) is still read: only
// a length no writer writes means "not IPC".
func TestLegacyPrefixStillReads(t *testing.T) {
	s, recs := randomBatches(2)
	raw := writeStream(t, s, recs)
	var legacy []byte
	for src := (&bytesSource{data: memory.NewBuffer(raw)}); ; {
		m, err := src.next(DefaultLimits)
		if err != nil {
			break
		}
		// Legacy framing: length, metadata padded to 8 with the prefix, body.
		meta := m.Metadata()
		pad := (8 - (4+len(meta))%8) % 8
		legacy = binary.LittleEndian.AppendUint32(legacy, uint32(len(meta)+pad))
		legacy = append(legacy, meta...)
		legacy = append(legacy, make([]byte, pad)...)
		legacy = append(legacy, m.Body().Bytes()...)
	}
	legacy = binary.LittleEndian.AppendUint32(legacy, 0)
	sr, err := NewStreamReaderBytes(legacy)
	require.NoError(t, err)
	var got int
	for _, err := range sr.Records() {
		require.NoError(t, err)
		got++
	}
	require.Equal(t, len(recs), got)
}
