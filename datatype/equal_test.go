package datatype_test

import (
	"testing"

	"github.com/alkaid-go/alkaid/datatype"
)

// TestEqualWithoutOptionsAllocatesNothing: the reader compares each
// column's type with its field's once per batch.
func TestEqualWithoutOptionsAllocatesNothing(t *testing.T) {
	a := datatype.StructOf(datatype.Field{Name: "x", Type: datatype.ListOf(datatype.Int32), Nullable: true})
	b := datatype.StructOf(datatype.Field{Name: "x", Type: datatype.ListOf(datatype.Int32), Nullable: true})
	if n := testing.AllocsPerRun(100, func() {
		if !datatype.Equal(a, b) || !datatype.FieldEqual(datatype.Field{Type: a}, datatype.Field{Type: b}) {
			t.Fatal("not equal")
		}
	}); n != 0 {
		t.Fatalf("%v allocations per comparison", n)
	}
}
