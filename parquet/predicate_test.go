package parquet

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// sortedFile has 4 row groups of 100 rows: i = 0..399, f = i/2, s =
// "k%03d" of i, n null in the first two groups only.
func sortedFile(t *testing.T) []byte {
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "i", Type: datatype.Int64},
		{Name: "f", Type: datatype.Float64},
		{Name: "s", Type: datatype.String},
		{Name: "n", Type: datatype.Int32, Nullable: true},
	}, datatype.Metadata{})
	ib := array.NewPrimitiveBuilder[int64](datatype.Int64)
	fb := array.NewPrimitiveBuilder[float64](datatype.Float64)
	nb := array.NewPrimitiveBuilder[int32](datatype.Int32)
	var strs []string
	for i := range 400 {
		ib.Append(int64(i))
		fb.Append(float64(i) / 2)
		strs = append(strs, fmt.Sprintf("k%03d", i))
		if i < 200 {
			nb.AppendNull()
		} else {
			nb.Append(int32(i))
		}
	}
	sb := array.NewBuilder(datatype.String).(*array.BinaryBuilder[int32])
	sb.AppendStrings(strs, nil)
	rec, err := alkaid.NewRecord(s, []array.Array{ib.Finish(), fb.Finish(), sb.NewArray(), nb.Finish()}, 400)
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, []*alkaid.Record{rec}, WithRowGroupRows(100))
}

func TestPredicatesSkipRowGroups(t *testing.T) {
	data := sortedFile(t)
	cases := []struct {
		name  string
		preds []Predicate
		first []int64 // first i of each row group read
	}{
		{"none", nil, []int64{0, 100, 200, 300}},
		{"eq", []Predicate{{Column: "i", Op: Eq, Value: int64(150)}}, []int64{100}},
		{"lt", []Predicate{{Column: "i", Op: Lt, Value: int64(100)}}, []int64{0}},
		{"gt", []Predicate{{Column: "i", Op: Gt, Value: int64(299)}}, []int64{300}},
		{"between", []Predicate{{Column: "i", Op: Between, Value: int64(199), Value2: int64(200)}}, []int64{100, 200}},
		{"float", []Predicate{{Column: "f", Op: Gt, Value: 149.5}}, []int64{300}},
		{"string", []Predicate{{Column: "s", Op: Eq, Value: "k250"}}, []int64{200}},
		{"is null", []Predicate{{Column: "n", Op: IsNull}}, []int64{0, 100}},
		{"all null", []Predicate{{Column: "n", Op: Gt, Value: int64(0)}}, []int64{200, 300}},
		{"and", []Predicate{{Column: "i", Op: Gt, Value: int64(50)}, {Column: "s", Op: Lt, Value: "k150"}}, []int64{0, 100}},
		{"no match", []Predicate{{Column: "i", Op: Eq, Value: int64(1000)}}, nil},
		{"type mismatch never skips", []Predicate{{Column: "i", Op: Eq, Value: "x"}}, []int64{0, 100, 200, 300}},
	}
	for _, c := range cases {
		f, err := NewFileBytes(data)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for r, err := range records(f, WithPredicates(c.preds...)) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, r.Column(0).(*array.Int64).Value(0))
		}
		if fmt.Sprint(got) != fmt.Sprint(c.first) {
			t.Errorf("%s: read groups starting at %v, want %v", c.name, got, c.first)
		}
	}
	f, _ := NewFile(bytes.NewReader(data), int64(len(data)))
	if _, err := readAll(f, WithPredicates(Predicate{Column: "zz", Op: IsNull})); err == nil {
		t.Error("predicate on an unknown column: no error")
	}
}
