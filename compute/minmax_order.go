package compute

import (
	"bytes"
	"math"
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
		cmpf, _, err := minMaxOrderOf(c)
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
	c, _, err := minMaxOrderOf(both)
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

// minMaxOrderOf is [orderOf] for the minimum and maximum: a float -0
// orders before +0 (which sorting keeps equal, in row order).
func minMaxOrderOf(a array.Array) (cmpFn, nanFn, error) {
	c, nan, err := orderOf(a)
	if err != nil || nan == nil {
		return c, nan, err
	}
	neg := negZero(a)
	if neg == nil {
		return c, nan, nil
	}
	return func(i, j int) int {
		if d := c(i, j); d != 0 {
			return d
		}
		switch ni, nj := neg(i), neg(j); {
		case ni && !nj:
			return -1
		case nj && !ni:
			return 1
		}
		return 0
	}, nan, nil
}

// negZero reports whether the valid slot i of a float array (or one
// wrapping floats) holds -0; nil for other types.
func negZero(a array.Array) func(i int) bool {
	isNeg := func(f float64) bool { return f == 0 && math.Signbit(f) }
	switch x := a.(type) {
	case *array.Extension:
		return negZero(x.Storage())
	case *array.Dictionary:
		if n := negZero(x.Dictionary()); n != nil {
			return func(i int) bool { return n(x.ValueIndex(i)) }
		}
	case *array.RunEndEncoded:
		if n := negZero(x.Values()); n != nil {
			return func(i int) bool { return n(x.PhysicalIndex(i)) }
		}
	case *array.Float64:
		v := x.Values()
		return func(i int) bool { return isNeg(v[i]) }
	case *array.Float32:
		v := x.Values()
		return func(i int) bool { return isNeg(float64(v[i])) }
	case *array.Float16:
		v := x.Values()
		return func(i int) bool { return isNeg(float64(v[i].Float32())) }
	}
	return nil
}
