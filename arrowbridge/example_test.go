package arrowbridge_test

import (
	"bytes"
	"context"
	"fmt"
	"log"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/arrowbridge"
	"github.com/alkaid-go/alkaid/datatype"
)

// Writing a Parquet file with arrow-go's pqarrow from Alkaid records: the
// records cross to arrow-go without a copy, and come back the same way.
func Example_parquet() {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "star", Type: datatype.String},
		{Name: "magnitude", Type: datatype.Float64, Nullable: true},
	}, datatype.Metadata{})
	b, err := alkaid.NewRecordBuilder(schema)
	if err != nil {
		log.Fatal(err)
	}
	stars := b.Field(0).(*array.BinaryBuilder[int32])
	mags := b.Field(1).(*array.PrimitiveBuilder[float64])
	for _, s := range []struct {
		name string
		mag  float64
	}{{"Alkaid", 1.86}, {"Mizar", 2.23}, {"Alcor", 0}} {
		stars.AppendString(s.name)
		if s.mag == 0 {
			mags.AppendNull()
		} else {
			mags.Append(s.mag)
		}
	}
	rec, err := b.NewRecord()
	if err != nil {
		log.Fatal(err)
	}

	arec, err := arrowbridge.ToArrowRecord(rec) // shares rec's buffers
	if err != nil {
		log.Fatal(err)
	}
	defer arec.Release()
	var file bytes.Buffer
	w, err := pqarrow.NewFileWriter(arec.Schema(), &file, parquet.NewWriterProperties(), pqarrow.DefaultWriterProps())
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Write(arec); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	// Read it back with pqarrow, and hand the columns to Alkaid.
	table, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(file.Bytes()),
		parquet.NewReaderProperties(memory.DefaultAllocator), pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		log.Fatal(err)
	}
	defer table.Release()
	for i := range int(table.NumCols()) {
		col, err := arrowbridge.FromArrow(table.Column(i).Data().Chunk(0))
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(table.Schema().Field(i).Name, col)
	}
	// Output:
	// star ["Alkaid" "Mizar" "Alcor"]
	// magnitude [1.86 2.23 (null)]
}
