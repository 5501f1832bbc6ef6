package expr

import (
	"math/big"
	"testing"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestLiterals compares columns of several types with literals of their
// own types, built in Go.
func TestLiterals(t *testing.T) {
	dec, _ := datatype.NewDecimal(128, 10, 2)
	ts, _ := datatype.NewTimestamp(datatype.Microsecond, "UTC")
	t64, _ := datatype.NewTime(datatype.Microsecond)
	cols := []struct {
		name, json string
		typ        datatype.DataType
	}{
		{"dec", `["1.50", "-2.25", null, "100.00"]`, dec},
		{"ts", `["2024-01-01T00:00:00Z", "2024-06-01T12:00:00Z", null, "1999-12-31T23:59:59Z"]`, ts},
		{"bin", `["a", "b", null, ""]`, datatype.Binary},
		{"u64", `[0, 18446744073709551615, null, 5]`, datatype.Uint64},
		{"f32", `[0.5, -0.0, null, 3.25]`, datatype.Float32},
		{"tm", `[43200000000, 1000000, null, 86399500000]`, t64},
	}
	var fields []datatype.Field
	var arrays []array.Array
	for _, c := range cols {
		fields = append(fields, datatype.Field{Name: c.name, Type: c.typ, Nullable: true})
		a, err := arrayjson.Parse(c.typ, c.json)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		arrays = append(arrays, a)
	}
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), arrays, 4)
	if err != nil {
		t.Fatal(err)
	}
	d150 := compute.Scalar{Type: dec, Valid: true, Value: datatype.Decimal128FromBig(bigInt(150))}
	for _, c := range []struct {
		e    *Expr
		want string
	}{
		{Eq(Field("dec"), Lit(d150)), "[true false (null) false]"},
		{Gt(Field("dec"), Lit(1)), "[true false (null) true]"},
		{Lt(Field("dec"), Lit("0")), "[false true (null) false]"},
		{Ge(Field("ts"), Lit(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))), "[true true (null) false]"},
		{Eq(Field("bin"), Lit([]byte("b"))), "[false true (null) false]"},
		{Gt(Field("u64"), Lit(uint64(1)<<63)), "[false true (null) false]"},
		{Eq(Field("f32"), Lit(0)), "[false true (null) false]"},
		{Lt(Field("f32"), Lit(1.0)), "[true true (null) false]"},
		{Gt(Field("tm"), Lit("12:00:00")), "[false false (null) true]"},
		{IsNull(Lit(nil)), "[true true true true]"},
	} {
		t.Run(c.e.String(), func(t *testing.T) {
			b, err := Bind(c.e, rec.Schema())
			if err != nil {
				t.Fatal(err)
			}
			got, err := b.Eval(rec)
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
			// What String prints parses and binds to the same answer.
			again, err := Parse(c.e.String())
			if err != nil {
				t.Fatal(err)
			}
			b2, err := Bind(again, rec.Schema())
			if err != nil {
				t.Fatal(err)
			}
			got2, err := b2.Eval(rec)
			if err != nil {
				t.Fatal(err)
			}
			if got2.String() != c.want {
				t.Errorf("printed %s: got %s, want %s", again, got2, c.want)
			}
		})
	}
}

func bigInt(v int64) *big.Int { return big.NewInt(v) }
