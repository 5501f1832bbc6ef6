package bench

import (
	"bytes"
	"context"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	aparquet "github.com/apache/arrow-go/v18/parquet"
	acompress "github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/parquet"
)

// The Parquet pairs write the mixed batch (1M rows at full size) with
// each library's Parquet writer, and read one file, written once by
// arrow-go, with each library's reader: every column, or the f64 column
// alone. Both writers use one row group per 1M rows, 1 MiB pages,
// dictionary encoding and the stored Arrow schema; both readers decode
// columns in parallel (arrow-go: Parallel, ours: GOMAXPROCS).

type pqCodec struct {
	name   string
	ours   parquet.Codec
	theirs acompress.Compression
}

var pqCodecs = []pqCodec{
	{"snappy", parquet.Snappy, acompress.Codecs.Snappy},
	{"zstd", parquet.Zstd, acompress.Codecs.Zstd},
}

// WriteParquetAlkaid writes the mixed batch with our writer.
func (in *Inputs) WriteParquetAlkaid(w *bytes.Buffer, c pqCodec) error {
	pw, err := parquet.NewWriter(w, in.batch.Schema(), parquet.WithCompression(c.ours, 0), parquet.WithRowGroupRows(1<<20))
	if err != nil {
		return err
	}
	if err := pw.Write(in.batch); err != nil {
		return err
	}
	return pw.Close()
}

// WriteParquetArrowGo writes the mixed batch with pqarrow.
func (in *Inputs) WriteParquetArrowGo(w *bytes.Buffer, c pqCodec) error {
	props := aparquet.NewWriterProperties(aparquet.WithCompression(c.theirs), aparquet.WithMaxRowGroupLength(1<<20),
		aparquet.WithAllocator(mem))
	tbl := aarray.NewTableFromRecords(in.abatch.Schema(), []aarrow.RecordBatch{in.abatch})
	defer tbl.Release()
	return pqarrow.WriteTable(tbl, w, 1<<20, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
}

// ReadParquetAlkaid reads a Parquet file held in memory with our reader.
func ReadParquetAlkaid(raw []byte, columns ...string) (readSummary, error) {
	var opts []parquet.Option
	if columns != nil {
		opts = append(opts, parquet.WithColumns(columns...))
	}
	f, err := parquet.NewFileBytes(raw, opts...)
	if err != nil {
		return readSummary{}, err
	}
	var s readSummary
	for rec, err := range f.Records() {
		if err != nil {
			return readSummary{}, err
		}
		s.Rows += rec.NumRows()
		s.Last = lastValue(rec)
	}
	return s, nil
}

func lastValue(rec *alkaid.Record) string {
	c := rec.Column(0)
	if c.IsNull(c.Len() - 1) {
		return "null"
	}
	return array.FormatValue(c, c.Len()-1)
}

// ReadParquetArrowGo reads a Parquet file held in memory with pqarrow.
func ReadParquetArrowGo(raw []byte, columns ...int) (readSummary, error) {
	pf, err := file.NewParquetReader(bytes.NewReader(raw), file.WithReadProps(aparquet.NewReaderProperties(mem)))
	if err != nil {
		return readSummary{}, err
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{Parallel: true, BatchSize: 1 << 20}, mem)
	if err != nil {
		return readSummary{}, err
	}
	var rgs []int
	for i := range pf.NumRowGroups() {
		rgs = append(rgs, i)
	}
	tbl, err := fr.ReadRowGroups(context.Background(), columnsOrAll(columns, pf.MetaData().Schema.NumColumns()), rgs)
	if err != nil {
		return readSummary{}, err
	}
	defer tbl.Release()
	s := readSummary{Rows: int(tbl.NumRows())}
	chunks := tbl.Column(0).Data().Chunks()
	last := chunks[len(chunks)-1]
	if last.IsNull(last.Len() - 1) {
		s.Last = "null"
	} else {
		s.Last = last.ValueStr(last.Len() - 1)
	}
	return s, nil
}

func columnsOrAll(cols []int, n int) []int {
	if cols != nil {
		return cols
	}
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func (in *Inputs) parquetPairs() []Pair {
	size := func() int64 { return in.batchSize }
	var ps []Pair
	for _, c := range pqCodecs {
		var sink bytes.Buffer
		ps = append(ps, Pair{
			Name: "ParquetWrite/" + c.name, Bytes: size,
			Setup: func() { in.mixedBatch(); sink.Grow(int(in.batchSize)) },
			Alkaid: func() (any, error) {
				sink.Reset()
				return in.S.BatchRows, in.WriteParquetAlkaid(&sink, c)
			},
			ArrowGo: func() (any, error) {
				sink.Reset()
				return in.S.BatchRows, in.WriteParquetArrowGo(&sink, c)
			},
		})
		var raw []byte
		setup := func() {
			in.mixedBatch()
			if raw == nil {
				var b bytes.Buffer
				must(in.WriteParquetArrowGo(&b, c))
				raw = b.Bytes()
			}
		}
		ps = append(ps, Pair{
			Name: "ParquetRead/" + c.name, Bytes: size, Setup: setup,
			Alkaid:  func() (any, error) { return ReadParquetAlkaid(raw) },
			ArrowGo: func() (any, error) { return ReadParquetArrowGo(raw) },
		})
		// f64 is column 1 of the mixed schema (a leaf: Parquet column 1).
		ps = append(ps, Pair{
			Name: "ParquetReadColumn/" + c.name, Setup: setup,
			Alkaid:  func() (any, error) { return ReadParquetAlkaid(raw, "f64") },
			ArrowGo: func() (any, error) { return ReadParquetArrowGo(raw, 1) },
		})
	}
	return ps
}
