package ipc

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// An invalid option value, or an option of the other side, makes every
// constructor return an error wrapping ErrInvalid that names the option;
// nothing is clamped.
func TestInvalidOptions(t *testing.T) {
	s, recs := randomBatches(1)
	stream := writeStream(t, s, recs)
	file := writeFile(t, s, recs)
	readers := map[string]func(...Option) error{
		"NewStreamReader":      func(o ...Option) error { _, err := NewStreamReader(bytes.NewReader(stream), o...); return err },
		"NewStreamReaderBytes": func(o ...Option) error { _, err := NewStreamReaderBytes(stream, o...); return err },
		"NewFileReader": func(o ...Option) error {
			_, err := NewFileReader(bytes.NewReader(file), int64(len(file)), o...)
			return err
		},
		"NewDecoder":  func(o ...Option) error { _, err := NewDecoder(o...); return err },
		"ReadMessage": func(o ...Option) error { _, err := ReadMessage(bytes.NewReader(stream), o...); return err },
	}
	writers := map[string]func(...Option) error{
		"NewStreamWriter":   func(o ...Option) error { _, err := NewStreamWriter(&bytes.Buffer{}, s, o...); return err },
		"NewFileWriter":     func(o ...Option) error { _, err := NewFileWriter(&bytes.Buffer{}, s, o...); return err },
		"NewMessageEncoder": func(o ...Option) error { _, err := NewMessageEncoder(s, o...); return err },
	}
	for _, c := range []struct {
		opt     Option
		readers bool // the option is refused by the readers (else by the writers)
		want    string
	}{
		{WithConcurrency(-1), true, "WithConcurrency(-1): goroutines must be 0 (GOMAXPROCS) or more"},
		{WithConcurrency(-1), false, "WithConcurrency(-1)"},
		{WithLimits(Limits{MaxDepth: -1}), true, "WithLimits: MaxDepth is -1"},
		{WithValidation(array.ValidationLevel(9)), true, "WithValidation(9): not a validation level"},
		{WithAlignment(7), false, "WithAlignment(7): alignment must be 8 or 64"},
		{WithAlignment(16), false, "WithAlignment(16)"},
		{WithCompression(Codec(9), 0), false, "WithCompression(9, 0): unknown codec"},
		{WithCompression(LZ4Frame, 12), false, "WithCompression(lz4, 12): level must be 0 to 9"},
		{WithCompression(Zstd, -1), false, "WithCompression(zstd, -1): level must be 0 to 22"},
		{WithCompression(Uncompressed, 3), false, "WithCompression(none, 3): level must be 0 to 0"},
		// One side's options given to the other.
		{WithAlignment(64), true, "WithAlignment is a writer option, given to a reader"},
		{WithCompression(Zstd, 0), true, "WithCompression is a writer option"},
		{WithArrowCompat(), true, "WithArrowCompat is a writer option"},
		{WithDictionaryDeltas(), true, "WithDictionaryDeltas is a writer option"},
		{WithoutCompressionProbe(), true, "WithoutCompressionProbe is a writer option"},
		{WithLimits(Limits{}), false, "WithLimits is a reader option, given to a writer"},
		{WithValidation(array.ValidateFull), false, "WithValidation is a reader option"},
		{WithoutByteSwap(), false, "WithoutByteSwap is a reader option"},
		{WithStrictSchemaMessage(), false, "WithStrictSchemaMessage is a reader option"},
		{WithoutValueChecks(array.CheckDecimalPrecision), false, "WithoutValueChecks is a reader option"},
	} {
		ctors := writers
		if c.readers {
			ctors = readers
		}
		for name, ctor := range ctors {
			err := ctor(c.opt)
			require.ErrorIs(t, err, ErrInvalid, "%s: %s", name, c.want)
			require.Contains(t, err.Error(), "ipc: ")
			require.Contains(t, err.Error(), c.want, name)
		}
	}
	// Valid values are kept as given.
	for _, c := range []struct {
		opts        []Option
		concurrency int
	}{
		{nil, runtime.GOMAXPROCS(0)},
		{[]Option{WithConcurrency(0)}, runtime.GOMAXPROCS(0)},
		{[]Option{WithConcurrency(1)}, 1},
		{[]Option{WithConcurrency(7), WithConcurrency(3)}, 3},
	} {
		r, err := newReaderConfig(c.opts)
		require.NoError(t, err)
		require.Equal(t, c.concurrency, r.concurrency)
		w, err := newWriterConfig(c.opts)
		require.NoError(t, err)
		require.Equal(t, c.concurrency, w.concurrency)
	}
	w, err := newWriterConfig([]Option{WithAlignment(64), WithCompression(LZ4Frame, 9)})
	require.NoError(t, err)
	require.Equal(t, 64, w.alignment)
	require.Equal(t, 9, w.level)
}

// Misuse of a reader or writer is an error wrapping ErrInvalid with the
// package prefix.
func TestMisuseErrorsWrapErrInvalid(t *testing.T) {
	s, recs := randomBatches(1)
	other := schemaOf(datatype.Field{Name: "z", Type: datatype.Int64})
	file := writeFile(t, s, recs)
	for _, c := range []struct {
		name string
		do   func() error
		want string
	}{
		{"write to a closed stream writer", func() error {
			w, err := NewStreamWriter(&bytes.Buffer{}, s)
			require.NoError(t, err)
			require.NoError(t, w.Close())
			return w.Write(recs[0])
		}, "write to a closed stream writer"},
		{"write to a closed file writer", func() error {
			w, err := NewFileWriter(&bytes.Buffer{}, s)
			require.NoError(t, err)
			require.NoError(t, w.Close())
			return w.Write(recs[0])
		}, "write to a closed file writer"},
		{"a record of another schema", func() error {
			w, err := NewStreamWriter(&bytes.Buffer{}, other)
			require.NoError(t, err)
			return w.Write(recs[0])
		}, "record schema differs"},
		{"a batch index out of range", func() error {
			fr, err := NewFileReader(bytes.NewReader(file), int64(len(file)))
			require.NoError(t, err)
			_, err = fr.Record(fr.NumRecords())
			return err
		}, "no record batch"},
		{"a read after Close", func() error {
			fr, err := NewFileReader(bytes.NewReader(file), int64(len(file)))
			require.NoError(t, err)
			require.NoError(t, fr.Close())
			_, err = fr.Record(0)
			return err
		}, "read from a closed file reader"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.do()
			require.ErrorIs(t, err, ErrInvalid)
			require.ErrorContains(t, err, "ipc: ")
			require.ErrorContains(t, err, c.want)
		})
	}
}
