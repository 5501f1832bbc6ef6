package ipc_test

import (
	"bytes"
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
)

// Write a record batch as a stream and read it back.
func Example() {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "star", Type: datatype.String},
		{Name: "magnitude", Type: datatype.Float64, Nullable: true},
	}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.String, `["Alkaid", "Mizar", "Alcor"]`),
		arrayjson.MustParse(datatype.Float64, `[1.86, 2.23, null]`),
	}, -1)

	var buf bytes.Buffer
	w, _ := ipc.NewStreamWriter(&buf, schema, ipc.WithCompression(ipc.LZ4Frame, 0))
	w.Write(rec)
	w.Close()

	r, err := ipc.NewStreamReader(&buf)
	if err != nil {
		panic(err)
	}
	for rec, err := range r.Records() {
		if err != nil {
			panic(err)
		}
		fmt.Print(rec)
	}
	// Output:
	// record: 3 rows
	//   star: ["Alkaid" "Mizar" "Alcor"]
	//   magnitude: [1.86 2.23 (null)]
}

// Feed bytes to the push decoder as they arrive.
func ExampleDecoder() {
	schema := alkaid.NewSchema([]datatype.Field{{Name: "n", Type: datatype.Int32}}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(schema, []array.Array{arrayjson.MustParse(datatype.Int32, `[1, 2, 3]`)}, -1)
	var buf bytes.Buffer
	w, _ := ipc.NewStreamWriter(&buf, schema)
	w.Write(rec)
	w.Close()

	dec, err := ipc.NewDecoder()
	if err != nil {
		panic(err)
	}
	raw := buf.Bytes()
	for len(raw) > 0 { // bytes arrive 100 at a time
		n := min(len(raw), 100)
		dec.Write(raw[:n])
		raw = raw[n:]
		for {
			ev, err := dec.Next()
			if err != nil {
				break // ErrNeedMore: wait for the next chunk
			}
			switch ev.Kind {
			case ipc.EventSchema:
				fmt.Println("schema with", ev.Schema.NumFields(), "field")
			case ipc.EventRecord:
				fmt.Println("record", ev.Record.Column(0))
			case ipc.EventEnd:
				fmt.Println("end")
			}
			if ev.Kind == ipc.EventEnd {
				break
			}
		}
	}
	// Output:
	// schema with 1 field
	// record [1 2 3]
	// end
}

// Count a file's rows from its batches' metadata, without reading them.
func ExampleFileReader_NumRows() {
	schema := alkaid.NewSchema([]datatype.Field{{Name: "n", Type: datatype.Int64}}, datatype.Metadata{})
	var buf bytes.Buffer
	w, _ := ipc.NewFileWriter(&buf, schema)
	for _, js := range []string{"[1, 2, 3]", "[4]"} {
		rec, _ := alkaid.NewRecord(schema, []array.Array{arrayjson.MustParse(datatype.Int64, js)}, -1)
		w.Write(rec)
	}
	w.Close()

	fr, err := ipc.NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		fmt.Println(err)
		return
	}
	var total int64
	for i := range fr.NumRecords() {
		n, err := fr.NumRows(i)
		if err != nil {
			fmt.Println(err)
			return
		}
		total += n
	}
	fmt.Println(fr.NumRecords(), "batches,", total, "rows")
	// Output:
	// 2 batches, 4 rows
}

// Readers are alkaid.RecordReaders and writers alkaid.RecordWriters: copy
// a file into a stream, then read the stream into a table.
func ExampleNewFileReader() {
	schema := alkaid.NewSchema([]datatype.Field{{Name: "n", Type: datatype.Int64}}, datatype.Metadata{})
	var file bytes.Buffer
	w, _ := ipc.NewFileWriter(&file, schema)
	for _, js := range []string{"[1, 2, 3]", "[4, 5]"} {
		rec, _ := alkaid.NewRecord(schema, []array.Array{arrayjson.MustParse(datatype.Int64, js)}, -1)
		w.Write(rec)
	}
	w.Close()

	fr, err := ipc.NewFileReader(bytes.NewReader(file.Bytes()), int64(file.Len()))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer fr.Close()
	var stream bytes.Buffer
	sw, err := ipc.NewStreamWriter(&stream, fr.Schema(), ipc.WithCompression(ipc.Zstd, 3))
	if err != nil {
		fmt.Println(err)
		return
	}
	rows, err := alkaid.Copy(sw, fr)
	if err == nil {
		err = sw.Close()
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	sr, err := ipc.NewStreamReader(&stream)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer sr.Close()
	table, err := alkaid.ReadAll(sr)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rows, "rows copied;", table.NumRows(), "rows read back")
	// Output:
	// 5 rows copied; 5 rows read back
}

// An invalid option value, or an option of the other side, is an error
// of the constructor that names it.
func ExampleOption() {
	schema := alkaid.NewSchema([]datatype.Field{{Name: "n", Type: datatype.Int64}}, datatype.Metadata{})
	_, err := ipc.NewStreamWriter(&bytes.Buffer{}, schema, ipc.WithAlignment(7))
	fmt.Println(err)
	_, err = ipc.NewStreamReader(&bytes.Buffer{}, ipc.WithCompression(ipc.Zstd, 0))
	fmt.Println(err)
	// Output:
	// ipc: invalid: WithAlignment(7): alignment must be 8 or 64
	// ipc: invalid: WithCompression is a writer option, given to a reader
}

// Read one column of a file: the other column's bytes are not read.
func ExampleWithColumns() {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "star", Type: datatype.String},
		{Name: "magnitude", Type: datatype.Float64, Nullable: true},
	}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.String, `["Alkaid", "Mizar", "Alcor"]`),
		arrayjson.MustParse(datatype.Float64, `[1.86, 2.23, null]`),
	}, -1)
	var buf bytes.Buffer
	w, _ := ipc.NewFileWriter(&buf, schema)
	w.Write(rec)
	w.Close()

	fr, err := ipc.NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), ipc.WithColumns("magnitude"))
	if err != nil {
		panic(err)
	}
	for rec, err := range fr.Records() {
		if err != nil {
			panic(err)
		}
		fmt.Print(rec)
	}
	// Output:
	// record: 3 rows
	//   magnitude: [1.86 2.23 (null)]
}
