package compute

import (
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/memory"
)

// And returns a AND b with Kleene logic for nulls: false AND null is
// false, true AND null and null AND null are null. a and b must be
// Boolean arrays of the same length; the result starts at offset 0.
func And(a, b *array.Boolean) (*array.Boolean, error) { return kleene(true, a, b) }

// Or returns a OR b with Kleene logic for nulls: true OR null is true,
// false OR null and null OR null are null.
func Or(a, b *array.Boolean) (*array.Boolean, error) { return kleene(false, a, b) }

// Xor returns a XOR b; slot i is null when a or b is null there (no
// Kleene rule can decide it).
func Xor(a, b *array.Boolean) (*array.Boolean, error) {
	if a.Len() != b.Len() {
		return nil, errf(ErrInvalid, "xor: lengths %d and %d differ", a.Len(), b.Len())
	}
	n := a.Len()
	x, xo := a.Bitmap()
	y, yo := b.Bitmap()
	vals := memory.Allocate(nil, bitutil.BytesForBits(n))
	bitutil.Xor(vals.Bytes(), 0, x, xo, y, yo, n)
	valid, nulls := andValidity(n, a.Data(), b.Data())
	return boolOut(n, vals, valid, nulls), nil
}

// Not returns NOT a; null stays null.
func Not(a *array.Boolean) *array.Boolean {
	n := a.Len()
	x, xo := a.Bitmap()
	vals := memory.Allocate(nil, bitutil.BytesForBits(n))
	bitutil.Not(vals.Bytes(), 0, x, xo, n)
	valid, nulls := andValidity(n, a.Data())
	return boolOut(n, vals, valid, nulls)
}

// kleene computes AND (isAnd) or OR under Kleene logic. With values x, y
// and validities va, vb:
//
//	AND: value x&y, valid (va&vb) | (va&^x) | (vb&^y)   (a known false decides)
//	OR:  value x|y, valid (va&vb) | (va&x)  | (vb&y)    (a known true decides)
func kleene(isAnd bool, a, b *array.Boolean) (*array.Boolean, error) {
	name := "or"
	if isAnd {
		name = "and"
	}
	if a.Len() != b.Len() {
		return nil, errf(ErrInvalid, "%s: lengths %d and %d differ", name, a.Len(), b.Len())
	}
	n := a.Len()
	x, xo := a.Bitmap()
	y, yo := b.Bitmap()
	vals := memory.Allocate(nil, bitutil.BytesForBits(n))
	if isAnd {
		bitutil.And(vals.Bytes(), 0, x, xo, y, yo, n)
	} else {
		bitutil.Or(vals.Bytes(), 0, x, xo, y, yo, n)
	}
	va, vao := bitmapOf(a.Data())
	vb, vbo := bitmapOf(b.Data())
	if va == nil && vb == nil {
		return boolOut(n, vals, nil, 0), nil
	}
	ones := func() ([]byte, int) {
		o := make([]byte, bitutil.BytesForBits(n))
		bitutil.SetBitsTo(o, 0, n, true)
		return o, 0
	}
	if va == nil {
		va, vao = ones()
	}
	if vb == nil {
		vb, vbo = ones()
	}
	valid := memory.Allocate(nil, bitutil.BytesForBits(n))
	v := valid.Bytes()
	tmp := make([]byte, len(v))
	bitutil.And(v, 0, va, vao, vb, vbo, n)
	if isAnd {
		bitutil.AndNot(tmp, 0, va, vao, x, xo, n)
	} else {
		bitutil.And(tmp, 0, va, vao, x, xo, n)
	}
	bitutil.Or(v, 0, v, 0, tmp, 0, n)
	if isAnd {
		bitutil.AndNot(tmp, 0, vb, vbo, y, yo, n)
	} else {
		bitutil.And(tmp, 0, vb, vbo, y, yo, n)
	}
	bitutil.Or(v, 0, v, 0, tmp, 0, n)
	return boolOut(n, vals, valid, n-bitutil.CountSetBits(v, 0, n)), nil
}
