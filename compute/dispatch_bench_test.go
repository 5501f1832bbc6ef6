package compute

import (
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// BenchmarkDispatchSmall measures the per-call cost of finding a type's
// kernel: on 16 values the dispatch is a visible part of the call.
func BenchmarkDispatchSmall(b *testing.B) {
	ib := array.NewPrimitiveBuilder[int64](datatype.Int64)
	fb := array.NewPrimitiveBuilder[float64](datatype.Float64)
	for i := range 16 {
		ib.Append(int64(i))
		fb.Append(float64(i))
	}
	i64, f64 := ib.Finish(), fb.Finish()
	b.Run("add/int64", func(b *testing.B) {
		for range b.N {
			_, err := Add(i64, i64)
			fatal(b, err)
		}
	})
	b.Run("compare/float64", func(b *testing.B) {
		for range b.N {
			_, err := Compare(Lt, f64, f64)
			fatal(b, err)
		}
	})
	b.Run("sum/int64", func(b *testing.B) {
		for range b.N {
			_, err := Sum(i64)
			fatal(b, err)
		}
	})
	b.Run("min/float64", func(b *testing.B) {
		for range b.N {
			_, err := Min(f64)
			fatal(b, err)
		}
	})
}
