package bench

import "testing"

func BenchmarkSortIndicesInt64(b *testing.B) { run(b, "SortIndices/int64-10M") }
func BenchmarkSortIndicesUtf8(b *testing.B)  { run(b, "SortIndices/utf8-1M") }
func BenchmarkCastInt32Float64(b *testing.B) { run(b, "Cast/int32-float64") }
func BenchmarkCastUtf8Int64(b *testing.B)    { run(b, "Cast/utf8-int64") }
func BenchmarkUniqueInt64(b *testing.B)      { run(b, "Unique/int64-10M-1k") }
