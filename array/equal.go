package array

import (
	"bytes"
	"fmt"
	"math"

	"github.com/alkaid-go/alkaid/datatype"
)

// Equal reports whether a and b hold the same logical values: the same
// type (field names and nullability included, field metadata ignored),
// the same length, the same slots null, and equal values in the other
// slots, compared recursively. The physical layout does not matter: a
// slice equals the same values built afresh; offsets, padding, the
// contents of null slots, how binary views split values across buffers
// and where list views put their values are all ignored. Dictionary
// arrays compare the values the indices select (a slot is null when its
// index or the value it selects is null); run-end encoded arrays compare
// their decoded slots; unions compare type codes and then the child
// values; extension arrays compare type and storage. Floats compare with
// ==, so NaN differs from everything and 0 equals -0 (see [ApproxEqual]).
func Equal(a, b Array) bool {
	_, _, eq := compareArrays(a, b, &equalConfig{})
	return eq
}

// EqualOption changes how [ApproxEqual] compares floats.
type EqualOption func(*equalConfig)

type equalConfig struct {
	approx     bool
	atol, rtol float64
	nanEqual   bool
}

// DefaultAbsTolerance is the absolute tolerance of [ApproxEqual] when
// neither [AbsTolerance] nor [RelTolerance] is given.
const DefaultAbsTolerance = 1e-5

// AbsTolerance makes floats x and y equal when |x-y| ≤ eps.
func AbsTolerance(eps float64) EqualOption {
	return func(c *equalConfig) { c.atol = eps; c.approx = true }
}

// RelTolerance makes floats x and y equal when |x-y| ≤ eps·max(|x|, |y|).
// Given together with [AbsTolerance], either tolerance suffices.
func RelTolerance(eps float64) EqualOption {
	return func(c *equalConfig) { c.rtol = eps; c.approx = true }
}

// NaNEqual makes a NaN equal to any other NaN.
func NaNEqual() EqualOption { return func(c *equalConfig) { c.nanEqual = true } }

// ApproxEqual is [Equal] with floats (float16, float32, float64, at any
// depth of nesting) compared within a tolerance: [AbsTolerance] and
// [RelTolerance] (default: an absolute tolerance of
// [DefaultAbsTolerance]), NaNs equal to each other with [NaNEqual].
// Infinities equal only infinities of the same sign.
func ApproxEqual(a, b Array, opts ...EqualOption) bool {
	c := equalConfig{}
	for _, o := range opts {
		o(&c)
	}
	if !c.approx {
		c.atol, c.approx = DefaultAbsTolerance, true
	}
	_, _, eq := compareArrays(a, b, &c)
	return eq
}

// FirstDifference compares a and b as [Equal] does and, when they differ,
// says where: the first differing slot and a description such as
// `slot 3: [1 2] vs [1 5]`. For different types the index is -1; for
// different lengths whose common slots agree it is the shorter length.
func FirstDifference(a, b Array) (index int, desc string, equal bool) {
	return compareArrays(a, b, &equalConfig{})
}

func compareArrays(a, b Array, c *equalConfig) (int, string, bool) {
	if a == nil || b == nil {
		if a == nil && b == nil {
			return -1, "", true
		}
		return -1, "one array is nil", false
	}
	if !datatype.Equal(a.DataType(), b.DataType(), datatype.IgnoreMetadata()) {
		return -1, fmt.Sprintf("types differ: %s vs %s", a.DataType(), b.DataType()), false
	}
	n := min(a.Len(), b.Len())
	if k := c.diff(a, b, 0, 0, n); k >= 0 {
		return k, fmt.Sprintf("slot %d: %s vs %s", k, FormatValue(a, k), FormatValue(b, k)), false
	}
	if a.Len() != b.Len() {
		return n, fmt.Sprintf("lengths differ: %d vs %d", a.Len(), b.Len()), false
	}
	return -1, "", true
}

