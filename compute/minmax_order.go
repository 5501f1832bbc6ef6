package compute

import (
	"bytes"
	"strings"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// minMaxByOrder is Min and Max of the orderable types without a typed
// kernel (strings and binary of every layout, booleans, 128- and 256-bit
// decimals, dictionaries by value), through their comparators.
func minMaxByOrder(t datatype.DataType, chunks []array.Array, want int) (lo, hi Scalar, err error) {
	type best struct {
		a array.Array
		i int
	}
	var mn, mx best
	for _, c := range chunks {
		cmpf, _, err := orderOf(c)
		if err != nil {
			return lo, hi, errf(ErrNotSupported, "min/max of %s", t)
		}
		isNull := nullFn(c)
		bi, ai := -1, -1
		for i := range c.Len() {
			if isNull != nil && isNull(i) {
				continue
			}
			if ai < 0 || cmpf(i, ai) < 0 {
				ai = i
			}
			if bi < 0 || cmpf(i, bi) > 0 {
				bi = i
			}
		}
		if ai < 0 {
			continue
		}
		if mn.a == nil || compareAcross(c, ai, mn.a, mn.i) < 0 {
			mn = best{c, ai}
		}
		if mx.a == nil || compareAcross(c, bi, mx.a, mx.i) > 0 {
			mx = best{c, bi}
		}
	}
	if mn.a == nil {
		return NullScalar(t), NullScalar(t), nil
	}
	lo, hi = NullScalar(t), NullScalar(t)
	if want&wantMin != 0 {
		lo = Scalar{Type: t, Valid: true, Value: goValue(mn.a, mn.i)}
	}
	if want&wantMax != 0 {
		hi = Scalar{Type: t, Valid: true, Value: goValue(mx.a, mx.i)}
	}
	return lo, hi, nil
}

// compareAcross compares slot i of a with slot j of b (of one type).
func compareAcross(a array.Array, i int, b array.Array, j int) int {
	both, err := array.Concatenate(array.Slice(a, i, i+1), array.Slice(b, j, j+1))
	if err != nil {
		return 0
	}
	c, _, err := orderOf(both)
	if err != nil {
		return 0
	}
	return c(0, 1)
}

// goValue is slot i as a Go value: string for strings, []byte (a copy)
// for binary, bool, the datatype value types for decimals, the value's
// own for dictionaries.
func goValue(a array.Array, i int) any {
	switch x := a.(type) {
	case *array.Dictionary:
		return goValue(x.Dictionary(), x.ValueIndex(i))
	case *array.Extension:
		return goValue(x.Storage(), i)
	case *array.Boolean:
		return x.Value(i)
	case *array.Decimal128:
		return x.Value(i)
	case *array.Decimal256:
		return x.Value(i)
	case byteValuer:
		if isStringKind(a.DataType().Kind()) {
			return strings.Clone(string(x.Value(i)))
		}
		return bytes.Clone(x.Value(i))
	}
	return array.FormatValue(a, i)
}
