package compute

import (
	"bytes"
	"cmp"
	"math"

	"github.com/alkaid-go/alkaid/array"
)

// cmpFn compares the values of slots i and j of one array; both are
// valid (callers handle nulls). NaNs compare equal to each other.
type cmpFn func(i, j int) int

// nanFn reports whether the valid slot i holds a NaN; nil for types
// without NaNs.
type nanFn func(i int) bool

// orderOf returns the comparator of a's values (and its NaN test), or an
// ErrNotSupported error when a's type has no order: intervals, lists,
// structs, maps and unions.
func orderOf(a array.Array) (cmpFn, nanFn, error) {
	switch x := a.(type) {
	case *array.Extension:
		return orderOf(x.Storage())
	case *array.Dictionary:
		c, nan, err := orderOf(x.Dictionary())
		if err != nil {
			return nil, nil, err
		}
		vi := x.ValueIndex
		var n nanFn
		if nan != nil {
			n = func(i int) bool { return nan(vi(i)) }
		}
		return func(i, j int) int { return c(vi(i), vi(j)) }, n, nil
	case *array.RunEndEncoded:
		c, nan, err := orderOf(x.Values())
		if err != nil {
			return nil, nil, err
		}
		pi := x.PhysicalIndex
		var n nanFn
		if nan != nil {
			n = func(i int) bool { return nan(pi(i)) }
		}
		return func(i, j int) int { return c(pi(i), pi(j)) }, n, nil
	}
	if f := kernelsOf(a.DataType()).order; f != nil {
		c, n := f(a)
		return c, n, nil
	}
	return nil, nil, errf(ErrNotSupported, "order of %s", a.DataType())
}

// nullOrder is the order of a null array: every slot equals every other.
func nullOrder(array.Array) (cmpFn, nanFn) { return func(int, int) int { return 0 }, nil }

// boolOrder orders false before true.
func boolOrder(a array.Array) (cmpFn, nanFn) {
	x := a.(*array.Boolean)
	return func(i, j int) int {
		a, b := x.Value(i), x.Value(j)
		switch {
		case a == b:
			return 0
		case a:
			return 1
		}
		return -1
	}, nil
}

// bytesOrder orders byte strings lexicographically.
func bytesOrder[A byteValued](a array.Array) (cmpFn, nanFn) {
	v := a.(A).Value
	return func(i, j int) int { return bytes.Compare(v(i), v(j)) }, nil
}

func ordered[T Number](a array.Array) (cmpFn, nanFn) {
	v := a.(*array.Primitive[T]).Values()
	return func(i, j int) int { return cmp.Compare(v[i], v[j]) }, nil
}

func floats[T Float](a array.Array) (cmpFn, nanFn) {
	v := a.(*array.Primitive[T]).Values()
	return func(i, j int) int { return cmpFloat(float64(v[i]), float64(v[j])) },
		func(i int) bool { return v[i] != v[i] }
}

func half(a array.Array) (cmpFn, nanFn) {
	v := a.(*array.Float16).Values()
	return func(i, j int) int { return cmpFloat(float64(v[i].Float32()), float64(v[j].Float32())) },
		func(i int) bool { return math.IsNaN(float64(v[i].Float32())) }
}

// cmpFloat orders numbers as usual and NaNs after every number, equal to
// each other; -0 equals 0.
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	case a == b:
		return 0
	}
	an, bn := a != a, b != b
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	}
	return -1
}
