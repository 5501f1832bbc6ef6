package expr

import (
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

func init() {
	arith := func(name string, arr func(a, b array.Array) (array.Array, error), sc func(a array.Array, s any) (array.Array, error), commutes bool) {
		register(name, 2, 2, func(e *Expr, args []*node) (*node, error) {
			return bindArith(e, args[0], args[1], arr, sc, commutes)
		})
	}
	arith("add", compute.Add, compute.AddScalar, true)
	arith("add_checked", compute.AddChecked, compute.AddScalarChecked, true)
	arith("subtract", compute.Sub, compute.SubScalar, false)
	arith("subtract_checked", compute.SubChecked, compute.SubScalarChecked, false)
	arith("multiply", compute.Mul, compute.MulScalar, true)
	arith("multiply_checked", compute.MulChecked, compute.MulScalarChecked, true)
	arith("integer_divide", compute.Div, compute.DivScalar, false)
	register("divide", 2, 2, func(e *Expr, args []*node) (*node, error) {
		a, b := args[0], args[1]
		if isInterval(a.typ) || isInterval(b.typ) {
			return bindIntervalFloat(e, a, b, true)
		}
		var err error
		for _, x := range []**node{&a, &b} {
			if !isNum((*x).typ) && !isNull((*x).typ) {
				return nil, errAt(e, datatype.ErrInvalid, "/ of %s", (*x).typ)
			}
			if *x, err = castNode(*x, datatype.Float64); err != nil {
				return nil, err
			}
		}
		return bindArith(e, a, b, compute.Div, compute.DivScalar, false)
	})
	neg := func(name string, f func(array.Array) (array.Array, error)) {
		register(name, 1, 1, func(e *Expr, args []*node) (*node, error) {
			a := args[0]
			if isInterval(a.typ) {
				return bindIntervalNeg(e, a)
			}
			if !a.typ.Kind().IsSignedInteger() && !isFloat(a.typ) {
				return nil, errAt(e, datatype.ErrInvalid, "%s of %s", name, a.typ)
			}
			return unary(e, a, a.typ, f), nil
		})
	}
	neg("negate", compute.Negate)
	neg("negate_checked", compute.NegateChecked)
	register("abs", 1, 1, func(e *Expr, args []*node) (*node, error) {
		a := args[0]
		if !isNum(a.typ) {
			return nil, errAt(e, datatype.ErrInvalid, "abs of %s", a.typ)
		}
		return unary(e, a, a.typ, compute.AbsChecked), nil
	})
	cmp := func(name string, op compute.CompareOp) {
		register(name, 2, 2, func(e *Expr, args []*node) (*node, error) {
			return bindCompare(e, op, args[0], args[1])
		})
	}
	cmp("equal", compute.Eq)
	cmp("not_equal", compute.Ne)
	cmp("less", compute.Lt)
	cmp("less_equal", compute.Le)
	cmp("greater", compute.Gt)
	cmp("greater_equal", compute.Ge)
	register("cast", 1, 1, func(e *Expr, args []*node) (*node, error) {
		if e.typ == nil {
			return nil, errAt(e, datatype.ErrInvalid, "cast without a target type")
		}
		if n, ok, err := bindIntervalCast(e, args[0]); ok {
			return n, err
		}
		if !castTarget(e.typ) {
			return nil, errAt(e, datatype.ErrNotSupported, "CAST to %s", e.typ)
		}
		return castNodeAs(args[0], e.typ, e)
	})
}

// unary is f over the values of a, giving type t.
func unary(e *Expr, a *node, t datatype.DataType, f func(array.Array) (array.Array, error)) *node {
	return &node{typ: t, src: e, eval: func(c *batch) (array.Array, error) {
		x, err := a.array(c)
		if err != nil {
			return nil, err
		}
		out, err := f(x)
		if err != nil {
			return nil, evalErr(e, err)
		}
		return out, nil
	}}
}

// castNode converts n to t: a constant at once, else when evaluated.
func castNode(n *node, t datatype.DataType) (*node, error) { return castNodeAs(n, t, n.src) }

// castNodeAs is castNode with errors naming src.
func castNodeAs(n *node, t datatype.DataType, src *Expr) (*node, error) {
	if datatype.Equal(n.typ, t, datatype.IgnoreMetadata()) {
		return n, nil
	}
	if n.lit != nil {
		s, err := castScalar(*n.lit, t)
		if err != nil {
			return nil, errAt(src, datatype.ErrInvalid, "as %s: %v", typeName(t), err)
		}
		return constant(src, s), nil
	}
	return &node{typ: t, src: src, cols: n.cols, eval: func(c *batch) (array.Array, error) {
		a, err := n.eval(c)
		if err != nil {
			return nil, err
		}
		out, err := compute.Cast(a, t)
		if err != nil {
			return nil, evalErr(src, err)
		}
		return out, nil
	}}, nil
}

// coerce casts a and b to their common type.
func coerce(e *Expr, a, b *node) (*node, *node, error) {
	t, ok := commonType(a.typ, b.typ, isLit(a), isLit(b))
	if !ok {
		return nil, nil, errAt(e, datatype.ErrInvalid, "%s and %s have no common type", a.typ, b.typ)
	}
	x, errA := castNode(a, t)
	y, errB := castNode(b, t)
	if errA != nil || errB != nil {
		// A literal that does not fit the other side's type: widen.
		if u, ok := commonType(a.typ, b.typ, false, false); ok && !datatype.Equal(u, t) {
			if x, errA = castNode(a, u); errA == nil {
				y, errB = castNode(b, u)
			}
		}
	}
	if errA != nil {
		return nil, nil, errA
	}
	if errB != nil {
		return nil, nil, errB
	}
	return x, y, nil
}

func bindArith(e *Expr, a, b *node, arr func(a, b array.Array) (array.Array, error),
	sc func(a array.Array, s any) (array.Array, error), commutes bool) (*node, error) {
	if n, ok, err := bindIntervalArith(e, a, b); ok {
		return n, err
	}
	for _, x := range []*node{a, b} {
		if !isNum(x.typ) && !isNull(x.typ) {
			return nil, errAt(e, datatype.ErrInvalid, "%s of %s and %s", e.fn, a.typ, b.typ)
		}
	}
	a, b, err := coerce(e, a, b)
	if err != nil {
		return nil, err
	}
	if isNull(a.typ) {
		return constant(e, compute.NullScalar(datatype.Int32)), nil
	}
	if a.lit != nil && commutes {
		a, b = b, a
	}
	return &node{typ: a.typ, src: e, eval: func(c *batch) (array.Array, error) {
		x, err := a.array(c)
		if err != nil {
			return nil, err
		}
		var out array.Array
		if b.lit != nil {
			out, err = sc(x, *b.lit)
		} else {
			var y array.Array
			if y, err = b.array(c); err != nil {
				return nil, err
			}
			out, err = arr(x, y)
		}
		if err != nil {
			return nil, evalErr(e, err)
		}
		return out, nil
	}}, nil
}

var flipped = [...]compute.CompareOp{compute.Eq, compute.Ne, compute.Gt, compute.Ge, compute.Lt, compute.Le}

func bindCompare(e *Expr, op compute.CompareOp, a, b *node) (*node, error) {
	if isInterval(a.typ) || isInterval(b.typ) {
		return bindIntervalCompare(e, op, a, b)
	}
	if a.lit != nil && b.lit == nil {
		a, b, op = b, a, flipped[op]
	}
	// A number literal against a number column: compute compares the two
	// exactly without casting the column.
	if b.lit != nil && isNum(a.typ) && isNum(b.typ) && b.lit.Valid {
		s := *b.lit
		if !scalarFits(s, a.typ) {
			// An integer outside the column type's range: every value of
			// the column is below it (or above, for a negative one).
			below := true
			if v, ok := s.Value.(int64); ok && v < 0 {
				below = false
			}
			answer := map[compute.CompareOp]bool{compute.Eq: false, compute.Ne: true,
				compute.Lt: below, compute.Le: below, compute.Gt: !below, compute.Ge: !below}[op]
			return unary(e, a, datatype.Bool, func(x array.Array) (array.Array, error) {
				return constWithNulls(x, answer), nil
			}), nil
		}
		return &node{typ: datatype.Bool, src: e, eval: func(c *batch) (array.Array, error) {
			x, err := a.array(c)
			if err != nil {
				return nil, err
			}
			out, err := compute.CompareScalar(op, x, s.Value)
			if err != nil {
				return nil, evalErr(e, err)
			}
			return out, nil
		}}, nil
	}
	a, b, err := coerce(e, a, b)
	if err != nil {
		return nil, err
	}
	if isNull(a.typ) {
		return constant(e, compute.NullScalar(datatype.Bool)), nil
	}
	return &node{typ: datatype.Bool, src: e, eval: func(c *batch) (array.Array, error) {
		x, err := a.array(c)
		if err != nil {
			return nil, err
		}
		var out *array.Boolean
		if b.lit != nil {
			out, err = compute.CompareScalar(op, x, *b.lit)
		} else {
			var y array.Array
			if y, err = b.array(c); err != nil {
				return nil, err
			}
			out, err = compute.Compare(op, x, y)
		}
		if err != nil {
			return nil, evalErr(e, err)
		}
		return out, nil
	}}, nil
}

// isLit reports whether n is a literal as written (not a folded
// expression such as CAST('1' AS BIGINT)): literals take the type of the
// other operand where their value fits.
func isLit(n *node) bool { return n.lit != nil && n.src.kind == kindLiteral && !n.src.typed }

// scalarFits reports whether compute can compare a column of type t with
// s as it is: a float, or an integer that t holds.
func scalarFits(s compute.Scalar, t datatype.DataType) bool {
	if isFloat(s.Type) || isFloat(t) {
		return true
	}
	_, err := castScalar(s, t)
	return err == nil
}

// castTarget reports whether CAST may convert to t: booleans, numbers,
// decimals, dates, times, timestamps, durations, strings and binary.
// Nested, fixed-size and interval types are left out: a constant of them
// could be made of any size.
func castTarget(t datatype.DataType) bool {
	k := t.Kind()
	switch {
	case k == datatype.KindBool || k.IsNumeric() || isTemporal(t) || k.IsBinaryLike():
		return true
	case k >= datatype.KindDecimal32 && k <= datatype.KindDecimal256:
		return true
	}
	return false
}
