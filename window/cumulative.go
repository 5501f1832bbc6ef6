package window

import (
	"cmp"
	"fmt"
	"math"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// carry is a running aggregate's state from one batch to the next.
type carry struct {
	acc  any  // the aggregate so far, of the result's Go type
	seen bool // whether a value has been seen
	base int  // the row of the whole input the batch starts at
}

// cumulative runs f over col in order, restarting at each partition
// start (parts; nil when there are none), from the state st.
func cumulative(f Func, col array.Array, order []int64, parts []bool, st *carry) (array.Array, error) {
	switch c := col.(type) {
	case *array.Int8:
		return cumInts(f, c, order, parts, st)
	case *array.Int16:
		return cumInts(f, c, order, parts, st)
	case *array.Int32:
		return cumInts(f, c, order, parts, st)
	case *array.Int64:
		return cumInts(f, c, order, parts, st)
	case *array.Uint8:
		return cumUints(f, c, order, parts, st)
	case *array.Uint16:
		return cumUints(f, c, order, parts, st)
	case *array.Uint32:
		return cumUints(f, c, order, parts, st)
	case *array.Uint64:
		return cumUints(f, c, order, parts, st)
	case *array.Float32:
		return cumFloats(f, c, order, parts, st)
	case *array.Float64:
		return cumFloats(f, c, order, parts, st)
	}
	return nil, fmt.Errorf("window: %s of %s: needs integers or floats: %w", f, col.DataType(), datatype.ErrInvalid)
}

// scan runs the running aggregate add over each partition in order and
// writes it at every row once a value has been seen.
func scan[T, A array.FixedWidth](f Func, col *array.Primitive[T], order []int64, parts []bool, st *carry, t datatype.DataType,
	start func(T) A, add func(acc A, v T, row int) (A, error)) (array.Array, error) {
	vals := col.Values()
	out := make([]A, len(order))
	valid := make([]bool, len(order))
	acc, _ := st.acc.(A)
	seen := st.seen
	for k, row := range order {
		if parts != nil && parts[k] {
			seen = false
		}
		if col.IsValid(int(row)) {
			v := vals[row]
			if !seen {
				acc, seen = start(v), true
			} else {
				var err error
				if acc, err = add(acc, v, st.base+int(row)); err != nil {
					return nil, err
				}
			}
		}
		if seen {
			out[row], valid[row] = acc, true
		}
	}
	st.acc, st.seen = acc, seen
	b := array.NewPrimitiveBuilder[A](t)
	b.AppendValues(out, valid)
	return b.NewArray(), nil
}

// number is the value types the cumulative functions take.
type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

func minMax[T number](f Func, col *array.Primitive[T], order []int64, parts []bool, st *carry) (array.Array, error) {
	return scan(f, col, order, parts, st, col.DataType(), func(v T) T { return v }, func(acc, v T, _ int) (T, error) {
		c := cmpNaN(v, acc)
		if f == CumMin && c < 0 || f == CumMax && c > 0 {
			return v, nil
		}
		return acc, nil
	})
}

// cmpNaN is cmp.Compare with NaN above every number.
func cmpNaN[T number](a, b T) int {
	an, bn := a != a, b != b
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	}
	return cmp.Compare(a, b)
}

func overflow(f Func, row int) error {
	return fmt.Errorf("window: %s overflows at row %d: %w", f, row, compute.ErrOverflow)
}

func cumInts[T int8 | int16 | int32 | int64](f Func, col *array.Primitive[T], order []int64, parts []bool, st *carry) (array.Array, error) {
	if f != CumSum {
		return minMax(f, col, order, parts, st)
	}
	return scan(f, col, order, parts, st, datatype.Int64, func(v T) int64 { return int64(v) }, func(acc int64, v T, row int) (int64, error) {
		s := acc + int64(v)
		if (v > 0 && s < acc) || (v < 0 && s > acc) {
			return 0, overflow(f, row)
		}
		return s, nil
	})
}

func cumUints[T uint8 | uint16 | uint32 | uint64](f Func, col *array.Primitive[T], order []int64, parts []bool, st *carry) (array.Array, error) {
	if f != CumSum {
		return minMax(f, col, order, parts, st)
	}
	return scan(f, col, order, parts, st, datatype.Uint64, func(v T) uint64 { return uint64(v) }, func(acc uint64, v T, row int) (uint64, error) {
		if acc > math.MaxUint64-uint64(v) {
			return 0, overflow(f, row)
		}
		return acc + uint64(v), nil
	})
}

func cumFloats[T float32 | float64](f Func, col *array.Primitive[T], order []int64, parts []bool, st *carry) (array.Array, error) {
	if f != CumSum {
		return minMax(f, col, order, parts, st)
	}
	return scan(f, col, order, parts, st, datatype.Float64, func(v T) float64 { return float64(v) }, func(acc float64, v T, _ int) (float64, error) {
		return acc + float64(v), nil
	})
}
