package ipc

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

// requireSameRecords compares records value by value (through their
// printed form, which shows every logical value and null).
func requireSameRecords(t *testing.T, want, got []*alkaid.Record, what string) {
	t.Helper()
	require.Equal(t, len(want), len(got), "%s: number of batches", what)
	for i := range want {
		require.True(t, want[i].Schema().Equal(got[i].Schema()), "%s: batch %d schema", what, i)
		require.Equal(t, want[i].NumRows(), got[i].NumRows(), "%s: batch %d rows", what, i)
		for c := range want[i].NumCols() {
			w, g := want[i].Column(c).String(), got[i].Column(c).String()
			if w != g {
				require.Failf(t, "values differ", "%s: batch %d column %s:\nwant %.300s\ngot  %.300s", what, i, want[i].ColumnName(c), w, g)
			}
		}
	}
}

// randomBatches returns batches of every type: a normal one, a slice with
// a non-zero offset, an empty slice and a zero-row batch.
func randomBatches(seed uint64) (*alkaid.Schema, []*alkaid.Record) {
	s := randdata.AllTypes()
	g := randdata.New(seed)
	full := g.Record(s, 57)
	return s, []*alkaid.Record{
		g.Record(s, 40),
		full.Slice(13, 50),
		full.Slice(57, 57),
		g.Record(s, 0),
	}
}

func writeStream(t *testing.T, s *alkaid.Schema, recs []*alkaid.Record, opts ...WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewStreamWriter(&buf, s, opts...)
	require.NoError(t, err)
	for _, r := range recs {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func writeFile(t *testing.T, s *alkaid.Schema, recs []*alkaid.Record, opts ...WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, s, opts...)
	require.NoError(t, err)
	for _, r := range recs {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func TestRoundTripEveryType(t *testing.T) {
	s, recs := randomBatches(1)
	dir := t.TempDir()
	for _, codec := range []Codec{Uncompressed, LZ4Frame, Zstd} {
		for _, align := range []int{8, 64} {
			name := fmt.Sprintf("%s-align%d", codec, align)
			opts := []WriterOption{WithCompression(codec, 0), WithAlignment(align)}
			t.Run(name+"/stream", func(t *testing.T) {
				raw := writeStream(t, s, recs, opts...)
				r, err := NewStreamReader(bytes.NewReader(raw), WithValidation(ValidateAll))
				require.NoError(t, err)
				var got []*alkaid.Record
				for rec := range r.Records() {
					got = append(got, rec)
				}
				require.NoError(t, r.Err())
				requireSameRecords(t, recs, got, name)
			})
			t.Run(name+"/file", func(t *testing.T) {
				raw := writeFile(t, s, recs, opts...)
				path := filepath.Join(dir, name+".ipc")
				require.NoError(t, os.WriteFile(path, raw, 0o644))
				for _, open := range []func() (*FileReader, error){
					func() (*FileReader, error) { return OpenFile(path, WithValidation(ValidateAll)) },
					func() (*FileReader, error) { return NewFileReader(bytes.NewReader(raw), int64(len(raw))) },
				} {
					fr, err := open()
					require.NoError(t, err)
					require.Equal(t, Magic, fr.Magic())
					var got []*alkaid.Record
					for rec, err := range fr.Records() {
						require.NoError(t, err)
						got = append(got, rec)
					}
					requireSameRecords(t, recs, got, name)
				}
			})
		}
	}
}

func TestStreamWithNoBatches(t *testing.T) {
	s, _ := randomBatches(2)
	raw := writeStream(t, s, nil)
	r, err := NewStreamReader(bytes.NewReader(raw))
	require.NoError(t, err)
	require.True(t, r.Schema().Equal(s))
	require.False(t, r.Next())
	require.NoError(t, r.Err())

	// A stream cut right after its schema (no end-of-stream marker) ends
	// cleanly too.
	r, err = NewStreamReader(bytes.NewReader(raw[:len(raw)-8]))
	require.NoError(t, err)
	require.False(t, r.Next())
	require.NoError(t, r.Err())
}

func TestArrowCompatFileMagic(t *testing.T) {
	s, recs := randomBatches(3)
	raw := writeFile(t, s, recs, WithArrowCompat())
	require.Equal(t, "ARROW1\x00\x00", string(raw[:8]))
	require.Equal(t, "ARROW1", string(raw[len(raw)-6:]))
	fr, err := NewFileReader(bytes.NewReader(raw), int64(len(raw)))
	require.NoError(t, err)
	require.Equal(t, ArrowMagic, fr.Magic())
	raw = writeFile(t, s, recs)
	require.Equal(t, "ALKAID1\x00", string(raw[:8]))
	require.Equal(t, "ALKAID1", string(raw[len(raw)-7:]))
}
