package extension

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/alkaid-go/alkaid/array"
)

// NonUniform marks a dimension of a variable-shape tensor's uniform shape
// whose size varies from row to row (null in the metadata).
const NonUniform = -1

// maxDim bounds a dimension and a tensor's element count: both travel as
// int32 (fixed_size_list sizes, variable-shape shapes).
const maxDim = math.MaxInt32

// TensorOption sets an optional parameter of a tensor type.
type TensorOption func(*tensorOptions)

type tensorOptions struct {
	dimNames   []string
	perm       []int
	uniform    []int
	hasUniform bool
}

// WithDimNames names the physical dimensions (one name per dimension).
func WithDimNames(names ...string) TensorOption {
	return func(o *tensorOptions) { o.dimNames = append([]string{}, names...) }
}

// WithPermutation sets the permutation from the physical to the logical
// layout: logical dimension i is physical dimension perm[i]. It must be a
// permutation of 0…ndim-1.
func WithPermutation(perm ...int) TensorOption {
	return func(o *tensorOptions) { o.perm = append([]int{}, perm...) }
}

// WithUniformShape sets the sizes of a variable-shape tensor's uniform
// dimensions, one entry per dimension, [NonUniform] for those that vary.
// It is a parameter of [VariableShapeTensorType] only.
func WithUniformShape(dims ...int) TensorOption {
	return func(o *tensorOptions) { o.uniform, o.hasUniform = append([]int{}, dims...), true }
}

func collectOptions(opts []TensorOption) tensorOptions {
	var o tensorOptions
	for _, f := range opts {
		f(&o)
	}
	return o
}

// checkLayout checks dimension names and permutation against ndim.
func checkLayout(name string, ndim int, dimNames []string, perm []int) error {
	if dimNames != nil && len(dimNames) != ndim {
		return invalidf(name, "dim_names has %d names for %d dimensions", len(dimNames), ndim)
	}
	if perm == nil {
		return nil
	}
	if len(perm) != ndim {
		return invalidf(name, "permutation has %d indices for %d dimensions", len(perm), ndim)
	}
	seen := make([]bool, ndim)
	for _, p := range perm {
		if p < 0 || p >= ndim || seen[p] {
			return invalidf(name, "permutation %s is not a permutation of 0…%d", intList(perm), ndim-1)
		}
		seen[p] = true
	}
	return nil
}

// elementCount multiplies the dimensions; ok is false when one is negative
// or the product exceeds maxDim.
func elementCount(shape []int) (n int, ok bool) {
	n = 1
	for _, d := range shape {
		if d < 0 || d > maxDim {
			return 0, false
		}
		if d != 0 && n > maxDim/d {
			return 0, false
		}
		n *= d
	}
	return n, true
}

// RowMajorStrides returns the strides, in elements, of a row-major
// (C-contiguous) tensor of the shape: the last dimension has stride 1.
func RowMajorStrides(shape []int) []int {
	s := make([]int, len(shape))
	step := 1
	for i := len(shape) - 1; i >= 0; i-- {
		s[i] = step
		step *= shape[i]
	}
	return s
}

// permute returns v reordered by perm (v[perm[i]] at i), or a copy of v
// when perm is nil.
func permute[T any](v []T, perm []int) []T {
	out := make([]T, len(v))
	if perm == nil {
		copy(out, v)
		return out
	}
	for i, p := range perm {
		out[i] = v[p]
	}
	return out
}

// Tensor is one row of a tensor array: its elements in row-major
// (C-contiguous) order over the physical shape, with the type's optional
// dimension names and permutation.
//
//	shape [2 3]  strides [3 1]  values [a b c d e f]  →  [[a b c] [d e f]]
type Tensor struct {
	// Values holds the elements, a slice of the storage's child array.
	Values array.Array
	// Shape is the physical shape; its product is Values.Len() for valid
	// data.
	Shape []int
	// Strides is the step in Values, in elements, of each physical
	// dimension.
	Strides []int
	// DimNames names the physical dimensions (nil when unnamed).
	DimNames []string
	// Permutation maps logical to physical dimensions (nil for the
	// identity).
	Permutation []int
}

// NDim is the number of dimensions.
func (t Tensor) NDim() int { return len(t.Shape) }

// LogicalShape is the shape of the logical view: dimension i has the size
// of physical dimension Permutation[i].
func (t Tensor) LogicalShape() []int { return permute(t.Shape, t.Permutation) }

// LogicalStrides is the strides of the logical view, in elements of
// Values: logical index idx is at Σ idx[i]·LogicalStrides()[i].
func (t Tensor) LogicalStrides() []int { return permute(t.Strides, t.Permutation) }

