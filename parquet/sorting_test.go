package parquet

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

func TestSortingColumns(t *testing.T) {
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "id", Type: datatype.Int64},
		{Name: "tags", Type: datatype.ListOf(datatype.String), Nullable: true},
	}, datatype.Metadata{})
	rec := randRecord(s, 50)
	want := []SortingColumn{{Path: "tags.list.element", NullsFirst: true}, {Path: "id", Descending: true}}
	data := writeFile(t, []*alkaid.Record{rec}, WithSortingColumns(want...), WithRowGroupRows(20))
	f, _ := readFile(t, data)
	for i := range f.NumRowGroups() {
		if got := f.SortingColumns(i); !reflect.DeepEqual(got, want) {
			t.Errorf("row group %d: %+v, want %+v", i, got, want)
		}
	}
	data = writeFile(t, []*alkaid.Record{rec})
	if f, _ = readFile(t, data); f.SortingColumns(0) != nil {
		t.Errorf("no sorting columns written, read %+v", f.SortingColumns(0))
	}
	if _, err := NewWriter(&bytes.Buffer{}, s, WithSortingColumns(SortingColumn{Path: "tags"})); err == nil {
		t.Error(`sorting column "tags" (not a leaf): no error`)
	}
}
