package ndjson

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"
)

// benchNDJSON is 50k objects of ints, floats, strings, bools and a list,
// 5% nulls.
func benchNDJSON() []byte {
	r := rand.New(rand.NewPCG(1, 2))
	var b []byte
	for range 50000 {
		b = append(b, `{"i":`...)
		b = strconv.AppendInt(b, r.Int64N(2e9)-1e9, 10)
		b = append(b, `,"f":`...)
		if r.IntN(20) == 0 {
			b = append(b, "null"...)
		} else {
			b = strconv.AppendFloat(b, r.NormFloat64()*1000, 'f', 3, 64)
		}
		b = append(b, `,"s":"mizar \"alcor\"","b":true,"l":[1,2,3]}`+"\n"...)
	}
	return b
}

func BenchmarkRead(b *testing.B) {
	data := benchNDJSON()
	r0, err := NewReader(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	schema := r0.Schema()
	for _, workers := range []int{1, 2} {
		b.Run(strconv.Itoa(workers), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for range b.N {
				r, err := NewReader(bytes.NewReader(data), WithSchema(schema), WithConcurrency(workers))
				if err != nil {
					b.Fatal(err)
				}
				for _, err := range r.Records() {
					if err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
