package expr

import (
	"fmt"
	"math"
	"math/big"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

func init() {
	register("trunc", 1, 2, bindTrunc)
}

// bindTrunc binds trunc(x [, digits]): x cut toward zero to digits
// decimals (0 when absent; a negative count cuts to tens, hundreds, …),
// as DuckDB's trunc. Floats keep their type (x·10^d truncated, divided
// by 10^d; x itself where that is not finite); integers keep their type
// and value for digits >= 0; a decimal(p, s) becomes decimal(p, d) for
// 0 <= d < s and decimal(p, 0) for d < 0. digits is a constant integer
// of int32's range; a null one makes the result null.
func bindTrunc(e *Expr, args []*node) (*node, error) {
	a := args[0]
	dec, isDec := a.typ.(*datatype.DecimalType)
	if !isNum(a.typ) && !isNull(a.typ) && !isDec {
		return nil, errAt(e, datatype.ErrInvalid, "trunc of %s (%s)", a.typ, a.src)
	}
	if isNull(a.typ) {
		return castNode(a, datatype.Float64)
	}
	typ := a.typ
	switch {
	case a.typ.Kind() == datatype.KindFloat16:
		typ = datatype.Float32
	case isDec:
		typ = dec
	}
	digits := int64(0)
	if len(args) > 1 {
		d := args[1]
		if d.lit == nil || !isInt(d.typ) && !isNull(d.typ) {
			return nil, errAt(e, datatype.ErrInvalid, "the digits of trunc must be a constant integer, not %s", d.src)
		}
		if !d.lit.Valid {
			return constant(e, compute.NullScalar(typ)), nil
		}
		s, err := castScalar(*d.lit, datatype.Int32)
		if err != nil {
			return nil, errAt(e, datatype.ErrInvalid, "the digits of trunc: %v", err)
		}
		digits = s.Value.(int64)
	}
	switch {
	case isInt(a.typ):
		if digits >= 0 {
			return a, nil
		}
		return truncInts(e, a, digits)
	case isDec:
		return truncDecimals(e, a, dec, digits)
	}
	x, err := castNode(a, typ)
	if err != nil {
		return nil, err
	}
	return unary(e, x, typ, func(arr array.Array) (array.Array, error) {
		switch v := arr.(type) {
		case *array.Float64:
			return mapFloats(v, func(f float64) float64 { return truncFloat(f, digits) }), nil
		case *array.Float32:
			return mapFloats(v, func(f float32) float32 { return float32(truncFloat(float64(f), digits)) }), nil
		}
		return nil, fmt.Errorf("trunc of %s: %w", arr.DataType(), datatype.ErrNotSupported)
	}), nil
}

// truncFloat is x cut toward zero to digits decimals, as DuckDB computes
// it; x where the result is not finite.
func truncFloat(x float64, digits int64) float64 {
	var r float64
	if digits < 0 {
		m := math.Pow(10, float64(-digits))
		r = math.Trunc(x/m) * m
	} else {
		m := math.Pow(10, float64(digits))
		r = math.Trunc(x*m) / m
	}
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return x
	}
	return r
}

// truncInts cuts integers toward zero to a multiple of 10^-digits
// (digits < 0), in int64 or uint64, then back to their type (the
// magnitude only shrinks).
func truncInts(e *Expr, a *node, digits int64) (*node, error) {
	wide := datatype.DataType(datatype.Int64)
	if !a.typ.Kind().IsSignedInteger() {
		wide = datatype.Uint64
	}
	x, err := castNode(a, wide)
	if err != nil {
		return nil, err
	}
	back := a.typ
	return unary(e, x, back, func(arr array.Array) (array.Array, error) {
		var out array.Array
		switch v := arr.(type) {
		case *array.Int64:
			vals := make([]int64, v.Len())
			if -digits < 19 {
				m := int64(math.Pow10(int(-digits)))
				for i, n := range v.Values() {
					vals[i] = n / m * m
				}
			}
			out = int64Array(vals, v)
		case *array.Uint64:
			vals := make([]uint64, v.Len())
			if -digits < 20 {
				m := uint64(1)
				for range -digits {
					m *= 10
				}
				for i, n := range v.Values() {
					vals[i] = n / m * m
				}
			}
			b := array.NewPrimitiveBuilder[uint64](datatype.Uint64)
			b.AppendValues(vals, validOf(v))
			out = b.NewArray()
		default:
			return nil, fmt.Errorf("trunc of %s: %w", arr.DataType(), datatype.ErrNotSupported)
		}
		if datatype.Equal(back, out.DataType()) {
			return out, nil
		}
		return compute.Cast(out, back)
	}), nil
}

// validOf is the validity of a as one bool per slot, nil without nulls.
func validOf(a array.Array) []bool {
	if a.NullN() == 0 {
		return nil
	}
	valid := make([]bool, a.Len())
	for i := range valid {
		valid[i] = a.IsValid(i)
	}
	return valid
}

// truncDecimals cuts decimals toward zero to digits decimals: the scale
// becomes digits when that is below it (0 for negative digits, whose
// last -digits integer digits become zeros).
func truncDecimals(e *Expr, a *node, dec *datatype.DecimalType, digits int64) (*node, error) {
	if digits >= int64(dec.Scale) {
		return a, nil
	}
	to, err := datatype.NewDecimal(dec.BitWidth, dec.Precision, int32(max(digits, 0)))
	if err != nil {
		return nil, errAt(e, datatype.ErrInvalid, "trunc of %s: %v", dec, err)
	}
	return unary(e, a, to, func(arr array.Array) (array.Array, error) {
		out, err := compute.Cast(arr, to, compute.AllowTruncation())
		if err != nil || digits >= 0 {
			return out, err
		}
		// Zero the last -digits integer digits.
		m := new(big.Int).Exp(big.NewInt(10), big.NewInt(min(-digits, 80)), nil)
		b := array.NewBuilder(to)
		for i := range out.Len() {
			if out.IsNull(i) {
				b.AppendNull()
				continue
			}
			var v *big.Int
			switch x := out.(type) {
			case *array.Decimal32:
				v = big.NewInt(int64(x.Value(i)))
			case *array.Decimal64:
				v = big.NewInt(int64(x.Value(i)))
			case *array.Decimal128:
				v = x.Value(i).BigInt()
			case *array.Decimal256:
				v = x.Value(i).BigInt()
			}
			v.Mul(v.Quo(v, m), m)
			switch bb := b.(type) {
			case *array.PrimitiveBuilder[datatype.Decimal32]:
				bb.Append(datatype.Decimal32(v.Int64()))
			case *array.PrimitiveBuilder[datatype.Decimal64]:
				bb.Append(datatype.Decimal64(v.Int64()))
			case *array.PrimitiveBuilder[datatype.Decimal128]:
				bb.Append(datatype.Decimal128FromBig(v))
			case *array.PrimitiveBuilder[datatype.Decimal256]:
				bb.Append(datatype.Decimal256FromBig(v))
			}
		}
		return b.NewArray(), nil
	}), nil
}
