package compute

import (
	"math/rand/v2"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

func benchInt64s(n int, gen func(r *rand.Rand) int64) *array.Int64 {
	r := rand.New(rand.NewPCG(1, 1))
	v := make([]int64, n)
	for i := range v {
		v[i] = gen(r)
	}
	return int64Array(v)
}

func BenchmarkUnique1k(b *testing.B) {
	a := benchInt64s(1<<22, func(r *rand.Rand) int64 { return int64(r.IntN(1000)) * 7919 })
	b.SetBytes(8 << 22)
	for range b.N {
		if _, err := Unique(a); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGroupBySum(b *testing.B) {
	for _, groups := range []int{1000, 1_000_000} {
		n := 1 << 22
		keys := benchInt64s(n, func(r *rand.Rand) int64 { return int64(r.IntN(groups)) })
		vals := benchInt64s(n, func(r *rand.Rand) int64 { return int64(r.IntN(1000)) })
		s := alkaid.NewSchema([]datatype.Field{{Name: "k", Type: datatype.Int64}, {Name: "v", Type: datatype.Int64}}, datatype.Metadata{})
		rec, _ := alkaid.NewRecord(s, []array.Array{keys, vals}, n)
		b.Run(map[int]string{1000: "1k", 1_000_000: "1M"}[groups], func(b *testing.B) {
			b.SetBytes(16 * int64(n))
			for range b.N {
				if _, err := GroupBy(rec, []string{"k"}, []Aggregate{{Func: AggSum, Column: "v"},
					Aggregate{Func: AggCount, Column: "v"}, Aggregate{Func: AggMean, Column: "v"}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSortInt64(b *testing.B) {
	a := benchInt64s(1<<22, func(r *rand.Rand) int64 { return int64(r.Uint64()) })
	b.SetBytes(8 << 22)
	for range b.N {
		if _, err := SortIndices(a, Order{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCastInt32Float64(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	bl := array.NewPrimitiveBuilder[int32](datatype.Int32)
	for range 1 << 20 {
		if r.IntN(20) == 0 {
			bl.AppendNull()
		} else {
			bl.Append(r.Int32())
		}
	}
	a := bl.NewArray()
	b.SetBytes(4 << 20)
	for range b.N {
		if _, err := Cast(a, datatype.Float64); err != nil {
			b.Fatal(err)
		}
	}
}
