package parquet

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/memory"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/shred"
)

// TestFlatListSegmentMatchesShredding: the direct conversion of a
// top-level list gives the levels and values of the general shredding,
// for nullable and required lists and elements of several types, whole
// and sliced.
func TestFlatListSegmentMatchesShredding(t *testing.T) {
	g := randdata.New(3)
	g.NullFraction = 0.2
	for _, et := range []datatype.DataType{datatype.Int32, datatype.Int64, datatype.Float64, datatype.String, datatype.Bool, datatype.Int8} {
		for _, listNull := range []bool{false, true} {
			for _, elemNull := range []bool{false, true} {
				name := fmt.Sprintf("%s/list-null=%v/elem-null=%v", et, listNull, elemNull)
				t.Run(name, func(t *testing.T) {
					f := datatype.Field{Name: "l", Nullable: listNull,
						Type: datatype.ListOfField(datatype.Field{Name: "element", Type: et, Nullable: elemNull})}
					s := alkaid.NewSchema([]datatype.Field{f}, datatype.Metadata{})
					rec := g.Record(s, 300)
					w, err := NewWriter(&bytes.Buffer{}, s)
					if err != nil {
						t.Fatal(err)
					}
					for _, a := range []array.Array{rec.Column(0), array.Slice(rec.Column(0), 17, 211)} {
						got, ok, err := flatListSegment(w.leaves[0], f, a)
						if err != nil || !ok {
							t.Fatalf("flatListSegment: ok %v, %v", ok, err)
						}
						cols, err := shred.ShredField(f, a)
						if err != nil {
							t.Fatal(err)
						}
						want, err := physicalOf(w.leaves[0], cols[0].Values)
						if err != nil {
							t.Fatal(err)
						}
						if got.n != cols[0].Len() || int(got.maxDef) != cols[0].MaxDef || got.maxRep != 1 {
							t.Fatalf("n %d maxDef %d, want %d and %d", got.n, got.maxDef, cols[0].Len(), cols[0].MaxDef)
						}
						if !reflect.DeepEqual(got.def, cols[0].Def) || !reflect.DeepEqual(got.rep, cols[0].Rep) {
							t.Fatalf("levels differ:\n def %v\nwant %v\n rep %v\nwant %v", got.def, cols[0].Def, got.rep, cols[0].Rep)
						}
						if got.vals.n != want.n ||
							!bytes.Equal(encodeValues(nil, format.Plain, w.leaves[0], got.vals), encodeValues(nil, format.Plain, w.leaves[0], want)) {
							t.Fatalf("values differ: %d vs %d", got.vals.n, want.n)
						}
					}
				})
			}
		}
	}
}

// TestFlatListNullSlotWithElements: a null list slot whose offsets span
// elements contributes one null entry and none of those elements.
func TestFlatListNullSlotWithElements(t *testing.T) {
	lt := datatype.ListOf(datatype.Int32)
	child := arrayjson.MustParse(datatype.Int32, "[1, 2, 3, 4, 5]")
	valid := memory.NewBuffer([]byte{0b101})
	offs := memory.FromSlice([]int32{0, 2, 4, 5})
	a, err := array.Make(array.NewData(lt, 3, []*memory.Buffer{valid, offs}, []*array.Data{child.Data()}, 1, 0))
	if err != nil {
		t.Fatal(err)
	}
	s := alkaid.NewSchema([]datatype.Field{{Name: "l", Type: lt, Nullable: true}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{a}, 3)
	if err != nil {
		t.Fatal(err)
	}
	_, got := readFile(t, writeFile(t, []*alkaid.Record{rec}))
	if f := array.Format(got[0].Column(0)); f != "[[1 2] (null) [5]]" {
		t.Errorf("read %s, want [[1 2] (null) [5]]", f)
	}
}