// diff returns the first k in [0, n) at which slot xi+k of x differs from
// slot yi+k of y, or -1. x and y have equal types and the slots exist.
func (c *equalConfig) diff(x, y Array, xi, yi, n int) int {
	if n <= 0 {
		return -1
	}
	switch x := x.(type) {
	case *Null:
		return -1
	case extensionArray:
		return c.diff(x.extensionBase().storage, y.(extensionArray).extensionBase().storage, xi, yi, n)
	case *Union:
		return c.unionDiff(x, y.(*Union), xi, yi, n)
	case *RunEndEncoded:
		return c.reeDiff(x, y.(*RunEndEncoded), xi, yi, n)
	case *Dictionary:
		return c.dictDiff(x, y.(*Dictionary), xi, yi, n)
	}
	values := c.valuesDiff(x, y, xi, yi)
	return validRuns(x, y, xi, yi, n, values)
}

// validRuns compares nullness slot by slot and hands each run of slots
// valid in both to values(k, m), which returns the first differing k' in
// [k, k+m) or -1. It returns the first slot that differs either way.
func validRuns(x, y Array, xi, yi, n int, values func(k, m int) int) int {
	if x.NullN() == 0 && y.NullN() == 0 {
		return values(0, n)
	}
	start := -1
	for k := range n {
		xn, yn := x.IsNull(xi+k), y.IsNull(yi+k)
		if xn == yn && !xn {
			if start < 0 {
				start = k
			}
			continue
		}
		if start >= 0 {
			if r := values(start, k-start); r >= 0 {
				return r
			}
			start = -1
		}
		if xn != yn {
			return k
		}
	}
	if start >= 0 {
		return values(start, n-start)
	}
	return -1
}

// valuesDiff returns the comparison of non-null runs for x and y, arrays
// of a layout with a validity bitmap.
func (c *equalConfig) valuesDiff(x, y Array, xi, yi int) func(k, m int) int {
	xd, yd := x.Data(), y.Data()
	t := datatype.StorageOf(xd.Type)
	switch k := t.Kind(); {
	case k == datatype.KindFloat16:
		xs, ys := x.(*Float16).values, y.(*Float16).values
		return func(k, m int) int {
			for j := k; j < k+m; j++ {
				if !c.floatEq(float64(xs[xi+j].Float32()), float64(ys[yi+j].Float32())) {
					return j
				}
			}
			return -1
		}
	case k == datatype.KindFloat32:
		xs, ys := x.(*Float32).values, y.(*Float32).values
		return func(k, m int) int {
			for j := k; j < k+m; j++ {
				if a, b := xs[xi+j], ys[yi+j]; a != b && !c.floatEq(float64(a), float64(b)) {
					return j
				}
			}
			return -1
		}
	case k == datatype.KindFloat64:
		xs, ys := x.(*Float64).values, y.(*Float64).values
		return func(k, m int) int {
			for j := k; j < k+m; j++ {
				if a, b := xs[xi+j], ys[yi+j]; a != b && !c.floatEq(a, b) {
					return j
				}
			}
			return -1
		}
	case k == datatype.KindBool:
		xb, yb := x.(*Boolean), y.(*Boolean)
		return func(k, m int) int {
			for j := k; j < k+m; j++ {
				if xb.Value(xi+j) != yb.Value(yi+j) {
					return j
				}
			}
			return -1
		}
	case datatype.IsFixedWidth(t):
		// Every other fixed-width value is equal exactly when its bytes are.
		w := datatype.ByteWidth(t)
		xs, ys := xd.Buffers[1].Bytes(), yd.Buffers[1].Bytes()
		xo, yo := (xd.Offset+xi)*w, (yd.Offset+yi)*w
		return func(k, m int) int {
			a, b := xs[xo+k*w:xo+(k+m)*w], ys[yo+k*w:yo+(k+m)*w]
			if bytes.Equal(a, b) {
				return -1
			}
			for j := range a {
				if a[j] != b[j] {
					return k + j/w
				}
			}
			return -1
		}
	case k == datatype.KindStruct:
		xs, ys := x.(*Struct), y.(*Struct)
		return func(k, m int) int {
			first := -1
			for f := range xs.fields {
				// Only slots before the first difference so far matter.
				if first >= 0 {
					m = first - k
				}
				if r := c.diff(xs.fields[f], ys.fields[f], xi+k, yi+k, m); r >= 0 {
					first = k + r
				}
			}
			return first
		}
	case k.IsListLike():
		return c.listDiff(x.(ListLike), y.(ListLike), xi, yi)
	}
	type valuer interface{ Value(int) []byte }
	xv, yv := x.(valuer), y.(valuer)
	return func(k, m int) int {
		for j := k; j < k+m; j++ {
			if !bytes.Equal(xv.Value(xi+j), yv.Value(yi+j)) {
				return j
			}
		}
		return -1
	}
}

