package ipc

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
)

// TestDecoderByteAtATime feeds every golden stream to the push decoder one
// byte at a time: it must ask for more bytes until a message is complete
// and then produce exactly what the stream reader produces.
func TestDecoderByteAtATime(t *testing.T) {
	for _, path := range conformanceFiles(t, ".stream") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			raw, err := os.ReadFile(path)
			require.NoError(t, err)
			want := readAllStream(t, raw)
			var got []string
			for _, rec := range feedByteAtATime(t, mustDecoder(t, WithValidation(array.ValidateFull)), raw) {
				got = append(got, rec.String())
			}
			require.Equal(t, want, got)
		})
	}
}

// feedByteAtATime writes raw to dec one byte at a time, calling Next
// until it asks for more, and returns the records up to the end of the
// stream, which it requires.
func feedByteAtATime(t *testing.T, dec *Decoder, raw []byte) []*alkaid.Record {
	t.Helper()
	var got []*alkaid.Record
	for i := range raw {
		dec.Write(raw[i : i+1])
		for {
			ev, err := dec.Next()
			if errors.Is(err, ErrNeedMore) {
				break
			}
			require.NoError(t, err, "at byte %d", i)
			if ev.Kind == EventRecord {
				got = append(got, ev.Record)
			}
			if ev.Kind == EventEnd {
				return got
			}
		}
	}
	require.Fail(t, "no end-of-stream event")
	return nil
}

func readAllStream(t *testing.T, raw []byte) []string {
	t.Helper()
	sr, err := NewStreamReader(bytesReader(raw))
	require.NoError(t, err)
	var out []string
	for rec, err := range sr.Records() {
		require.NoError(t, err)
		out = append(out, rec.String())
	}
	return out
}

// TestOpenFileZeroCopy checks that OpenFile builds arrays whose value
// buffers lie inside the mapping, and that they stay readable after the
// reader is closed and forgotten.
func TestOpenFileZeroCopy(t *testing.T) {
	path := filepath.Join(conformanceDir, "cpp-21.0.0", "generated_primitive.arrow_file")
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s absent (../shared is missing in a fresh clone)", path)
	} else if err != nil {
		t.Fatal(err)
	}
	fr, err := OpenFile(path)
	require.NoError(t, err)
	mapping := fr.region.Bytes()
	lo := uintptr(unsafe.Pointer(&mapping[0]))
	hi := lo + uintptr(len(mapping))
	rec, err := fr.Record(0)
	require.NoError(t, err)
	want := rec.String()
	inside := 0
	for i := range rec.NumCols() {
		d := rec.Column(i).Data()
		if len(d.Buffers) < 2 || d.Buffers[1].Len() == 0 {
			continue
		}
		p := uintptr(unsafe.Pointer(&d.Buffers[1].Bytes()[0]))
		require.True(t, p >= lo && p < hi, "column %d's values were copied out of the mapping", i)
		inside++
	}
	require.Greater(t, inside, 10)
	require.NoError(t, fr.Close())
	fr, mapping = nil, nil
	for range 3 {
		runtime.GC()
	}
	require.Equal(t, want, rec.String(), "arrays must outlive Close")
}

// TestDecoderVerifiesEachMessageOnce feeds a stream one byte at a time:
// once a message's metadata is in and verified, waiting for its body must
// not verify it again on every call (metadata of many tables made that
// cost seconds per megabyte of body).
func TestDecoderVerifiesEachMessageOnce(t *testing.T) {
	s, recs := randomBatches(2)
	raw := writeStream(t, s, recs)
	calls := 0
	verify := verifyMessageMeta
	verifyMessageMeta = func(meta []byte, l Limits) error { calls++; return verify(meta, l) }
	defer func() { verifyMessageMeta = verify }()
	requireSameRecords(t, recs, feedByteAtATime(t, mustDecoder(t), raw), "byte at a time")
	decoderCalls := calls
	messages := 0
	for r := bytesReader(raw); ; messages++ {
		if _, err := ReadMessage(r); err != nil {
			break
		}
	}
	require.Equal(t, messages, calls-decoderCalls, "verifications by ReadMessage")
	require.Equal(t, messages, decoderCalls, "verifications of a %d-byte stream of %d messages", len(raw), messages)
}
