package expr

import (
	"fmt"
	"math"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/simd"
	"github.com/alkaid-go/alkaid/memory"
)

func init() {
	// float registers name(x) over float64 (integers cast): f's error
	// names the value, the row is added.
	float := func(name string, f func(x float64) (float64, error)) {
		register(name, 1, 1, func(e *Expr, args []*node) (*node, error) {
			x, err := floatArg(e, args[0])
			if err != nil {
				return nil, err
			}
			return unary(e, x, datatype.Float64, func(a array.Array) (array.Array, error) {
				return mapFloat64s(a.(*array.Float64), f)
			}), nil
		})
	}
	register("sqrt", 1, 1, func(e *Expr, args []*node) (*node, error) {
		x, err := floatArg(e, args[0])
		if err != nil {
			return nil, err
		}
		return unary(e, x, datatype.Float64, func(a array.Array) (array.Array, error) { return sqrtFloat64s(a.(*array.Float64)) }), nil
	})
	float("cbrt", func(x float64) (float64, error) { return math.Cbrt(x), nil })
	float("exp", func(x float64) (float64, error) { return math.Exp(x), nil })
	logOf := func(name string, f func(float64) float64) {
		float(name, func(x float64) (float64, error) {
			switch {
			case x == 0:
				return 0, fmt.Errorf("logarithm of zero: %w", datatype.ErrInvalid)
			case x < 0:
				return 0, fmt.Errorf("logarithm of the negative number %v: %w", x, datatype.ErrInvalid)
			}
			return f(x), nil
		})
	}
	logOf("ln", math.Log)
	logOf("log10", math.Log10)
	logOf("log2", math.Log2)
	logOf("log", math.Log10)
	// ceil and floor keep the type: integers are already whole (trunc is
	// in trunc.go).
	whole := func(name string, f func(float64) float64) {
		register(name, 1, 1, func(e *Expr, args []*node) (*node, error) {
			a := args[0]
			if isInt(a.typ) {
				return a, nil
			}
			if isNull(a.typ) {
				return castNode(a, datatype.Float64)
			}
			if !isFloat(a.typ) || a.typ.Kind() == datatype.KindFloat16 {
				return nil, errAt(e, datatype.ErrInvalid, "%s of %s (%s)", name, a.typ, a.src)
			}
			return unary(e, a, a.typ, func(arr array.Array) (array.Array, error) {
				switch v := arr.(type) {
				case *array.Float64:
					return mapFloats(v, f), nil
				case *array.Float32:
					return mapFloats(v, func(x float32) float32 { return float32(f(float64(x))) }), nil
				}
				return nil, fmt.Errorf("%s of %s: %w", name, arr.DataType(), datatype.ErrNotSupported)
			}), nil
		})
	}
	whole("ceil", math.Ceil)
	whole("ceiling", math.Ceil)
	whole("floor", math.Floor)
	register("sign", 1, 1, bindSign)
	float2 := func(name string, f func(x, y float64) float64) {
		register(name, 2, 2, func(e *Expr, args []*node) (*node, error) { return bindFloat2(e, args, f) })
	}
	float2("pow", math.Pow)
	float2("power", math.Pow)
	// fmod is DuckDB's: x - y·floor(x/y), the sign of the divisor.
	float2("fmod", func(x, y float64) float64 { return x - y*math.Floor(x/y) })
	register("mod", 2, 2, func(e *Expr, args []*node) (*node, error) { return functions["modulo"].bind(e, args) })
	register("round_even", 1, 2, bindRoundEven)
}

// floatArg checks that a is a number (or null) and casts it to float64.
func floatArg(e *Expr, a *node) (*node, error) {
	if !isNum(a.typ) && !isNull(a.typ) {
		return nil, errAt(e, datatype.ErrInvalid, "%s needs a number, not %s (%s)", e.fn, a.typ, a.src)
	}
	return castNode(a, datatype.Float64)
}

// mapFloat64s is f of every valid value (0 in null slots), written
// straight into the result; an error names the row.
func mapFloat64s(a *array.Float64, f func(float64) (float64, error)) (array.Array, error) {
	vals := a.Values()
	buf, out := newFixed[float64](len(vals))
	var err error
	for i, v := range vals {
		if a.IsNull(i) {
			out[i] = 0
			continue
		}
		if out[i], err = f(v); err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
	}
	return fixedOut(datatype.Float64, buf, a), nil
}

