package bench

import "testing"

func BenchmarkCSVRead(b *testing.B)          { runGroup(b, "CSVRead") }
func BenchmarkCSVWrite(b *testing.B)         { run(b, "CSVWrite") }
func BenchmarkNDJSONReadSchema(b *testing.B) { run(b, "NDJSONRead/schema") }
