package files_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/files"
)

func Example() {
	dir, _ := os.MkdirTemp("", "files")
	defer os.RemoveAll(dir)
	schema := alkaid.NewSchema([]datatype.Field{{Name: "n", Type: datatype.Int64}}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(schema, []array.Array{arrayjson.MustParse(datatype.Int64, "[1, 2, 3]")}, -1)

	// The extension picks the format written.
	name := filepath.Join(dir, "numbers.parquet")
	w, err := files.Create(name, schema)
	if err != nil {
		fmt.Println(err)
		return
	}
	w.Write(rec)
	if err := w.Close(); err != nil {
		fmt.Println(err)
		return
	}

	// The content picks the format read.
	r, err := files.Open(name)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	t, err := alkaid.ReadAll(r)
	fmt.Println(t.NumRows(), err)
	// Output: 3 <nil>
}

func ExampleDetect() {
	f, _ := os.CreateTemp("", "detect")
	defer os.Remove(f.Name())
	defer f.Close()
	f.WriteString("PAR1")
	format, err := files.Detect(f, 4, f.Name())
	fmt.Println(format, err)
	// Output: parquet <nil>
}

// A file from anywhere that reads at an offset: here NDJSON in memory,
// told by its name.
func ExampleOpenReaderAt() {
	data := `{"city": "Oslo", "n": 1}` + "\n" + `{"city": "Lima", "n": 2}` + "\n"
	r, err := files.OpenReaderAt(strings.NewReader(data), int64(len(data)), "cities.ndjson")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	fmt.Println(r.Schema().NumFields(), "fields")
	for rec, err := range r.Records() {
		fmt.Println(rec.NumRows(), "rows", err)
	}
	// Output:
	// 2 fields
	// 2 rows <nil>
}
