// Command quickstart builds a record batch in code, writes it as an Alkaid
// file (.ipc) and stream (.ipcs), reads both back and prints them.
//
//	go run ./examples/quickstart [DIR]
//
// The files go to DIR (default: a fresh temporary directory).
package main

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
)

func main() {
	dir := ""
	if len(os.Args) > 1 {
		dir = os.Args[1]
	} else {
		var err error
		if dir, err = os.MkdirTemp("", "alkaid-quickstart-"); err != nil {
			log.Fatal(err)
		}
	}
	rec := buildRecord()
	fmt.Println("built:")
	fmt.Print(rec)

	filePath := filepath.Join(dir, "stars.ipc")
	streamPath := filepath.Join(dir, "stars.ipcs")
	check(writeFile(filePath, rec))
	check(writeStream(streamPath, rec))

	// The file is memory-mapped and read without copying its values.
	// Every reader is an alkaid.RecordReader: alkaid.ReadAll reads any of
	// them into a table.
	fr, err := ipc.OpenFile(filePath)
	check(err)
	defer fr.Close()
	table, err := alkaid.ReadAll(fr)
	check(err)
	fmt.Printf("\nread back from %s (%d batch):\n%s", filePath, fr.NumRecords(), table)

	// A stream is read batch by batch, in a range loop.
	f, err := os.Open(streamPath)
	check(err)
	defer f.Close()
	sr, err := ipc.NewStreamReader(f)
	check(err)
	defer sr.Close()
	for rec, err := range sr.Records() {
		check(err)
		fmt.Printf("\nread back from %s:\n%s", streamPath, rec)
	}
}

// buildRecord makes a batch of four stars: a name, a magnitude that may be
// unknown (null), and a list of catalogue tags.
func buildRecord() *alkaid.Record {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "name", Type: datatype.String},
		{Name: "magnitude", Type: datatype.Float64, Nullable: true},
		{Name: "tags", Type: datatype.ListOf(datatype.String), Nullable: true},
	}, datatype.MetadataFrom("source", "quickstart"))

	names := array.NewBinaryBuilder[int32](datatype.String)
	names.AppendStrings([]string{"Alkaid", "Mizar", "Alcor", "Polaris"}, nil)

	mags := array.NewPrimitiveBuilder[float64](datatype.Float64)
	mags.AppendValues([]float64{1.86, 2.23, 0, 1.98}, []bool{true, true, false, true})

	tags := array.NewListBuilder[int32](datatype.ListOf(datatype.String))
	tagValues := tags.ValueBuilder().(*array.BinaryBuilder[int32])
	for _, ts := range [][]string{{"UMa", "eta"}, {"UMa", "zeta"}, nil, {"UMi"}} {
		if ts == nil {
			tags.AppendNull()
			continue
		}
		tags.Append(true)
		tagValues.AppendStrings(ts, nil)
	}

	rec, err := alkaid.NewRecord(schema, []array.Array{names.Finish(), mags.Finish(), tags.Finish()}, -1)
	check(err)
	return rec
}

func writeFile(path string, rec *alkaid.Record) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w, err := ipc.NewFileWriter(f, rec.Schema(), ipc.WithCompression(ipc.Zstd, 0))
	if err != nil {
		return err
	}
	if err := w.Write(rec); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return f.Close()
}

func writeStream(path string, rec *alkaid.Record) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w, err := ipc.NewStreamWriter(f, rec.Schema())
	if err != nil {
		return err
	}
	if err := w.Write(rec); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return f.Close()
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
