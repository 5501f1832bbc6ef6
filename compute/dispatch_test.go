package compute

import (
	"errors"
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestDispatchSupport pins which operations each type supports, as the
// type switches that the dispatch table replaced did: a type gains or
// loses an operation only by a change to this table and the test.
func TestDispatchSupport(t *testing.T) {
	must := func(dt datatype.DataType, err error) datatype.DataType {
		if err != nil {
			t.Fatal(err)
		}
		return dt
	}
	ts := must(datatype.NewTimestamp(datatype.Millisecond, "UTC"))
	t32 := must(datatype.NewTime(datatype.Second))
	t64 := must(datatype.NewTime(datatype.Nanosecond))
	dur := must(datatype.NewDuration(datatype.Microsecond))
	d32 := must(datatype.NewDecimal(32, 9, 2))
	d64 := must(datatype.NewDecimal(64, 18, 2))
	d128 := must(datatype.NewDecimal(128, 38, 2))
	d256 := must(datatype.NewDecimal(256, 76, 2))
	fsb := must(datatype.NewFixedSizeBinary(4))

	// arith: Add, AddScalar and Negate; cmp: Compare; sum: Sum; mm:
	// Min by a typed kernel (else by the generic order); ord: SortIndices.
	type ops struct{ arith, cmp, sum, ord bool }
	num := ops{true, true, true, true}
	ordOnly := ops{false, true, false, true}
	decimal := ops{false, true, true, true}
	cases := []struct {
		t   datatype.DataType
		ops ops
	}{
		{datatype.Int8, num}, {datatype.Int16, num}, {datatype.Int32, num}, {datatype.Int64, num},
		{datatype.Uint8, num}, {datatype.Uint16, num}, {datatype.Uint32, num}, {datatype.Uint64, num},
		{datatype.Float32, num}, {datatype.Float64, num},
		{datatype.Float16Type, ops{false, true, true, true}},
		{datatype.Date32Type, ordOnly}, {datatype.Date64Type, ordOnly}, {t32, ordOnly}, {t64, ordOnly},
		{ts, ordOnly}, {dur, ordOnly}, {d32, decimal}, {d64, decimal}, {d128, decimal}, {d256, decimal},
		{datatype.Bool, ordOnly}, {datatype.Null, ops{false, false, true, true}},
		{datatype.Binary, ordOnly}, {datatype.String, ordOnly}, {datatype.LargeBinary, ordOnly},
		{datatype.LargeString, ordOnly}, {datatype.BinaryView, ordOnly}, {datatype.StringView, ordOnly},
		{fsb, ordOnly},
		{datatype.MonthIntervalType, ops{}}, {datatype.DayTimeIntervalType, ops{}},
		{datatype.MonthDayNanoIntervalType, ops{}},
		{datatype.ListOf(datatype.Int32), ops{}},
	}
	check := func(dt datatype.DataType, op string, want bool, err error) {
		t.Helper()
		switch {
		case want && err != nil:
			t.Errorf("%s of %s: %v", op, dt, err)
		case !want && !errors.Is(err, ErrNotSupported):
			t.Errorf("%s of %s: got %v, want an ErrNotSupported error", op, dt, err)
		}
	}
	for _, c := range cases {
		b, err := array.TryNewBuilder(c.t)
		if err != nil {
			t.Fatal(err)
		}
		b.AppendNull()
		a := b.NewArray()
		_, err = Add(a, a)
		check(c.t, "Add", c.ops.arith, err)
		_, err = AddScalar(a, 1)
		check(c.t, "AddScalar", c.ops.arith, err)
		_, err = Negate(a)
		check(c.t, "Negate", c.ops.arith && !c.t.Kind().IsInteger() || c.ops.arith && c.t.Kind().IsSignedInteger(), err)
		_, err = Compare(Lt, a, a)
		check(c.t, "Compare", c.ops.cmp, err)
		_, err = Sum(a)
		check(c.t, "Sum", c.ops.sum, err)
		_, err = SortIndices(a, Order{})
		check(c.t, "SortIndices", c.ops.ord, err)
		_, err = Min(a)
		check(c.t, "Min", c.ops.ord, err)
	}
}
