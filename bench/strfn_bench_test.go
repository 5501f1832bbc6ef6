package bench

import "testing"

func BenchmarkMathSqrt(b *testing.B) { run(b, "Math/sqrt/float64") }
func BenchmarkMathLn(b *testing.B)   { run(b, "Math/ln/float64") }
