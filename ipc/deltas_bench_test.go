package ipc

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// BenchmarkDictionaryDeltaRead reads a stream of one record whose
// dictionary has 64Ki values and 256 records after it, each bringing a
// delta of 16 values: the cost of growing dictionaries in place.
func BenchmarkDictionaryDeltaRead(b *testing.B) {
	const base, deltas, step = 1 << 16, 256, 16
	n := base + deltas*step
	str := array.NewBinaryBuilder[int32](datatype.String)
	i64 := array.NewPrimitiveBuilder[int64](datatype.Int64)
	bools := array.NewBooleanBuilder(datatype.Bool)
	for i := range n {
		str.AppendString(fmt.Sprintf("value %d", i))
		if i%7 == 3 {
			i64.AppendNull()
			bools.AppendNull()
		} else {
			i64.Append(int64(i))
			bools.Append(i%3 == 0)
		}
	}
	for _, c := range []struct {
		name   string
		values array.Array
	}{{"utf8", str.Finish()}, {"int64-nulls", i64.Finish()}, {"bool-nulls", bools.Finish()}} {
		stream := benchDeltaStream(b, c.values, base, deltas, step)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(stream)))
			for range b.N {
				r, err := NewStreamReaderBytes(stream)
				if err != nil {
					b.Fatal(err)
				}
				recs := 0
				for _, err := range r.Records() {
					if err != nil {
						b.Fatal(err)
					}
					recs++
				}
				if recs != deltas+1 {
					b.Fatal(recs)
				}
			}
		})
	}
}

func benchDeltaStream(b *testing.B, values array.Array, base, deltas, step int) []byte {
	dt, err := datatype.NewDictionary(datatype.Int32, values.DataType(), false)
	if err != nil {
		b.Fatal(err)
	}
	s := schemaOf(datatype.Field{Name: "d", Type: dt, Nullable: true})
	var out bytes.Buffer
	w, err := NewStreamWriter(&out, s, WithDictionaryDeltas())
	if err != nil {
		b.Fatal(err)
	}
	for i := range deltas + 1 {
		m := base + i*step
		ib := array.NewPrimitiveBuilder[int32](datatype.Int32)
		ib.AppendValues([]int32{0, int32(m - 1)}, nil)
		d, err := array.NewDictionaryArray(dt, ib.Finish(), array.Slice(values, 0, m))
		if err != nil {
			b.Fatal(err)
		}
		rec, err := alkaid.NewRecord(s, []array.Array{d}, -1)
		if err == nil {
			err = w.Write(rec)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return out.Bytes()
}
