package expr

import (
	"fmt"
	"math"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

func init() {
	register("modulo", 2, 2, func(e *Expr, args []*node) (*node, error) {
		a, b := args[0], args[1]
		for _, x := range args {
			if !isNum(x.typ) && !isNull(x.typ) {
				return nil, errAt(e, datatype.ErrInvalid, "%% of %s and %s", a.typ, b.typ)
			}
		}
		a, b, err := coerce(e, a, b)
		if err != nil {
			return nil, err
		}
		if isNull(a.typ) {
			return constant(e, compute.NullScalar(datatype.Int32)), nil
		}
		return &node{typ: a.typ, src: e, eval: func(c *batch) (array.Array, error) {
			x, err := a.array(c)
			if err != nil {
				return nil, err
			}
			y, err := b.array(c)
			if err != nil {
				return nil, err
			}
			out, err := modulo(x, y)
			if err != nil {
				return nil, evalErr(e, err)
			}
			return out, nil
		}}, nil
	})
}

// modulo is x % y of two arrays of one numeric type: the remainder of
// the division truncated toward zero (its sign that of x), fmod for
// floats; an integer zero divisor is an error.
func modulo(x, y array.Array) (array.Array, error) {
	switch x := x.(type) {
	case *array.Int8:
		return modInts(x, y.(*array.Int8))
	case *array.Int16:
		return modInts(x, y.(*array.Int16))
	case *array.Int32:
		return modInts(x, y.(*array.Int32))
	case *array.Int64:
		return modInts(x, y.(*array.Int64))
	case *array.Uint8:
		return modInts(x, y.(*array.Uint8))
	case *array.Uint16:
		return modInts(x, y.(*array.Uint16))
	case *array.Uint32:
		return modInts(x, y.(*array.Uint32))
	case *array.Uint64:
		return modInts(x, y.(*array.Uint64))
	case *array.Float32:
		return modElems(x, y.(*array.Float32), func(a, b float32) (float32, bool) {
			return float32(math.Mod(float64(a), float64(b))), true
		})
	case *array.Float64:
		return modElems(x, y.(*array.Float64), func(a, b float64) (float64, bool) { return math.Mod(a, b), true })
	}
	return nil, fmt.Errorf("%% of %s: %w", x.DataType(), datatype.ErrNotSupported)
}

func modInts[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64](x, y *array.Primitive[T]) (array.Array, error) {
	return modElems(x, y, func(a, b T) (T, bool) {
		if b == 0 {
			return 0, false
		}
		return a % b, true
	})
}

func modElems[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64](
	x, y *array.Primitive[T], f func(a, b T) (T, bool)) (array.Array, error) {
	n := x.Len()
	xs, ys := x.Values(), y.Values()
	out := make([]T, n)
	var valid []bool
	if x.NullN() > 0 || y.NullN() > 0 {
		valid = make([]bool, n)
	}
	for i := range n {
		if valid != nil {
			if x.IsNull(i) || y.IsNull(i) {
				continue
			}
			valid[i] = true
		}
		v, ok := f(xs[i], ys[i])
		if !ok {
			return nil, fmt.Errorf("row %d: %v %% 0: %w", i, xs[i], compute.ErrDivideByZero)
		}
		out[i] = v
	}
	b := array.NewPrimitiveBuilder[T](x.DataType())
	b.AppendValues(out, valid)
	return b.NewArray(), nil
}
