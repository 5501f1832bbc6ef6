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
	register("if_else", 3, 3, func(e *Expr, args []*node) (*node, error) {
		return bindIfElse(e, args[0], args[1], args[2])
	})
	register("case_when", 3, -1, func(e *Expr, args []*node) (*node, error) {
		if len(args)%2 != 1 {
			return nil, errAt(e, datatype.ErrInvalid, "case_when takes condition, result pairs and an else result")
		}
		// Cast every result to their common type first, then fold.
		results := []*node{args[len(args)-1]}
		for i := 1; i < len(args); i += 2 {
			results = append(results, args[i])
		}
		results, err := coerceAll(e, results)
		if err != nil {
			return nil, err
		}
		acc := results[0]
		for i := len(args) - 3; i >= 0; i -= 2 {
			if acc, err = bindIfElse(e, args[i], results[1+i/2], acc); err != nil {
				return nil, err
			}
		}
		return acc, nil
	})
	register("coalesce", 1, -1, func(e *Expr, args []*node) (*node, error) {
		args, err := coerceAll(e, args)
		if err != nil {
			return nil, err
		}
		acc := args[len(args)-1]
		for i := len(args) - 2; i >= 0; i-- {
			a := args[i]
			valid := unary(e, a, datatype.Bool, func(x array.Array) (array.Array, error) {
				return validityBool(x, false), nil
			})
			valid.cols = a.cols
			if acc, err = bindIfElse(e, valid, a, acc); err != nil {
				return nil, err
			}
		}
		return acc, nil
	})
	register("between", 3, 3, func(e *Expr, args []*node) (*node, error) {
		lo, err := bindCompare(e, compute.Ge, args[0], args[1])
		if err != nil {
			return nil, err
		}
		hi, err := bindCompare(e, compute.Le, args[0], args[2])
		if err != nil {
			return nil, err
		}
		lo.cols, hi.cols = unionCols(args[:2]), unionCols([]*node{args[0], args[2]})
		return bindKleene(e, true, lo, hi)
	})
	register("is_in", 1, -1, bindIsIn)
	// nullif(a, b): null where a = b, else a (of a's type), as DuckDB's.
	register("nullif", 2, 2, func(e *Expr, args []*node) (*node, error) {
		eq, err := bindCompare(e, compute.Eq, args[0], args[1])
		if err != nil {
			return nil, err
		}
		eq.cols = unionCols(args)
		return bindIfElse(e, eq, constant(e, compute.NullScalar(args[0].typ)), args[0])
	})
}

// coerceAll casts every node to one common type: that of the others
// where the literals among them fit it (a string literal with binaries
// is their bytes), else the widest.
func coerceAll(e *Expr, ns []*node) ([]*node, error) {
	out, err := coerceAllTo(e, ns, true)
	if err != nil {
		if wide, errWide := coerceAllTo(e, ns, false); errWide == nil {
			return wide, nil
		}
	}
	return out, err
}

