package window

import (
	"bytes"

	"github.com/alkaid-go/alkaid/array"
)

// equalRows is whether rows i and j of a hold the same value, nulls
// equal to each other, NaN to NaN and -0 to 0 (a window's peers and
// partitions are groups).
func equalRows(a array.Array) func(i, j int) bool {
	nulls := func(i, j int) (decided, eq bool) {
		ni, nj := a.IsNull(i), a.IsNull(j)
		if ni || nj {
			return true, ni == nj
		}
		return false, false
	}
	var eq func(i, j int) bool
	switch c := a.(type) {
	case *array.Int64:
		eq = func(i, j int) bool { return c.Value(i) == c.Value(j) }
	case *array.Int32:
		eq = func(i, j int) bool { return c.Value(i) == c.Value(j) }
	case *array.Float64:
		eq = func(i, j int) bool { x, y := c.Value(i), c.Value(j); return x == y || x != x && y != y }
	case *array.Float32:
		eq = func(i, j int) bool { x, y := c.Value(i), c.Value(j); return x == y || x != x && y != y }
	case interface{ Value(int) []byte }:
		eq = func(i, j int) bool { return bytes.Equal(c.Value(i), c.Value(j)) }
	default:
		eq = func(i, j int) bool { return array.FormatValue(a, i) == array.FormatValue(a, j) }
	}
	return func(i, j int) bool {
		if d, e := nulls(i, j); d {
			return e
		}
		return eq(i, j)
	}
}
