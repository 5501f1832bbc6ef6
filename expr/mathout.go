package expr

import (
	"unsafe"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/memory"
)

// This file is the shape of the fixed-width results of the math
// functions: the kernel writes its values straight into the buffer of the
// result (not into a slice then copied into a builder), and the result
// takes the validity of its input.

// newFixed returns a buffer of n values of T and the values, in memory
// that is not cleared first: the caller writes every one of them.
func newFixed[T array.FixedWidth](n int) (*memory.Buffer, []T) {
	var zero T
	buf := memory.NewBuffer(rawmem.Fillable(n * int(unsafe.Sizeof(zero))))
	if n == 0 {
		return buf, nil
	}
	return buf, memory.View[T](buf)[:n]
}

// fixedOut is the array of type t whose values are vals (like.Len() of
// them, from the first) and whose nulls are like's; like's bitmap is
// shared when it starts at bit 0.
func fixedOut(t datatype.DataType, vals *memory.Buffer, like array.Array) array.Array {
	d := like.Data()
	bits, off := d.ValidityBitmap()
	switch {
	case d.NullCount == 0:
		return array.MustMake(array.NewData(t, d.Length, []*memory.Buffer{nil, vals}, nil, 0, 0))
	case bits == nil: // a layout without a bitmap whose slots are all null
		b := make([]byte, bitutil.BytesForBits(d.Length))
		return array.MustMake(array.NewData(t, d.Length, []*memory.Buffer{memory.NewBuffer(b), vals}, nil, d.Length, 0))
	}
	valid := d.ValidityBuffer()
	if off != 0 {
		b := make([]byte, bitutil.BytesForBits(d.Length))
		bitutil.CopyBits(b, 0, bits, off, d.Length)
		valid = memory.NewBuffer(b)
	}
	return array.MustMake(array.NewData(t, d.Length, []*memory.Buffer{valid, vals}, nil, d.NullCount, 0))
}

// fixedOut2 is fixedOut with the nulls of either x or y (of equal length).
func fixedOut2(t datatype.DataType, vals *memory.Buffer, x, y array.Array) array.Array {
	xb, xo := x.Data().ValidityBitmap()
	yb, yo := y.Data().ValidityBitmap()
	switch {
	case yb == nil:
		return fixedOut(t, vals, x)
	case xb == nil:
		return fixedOut(t, vals, y)
	}
	n := x.Len()
	valid := memory.NewBuffer(bitutil.AndAlloc(xb, xo, yb, yo, n))
	return array.MustMake(array.NewData(t, n, []*memory.Buffer{valid, vals}, nil, array.UnknownNullCount, 0))
}
