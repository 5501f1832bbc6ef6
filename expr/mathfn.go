package expr

import (
	"fmt"
	"math"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

func init() {
	register("round", 1, 2, bindRound)
}

// bindRound binds round(x [, digits]): floats rounded half away from
// zero to digits decimals (0 when absent; negative rounds to tens,
// hundreds, …), as DuckDB does (x·10^d rounded, divided by 10^d);
// integers stay as they are for digits >= 0 and are rounded half away
// from zero to a power of ten otherwise, overflow being an error.
func bindRound(e *Expr, args []*node) (*node, error) {
	a := args[0]
	if !isNum(a.typ) {
		return nil, errAt(e, datatype.ErrInvalid, "round of %s (%s)", a.typ, a.src)
	}
	digits := int64(0)
	if len(args) > 1 {
		d := args[1]
		if d.lit == nil || !isInt(d.typ) || !d.lit.Valid {
			return nil, errAt(e, datatype.ErrInvalid, "the digits of round must be a constant integer, not %s", d.src)
		}
		s, err := castScalar(*d.lit, datatype.Int64)
		if err != nil {
			return nil, errAt(e, datatype.ErrInvalid, "digits: %v", err)
		}
		digits = s.Value.(int64)
		if digits < -40 || digits > 40 {
			return nil, errAt(e, datatype.ErrInvalid, "round to %d digits", digits)
		}
	}
	if isInt(a.typ) {
		if digits >= 0 {
			return a, nil
		}
		return roundInts(e, a, digits)
	}
	t := a.typ
	if t.Kind() == datatype.KindFloat16 {
		t = datatype.Float32
	}
	x, err := castNode(a, t)
	if err != nil {
		return nil, err
	}
	return unary(e, x, t, func(arr array.Array) (array.Array, error) {
		switch v := arr.(type) {
		case *array.Float64:
			return mapFloats(v, func(f float64) float64 { return roundFloat(f, digits, math.Round) }), nil
		case *array.Float32:
			return mapFloats(v, func(f float32) float32 { return float32(roundFloat(float64(f), digits, math.Round)) }), nil
		}
		return nil, fmt.Errorf("round of %s: %w", arr.DataType(), datatype.ErrNotSupported)
	}), nil
}

// roundFloat is x rounded by round to digits decimals.
func roundFloat(x float64, digits int64, round func(float64) float64) float64 {
	if digits < 0 {
		m := math.Pow(10, float64(-digits))
		r := round(x/m) * m
		if math.IsInf(r, 0) || math.IsNaN(r) {
			return 0
		}
		return r
	}
	m := math.Pow(10, float64(digits))
	r := round(x*m) / m
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return x
	}
	return r
}

// mapFloats is f of every value of a (null slots included: f cannot
// fail), written straight into the result.
func mapFloats[T float32 | float64](a *array.Primitive[T], f func(T) T) array.Array {
	vals := a.Values()
	buf, out := newFixed[T](len(vals))
	for i, v := range vals {
		out[i] = f(v)
	}
	return fixedOut(a.DataType(), buf, a)
}

// roundInts rounds integers to 10^-digits, half away from zero, in
// int64 (checked), then back to their type (checked).
func roundInts(e *Expr, a *node, digits int64) (*node, error) {
	x, err := castNode(a, datatype.Int64)
	if err != nil {
		return nil, err
	}
	if -digits > 18 {
		return nil, errAt(e, datatype.ErrInvalid, "round of an integer to %d digits", digits)
	}
	m := int64(math.Pow10(int(-digits)))
	back := a.typ
	return unary(e, x, back, func(arr array.Array) (array.Array, error) {
		v := arr.(*array.Int64)
		vals := v.Values()
		out := make([]int64, len(vals))
		for i, n := range vals {
			if v.IsNull(i) {
				continue
			}
			q, r := n/m, n%m
			switch {
			case r >= (m+1)/2:
				q++
			case -r >= (m+1)/2:
				q--
			}
			if q > math.MaxInt64/m || q < math.MinInt64/m {
				return nil, fmt.Errorf("row %d: round(%d, %d) overflows: %w", i, n, digits, compute.ErrOverflow)
			}
			out[i] = q * m
		}
		r := int64Array(out, v)
		if datatype.Equal(back, datatype.Int64) {
			return r, nil
		}
		return compute.Cast(r, back)
	}), nil
}
