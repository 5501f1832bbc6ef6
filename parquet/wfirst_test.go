package parquet

import (
	"fmt"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestFirstRecordOneSegment: a first record of more rows than the
// writer measures a row by, within the row group's byte target, is
// shredded in one piece, so the chunk of a dictionary field keeps the
// field's dictionary (here with a value no row uses) rather than
// building its own.
func TestFirstRecordOneSegment(t *testing.T) {
	const n = 3 * firstRows
	dt, err := datatype.NewDictionary(datatype.Int32, datatype.String, false)
	if err != nil {
		t.Fatal(err)
	}
	idx := make([]string, n)
	for i := range idx {
		idx[i] = fmt.Sprint(i % 3)
	}
	col, err := array.NewDictionaryArray(dt, arrayjson.MustParse(datatype.Int32, "["+strings.Join(idx, ",")+"]"),
		arrayjson.MustParse(datatype.String, `["a", "b", "c", "unused"]`))
	if err != nil {
		t.Fatal(err)
	}
	s := alkaid.NewSchema([]datatype.Field{{Name: "d", Type: dt}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{col}, n)
	if err != nil {
		t.Fatal(err)
	}
	data := writeFile(t, []*alkaid.Record{rec})
	f, got := readFile(t, data, WithDictionaryArrays())
	if f.NumRowGroups() != 1 || len(got) != 1 {
		t.Fatalf("%d row groups, %d records", f.NumRowGroups(), len(got))
	}
	d, ok := got[0].Column(0).(*array.Dictionary)
	if !ok {
		t.Fatalf("read a %T", got[0].Column(0))
	}
	if d.Dictionary().Len() != 4 {
		t.Errorf("a dictionary of %d values, want the field's 4", d.Dictionary().Len())
	}
	sameRows(t, []*alkaid.Record{rec}, got)
}
