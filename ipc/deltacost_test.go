package ipc

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// deltaStream writes a stream whose first record has a dictionary of base
// values and each of the deltas records after it one value more (a delta
// of one value each); values holds base+deltas values.
func deltaStream(t *testing.T, values array.Array, base, deltas int) []byte {
	t.Helper()
	dt, err := datatype.NewDictionary(datatype.Int32, values.DataType(), false)
	require.NoError(t, err)
	s := schemaOf(datatype.Field{Name: "d", Type: dt, Nullable: true})
	var out bytes.Buffer
	w, err := NewStreamWriter(&out, s, WithDictionaryDeltas())
	require.NoError(t, err)
	for i := range deltas + 1 {
		n := base + i
		ib := array.NewPrimitiveBuilder[int32](datatype.Int32)
		ib.AppendValues([]int32{0, int32(n - 1)}, nil)
		d, err := array.NewDictionaryArray(dt, ib.Finish(), array.Slice(values, 0, n))
		require.NoError(t, err)
		rec, err := alkaid.NewRecord(s, []array.Array{d}, -1)
		require.NoError(t, err)
		require.NoError(t, w.Write(rec))
	}
	require.NoError(t, w.Close())
	return out.Bytes()
}

// TestDictionaryDeltaCostIsLinear (item 4): n one-value deltas of a large
// dictionary cost in proportion to n, not to n times the dictionary, for
// bool values (bitmaps, with and without nulls), a nullable int8 (a
// validity bitmap) and values that are themselves dictionary-encoded; the
// records read keep their values while later deltas arrive.
func TestDictionaryDeltaCostIsLinear(t *testing.T) {
	const base = 1 << 24 // 2 MiB of bits: 600 copies would be 1.2 GiB
	const deltas = 600
	bools := func(nulls bool) array.Array {
		b := array.NewBooleanBuilder(datatype.Bool)
		for i := range base + deltas {
			if nulls && i%7 == 3 {
				b.AppendNull()
			} else {
				b.Append(i%3 == 0)
			}
		}
		return b.Finish()
	}
	int8s := func() array.Array {
		b := array.NewPrimitiveBuilder[int8](datatype.Int8)
		for i := range base + deltas {
			if i%5 == 1 {
				b.AppendNull()
			} else {
				b.Append(int8(i))
			}
		}
		return b.Finish()
	}
	nested := func() array.Array {
		inner, err := datatype.NewDictionary(datatype.Int16, datatype.String, false)
		require.NoError(t, err)
		words := arrayjson.MustParse(datatype.String, `["x", "y", "z"]`)
		ib := array.NewPrimitiveBuilder[int16](datatype.Int16)
		for i := range base/8 + deltas {
			ib.Append(int16(i % 3))
		}
		d, err := array.NewDictionaryArray(inner, ib.Finish(), words)
		require.NoError(t, err)
		// Lists of one dictionary-encoded string each: the format nests
		// a dictionary inside another's values this way.
		offs := make([]int32, d.Len()+1)
		for i := range offs {
			offs[i] = int32(i)
		}
		lt := datatype.ListOf(inner)
		return array.MustMake(array.NewData(lt, d.Len(), []*memory.Buffer{nil, memory.NewBuffer(memory.BytesOf(offs))},
			[]*array.Data{d.Data()}, 0, 0))
	}
	structs := func() array.Array {
		n := base + deltas
		vals := int8s().Data()
		valid := make([]byte, (n+7)/8)
		for i := range n {
			if i%6 != 2 {
				valid[i/8] |= 1 << (i % 8)
			}
		}
		st := datatype.StructOf(datatype.Field{Name: "a", Type: datatype.Int8, Nullable: true})
		return array.MustMake(array.NewData(st, n, []*memory.Buffer{memory.NewBuffer(valid)}, []*array.Data{vals}, array.UnknownNullCount, 0))
	}
	cases := []struct {
		name   string
		values array.Array
		base   int
	}{
		{"bool", bools(false), base},
		{"bool with nulls", bools(true), base},
		{"int8 with nulls", int8s(), base},
		{"struct with nulls", structs(), base},
		{"dictionary of dictionaries", nested(), base / 8},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cost := map[int]uint64{}
			took := map[int]time.Duration{}
			for _, n := range []int{deltas / 2, deltas} {
				in := deltaStream(t, c.values, c.base, n)
				var got []*alkaid.Record
				start := time.Now()
				cost[n] = allocated(func() {
					r, err := NewStreamReaderBytes(in)
					require.NoError(t, err)
					for rec, err := range r.Records() {
						require.NoError(t, err)
						got = append(got, rec)
					}
				})
				took[n] = time.Since(start)
				require.Len(t, got, n+1)
				// Every record still sees its own dictionary: the
				// first value and the newest.
				for i, rec := range got {
					dict := rec.Column(0).(*array.Dictionary).Dictionary()
					require.Equal(t, c.base+i, dict.Len())
					for _, j := range []int{0, dict.Len() - 1} {
						require.Equal(t, fmt.Sprint(array.Slice(c.values, j, j+1)), fmt.Sprint(array.Slice(dict, j, j+1)), "record %d value %d", i, j)
					}
				}
				require.NoError(t, array.Validate(got[n].Column(0).Data(), array.ValidateFull))
			}
			t.Logf("%d deltas: %d bytes, %v; %d deltas: %d bytes, %v", deltas/2, cost[deltas/2], took[deltas/2], deltas, cost[deltas], took[deltas])
			// Well under 1 GiB, and 300 more deltas cost about 300 values,
			// not 300 dictionaries (which would be 300 × 2 MiB).
			require.Less(t, cost[deltas], uint64(256<<20))
			require.Less(t, int64(cost[deltas])-int64(cost[deltas/2]), int64(32<<20))
		})
	}
}
