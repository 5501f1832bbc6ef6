package ipc

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

// deltaRecords makes n records over one dictionary column whose dictionary
// grows by one value per record (the writer sends each as a delta); each
// record's index points at its newest value and at the first.
func deltaRecords(t *testing.T, value datatype.DataType, values array.Array, n int) (*alkaid.Schema, []*alkaid.Record) {
	t.Helper()
	dt, err := datatype.NewDictionary(datatype.Int32, value, false)
	require.NoError(t, err)
	s := alkaid.NewSchema([]datatype.Field{{Name: "d", Type: dt, Nullable: true}}, datatype.Metadata{})
	recs := make([]*alkaid.Record, n)
	for i := range recs {
		ib := array.NewPrimitiveBuilder[int32](datatype.Int32)
		ib.AppendValues([]int32{int32(i), 0}, nil)
		d, err := array.NewDictionaryArray(dt, ib.Finish(), array.Slice(values, 0, i+1))
		require.NoError(t, err)
		if recs[i], err = alkaid.NewRecord(s, []array.Array{d}, -1); err != nil {
			t.Fatal(err)
		}
	}
	return s, recs
}

// dictValuesAddr is where the values (or value bytes) of a record's
// dictionary start.
func dictValuesAddr(rec *alkaid.Record) uintptr {
	dict := rec.Column(0).Data().Dictionary
	b := dict.Buffers[len(dict.Buffers)-1].Bytes()
	if len(b) == 0 {
		return 0
	}
	return uintptr(unsafe.Pointer(&b[0]))
}

func TestDictionaryDeltasGrowInPlace(t *testing.T) {
	const n = 300
	g := randdata.New(3)
	withNull := array.MustFromJSON(datatype.String, `["a", "b", null, "d"]`)
	fsb := &datatype.FixedSizeBinaryType{ByteWidth: 3}
	dec, err := datatype.NewDecimal(128, 20, 3)
	require.NoError(t, err)
	for _, c := range []struct {
		name    string
		value   datatype.DataType
		values  array.Array
		inPlace bool
	}{
		{"utf8", datatype.String, g.Array(datatype.String, n, false), true},
		{"large utf8", datatype.LargeString, g.Array(datatype.LargeString, n, false), true},
		{"binary", datatype.Binary, g.Array(datatype.Binary, n, false), true},
		{"int64", datatype.Int64, g.Array(datatype.Int64, n, false), true},
		{"fixed-size binary", fsb, g.Array(fsb, n, false), true},
		{"decimal128", dec, g.Array(dec, n, false), true},
		{"utf8 with a null", datatype.String, withNull, true},
		{"int64 with nulls", datatype.Int64, g.Array(datatype.Int64, n, true), true},
		// Not grown in place: concatenated per delta, as before.
		{"bool", datatype.Bool, g.Array(datatype.Bool, n, false), false},
		{"string view", datatype.StringView, g.Array(datatype.StringView, n, false), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			values := c.values
			s, recs := deltaRecords(t, values.DataType(), values, values.Len())
			raw := writeStream(t, s, recs, WithDictionaryDeltas())
			r, err := NewStreamReaderBytes(raw)
			require.NoError(t, err)
			var got []*alkaid.Record
			var before []string
			for rec := range r.Records() {
				got = append(got, rec)
				before = append(before, rec.String())
			}
			require.NoError(t, r.Err())
			// Every record still reads as it did when it came out, after
			// all the deltas that followed it.
			for i, rec := range got {
				require.Equal(t, before[i], rec.String(), "record %d changed", i)
			}
			requireSameRecords(t, recs, got, c.name)
			starts := map[uintptr]bool{}
			for _, rec := range got[1:] {
				starts[dictValuesAddr(rec)] = true
			}
			if c.inPlace {
				// Doubling: a handful of allocations for all the deltas.
				require.LessOrEqual(t, len(starts), 16, "dictionary moved %d times in %d deltas", len(starts), len(got)-1)
			} else {
				require.Equal(t, len(got)-1, len(starts), "a new buffer for every delta")
			}
		})
	}
}

// TestConcurrentDictionaryDeltas reads each record on another goroutine
// while the reader goes on applying deltas (run it with -race): the bytes
// of a dictionary handed out must not be written again, its validity
// bitmap included.
func TestConcurrentDictionaryDeltas(t *testing.T) {
	values := randdata.New(4).Array(datatype.String, 400, true)
	require.Positive(t, values.NullN())
	s, recs := deltaRecords(t, datatype.String, values, values.Len())
	raw := writeStream(t, s, recs, WithDictionaryDeltas())
	r, err := NewStreamReaderBytes(raw)
	require.NoError(t, err)
	out := make(chan *alkaid.Record, 4)
	done := make(chan []string)
	go func() {
		var seen []string
		for rec := range out {
			seen = append(seen, rec.String())
		}
		done <- seen
	}()
	for rec := range r.Records() {
		out <- rec
	}
	close(out)
	seen := <-done
	require.NoError(t, r.Err())
	require.Len(t, seen, len(recs))
	for i, rec := range recs {
		require.Equal(t, rec.String(), seen[i], fmt.Sprintf("record %d", i))
	}
}

// TestDictionaryDeltaAfterNulls grows a dictionary past its first null:
// the records before it keep no bitmap, the ones after each get their
// own.
func TestDictionaryDeltaAfterNulls(t *testing.T) {
	values := array.MustFromJSON(datatype.String, `["a", "b", "c", null, "e", "f"]`)
	s, recs := deltaRecords(t, datatype.String, values, values.Len())
	raw := writeStream(t, s, recs, WithDictionaryDeltas())
	r, err := NewStreamReaderBytes(raw)
	require.NoError(t, err)
	var got []*alkaid.Record
	for rec := range r.Records() {
		got = append(got, rec)
	}
	require.NoError(t, r.Err())
	requireSameRecords(t, recs, got, "deltas around a null")
	last := got[len(got)-1].Column(0).(*array.Dictionary).Dictionary()
	require.Equal(t, `["a" "b" "c" (null) "e" "f"]`, last.String())
	require.Equal(t, 1, last.NullN())
	require.Nil(t, got[2].Column(0).(*array.Dictionary).Dictionary().Data().Buffers[0])
	b4 := got[4].Column(0).(*array.Dictionary).Dictionary().Data().Buffers[0].Bytes()
	b5 := got[5].Column(0).(*array.Dictionary).Dictionary().Data().Buffers[0].Bytes()
	require.NotSame(t, &b4[0], &b5[0], "records share a validity bitmap that a delta changes")
}
