package bench

import (
	"bytes"
	"testing"

	"github.com/alkaid-go/alkaid/parquet"
)

// BenchmarkParquetWritePageIndex writes the 1M-row mixed batch with and
// without the page index, in the same run, to show what writing it costs.
func BenchmarkParquetWritePageIndex(b *testing.B) {
	full.mixedBatch()
	for _, c := range pqCodecs {
		for _, mode := range []struct {
			name string
			opts []parquet.Option
		}{{"with", nil}, {"without", []parquet.Option{parquet.WithoutPageIndex()}}} {
			b.Run(c.name+"/"+mode.name, func(b *testing.B) {
				var sink bytes.Buffer
				opts := append([]parquet.Option{parquet.WithCompression(c.ours, 0), parquet.WithRowGroupRows(1 << 20)}, mode.opts...)
				b.ReportAllocs()
				for range b.N {
					sink.Reset()
					pw, err := parquet.NewWriter(&sink, full.batch.Schema(), opts...)
					if err != nil {
						b.Fatal(err)
					}
					if err := pw.Write(full.batch); err != nil {
						b.Fatal(err)
					}
					if err := pw.Close(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(sink.Len()), "file-bytes")
			})
		}
	}
}
