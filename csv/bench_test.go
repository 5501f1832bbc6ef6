package csv

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"
)

// benchCSV is 100k rows of ints, floats, strings and bools, 5% empty.
func benchCSV() []byte {
	r := rand.New(rand.NewPCG(1, 2))
	b := []byte("i0,i1,f0,f1,s0,s1,b\n")
	for range 100000 {
		for c := range 7 {
			if c > 0 {
				b = append(b, ',')
			}
			if r.IntN(20) == 0 {
				continue
			}
			switch {
			case c < 2:
				b = strconv.AppendInt(b, r.Int64N(2e9)-1e9, 10)
			case c < 4:
				b = strconv.AppendFloat(b, r.NormFloat64()*1000, 'f', 3, 64)
			case c < 6:
				b = append(b, [2]string{"mizar", `"mizar, alcor"`}[r.IntN(2)]...)
			default:
				b = strconv.AppendBool(b, r.IntN(2) == 0)
			}
		}
		b = append(b, '\n')
	}
	return b
}

func BenchmarkRead(b *testing.B) {
	data := benchCSV()
	for _, workers := range []int{1, 2} {
		b.Run(strconv.Itoa(workers), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for range b.N {
				r, err := NewReader(bytes.NewReader(data), WithConcurrency(workers))
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
