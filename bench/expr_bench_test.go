package bench

import "testing"

func BenchmarkFilter4(b *testing.B) { run(b, "Filter4/int64-float64-utf8-int64") }
