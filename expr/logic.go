package expr

import (
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

func init() {
	register("and", 2, 2, func(e *Expr, args []*node) (*node, error) { return bindKleene(e, true, args[0], args[1]) })
	register("or", 2, 2, func(e *Expr, args []*node) (*node, error) { return bindKleene(e, false, args[0], args[1]) })
	register("not", 1, 1, func(e *Expr, args []*node) (*node, error) {
		a, err := boolArg(e, args[0])
		if err != nil {
			return nil, err
		}
		return unary(e, a, datatype.Bool, func(x array.Array) (array.Array, error) {
			return compute.Not(x.(*array.Boolean)), nil
		}), nil
	})
	nullTest := func(name string, wantNull bool) {
		register(name, 1, 1, func(e *Expr, args []*node) (*node, error) {
			return unary(e, args[0], datatype.Bool, func(x array.Array) (array.Array, error) {
				return validityBool(x, wantNull), nil
			}), nil
		})
	}
	nullTest("is_null", true)
	nullTest("is_valid", false)
	nullTest("is_not_null", false)
}

func boolArg(e *Expr, a *node) (*node, error) {
	if isNull(a.typ) {
		return castNode(a, datatype.Bool)
	}
	if a.typ.Kind() != datatype.KindBool {
		return nil, errAt(e, datatype.ErrInvalid, "%s needs booleans, not %s (%s)", e.fn, a.typ, a.src)
	}
	return a, nil
}

// validityBool is whether each slot of x is null (wantNull) or valid.
func validityBool(x array.Array, wantNull bool) *array.Boolean {
	n := x.Len()
	vals := memory.Allocate(nil, bitutil.BytesForBits(n))
	v := vals.Bytes()
	switch bits, off := x.Data().ValidityBitmap(); {
	case x.DataType().Kind() == datatype.KindNull:
		bitutil.SetBitsTo(v, 0, n, wantNull)
	case bits == nil && x.NullN() == 0:
		bitutil.SetBitsTo(v, 0, n, !wantNull)
	case bits == nil: // a layout without a bitmap: ask slot by slot
		for i := range n {
			bitutil.SetBitTo(v, i, x.IsNull(i) == wantNull)
		}
	case wantNull:
		bitutil.Not(v, 0, bits, off, n)
	default:
		bitutil.CopyBits(v, 0, bits, off, n)
	}
	return boolArray(n, vals, nil, 0)
}

func boolArray(n int, vals, valid *memory.Buffer, nulls int) *array.Boolean {
	if nulls == 0 {
		valid = nil
	}
	return array.MustMake(array.NewData(datatype.Bool, n, []*memory.Buffer{valid, vals}, nil, nulls, 0)).(*array.Boolean)
}

// bindKleene binds a AND b (isAnd) or a OR b. b is evaluated only for
// the rows a does not decide (a selection vector), when those are few.
func bindKleene(e *Expr, isAnd bool, a, b *node) (*node, error) {
	a, err := boolArg(e, a)
	if err != nil {
		return nil, err
	}
	if b, err = boolArg(e, b); err != nil {
		return nil, err
	}
	if a.lit != nil && b.lit == nil {
		a, b = b, a
	}
	cols := unionCols([]*node{a, b})
	return &node{typ: datatype.Bool, src: e, cols: cols, eval: func(c *batch) (array.Array, error) {
		x, err := a.array(c)
		if err != nil {
			return nil, err
		}
		return kleeneEval(c, isAnd, x.(*array.Boolean), b)
	}}, nil
}

// kleeneEval combines x with b, evaluating b over the undecided rows
// only when they are fewer than a quarter of the batch.
func kleeneEval(c *batch, isAnd bool, x *array.Boolean, b *node) (array.Array, error) {
	n := x.Len()
	bits, off := x.Bitmap()
	vbits, voff := x.Data().ValidityBitmap()
	// undecided: null, or true for AND / false for OR.
	decides := func(i int) bool {
		if vbits != nil && !bitutil.GetBit(vbits, voff+i) {
			return false
		}
		return bitutil.GetBit(bits, off+i) != isAnd
	}
	set := bitutil.CountSetBits(bits, off, n)
	if vbits == nil && (isAnd && set == 0 || !isAnd && set == n) {
		return x, nil // all decided
	}
	if b.lit != nil || n < 1024 {
		y, err := b.array(c)
		if err != nil {
			return nil, err
		}
		return kleeneArrays(isAnd, x, y.(*array.Boolean))
	}
	undecided := n - set
	if isAnd {
		undecided = set
	}
	if vbits != nil {
		undecided = 0
		for i := range n {
			if !decides(i) {
				undecided++
			}
		}
	}
	if undecided == 0 {
		return x, nil
	}
	if undecided*4 > n {
		y, err := b.array(c)
		if err != nil {
			return nil, err
		}
		return kleeneArrays(isAnd, x, y.(*array.Boolean))
	}
	idx := make([]int32, 0, undecided)
	for i := range n {
		if !decides(i) {
			idx = append(idx, int32(i))
		}
	}
	sub, err := c.take(b.cols, idx)
	if err != nil {
		return nil, err
	}
	ya, err := b.array(sub)
	if err != nil {
		return nil, err
	}
	y := ya.(*array.Boolean)
	// Start from x and overwrite the undecided rows with x op y.
	vals := memory.Allocate(nil, bitutil.BytesForBits(n))
	v := vals.Bytes()
	bitutil.CopyBits(v, 0, bits, off, n)
	valid := memory.Allocate(nil, bitutil.BytesForBits(n))
	vv := valid.Bytes()
	if vbits != nil {
		bitutil.CopyBits(vv, 0, vbits, voff, n)
	} else {
		bitutil.SetBitsTo(vv, 0, n, true)
	}
	for j, i32 := range idx {
		i := int(i32)
		xValid := vbits == nil || bitutil.GetBit(vbits, voff+i)
		if y.IsNull(j) {
			// x is undecided: true (AND) or false (OR) or null; result null.
			bitutil.ClearBit(vv, i)
			continue
		}
		yv := y.Value(j)
		if yv != isAnd {
			// y decides.
			bitutil.SetBitTo(v, i, yv)
			bitutil.SetBit(vv, i)
		} else if xValid {
			bitutil.SetBitTo(v, i, yv)
		}
		// else x null and y undecided: stays null.
	}
	nulls := n - bitutil.CountSetBits(vv, 0, n)
	return boolArray(n, vals, valid, nulls), nil
}

func kleeneArrays(isAnd bool, x, y *array.Boolean) (array.Array, error) {
	if isAnd {
		return compute.And(x, y)
	}
	return compute.Or(x, y)
}

// take is the batch of the rows idx of the columns cols.
func (c *batch) take(cols []int, idx []int32) (*batch, error) {
	ib := array.NewPrimitiveBuilder[int32](datatype.Int32)
	ib.AppendValues(idx, nil)
	ia := ib.NewArray()
	sub := &batch{cols: make([]array.Array, len(c.cols)), n: len(idx)}
	for _, k := range cols {
		var err error
		if sub.cols[k], err = compute.Take(c.cols[k], ia); err != nil {
			return nil, err
		}
	}
	return sub, nil
}

// constWithNulls is v in every slot where x is valid, null where it is
// null.
func constWithNulls(x array.Array, v bool) *array.Boolean {
	n := x.Len()
	valid := validityBool(x, false)
	if x.NullN() == 0 {
		vals := memory.Allocate(nil, bitutil.BytesForBits(n))
		bitutil.SetBitsTo(vals.Bytes(), 0, n, v)
		return boolArray(n, vals, nil, 0)
	}
	bits, off := valid.Bitmap()
	vb := memory.Allocate(nil, bitutil.BytesForBits(n))
	bitutil.CopyBits(vb.Bytes(), 0, bits, off, n)
	vals := memory.Allocate(nil, bitutil.BytesForBits(n))
	bitutil.SetBitsTo(vals.Bytes(), 0, n, v)
	return boolArray(n, vals, vb, x.NullN())
}
