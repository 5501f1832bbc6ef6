package expr

import (
	"math"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

func init() {
	register("greatest", 1, -1, func(e *Expr, args []*node) (*node, error) { return bindExtreme(e, true, args) })
	register("least", 1, -1, func(e *Expr, args []*node) (*node, error) { return bindExtreme(e, false, args) })
}

// bindExtreme binds greatest (most) or least: per row the largest (or
// smallest) of the arguments, brought to their common type, as DuckDB's:
// nulls are skipped (null only when every argument is), NaN is above
// every other float, and of equal values the first is kept (greatest(-0,
// 0) is -0).
func bindExtreme(e *Expr, most bool, args []*node) (*node, error) {
	args, err := coerceAll(e, args)
	if err != nil {
		return nil, err
	}
	t := args[0].typ
	if isInterval(t) || !isNull(t) && !isNum(t) && !isTemporal(t) && !isStringy(t) && t.Kind() != datatype.KindBool {
		return nil, errAt(e, datatype.ErrInvalid, "%s of %s values", e.fn, t)
	}
	if len(args) == 1 || isNull(t) {
		return args[0], nil
	}
	op := compute.Lt
	if most {
		op = compute.Gt
	}
	return &node{typ: t, src: e, eval: func(c *batch) (array.Array, error) {
		cur, err := args[0].array(c)
		if err != nil {
			return nil, err
		}
		for _, a := range args[1:] {
			x, err := a.array(c)
			if err != nil {
				return nil, err
			}
			m, err := compute.Compare(op, x, cur)
			if err != nil {
				return nil, evalErr(e, err)
			}
			if cur, err = choose(replaces(m, x, cur, most), x, cur); err != nil {
				return nil, evalErr(e, err)
			}
		}
		return cur, nil
	}}, nil
}

// replaces is, per row, whether x takes the place of cur: x is valid and
// cur null, or x compares better (m true), or x is NaN above a number
// (most) or cur a NaN below x (least).
func replaces(m *array.Boolean, x, cur array.Array, most bool) *array.Boolean {
	n := m.Len()
	buf := memory.Allocate(nil, bitutil.BytesForBits(n))
	bits := buf.Bytes()
	isNaN := nanTest(x)
	curNaN := nanTest(cur)
	for i := range n {
		var r bool
		switch {
		case x.IsNull(i):
		case cur.IsNull(i):
			r = true
		case m.IsValid(i) && m.Value(i):
			r = true
		case isNaN != nil:
			if most {
				r = isNaN(i) && !curNaN(i)
			} else {
				r = curNaN(i) && !isNaN(i)
			}
		}
		bitutil.SetBitTo(bits, i, r)
	}
	return boolArray(n, buf, nil, 0)
}

// nanTest is whether slot i of a is NaN, or nil when a holds no floats.
func nanTest(a array.Array) func(i int) bool {
	switch f := a.(type) {
	case *array.Float64:
		return func(i int) bool { return math.IsNaN(f.Value(i)) }
	case *array.Float32:
		return func(i int) bool { return math.IsNaN(float64(f.Value(i))) }
	}
	return nil
}
