package ipc

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

// Both readers are the one record source of the module, and both writers
// its one sink.
var (
	_ alkaid.RecordReader = (*StreamReader)(nil)
	_ alkaid.RecordReader = (*FileReader)(nil)
	_ alkaid.RecordWriter = (*StreamWriter)(nil)
	_ alkaid.RecordWriter = (*FileWriter)(nil)
)

// drain reads every batch of r: the batches before an error, and the
// error.
func drain(r alkaid.RecordReader) ([]*alkaid.Record, error) {
	var recs []*alkaid.Record
	for rec, err := range r.Records() {
		if err != nil {
			return recs, err
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// firstRecord is the first batch of r, which must have one.
func firstRecord(t *testing.T, r alkaid.RecordReader) *alkaid.Record {
	t.Helper()
	for rec, err := range r.Records() {
		require.NoError(t, err)
		return rec
	}
	require.FailNow(t, "no record batch")
	return nil
}

// A stream is read once: a second Records, or one after Close, yields an
// error wrapping ErrInvalid and nothing else; Close leaves the io.Reader
// it was given alone and batches already read valid. A file reader can be
// iterated again.
func TestStreamReaderReadOnce(t *testing.T) {
	s, recs := randomBatches(2)
	raw := writeStream(t, s, recs)

	r, err := NewStreamReader(bytes.NewReader(raw))
	require.NoError(t, err)
	got, err := drain(r)
	require.NoError(t, err)
	require.Equal(t, len(recs), len(got))
	again, err := drain(r)
	require.ErrorIs(t, err, ErrInvalid)
	require.Zero(t, len(again))
	require.Contains(t, err.Error(), "ipc: ")

	r, err = NewStreamReader(bytes.NewReader(raw))
	require.NoError(t, err)
	require.NoError(t, r.Close())
	require.NoError(t, r.Close(), "Close twice")
	_, err = drain(r)
	require.ErrorIs(t, err, ErrInvalid)
	require.Equal(t, recs[0].String(), got[0].String(), "batches outlive Close")

	file := writeFile(t, s, recs)
	fr, err := NewFileReader(bytes.NewReader(file), int64(len(file)))
	require.NoError(t, err)
	for range 2 {
		got, err := drain(fr)
		require.NoError(t, err)
		requireSameRecords(t, recs, got, "file")
	}
	require.NoError(t, fr.Close())
}

// alkaid.ReadAll and alkaid.Copy take the readers and writers as they are.
func TestReadAllAndCopy(t *testing.T) {
	s, recs := randomBatches(2)
	total := 0
	for _, r := range recs {
		total += r.NumRows()
	}
	raw := writeFile(t, s, recs)
	fr, err := NewFileReader(bytes.NewReader(raw), int64(len(raw)))
	require.NoError(t, err)
	var out bytes.Buffer
	w, err := NewStreamWriter(&out, s)
	require.NoError(t, err)
	rows, err := alkaid.Copy(w, fr)
	require.NoError(t, err)
	require.Equal(t, int64(total), rows)
	require.NoError(t, w.Close())
	sr, err := NewStreamReaderBytes(out.Bytes())
	require.NoError(t, err)
	tbl, err := alkaid.ReadAll(sr)
	require.NoError(t, err)
	require.Equal(t, total, tbl.NumRows())
}

// mustDecoder is NewDecoder of valid options.
func mustDecoder(t testing.TB, opts ...Option) *Decoder {
	t.Helper()
	d, err := NewDecoder(opts...)
	require.NoError(t, err)
	return d
}

// mustEncoder is NewMessageEncoder of valid options.
func mustEncoder(t testing.TB, s *alkaid.Schema, opts ...Option) *MessageEncoder {
	t.Helper()
	e, err := NewMessageEncoder(s, opts...)
	require.NoError(t, err)
	return e
}

// Both IPC readers say each batch's metadata as Records yields it,
// through the one interface a consumer asks for.
func TestBatchMetadata(t *testing.T) {
	s := alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int32}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{arrayjson.MustParse(datatype.Int32, `[1]`)}, -1)
	require.NoError(t, err)
	metas := []map[string]string{{"i": "0"}, nil, {"i": "2"}}
	var file, stream bytes.Buffer
	fw, err := NewFileWriter(&file, s)
	require.NoError(t, err)
	sw, err := NewStreamWriter(&stream, s)
	require.NoError(t, err)
	for _, m := range metas {
		require.NoError(t, fw.WriteWithMetadata(rec, m))
		require.NoError(t, sw.WriteWithMetadata(rec, m))
	}
	require.NoError(t, fw.Close())
	require.NoError(t, sw.Close())
	fr, err := NewFileReader(bytes.NewReader(file.Bytes()), int64(file.Len()))
	require.NoError(t, err)
	sr, err := NewStreamReader(&stream)
	require.NoError(t, err)
	for _, r := range []alkaid.RecordReader{fr, sr} {
		bm, ok := r.(alkaid.BatchMetadata)
		require.True(t, ok)
		i := 0
		for _, err := range r.Records() {
			require.NoError(t, err)
			require.Equal(t, metas[i], bm.Metadata(), "batch %d", i)
			i++
		}
		require.Equal(t, len(metas), i)
	}
}