// sqrtFloat64s is the square root of every value of a, the vector kernel
// being math.Sqrt bit for bit; a valid negative value is an error naming
// the row (-0 is not negative: its root is -0).
func sqrtFloat64s(a *array.Float64) (array.Array, error) {
	vals := a.Values()
	buf, out := newFixed[float64](len(vals))
	simd.Sqrt64(out, vals)
	for i, v := range vals {
		if v < 0 && a.IsValid(i) {
			return nil, fmt.Errorf("row %d: square root of the negative number %v: %w", i, v, datatype.ErrInvalid)
		}
	}
	return fixedOut(datatype.Float64, buf, a), nil
}

// zipFloat64s is f of the values of x and y, row by row, written
// straight into the result; null where either is.
func zipFloat64s(x, y *array.Float64, f func(a, b float64) float64) array.Array {
	xs, ys := x.Values(), y.Values()
	buf, out := newFixed[float64](len(xs))
	ys = ys[:len(xs)]
	for i := range out {
		out[i] = f(xs[i], ys[i])
	}
	return fixedOut2(datatype.Float64, buf, x, y)
}

// float64Array is vals (not copied) with the nulls of like.
func float64Array(vals []float64, like array.Array) array.Array {
	return fixedOut(datatype.Float64, memory.FromSlice(vals), like)
}

// bindSign binds sign(x): -1, 0 or 1 as int8 (DuckDB's TINYINT); 0 for
// zero, -0 and NaN.
func bindSign(e *Expr, args []*node) (*node, error) {
	a := args[0]
	if !isNum(a.typ) && !isNull(a.typ) {
		return nil, errAt(e, datatype.ErrInvalid, "sign of %s (%s)", a.typ, a.src)
	}
	t := datatype.DataType(datatype.Int64)
	if !isInt(a.typ) || a.typ.Kind() == datatype.KindUint64 {
		t = datatype.Float64
	}
	x, err := castNode(a, t)
	if err != nil {
		return nil, err
	}
	return unary(e, x, datatype.Int8, func(arr array.Array) (array.Array, error) {
		buf, out := newFixed[int8](arr.Len())
		switch v := arr.(type) {
		case *array.Int64:
			for i, n := range v.Values() {
				out[i] = int8(min(max(n, -1), 1))
			}
		case *array.Float64:
			for i, f := range v.Values() {
				switch {
				case f > 0:
					out[i] = 1
				case f < 0:
					out[i] = -1
				default:
					out[i] = 0
				}
			}
		default:
			return nil, fmt.Errorf("sign of %s: %w", arr.DataType(), datatype.ErrNotSupported)
		}
		return fixedOut(datatype.Int8, buf, arr), nil
	}), nil
}

// bindRoundEven binds round_even(x [, digits]): as round, but a value
// halfway rounds to the even neighbour (x·10^d rounded half to even,
// divided by 10^d).
func bindRoundEven(e *Expr, args []*node) (*node, error) {
	a := args[0]
	if !isNum(a.typ) {
		return nil, errAt(e, datatype.ErrInvalid, "round_even of %s (%s)", a.typ, a.src)
	}
	digits := int64(0)
	if len(args) > 1 {
		d := args[1]
		if d.lit == nil || !isInt(d.typ) || !d.lit.Valid {
			return nil, errAt(e, datatype.ErrInvalid, "the digits of round_even must be a constant integer, not %s", d.src)
		}
		s, err := castScalar(*d.lit, datatype.Int64)
		if err != nil {
			return nil, errAt(e, datatype.ErrInvalid, "digits: %v", err)
		}
		digits = s.Value.(int64)
		if digits < -40 || digits > 40 {
			return nil, errAt(e, datatype.ErrInvalid, "round_even to %d digits", digits)
		}
	}
	x, err := castNode(a, datatype.Float64)
	if err != nil {
		return nil, err
	}
	return unary(e, x, datatype.Float64, func(arr array.Array) (array.Array, error) {
		return mapFloats(arr.(*array.Float64), func(f float64) float64 { return roundFloat(f, digits, math.RoundToEven) }), nil
	}), nil
}

// bindFloat2 binds f(x, y) over float64 (integers cast); null where
// either is.
func bindFloat2(e *Expr, args []*node, f func(x, y float64) float64) (*node, error) {
	x, err := floatArg(e, args[0])
	if err != nil {
		return nil, err
	}
	y, err := floatArg(e, args[1])
	if err != nil {
		return nil, err
	}
	return &node{typ: datatype.Float64, src: e, eval: func(c *batch) (array.Array, error) {
		a, err := x.array(c)
		if err != nil {
			return nil, err
		}
		b, err := y.array(c)
		if err != nil {
			return nil, err
		}
		return zipFloat64s(a.(*array.Float64), b.(*array.Float64), f), nil
	}}, nil
}
