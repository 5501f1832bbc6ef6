//go:build cgo

package cdata_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/cdata"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
)

func stars() *alkaid.Record {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "star", Type: datatype.String},
		{Name: "magnitude", Type: datatype.Float64, Nullable: true},
	}, datatype.Metadata{})
	b, err := alkaid.NewRecordBuilder(schema)
	if err != nil {
		log.Fatal(err)
	}
	b.Field(0).(*array.BinaryBuilder[int32]).AppendStrings([]string{"Alkaid", "Mizar", "Alcor"}, nil)
	b.Field(1).(*array.PrimitiveBuilder[float64]).AppendValues([]float64{1.86, 2.23, 0}, []bool{true, true, false})
	rec, err := b.NewRecord()
	if err != nil {
		log.Fatal(err)
	}
	return rec
}

// A record handed to a C consumer (here, imported back): its buffers are
// shared, not copied, and stay alive until the consumer releases them.
func Example() {
	rec := stars()
	arr, schema := cdata.NewArrowArray(), cdata.NewArrowSchema()
	defer cdata.Free(arr)
	defer cdata.Free(schema)
	if err := cdata.ExportRecord(rec, arr, schema); err != nil {
		log.Fatal(err)
	}
	// arr and schema would now go to C (DuckDB, pyarrow, an ADBC driver…),
	// which calls their release callbacks when done. Importing moves them.
	back, err := cdata.ImportRecord(arr, schema)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cdata.ArrayReleased(arr), cdata.SchemaReleased(schema))
	fmt.Println(back.Column(0), back.Column(1))
	// Output:
	// true true
	// ["Alkaid" "Mizar" "Alcor"] [1.86 2.23 (null)]
}

// An IPC stream reader handed out as a C stream, and read back.
func ExampleExportStream() {
	var buf bytes.Buffer
	rec := stars()
	w, err := ipc.NewStreamWriter(&buf, rec.Schema())
	if err != nil {
		log.Fatal(err)
	}
	for range 2 {
		if err := w.Write(rec); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	src, err := ipc.NewStreamReader(&buf)
	if err != nil {
		log.Fatal(err)
	}

	stream := cdata.NewArrowArrayStream()
	defer cdata.Free(stream)
	if err := cdata.ExportStream(src, stream); err != nil {
		log.Fatal(err)
	}
	r, err := cdata.ImportStream(stream)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	for rec, err := range r.Records() {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(rec.NumRows(), rec.Column(0))
	}
	// Output:
	// 3 ["Alkaid" "Mizar" "Alcor"]
	// 3 ["Alkaid" "Mizar" "Alcor"]
}