func (c *equalConfig) floatEq(a, b float64) bool {
	if a == b {
		return true
	}
	if a != a || b != b { // NaN
		return c.nanEqual && a != a && b != b
	}
	if !c.approx {
		return false
	}
	d := math.Abs(a - b)
	return d <= c.atol || d <= c.rtol*max(math.Abs(a), math.Abs(b))
}

// listDiff compares lists slot by slot: equal lengths, then equal child
// values. Lists whose values are contiguous in the child (list, large
// list, map, fixed-size list) compare a whole run's values at once.
func (c *equalConfig) listDiff(x, y ListLike, xi, yi int) func(k, m int) int {
	_, view := x.(interface{ Sizes() []int32 })
	_, largeView := x.(interface{ Sizes() []int64 })
	contiguous := !view && !largeView
	return func(k, m int) int {
		if !contiguous {
			for j := k; j < k+m; j++ {
				xs, xe := x.ValueOffsets(xi + j)
				ys, ye := y.ValueOffsets(yi + j)
				if xe-xs != ye-ys || c.diff(x.ListValues(), y.ListValues(), xs, ys, xe-xs) >= 0 {
					return j
				}
			}
			return -1
		}
		// Lengths first: values only matter up to the first length that
		// differs.
		end := k + m
		for j := k; j < k+m; j++ {
			xs, xe := x.ValueOffsets(xi + j)
			ys, ye := y.ValueOffsets(yi + j)
			if xe-xs != ye-ys {
				end = j
				break
			}
		}
		if end > k {
			xs, _ := x.ValueOffsets(xi + k)
			_, xe := x.ValueOffsets(xi + end - 1)
			ys, _ := y.ValueOffsets(yi + k)
			if p := c.diff(x.ListValues(), y.ListValues(), xs, ys, xe-xs); p >= 0 {
				// The slot holding child value xs+p.
				for j := k; j < end; j++ {
					if _, e := x.ValueOffsets(xi + j); e > xs+p {
						return j
					}
				}
			}
		}
		if end < k+m {
			return end
		}
		return -1
	}
}

func (c *equalConfig) unionDiff(x, y *Union, xi, yi, n int) int {
	for k := range n {
		cx, cy := x.codes[xi+k], y.codes[yi+k]
		if cx != cy {
			return k
		}
		ch := x.index[cx]
		if c.diff(x.children[ch], y.children[ch], x.ValueOffset(xi+k), y.ValueOffset(yi+k), 1) >= 0 {
			return k
		}
	}
	return -1
}

func (c *equalConfig) dictDiff(x, y *Dictionary, xi, yi, n int) int {
	sameDict := x.data.Dictionary == y.data.Dictionary
	for k := range n {
		xn, yn := x.IsNull(xi+k), y.IsNull(yi+k)
		var ix, iy int
		if !xn {
			ix = x.ValueIndex(xi + k)
			xn = x.dict.IsNull(ix)
		}
		if !yn {
			iy = y.ValueIndex(yi + k)
			yn = y.dict.IsNull(iy)
		}
		switch {
		case xn != yn:
			return k
		case xn, sameDict && ix == iy:
		case c.diff(x.dict, y.dict, ix, iy, 1) >= 0:
			return k
		}
	}
	return -1
}

// reeDiff walks the runs of both arrays together, comparing one value per
// stretch where neither changes run.
func (c *equalConfig) reeDiff(x, y *RunEndEncoded, xi, yi, n int) int {
	px, py := x.PhysicalIndex(xi), y.PhysicalIndex(yi)
	for k := 0; k < n; {
		// Ends of the current runs, relative to the compared range.
		ex := indexAt(x.ends, px) - x.data.Offset - xi
		ey := indexAt(y.ends, py) - y.data.Offset - yi
		if c.diff(x.values, y.values, px, py, 1) >= 0 {
			return k
		}
		next := min(ex, ey, n)
		if ex == next {
			px++
		}
		if ey == next {
			py++
		}
		k = next
	}
	return -1
}
