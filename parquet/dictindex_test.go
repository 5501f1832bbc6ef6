package parquet

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestNarrowDictionaryIndices: a stored dictionary<uint8, _> type is read
// as it is, each batch numbering its own distinct values (as arrow-go
// does), so a row group of more distinct values than uint8 reaches reads
// when each batch holds few enough; a batch holding more is ErrLimit.
func TestNarrowDictionaryIndices(t *testing.T) {
	narrow, _ := datatype.NewDictionary(datatype.Uint8, datatype.String, false)
	wide, _ := datatype.NewDictionary(datatype.Int32, datatype.String, false)
	field := func(dt datatype.DataType) *alkaid.Schema {
		return alkaid.NewSchema([]datatype.Field{{Name: "d", Type: dt, Nullable: true}}, datatype.Metadata{})
	}
	// One row group of two halves of 1000 rows, of 200 distinct values
	// each, written with int32 indices; the stored schema then says
	// uint8, as that of a writer that wrote the halves as two batches.
	const half = 1000
	var vs []string
	for i := range 2 * half {
		vs = append(vs, fmt.Sprintf("%q", fmt.Sprint(i/half*200+i%200)))
	}
	col := arrayjson.MustParse(wide, "["+strings.Join(vs, ",")+"]")
	rec, err := alkaid.NewRecord(field(wide), []array.Array{col}, 2*half)
	if err != nil {
		t.Fatal(err)
	}
	data, f := writeAndOpen(t, rec)
	empty, err := alkaid.NewRecord(field(narrow), []array.Array{array.NewBuilder(narrow).NewArray()}, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, nf := writeAndOpen(t, empty)
	md := f.meta
	md.KeyValueMetadata = nf.meta.KeyValueMetadata
	data = refooter(data, &md)

	f, err = NewFileBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Schema().Field(0).Type; !datatype.Equal(got, narrow) {
		t.Fatalf("schema type %s, want %s", got, narrow)
	}
	got, err := readAll(f, WithBatchSize(half))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !datatype.Equal(got[0].Column(0).DataType(), narrow) {
		t.Fatalf("%d records of type %s", len(got), got[0].Column(0).DataType())
	}
	for i, r := range got {
		a := r.Column(0)
		for j := range a.Len() {
			if v, want := array.FormatValue(a, j), vs[i*half+j]; v != want {
				t.Fatalf("record %d row %d: %s, want %s", i, j, v, want)
			}
		}
	}
	if _, err := readAll(f, WithBatchSize(2*half)); !errors.Is(err, ErrLimit) {
		t.Errorf("400 distinct values in a batch of dictionary<uint8>: got %v, want ErrLimit", err)
	}
}
