package bench

import "testing"

func BenchmarkParquetWriteV2(b *testing.B) { runGroup(b, "ParquetWriteV2") }
