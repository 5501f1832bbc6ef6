package ipc

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
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

// sharedBufferStarts adds, under a key per buffer position, where each
// buffer of d and its children starts; bit-packed buffers (validity, bool
// values), which every grown dictionary copies, are left out.
func sharedBufferStarts(d *array.Data, key string, starts map[string]map[uintptr]bool) {
	bufferStarts(d, key, 0, starts)
}

// bufferStarts is sharedBufferStarts of d, read from offset outer more
// (the offset of the struct d is a field of).
func bufferStarts(d *array.Data, key string, outer int, starts map[string]map[uintptr]bool) {
	k := datatype.StorageOf(d.Type).Kind()
	for i, b := range d.Buffers {
		union := k == datatype.KindSparseUnion || k == datatype.KindDenseUnion
		if b == nil || b.Len() == 0 || i == 0 && !union || k == datatype.KindBool {
			continue
		}
		at := fmt.Sprintf("%s/%d", key, i)
		if starts[at] == nil {
			starts[at] = map[uintptr]bool{}
		}
		// A grown array starts at an offset of 0 to 7 into room kept
		// before its first value: count where that value is.
		shift := 0
		if i == 1 || i == 2 && (k == datatype.KindListView || k == datatype.KindLargeListView) {
			shift = (d.Offset + outer) * elemWidth(d)
		}
		starts[at][uintptr(unsafe.Pointer(&b.Bytes()[0]))+uintptr(shift)] = true
	}
	for i, c := range d.Children {
		inner := 0
		if k == datatype.KindStruct {
			inner = d.Offset + outer
		}
		bufferStarts(c, fmt.Sprintf("%s.%d", key, i), inner, starts)
	}
}

// elemWidth is the bytes per slot of the buffers an offset applies to.
func elemWidth(d *array.Data) int {
	switch s := datatype.StorageOf(d.Type); s.Kind() {
	case datatype.KindBinary, datatype.KindString, datatype.KindList, datatype.KindMap, datatype.KindListView:
		return 4
	case datatype.KindLargeBinary, datatype.KindLargeString, datatype.KindLargeList, datatype.KindLargeListView:
		return 8
	case datatype.KindBinaryView, datatype.KindStringView:
		return 16
	case datatype.KindDictionary:
		return datatype.ByteWidth(s.(*datatype.DictionaryType).Index)
	default:
		return datatype.ByteWidth(s)
	}
}

func hasDictionary(t datatype.DataType) bool {
	s := datatype.StorageOf(t)
	if s.Kind() == datatype.KindDictionary {
		return true
	}
	for _, f := range datatype.Children(s) {
		if hasDictionary(f.Type) {
			return true
		}
	}
	return false
}

// TestDictionaryDeltasGrowInPlace sends a dictionary of every type of
// randdata.AllTypes (with nulls) and a few more, one value per delta.
func TestDictionaryDeltasGrowInPlace(t *testing.T) {
	const n = 300
	g := randdata.New(3)
	type valueCase struct {
		name   string
		values array.Array
	}
	cases := []valueCase{
		{"utf8 with a null", arrayjson.MustParse(datatype.String, `["a", "b", null, "d"]`)},
		{"int64 without nulls", g.Array(datatype.Int64, n, false)},
		{"utf8 view without nulls", g.Array(datatype.StringView, n, false)},
	}
	for _, f := range randdata.AllTypes().Fields() {
		if f.Type.Kind() == datatype.KindDictionary {
			continue // the format has no dictionary of dictionaries
		}
		cases = append(cases, valueCase{f.Name, g.Array(f.Type, n, true)})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			values := c.values
			s, recs := deltaRecords(t, values.DataType(), values, values.Len())
			raw := writeStream(t, s, recs, WithDictionaryDeltas())
			r, err := NewStreamReaderBytes(raw)
			require.NoError(t, err)
			var got []*alkaid.Record
			var before []string
			for rec, err := range r.Records() {
				require.NoError(t, err)
				got = append(got, rec)
				before = append(before, rec.String())
			}
			// Every record still reads as it did when it came out, after
			// all the deltas that followed it.
			for i, rec := range got {
				require.Equal(t, before[i], rec.String(), "record %d changed", i)
				require.NoError(t, array.Validate(rec.Column(0).Data().Dictionary, array.ValidateFull), "record %d", i)
			}
			requireSameRecords(t, recs, got, c.name)
			// Doubling: a handful of allocations per buffer for all the
			// deltas.
			starts := map[string]map[uintptr]bool{}
			for _, rec := range got[1:] {
				sharedBufferStarts(rec.Column(0).Data().Dictionary, "", starts)
			}
			for at, s := range starts {
				require.LessOrEqual(t, len(s), 16, "buffer %s moved %d times in %d deltas", at, len(s), len(got)-1)
			}
		})
	}
}

