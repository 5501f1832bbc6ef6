package bench

import (
	"bytes"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	aparquet "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/alkaid-go/alkaid/parquet"
)

// The ParquetWriteV2 pairs are the ParquetWrite pairs with data pages v2
// on both sides (ours: WithDataPageV2; arrow-go: DataPageV2).
func (in *Inputs) pqv2Pairs() []Pair {
	size := func() int64 { return in.batchSize }
	var ps []Pair
	for _, c := range pqCodecs {
		var sink bytes.Buffer
		ps = append(ps, Pair{
			Name: "ParquetWriteV2/" + c.name, Bytes: size,
			Setup: func() { in.mixedBatch(); sink.Grow(int(in.batchSize)) },
			Alkaid: func() (any, error) {
				sink.Reset()
				return in.S.BatchRows, in.writeParquetV2Alkaid(&sink, c)
			},
			ArrowGo: func() (any, error) {
				sink.Reset()
				return in.S.BatchRows, in.writeParquetV2ArrowGo(&sink, c)
			},
		})
	}
	return ps
}

func (in *Inputs) writeParquetV2Alkaid(w *bytes.Buffer, c pqCodec) error {
	pw, err := parquet.NewWriter(w, in.batch.Schema(), parquet.WithCompression(c.ours, 0), parquet.WithRowGroupRows(1<<20),
		parquet.WithDataPageV2())
	if err != nil {
		return err
	}
	if err := pw.Write(in.batch); err != nil {
		return err
	}
	return pw.Close()
}

func (in *Inputs) writeParquetV2ArrowGo(w *bytes.Buffer, c pqCodec) error {
	props := aparquet.NewWriterProperties(aparquet.WithCompression(c.theirs), aparquet.WithMaxRowGroupLength(1<<20),
		aparquet.WithAllocator(mem), aparquet.WithDataPageVersion(aparquet.DataPageV2))
	tbl := aarray.NewTableFromRecords(in.abatch.Schema(), []aarrow.RecordBatch{in.abatch})
	defer tbl.Release()
	return pqarrow.WriteTable(tbl, w, 1<<20, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
}