func coerceAllTo(e *Expr, ns []*node, literalsAdapt bool) ([]*node, error) {
	t := ns[0].typ
	tLit := literalsAdapt && isLit(ns[0]) // t is the type of literals only
	for _, n := range ns[1:] {
		u, ok := commonType(t, n.typ, tLit, literalsAdapt && isLit(n))
		if !ok {
			return nil, errAt(e, datatype.ErrInvalid, "%s and %s have no common type", t, n.typ)
		}
		t, tLit = u, tLit && isLit(n)
	}
	out := make([]*node, len(ns))
	for i, n := range ns {
		var err error
		if out[i], err = castNode(n, t); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func bindIfElse(e *Expr, cond, then, otherwise *node) (*node, error) {
	cond, err := boolArg(e, cond)
	if err != nil {
		return nil, err
	}
	then, otherwise, err = coerce(e, then, otherwise)
	if err != nil {
		return nil, err
	}
	cols := unionCols([]*node{cond, then, otherwise})
	return &node{typ: then.typ, src: e, cols: cols, eval: func(c *batch) (array.Array, error) {
		ca, err := cond.array(c)
		if err != nil {
			return nil, err
		}
		m := ca.(*array.Boolean)
		n := m.Len()
		trues := countTrue(m)
		if trues == n {
			return then.array(c)
		}
		if trues == 0 {
			return otherwise.array(c)
		}
		x, err := then.array(c)
		if err != nil {
			return nil, err
		}
		y, err := otherwise.array(c)
		if err != nil {
			return nil, err
		}
		return choose(m, x, y)
	}}, nil
}

// countTrue is the number of valid true slots of m.
func countTrue(m *array.Boolean) int {
	n := m.Len()
	bits, off := m.Bitmap()
	vbits, voff := m.Data().ValidityBitmap()
	if vbits == nil {
		return bitutil.CountSetBits(bits, off, n)
	}
	both := bitutil.AndAlloc(bits, off, vbits, voff, n)
	return bitutil.CountSetBits(both, 0, n)
}

// choose is x where m is true, y elsewhere (false or null): the rows of
// the concatenation x ++ y taken by index.
func choose(m *array.Boolean, x, y array.Array) (array.Array, error) {
	n := m.Len()
	both, err := array.Concatenate(x, y)
	if err != nil {
		return nil, err
	}
	bits, off := m.Bitmap()
	vbits, voff := m.Data().ValidityBitmap()
	pick := func(i int) bool {
		return bitutil.GetBit(bits, off+i) && (vbits == nil || bitutil.GetBit(vbits, voff+i))
	}
	if 2*n <= math.MaxInt32 {
		idx := make([]int32, n)
		for i := range idx {
			if pick(i) {
				idx[i] = int32(i)
			} else {
				idx[i] = int32(n + i)
			}
		}
		return compute.Take(both, array.MustMake(array.NewData(datatype.Int32, n,
			[]*memory.Buffer{nil, memory.FromSlice(idx)}, nil, 0, 0)))
	}
	idx := make([]int64, n)
	for i := range idx {
		if pick(i) {
			idx[i] = int64(i)
		} else {
			idx[i] = int64(n + i)
		}
	}
	return compute.Take(both, array.MustMake(array.NewData(datatype.Int64, n,
		[]*memory.Buffer{nil, memory.FromSlice(idx)}, nil, 0, 0)))
}

// nullWhere is child with the nulls of parent added (a struct's field
// is null where the struct is).
func nullWhere(child array.Array, parent array.Array) (array.Array, error) {
	valid := validityBool(parent, false)
	nulls, err := scalarArray(compute.NullScalar(child.DataType()), child.Len())
	if err != nil {
		return nil, err
	}
	return choose(valid, child, nulls)
}

func bindIsIn(e *Expr, args []*node) (*node, error) {
	for _, v := range args[1:] {
		if v.lit == nil {
			return nil, errAt(v.src, datatype.ErrInvalid, "IN takes constant values only")
		}
	}
	if isInterval(args[0].typ) {
		return bindIntervalIn(e, args[0], args[1:])
	}
	cast, err := coerceAll(e, args)
	if err != nil {
		return nil, err
	}
	a, values := cast[0], cast[1:]
	t := a.typ
	var parts []array.Array
	setHasNull := false
	for _, v := range values {
		s, err := castScalar(*v.lit, t)
		if err != nil {
			return nil, errAt(v.src, datatype.ErrInvalid, "as %s: %v", typeName(t), err)
		}
		if !s.Valid {
			setHasNull = true
			continue
		}
		p, err := scalarArray(s, 1)
		if err != nil {
			return nil, errAt(v.src, datatype.ErrInvalid, "%v", err)
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		empty, err := scalarArray(compute.NullScalar(t), 0)
		if err != nil {
			return nil, errAt(e, datatype.ErrNotSupported, "%v", err)
		}
		parts = append(parts, empty)
	}
	set, err := array.Concatenate(parts...)
	if err != nil {
		return nil, errAt(e, datatype.ErrInvalid, "%v", err)
	}
	return &node{typ: datatype.Bool, src: e, cols: a.cols, eval: func(c *batch) (array.Array, error) {
		x, err := a.array(c)
		if err != nil {
			return nil, err
		}
		in, err := isIn(x, set)
		if err != nil {
			return nil, evalErr(e, err)
		}
		return sqlIn(x, in, setHasNull), nil
	}}, nil
}

// sqlIn gives in SQL's nulls: null where x is null, and where x matched
// nothing but the list holds a null.
func sqlIn(x array.Array, in *array.Boolean, setHasNull bool) *array.Boolean {
	n := x.Len()
	if x.NullN() == 0 && !setHasNull {
		return in
	}
	bits, off := in.Bitmap()
	valid := memory.Allocate(nil, bitutil.BytesForBits(n))
	v := valid.Bytes()
	if xb, xo := x.Data().ValidityBitmap(); xb != nil {
		bitutil.CopyBits(v, 0, xb, xo, n)
	} else if x.NullN() > 0 {
		for i := range n {
			bitutil.SetBitTo(v, i, x.IsValid(i))
		}
	} else {
		bitutil.SetBitsTo(v, 0, n, true)
	}
	if setHasNull {
		bitutil.And(v, 0, v, 0, bits, off, n) // valid only where matched
	}
	vals := memory.Allocate(nil, bitutil.BytesForBits(n))
	bitutil.CopyBits(vals.Bytes(), 0, bits, off, n)
	return boolArray(n, vals, valid, n-bitutil.CountSetBits(v, 0, n))
}
