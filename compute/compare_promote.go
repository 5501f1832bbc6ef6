package compute

import (
	"math"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// byValue returns a dictionary array decoded to its values, other
// arrays as they are: comparisons see dictionaries by value.
func byValue(a array.Array) (array.Array, error) {
	if d, ok := a.(*array.Dictionary); ok {
		return Take(d.Dictionary(), d.Indices())
	}
	return a, nil
}

func isIntKind(k datatype.Kind) bool { return k >= datatype.KindInt8 && k <= datatype.KindUint64 }

func isFloatKind(k datatype.Kind) bool {
	return k == datatype.KindFloat16 || k == datatype.KindFloat32 || k == datatype.KindFloat64
}

// promotePair brings two arrays to a type they both compare in:
// dictionaries by value; numbers of different types to float64 when
// either is a float, else to int64 (or, when that does not hold them,
// float64).
func promotePair(a, b array.Array) (array.Array, array.Array, error) {
	var err error
	if a, err = byValue(a); err != nil {
		return nil, nil, err
	}
	if b, err = byValue(b); err != nil {
		return nil, nil, err
	}
	ka, kb := a.DataType().Kind(), b.DataType().Kind()
	numeric := func(k datatype.Kind) bool { return isIntKind(k) || isFloatKind(k) }
	if ka == kb || !numeric(ka) || !numeric(kb) {
		return a, b, nil
	}
	to := datatype.Float64
	if isIntKind(ka) && isIntKind(kb) {
		x, errA := Cast(a, datatype.Int64)
		y, errB := Cast(b, datatype.Int64)
		if errA == nil && errB == nil {
			return x, y, nil
		}
	}
	x, err := Cast(a, to)
	if err != nil {
		return nil, nil, err
	}
	y, err := Cast(b, to)
	if err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

// scalarNumber returns s as a float64 (isFloat) or an integer (as int64
// or uint64), unwrapping a Scalar; ok is false for other values.
func scalarNumber(s any) (f float64, isFloat, ok bool) {
	if sc, isSc := s.(Scalar); isSc {
		if !sc.Valid {
			return 0, false, false
		}
		s = sc.Value
	}
	switch x := s.(type) {
	case float32:
		return float64(x), true, true
	case float64:
		return x, true, true
	}
	return 0, false, false
}

// compareIntFloat compares an integer array with a float scalar that no
// integer of the array's type equals exactly (2.5, 1e30, NaN): through
// float64, which is exact for the non-integral ones (they lie within
// 2^52) and right for the out-of-range ones. handled is false when the
// scalar converts exactly and the usual path applies.
func compareIntFloat(op CompareOp, a array.Array, s any) (*array.Boolean, bool, error) {
	if !isIntKind(a.DataType().Kind()) {
		return nil, false, nil
	}
	f, isFloat, ok := scalarNumber(s)
	if !ok || !isFloat {
		return nil, false, nil
	}
	lo, hi := intRangeOf(a.DataType().Kind())
	if f == math.Trunc(f) && f >= lo && f < hi {
		return nil, false, nil
	}
	if math.IsNaN(f) {
		return constCompare(a, op == Ne), true, nil
	}
	x, err := Cast(a, datatype.Float64)
	if err != nil {
		return nil, true, err
	}
	out, err := compare(op, x, nil, f)
	return out, true, err
}

func intRangeOf(k datatype.Kind) (lo, hi float64) {
	switch k {
	case datatype.KindInt8:
		return intRange[int8]()
	case datatype.KindInt16:
		return intRange[int16]()
	case datatype.KindInt32:
		return intRange[int32]()
	case datatype.KindInt64:
		return intRange[int64]()
	case datatype.KindUint8:
		return intRange[uint8]()
	case datatype.KindUint16:
		return intRange[uint16]()
	case datatype.KindUint32:
		return intRange[uint32]()
	}
	return intRange[uint64]()
}

// constCompare is the result v for every valid slot of a.
func constCompare(a array.Array, v bool) *array.Boolean {
	n := a.Len()
	vals := memory.Allocate(nil, bitutil.BytesForBits(n))
	if v {
		vb := vals.Bytes()
		for i := range n {
			bitutil.SetBit(vb, i)
		}
	}
	valid, nulls := andValidity(n, a.Data())
	return boolOut(n, vals, valid, nulls)
}