// TestConcurrentDictionaryDeltas reads each record on another goroutine
// while the reader goes on applying deltas (run it with -race): the bytes
// of a dictionary handed out must not be written again, its validity
// bitmap included.
func TestConcurrentDictionaryDeltas(t *testing.T) {
	types := map[string]datatype.DataType{}
	for _, f := range randdata.AllTypes().Fields() {
		types[f.Name] = f.Type
	}
	for _, name := range []string{"utf8", "bool", "int8", "utf8_view", "list_of_struct", "list_view", "dense_union", "run_end_encoded_utf8", "list_of_dictionary", "struct_of_dictionary"} {
		t.Run(name, func(t *testing.T) {
			values := randdata.New(4).Array(types[name], 400, true)
			require.Positive(t, values.NullN()+len(values.Data().Children))
			s, recs := deltaRecords(t, values.DataType(), values, values.Len())
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
			for rec, err := range r.Records() {
				require.NoError(t, err)
				out <- rec
			}
			close(out)
			seen := <-done
			require.Len(t, seen, len(recs))
			for i, rec := range recs {
				require.Equal(t, rec.String(), seen[i], fmt.Sprintf("record %d", i))
			}
		})
	}
}

// TestDictionaryDeltaAfterNulls grows a dictionary past its first null:
// the records before it keep no bitmap, the ones after each get their
// own.
func TestDictionaryDeltaAfterNulls(t *testing.T) {
	values := arrayjson.MustParse(datatype.String, `["a", "b", "c", null, "e", "f"]`)
	s, recs := deltaRecords(t, datatype.String, values, values.Len())
	got := readAll(t, writeStream(t, s, recs, WithDictionaryDeltas()))
	requireSameRecords(t, recs, got, "deltas around a null")
	last := got[len(got)-1].Column(0).(*array.Dictionary).Dictionary()
	require.Equal(t, `["a" "b" "c" (null) "e" "f"]`, last.String())
	require.Equal(t, 1, last.NullN())
	require.Nil(t, got[2].Column(0).(*array.Dictionary).Dictionary().Data().Buffers[0])
	b4 := got[4].Column(0).(*array.Dictionary).Dictionary().Data().Buffers[0].Bytes()
	b5 := got[5].Column(0).(*array.Dictionary).Dictionary().Data().Buffers[0].Bytes()
	require.NotSame(t, &b4[0], &b5[0], "records share a validity bitmap that a delta changes")
}

// TestGrownMatchesConcatenate grows arrays of every type from random
// slices, offsets included (the reader only hands it whole arrays), and
// compares each step with a concatenation of the same pieces.
func TestGrownMatchesConcatenate(t *testing.T) {
	g := randdata.New(14)
	r := rand.New(rand.NewPCG(14, 15))
	for _, f := range randdata.AllTypes().Fields() {
		if hasDictionary(f.Type) {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			for round := range 5 {
				var pieces []array.Array
				for range 1 + r.IntN(6) {
					src := g.Array(f.Type, 1+r.IntN(40), round%2 == 0)
					i := r.IntN(src.Len())
					pieces = append(pieces, array.Slice(src, i, i+r.IntN(src.Len()-i+1)))
				}
				grown, err := array.GrowFrom(pieces[0].Data(), nil)
				require.NoError(t, err)
				for k := range pieces {
					if k > 0 {
						require.NoError(t, grown.Append(pieces[k].Data()), "piece %d", k)
					}
					want, err := array.Concatenate(pieces[:k+1]...)
					require.NoError(t, err)
					got, err := grown.Finish()
					require.NoError(t, err)
					require.NoError(t, array.Validate(got, array.ValidateFull))
					require.True(t, array.Equal(want, array.MustMake(got)), "after piece %d:\nwant %v\ngot  %v", k, want, array.MustMake(got))
				}
			}
		})
	}
}