// LogicalDimNames is the names of the logical dimensions (nil when
// unnamed).
func (t Tensor) LogicalDimNames() []string {
	if t.DimNames == nil {
		return nil
	}
	return permute(t.DimNames, t.Permutation)
}

// Offset returns the position in Values of the element at the physical
// index. It panics when the index has the wrong number of dimensions or
// is out of range (a programmer error).
func (t Tensor) Offset(index ...int) int { return offset(index, t.Shape, t.Strides) }

// LogicalOffset returns the position in Values of the element at the
// logical index. It panics like [Tensor.Offset].
func (t Tensor) LogicalOffset(index ...int) int {
	return offset(index, t.LogicalShape(), t.LogicalStrides())
}

func offset(index, shape, strides []int) int {
	if len(index) != len(shape) {
		panic(fmt.Sprintf("extension: tensor index %v for %d dimensions", index, len(shape)))
	}
	off := 0
	for i, x := range index {
		if x < 0 || x >= shape[i] {
			panic(fmt.Sprintf("extension: tensor index %v out of range for shape %v", index, shape))
		}
		off += x * strides[i]
	}
	return off
}

// String prints the elements nested by the physical shape, e.g.
// "[[1 2 3] [4 5 6]]".
func (t Tensor) String() string {
	var b strings.Builder
	n, ok := elementCount(t.Shape)
	if !ok || t.Values == nil || n != t.Values.Len() {
		return fmt.Sprintf("<tensor of shape %v with %d values>", t.Shape, lenOf(t.Values))
	}
	writeTensor(&b, t.Values, t.Shape, t.Strides, 0)
	return b.String()
}

func lenOf(a array.Array) int {
	if a == nil {
		return 0
	}
	return a.Len()
}

func writeTensor(b *strings.Builder, v array.Array, shape, strides []int, off int) {
	if len(shape) == 0 {
		b.WriteString(array.FormatValue(v, off))
		return
	}
	b.WriteByte('[')
	for i := range shape[0] {
		if i > 0 {
			b.WriteByte(' ')
		}
		writeTensor(b, v, shape[1:], strides[1:], off+i*strides[0])
	}
	b.WriteByte(']')
}

// TensorValues returns a tensor's elements as a Go slice when they are of
// the fixed-width Go type T (float32 for float32 tensors, …), without
// copying; ok is false for another element type.
func TensorValues[T array.FixedWidth](t Tensor) (values []T, ok bool) {
	p, ok := t.Values.(*array.Primitive[T])
	if !ok {
		return nil, false
	}
	return p.Values(), true
}

// appendPrimitives appends vs to a builder of T values.
func appendPrimitives[T array.FixedWidth](name string, b array.Builder, vs []T) error {
	pb, ok := b.(*array.PrimitiveBuilder[T])
	if !ok {
		var zero T
		return valuef(name, "values of Go type %T do not fit the element type %s", zero, b.Type())
	}
	pb.AppendValues(vs, nil)
	return nil
}

// intList renders ints as a JSON array: [2,0,1], with NonUniform as null
// when nulls is set.
func intList(v []int) string { return intListNulls(v, false) }

func intListNulls(v []int, nulls bool) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		if nulls && x == NonUniform {
			b.WriteString("null")
		} else {
			b.WriteString(strconv.Itoa(x))
		}
	}
	b.WriteByte(']')
	return b.String()
}

// stringList renders strings as a JSON array.
func stringList(v []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, s := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsonString(s))
	}
	b.WriteByte(']')
	return b.String()
}

// tensorLayoutString renders the optional parameters for String.
func tensorLayoutString(dimNames []string, perm []int) string {
	var b strings.Builder
	if dimNames != nil {
		b.WriteString(", dim_names=")
		b.WriteString(stringList(dimNames))
	}
	if perm != nil {
		b.WriteString(", permutation=")
		b.WriteString(intList(perm))
	}
	return b.String()
}

func equalInts(a, b []int) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalStrings(a, b []string) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func cloneInts(v []int) []int {
	if v == nil {
		return nil
	}
	return append([]int{}, v...)
}

func cloneStrings(v []string) []string {
	if v == nil {
		return nil
	}
	return append([]string{}, v...)
}

// parseLayout reads the optional "dim_names" and "permutation" members.
func parseLayout(name string, m map[string]json.RawMessage) (dimNames []string, perm []int, err error) {
	if raw, ok := m["dim_names"]; ok {
		if dimNames, err = parseStrings(name, "dim_names", raw); err != nil {
			return nil, nil, err
		}
	}
	if raw, ok := m["permutation"]; ok {
		if perm, err = parseInts(name, "permutation", raw, false); err != nil {
			return nil, nil, err
		}
	}
	return dimNames, perm, nil
}
