package bench

import "testing"

func BenchmarkParquetWrite(b *testing.B)      { runGroup(b, "ParquetWrite") }
func BenchmarkParquetRead(b *testing.B)       { runGroup(b, "ParquetRead") }
func BenchmarkParquetReadColumn(b *testing.B) { runGroup(b, "ParquetReadColumn") }
