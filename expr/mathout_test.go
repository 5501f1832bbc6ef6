package expr

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// mathColumns returns columns x and y of n float64 values from slot off
// of longer arrays (so that their bitmaps start past bit 0): x is never
// negative where valid (its null slots hold negatives), every fifth x and
// every seventh y is null, and x holds -0, +Inf, NaN and subnormals.
func mathColumns(t *testing.T, n, off int) *alkaid.Record {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.NaN(), math.SmallestNonzeroFloat64, 0x1p-1030, 2, 0.5}
	xb := array.NewPrimitiveBuilder[float64](datatype.Float64)
	yb := array.NewPrimitiveBuilder[float64](datatype.Float64)
	for i := range n + off {
		switch {
		case i%5 == 0:
			xb.AppendValues([]float64{-1 - float64(i)}, []bool{false})
		case i%3 == 0:
			xb.Append(special[r.IntN(len(special))])
		default:
			xb.Append(math.Abs(math.Float64frombits(r.Uint64())))
		}
		if i%7 == 0 {
			yb.AppendNull()
		} else {
			yb.Append(r.Float64()*8 - 4)
		}
	}
	x, y := array.Slice(xb.NewArray(), off, off+n), array.Slice(yb.NewArray(), off, off+n)
	rec, err := alkaid.NewRecord(alkaid.NewSchema([]datatype.Field{
		{Name: "x", Type: datatype.Float64, Nullable: true}, {Name: "y", Type: datatype.Float64, Nullable: true}},
		datatype.Metadata{}), []array.Array{x, y}, n)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestMathResultsInPlace checks the math functions that write their
// results straight into the output buffer against Go's math, bit for bit,
// with the nulls of their inputs, for sliced inputs and at offset 0.
func TestMathResultsInPlace(t *testing.T) {
	for _, off := range []int{0, 3} {
		rec := mathColumns(t, 301, off)
		x := rec.Column(0).(*array.Float64)
		y := rec.Column(1).(*array.Float64)
		for _, c := range []struct {
			text string
			want func(i int) (float64, bool)
		}{
			{"sqrt(x)", func(i int) (float64, bool) { return math.Sqrt(x.Value(i)), x.IsValid(i) }},
			{"cbrt(x)", func(i int) (float64, bool) { return math.Cbrt(x.Value(i)), x.IsValid(i) }},
			{"floor(x)", func(i int) (float64, bool) { return math.Floor(x.Value(i)), x.IsValid(i) }},
			{"pow(x, y)", func(i int) (float64, bool) { return math.Pow(x.Value(i), y.Value(i)), x.IsValid(i) && y.IsValid(i) }},
			{"pow(y, 2)", func(i int) (float64, bool) { return math.Pow(y.Value(i), 2), y.IsValid(i) }},
			{"sign(y)", func(i int) (float64, bool) {
				switch v := y.Value(i); {
				case v > 0:
					return 1, y.IsValid(i)
				case v < 0:
					return -1, y.IsValid(i)
				}
				return 0, y.IsValid(i)
			}},
		} {
			got := evalMath(t, c.text, rec)
			if got.Len() != rec.NumRows() {
				t.Fatalf("%s: %d rows, want %d", c.text, got.Len(), rec.NumRows())
			}
			for i := range got.Len() {
				want, valid := c.want(i)
				if got.IsValid(i) != valid {
					t.Fatalf("off %d, %s: row %d valid %v, want %v", off, c.text, i, got.IsValid(i), valid)
				}
				if !valid {
					continue
				}
				var g float64
				switch v := got.(type) {
				case *array.Float64:
					g = v.Value(i)
				case *array.Int8:
					g = float64(v.Value(i))
				}
				if math.Float64bits(g) != math.Float64bits(want) && !(math.IsNaN(g) && math.IsNaN(want)) {
					t.Fatalf("off %d, %s: row %d = %v, want %v", off, c.text, i, g, want)
				}
			}
			if err := array.Validate(got.Data(), array.ValidateFull); err != nil {
				t.Fatalf("%s: %v", c.text, err)
			}
		}
	}
}

// TestSqrtNegativeRow checks that a valid negative value is an error
// naming its row, and that negatives in null slots are not.
func TestSqrtNegativeRow(t *testing.T) {
	rec := mathColumns(t, 50, 1)
	if _, err := evalMathErr("sqrt(x)", rec); err != nil {
		t.Fatalf("negatives under nulls: %v", err)
	}
	_, err := evalMathErr("sqrt(y)", rec)
	if !errors.Is(err, datatype.ErrInvalid) || !strings.Contains(err.Error(), "row ") {
		t.Fatalf("sqrt(y) = %v, want a row's ErrInvalid", err)
	}
}

func evalMath(t *testing.T, text string, rec *alkaid.Record) array.Array {
	t.Helper()
	a, err := evalMathErr(text, rec)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return a
}

func evalMathErr(text string, rec *alkaid.Record) (array.Array, error) {
	e, err := Parse(text)
	if err != nil {
		return nil, err
	}
	b, err := Bind(e, rec.Schema())
	if err != nil {
		return nil, err
	}
	return b.Eval(rec)
}

// TestFixedOutAllNull checks that a result shaped like an array of the
// null type (no bitmap, every slot null) is all null.
func TestFixedOutAllNull(t *testing.T) {
	buf, out := newFixed[float64](4)
	for i := range out {
		out[i] = 1
	}
	got := fixedOut(datatype.Float64, buf, array.NewNull(4))
	if got.NullN() != 4 || got.IsValid(0) || got.IsValid(3) {
		t.Fatalf("got %s, want 4 nulls", array.Format(got))
	}
}
