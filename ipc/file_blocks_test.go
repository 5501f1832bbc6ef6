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

// TestFileBlocksMustNotRepeat lists one delta dictionary block, or one
// record batch block, many times in a footer: applied once per entry, a
// short file would grow its dictionary without bound, and a pass over the
// batches would decode one message once per entry.
func TestFileBlocksMustNotRepeat(t *testing.T) {
	dt, _ := datatype.NewDictionary(datatype.Int32, datatype.String, false)
	s := alkaid.NewSchema([]datatype.Field{{Name: "d", Type: dt, Nullable: true}}, datatype.Metadata{})
	values := arrayjson.MustParse(datatype.String, `["a", "b", "c"]`)
	mk := func(n int) *alkaid.Record {
		d, err := array.NewDictionaryArray(dt, arrayjson.MustParse(datatype.Int32, `[0]`), array.Slice(values, 0, n))
		require.NoError(t, err)
		rec, err := alkaid.NewRecord(s, []array.Array{d}, -1)
		require.NoError(t, err)
		return rec
	}
	write := func(repeat, repeatBatch int) []byte {
		var buf bytes.Buffer
		w, err := NewFileWriter(&buf, s)
		require.NoError(t, err)
		require.NoError(t, w.Write(mk(1)))
		require.NoError(t, w.Write(mk(3))) // a delta of two values
		require.Len(t, w.enc.dictBlocks, 2)
		for range repeat {
			w.enc.dictBlocks = append(w.enc.dictBlocks, w.enc.dictBlocks[1])
		}
		for range repeatBatch {
			w.enc.recBlocks = append(w.enc.recBlocks, w.enc.recBlocks[1])
		}
		require.NoError(t, w.Close())
		return buf.Bytes()
	}
	raw := write(0, 0)
	fr, err := NewFileReader(bytes.NewReader(raw), int64(len(raw)))
	require.NoError(t, err)
	rec, err := fr.Record(1)
	require.NoError(t, err)
	require.Equal(t, 3, rec.Column(0).(*array.Dictionary).Dictionary().Len())

	raw = write(1000, 0)
	_, err = NewFileReader(bytes.NewReader(raw), int64(len(raw)))
	require.ErrorIs(t, err, ErrInvalid)
	require.ErrorContains(t, err, "footer dictionary block 2 (offset")

	// A batch named twice: reading every batch stops at the repeat.
	raw = write(0, 1000)
	fr, err = NewFileReader(bytes.NewReader(raw), int64(len(raw)))
	require.NoError(t, err)
	require.Equal(t, 1002, fr.NumRecords())
	_, err = fr.Record(1)
	require.NoError(t, err)
	_, err = fr.Record(2)
	require.ErrorIs(t, err, ErrInvalid)
	require.ErrorContains(t, err, "footer record batch block 2 (offset")
}
