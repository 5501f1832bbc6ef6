package ipc

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
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

// randomBatches returns batches of every type: a whole record, a slice
// with a non-zero offset, an empty slice and a zero-row batch. They share
// their dictionaries, as the file format requires.
func randomBatches(seed uint64) (*alkaid.Schema, []*alkaid.Record) {
	s := randdata.AllTypes()
	full := randdata.New(seed).Record(s, 57)
	return s, []*alkaid.Record{full, full.Slice(13, 50), full.Slice(57, 57), full.Slice(0, 0)}
}

// TestStreamDictionaryReplacementAndDelta writes batches whose
// dictionaries change (replacement) or grow (delta, when enabled); the
// file writer refuses a replacement.
func TestStreamDictionaryReplacementAndDelta(t *testing.T) {
	s := randdata.AllTypes()
	a, b := randdata.New(10).Record(s, 30), randdata.New(11).Record(s, 30)
	recs := []*alkaid.Record{a, b, a}
	for _, opts := range [][]Option{nil, {WithDictionaryDeltas()}} {
		raw := writeStream(t, s, recs, opts...)
		r, err := NewStreamReader(bytes.NewReader(raw), WithValidation(array.ValidateFull))
		require.NoError(t, err)
		var got []*alkaid.Record
		for rec, err := range r.Records() {
			require.NoError(t, err)
			got = append(got, rec)
		}
		requireSameRecords(t, recs, got, "replacement")
	}
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, s)
	require.NoError(t, err)
	require.NoError(t, w.Write(a))
	require.ErrorContains(t, w.Write(b), "the file format allows only deltas")
}

