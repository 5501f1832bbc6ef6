package expr

import (
	"bytes"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// smallSet is the largest IN list matched by comparisons rather than by
// compute.IsIn's hash table.
const smallSet = 8

// isIn is whether each slot of x equals a value of set (no nulls in
// set), ignoring x's nulls (the caller applies them): short lists of
// strings by a direct scan, of numbers by SIMD comparisons (floats
// always, so that -0 is in (0) and NaN in nothing, as with =), others by
// compute.IsIn.
func isIn(x array.Array, set array.Array) (*array.Boolean, error) {
	n := x.Len()
	k := x.DataType().Kind()
	switch {
	case set.Len() <= smallSet && k == datatype.KindString:
		if s, ok := x.(*array.String); ok {
			return inStrings(s, set), nil
		}
	case set.Len() <= smallSet && k == datatype.KindLargeString:
		if s, ok := x.(*array.LargeString); ok {
			return inStrings(s, set), nil
		}
	case k.IsFloat() || set.Len() <= smallSet && (k.IsInteger() || isTemporal(x.DataType())):
		vals := memory.Allocate(nil, bitutil.BytesForBits(n))
		v := vals.Bytes()
		for i := range set.Len() {
			eq, err := compute.CompareScalar(compute.Eq, x, valueAt(set, i))
			if err != nil {
				return nil, err
			}
			bits, off := eq.Bitmap()
			bitutil.Or(v, 0, v, 0, bits, off, n)
		}
		return boolArray(n, vals, nil, 0), nil
	}
	return compute.IsIn(x, set)
}

func inStrings[O int32 | int64](x *array.Binary[O], set array.Array) *array.Boolean {
	want := make([][]byte, set.Len())
	for i := range want {
		switch v := valueAt(set, i).(type) {
		case string:
			want[i] = []byte(v)
		case []byte:
			want[i] = v
		}
	}
	n := x.Len()
	vals := memory.Allocate(nil, bitutil.BytesForBits(n))
	v := vals.Bytes()
	offs := x.Offsets()
	data := x.ValueBytes()
	for i := range n {
		lo, hi := offs[i], offs[i+1]
		l := int(hi - lo)
		for _, w := range want {
			// Length and first byte first: most misses stop there.
			if l == len(w) && (l == 0 || data[lo] == w[0] && (l == 1 || bytes.Equal(data[lo+1:hi], w[1:]))) {
				v[i>>3] |= 1 << (i & 7)
				break
			}
		}
	}
	return boolArray(n, vals, nil, 0)
}
