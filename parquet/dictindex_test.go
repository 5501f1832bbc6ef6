package parquet

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestNarrowDictionaryIndices: a stored dictionary<uint8, _> whose row
// group holds more distinct values than uint8 indices reach (each
// written batch had its own dictionary) is read with int32 indices.
func TestNarrowDictionaryIndices(t *testing.T) {
	for _, it := range []datatype.DataType{datatype.Uint8, datatype.Int8, datatype.Int16} {
		dt, _ := datatype.NewDictionary(it, datatype.String, false)
		s := alkaid.NewSchema([]datatype.Field{
			{Name: "d", Type: dt, Nullable: true},
			{Name: "l", Type: datatype.ListOf(dt), Nullable: true},
		}, datatype.Metadata{})
		var buf bytes.Buffer
		w, err := NewWriter(&buf, s)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for k := range 2 {
			var vs, ls []string
			for i := range 100 {
				v := fmt.Sprintf("%q", fmt.Sprint(k*100+i))
				vs, ls = append(vs, v), append(ls, "["+v+"]")
				want = append(want, v)
			}
			rec, err := alkaid.NewRecord(s, []array.Array{
				arrayjson.MustParse(dt, "["+strings.Join(vs, ",")+"]"),
				arrayjson.MustParse(datatype.ListOf(dt), "["+strings.Join(ls, ",")+"]"),
			}, 100)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		f, err := NewFileBytes(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		wantType, _ := datatype.NewDictionary(datatype.Int32, datatype.String, false)
		if got := f.Schema().Field(0).Type; !datatype.Equal(got, wantType) {
			t.Errorf("%s: schema type %s, want %s", it, got, wantType)
		}
		recs, err := f.ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", it, err)
		}
		var got []string
		for _, r := range recs {
			c := r.Column(0)
			for i := range c.Len() {
				got = append(got, array.FormatValue(c, i))
			}
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: read %d values, not the %d written", it, len(got), len(want))
		}
	}
}