func writeStream(t *testing.T, s *alkaid.Schema, recs []*alkaid.Record, opts ...Option) []byte {
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

// readAll reads every record of the stream raw.
func readAll(t *testing.T, raw []byte, opts ...Option) []*alkaid.Record {
	t.Helper()
	r, err := NewStreamReaderBytes(raw, opts...)
	require.NoError(t, err)
	var got []*alkaid.Record
	for rec, err := range r.Records() {
		require.NoError(t, err)
		got = append(got, rec)
	}
	return got
}

func writeFile(t *testing.T, s *alkaid.Schema, recs []*alkaid.Record, opts ...Option) []byte {
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
			opts := []Option{WithCompression(codec, 0), WithAlignment(align)}
			t.Run(name+"/stream", func(t *testing.T) {
				raw := writeStream(t, s, recs, opts...)
				for _, open := range []func() (*StreamReader, error){
					func() (*StreamReader, error) {
						return NewStreamReader(bytes.NewReader(raw), WithValidation(array.ValidateFull))
					},
					func() (*StreamReader, error) { return NewStreamReaderBytes(raw, WithValidation(array.ValidateFull)) },
				} {
					r, err := open()
					require.NoError(t, err)
					var got []*alkaid.Record
					for rec, err := range r.Records() {
						require.NoError(t, err)
						got = append(got, rec)
					}
					requireSameRecords(t, recs, got, name)
				}
			})
			t.Run(name+"/file", func(t *testing.T) {
				raw := writeFile(t, s, recs, opts...)
				path := filepath.Join(dir, name+".ipc")
				require.NoError(t, os.WriteFile(path, raw, 0o644))
				for _, open := range []func() (*FileReader, error){
					func() (*FileReader, error) { return OpenFile(path, WithValidation(array.ValidateFull)) },
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
	got, err := drain(r)
	require.NoError(t, err)
	require.Empty(t, got)

	// A stream cut right after its schema (no end-of-stream marker) ends
	// cleanly too.
	r, err = NewStreamReader(bytes.NewReader(raw[:len(raw)-8]))
	require.NoError(t, err)
	got, err = drain(r)
	require.NoError(t, err)
	require.Empty(t, got)
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

// TestFileReadAsStream checks the differential property (the footer and
// the stream inside a file give the same batches) and salvage: a file cut
// anywhere still yields its complete batches when read as a stream.
func TestFileReadAsStream(t *testing.T) {
	s, recs := randomBatches(4)
	raw := writeFile(t, s, recs, WithCompression(LZ4Frame, 0))
	r, err := NewStreamReader(bytes.NewReader(raw))
	require.NoError(t, err)
	var got []*alkaid.Record
	for rec, err := range r.Records() {
		require.NoError(t, err)
		got = append(got, rec)
	}
	requireSameRecords(t, recs, got, "file as stream")

	fr, err := NewFileReader(bytes.NewReader(raw), int64(len(raw)))
	require.NoError(t, err)
	blocks, err := fr.recordBlocks()
	require.NoError(t, err)
	for _, cut := range []int{int(blocks[1].offset), int(blocks[2].offset + int64(blocks[2].metaLen) + 3), len(raw) - 20} {
		_, err := NewFileReader(bytes.NewReader(raw[:cut]), int64(cut))
		require.Error(t, err, "cut at %d", cut)
		r, err := NewStreamReader(bytes.NewReader(raw[:cut]))
		require.NoError(t, err)
		n := 0
		for _, err := range r.Records() {
			if err == nil {
				n++
			}
		}
		complete := 0
		for _, b := range blocks {
			if b.offset+int64(b.metaLen)+b.bodyLen <= int64(cut) {
				complete++
			}
		}
		require.Equal(t, complete, n, "cut at %d", cut)
	}
}

// TestDictionaryDelta checks that a dictionary that only grew is sent as a
// delta when asked (and in the file format), and read back whole.
func TestDictionaryDelta(t *testing.T) {
	dt, _ := datatype.NewDictionary(datatype.Int8, datatype.String, false)
	s := alkaid.NewSchema([]datatype.Field{{Name: "d", Type: dt, Nullable: true}}, datatype.Metadata{})
	mk := func(dict, idx string) *alkaid.Record {
		d, err := array.NewDictionaryArray(dt, arrayjson.MustParse(datatype.Int8, idx), arrayjson.MustParse(datatype.String, dict))
		require.NoError(t, err)
		rec, err := alkaid.NewRecord(s, []array.Array{d}, -1)
		require.NoError(t, err)
		return rec
	}
	recs := []*alkaid.Record{mk(`["a","b"]`, `[0,1,null]`), mk(`["a","b","c"]`, `[2,0]`), mk(`["a","b","c","d"]`, `[3]`)}
	for _, file := range []bool{false, true} {
		var raw []byte
		if file {
			raw = writeFile(t, s, recs)
		} else {
			raw = writeStream(t, s, recs, WithDictionaryDeltas())
		}
		dec := mustDecoder(t)
		dec.Write(raw[map[bool]int{false: 0, true: 8}[file]:])
		var deltas int
		var got []*alkaid.Record
		for {
			ev, err := dec.Next()
			require.NoError(t, err)
			if ev.Kind == EventEnd {
				break
			}
			if ev.Kind == EventDictionary && ev.Delta {
				deltas++
			}
			if ev.Kind == EventRecord {
				got = append(got, ev.Record)
			}
		}
		require.Equal(t, 2, deltas, "file=%v", file)
		requireSameRecords(t, recs, got, "deltas")
	}
}

// TestNonNullableNullTypeField reads what apache-arrow (JS) 21.2.0 writes
// for tableToIPC(new Table({n: vectorFromArray([null, null, null], new
// Null())}), 'stream'): a null-type field n marked non-nullable, with 3
// (null) slots. Arrow readers (arrow-go among them) accept it; Alkaid
// used to fail with "column 0 (n) is not nullable but has 3 nulls".
func TestNonNullableNullTypeField(t *testing.T) {
	stream, err := hex.DecodeString("ffffffff700000001000000000000a0010000e00070008000a00000000000001100000000000040008000800000004000800000004000000010000001400000010001400040000000f001000000008001000000010000000140000000000000114000000010000006e000000000000000400040004000000ffffffff60000000140000000000000000000a000e000c00070008000a000000000000031000000004000a0018000c00080004000a000000140000001800000003000000000000000000000000000000000000000100000003000000000000000300000000000000ffffffff00000000")
	require.NoError(t, err)
	r, err := NewStreamReader(bytes.NewReader(stream), WithValidation(array.ValidateFull))
	require.NoError(t, err)
	f := r.Schema().Field(0)
	require.Equal(t, "n", f.Name)
	require.False(t, f.Nullable)
	require.Equal(t, datatype.KindNull, f.Type.Kind())
	rec := firstRecord(t, r)
	require.Equal(t, 3, rec.NumRows())
	require.Equal(t, 3, rec.Column(0).NullN())

	// And it writes back.
	r, err = NewStreamReader(bytes.NewReader(writeStream(t, rec.Schema(), []*alkaid.Record{rec})), WithValidation(array.ValidateFull))
	require.NoError(t, err)
	back := firstRecord(t, r)
	requireSameRecords(t, []*alkaid.Record{rec}, []*alkaid.Record{back}, "stream")
}
