package extension

import (
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// FixedShapeTensorType is arrow.fixed_shape_tensor: one tensor of a fixed
// shape per row, stored as a fixed_size_list of the element type whose
// size is the product of the shape, elements in row-major order.
//
//	shape [2 3], storage fixed_size_list<item: float32>[6]
//	row [1 2 3 4 5 6]  →  tensor [[1 2 3] [4 5 6]]
//
// Its metadata is a JSON object: {"shape":[2,3]}, with optional
// "dim_names" and "permutation".
type FixedShapeTensorType struct {
	value    datatype.DataType
	shape    []int
	dimNames []string
	perm     []int
	storage  *datatype.ListType
}

// NewFixedShapeTensor returns the tensor type of the element type and
// physical shape, with optional dimension names and permutation
// ([WithDimNames], [WithPermutation]). The storage is
// fixed_size_list<item: value>[product of shape]. Errors wrap
// [datatype.ErrInvalid].
func NewFixedShapeTensor(value datatype.DataType, shape []int, opts ...TensorOption) (*FixedShapeTensorType, error) {
	const name = FixedShapeTensorName
	if value == nil {
		return nil, invalidf(name, "value type is missing")
	}
	o := collectOptions(opts)
	if o.hasUniform {
		return nil, invalidf(name, "uniform_shape is a parameter of %s only", VariableShapeTensorName)
	}
	n, err := checkShape(shape)
	if err != nil {
		return nil, err
	}
	storage, err := datatype.FixedSizeListOf(value, int32(n))
	if err != nil {
		return nil, invalidf(name, "%v", err)
	}
	return newFixedShapeTensor(storage, cloneInts(shape), o.dimNames, o.perm)
}

func checkShape(shape []int) (int, error) {
	if shape == nil {
		return 0, invalidf(FixedShapeTensorName, "shape is missing")
	}
	for _, d := range shape {
		if d < 0 {
			return 0, invalidf(FixedShapeTensorName, "shape %s has a negative dimension", intList(shape))
		}
	}
	n, ok := elementCount(shape)
	if !ok {
		return 0, invalidf(FixedShapeTensorName, "shape %s has more than %d elements", intList(shape), maxDim)
	}
	return n, nil
}

func newFixedShapeTensor(storage *datatype.ListType, shape []int, dimNames []string, perm []int) (*FixedShapeTensorType, error) {
	if err := checkLayout(FixedShapeTensorName, len(shape), dimNames, perm); err != nil {
		return nil, err
	}
	return &FixedShapeTensorType{value: storage.Elem().Type, shape: shape, dimNames: dimNames, perm: perm, storage: storage}, nil
}

// Kind is [datatype.KindExtension].
func (*FixedShapeTensorType) Kind() datatype.Kind { return datatype.KindExtension }

// String is e.g. "extension<arrow.fixed_shape_tensor[value_type=float32,
// shape=[2,3], dim_names=["H","W"]]>".
func (t *FixedShapeTensorType) String() string {
	return "extension<" + FixedShapeTensorName + "[value_type=" + typeString(t.value) +
		", shape=" + intList(t.shape) + tensorLayoutString(t.dimNames, t.perm) + "]>"
}

func typeString(t datatype.DataType) string {
	if t == nil {
		return "<nil>"
	}
	return t.String()
}

// ExtensionName is "arrow.fixed_shape_tensor".
func (*FixedShapeTensorType) ExtensionName() string { return FixedShapeTensorName }

// StorageType is the fixed_size_list storage.
func (t *FixedShapeTensorType) StorageType() datatype.DataType {
	if t.storage == nil {
		return nil
	}
	return t.storage
}

// ValueType is the element type.
func (t *FixedShapeTensorType) ValueType() datatype.DataType { return t.value }

// NDim is the number of dimensions.
func (t *FixedShapeTensorType) NDim() int { return len(t.shape) }

// Shape is the physical shape (a copy).
func (t *FixedShapeTensorType) Shape() []int { return cloneInts(t.shape) }

// NumElements is the number of elements of one tensor, the product of the
// shape.
func (t *FixedShapeTensorType) NumElements() int { n, _ := elementCount(t.shape); return n }

// Strides is the row-major strides of the physical shape, in elements.
func (t *FixedShapeTensorType) Strides() []int { return RowMajorStrides(t.shape) }

// DimNames is the names of the physical dimensions (nil when unnamed).
func (t *FixedShapeTensorType) DimNames() []string { return cloneStrings(t.dimNames) }

// Permutation is the permutation from physical to logical dimensions (nil
// when not given).
func (t *FixedShapeTensorType) Permutation() []int { return cloneInts(t.perm) }

// LogicalShape is the shape of the logical view: with shape [100 200 500]
// and permutation [2 0 1] it is [500 100 200].
func (t *FixedShapeTensorType) LogicalShape() []int { return permute(t.shape, t.perm) }

// Serialize returns the JSON metadata: {"shape":[…]} followed by
// "dim_names" and "permutation" when given.
func (t *FixedShapeTensorType) Serialize() string {
	s := `{"shape":` + intList(t.shape)
	if t.dimNames != nil {
		s += `,"dim_names":` + stringList(t.dimNames)
	}
	if t.perm != nil {
		s += `,"permutation":` + intList(t.perm)
	}
	return s + "}"
}

// Deserialize parses the JSON metadata and checks it against the storage,
// which must be a fixed_size_list whose size is the product of the shape.
// The storage is kept as given (element field name and nullability
// included).
func (*FixedShapeTensorType) Deserialize(storage datatype.DataType, serialized string) (datatype.ExtensionType, error) {
	const name = FixedShapeTensorName
	lt, ok := storage.(*datatype.ListType)
	if !ok || lt.Kind() != datatype.KindFixedSizeList {
		return nil, invalidf(name, "storage must be a fixed_size_list, got %s", typeString(storage))
	}
	m, err := parseObject(name, serialized, false)
	if err != nil {
		return nil, err
	}
	if err := onlyKeys(name, m, "shape", "dim_names", "permutation"); err != nil {
		return nil, err
	}
	raw, ok := m["shape"]
	if !ok {
		return nil, invalidf(name, `metadata has no "shape"`)
	}
	shape, err := parseInts(name, "shape", raw, false)
	if err != nil {
		return nil, err
	}
	n, err := checkShape(shape)
	if err != nil {
		return nil, err
	}
	if int(lt.Size()) != n {
		return nil, invalidf(name, "shape %s has %d elements but the storage list size is %d", intList(shape), n, lt.Size())
	}
	dimNames, perm, err := parseLayout(name, m)
	if err != nil {
		return nil, err
	}
	return newFixedShapeTensor(lt, shape, dimNames, perm)
}

// ExtensionEqual reports whether other is a fixed-shape tensor type with
// the same element type, shape, dimension names and permutation.
func (t *FixedShapeTensorType) ExtensionEqual(other datatype.ExtensionType) bool {
	o, ok := other.(*FixedShapeTensorType)
	return ok && datatype.Equal(t.value, o.value) && equalInts(t.shape, o.shape) &&
		equalStrings(t.dimNames, o.dimNames) && equalInts(t.perm, o.perm)
}

// FixedShapeTensorArray is an array of arrow.fixed_shape_tensor: one
// tensor per row.
type FixedShapeTensorArray struct {
	*array.Extension
	typ   *FixedShapeTensorType
	lists *array.FixedSizeList
}

// NewFixedShapeTensorArray wraps an array of a [FixedShapeTensorType].
func NewFixedShapeTensorArray(a array.Array) (*FixedShapeTensorArray, error) {
	e, t, err := asExtension[*FixedShapeTensorType](FixedShapeTensorName, a)
	if err != nil {
		return nil, err
	}
	return &FixedShapeTensorArray{Extension: e, typ: t, lists: e.Storage().(*array.FixedSizeList)}, nil
}

func (a *FixedShapeTensorArray) extension() *array.Extension { return a.Extension }

// TensorType is the array's type.
func (a *FixedShapeTensorArray) TensorType() *FixedShapeTensorType { return a.typ }

// Tensor returns row i's tensor (its values are unspecified for a null
// row).
func (a *FixedShapeTensorArray) Tensor(i int) Tensor {
	return Tensor{
		Values:      a.lists.Value(i),
		Shape:       a.typ.Shape(),
		Strides:     a.typ.Strides(),
		DimNames:    a.typ.DimNames(),
		Permutation: a.typ.Permutation(),
	}
}

// Values is the whole child array of elements, row after row.
func (a *FixedShapeTensorArray) Values() array.Array { return a.lists.ListValues() }

// String prints each row's tensor nested by its shape.
func (a *FixedShapeTensorArray) String() string {
	return formatValues(a, func(i int) string { return a.Tensor(i).String() })
}

// FixedShapeTensorBuilder builds a [FixedShapeTensorArray]. Append starts
// a tensor; append [FixedShapeTensorType.NumElements] values to
// ValueBuilder for it, in row-major order. [AppendFixedShapeTensor] does
// both for Go slices.
type FixedShapeTensorBuilder struct {
	*array.ExtensionBuilder
	typ   *FixedShapeTensorType
	lists *array.FixedSizeListBuilder
}

// NewFixedShapeTensorBuilder returns a builder of arrays of t.
func NewFixedShapeTensorBuilder(t *FixedShapeTensorType, opts ...array.BuilderOption) *FixedShapeTensorBuilder {
	eb := array.NewExtensionBuilder(t, opts...)
	return &FixedShapeTensorBuilder{ExtensionBuilder: eb, typ: t, lists: eb.StorageBuilder().(*array.FixedSizeListBuilder)}
}

// Append starts a valid tensor.
func (b *FixedShapeTensorBuilder) Append() { b.lists.Append(true) }

// ValueBuilder is the builder of the elements.
func (b *FixedShapeTensorBuilder) ValueBuilder() array.Builder { return b.lists.ValueBuilder() }

// Finish returns the array built so far and resets the builder. It panics
// when the elements appended do not fill the tensors (a programmer
// error).
func (b *FixedShapeTensorBuilder) Finish() *FixedShapeTensorArray {
	e := b.ExtensionBuilder.Finish()
	return &FixedShapeTensorArray{Extension: e, typ: b.typ, lists: e.Storage().(*array.FixedSizeList)}
}

// NewArray is Finish as an [array.Array].
func (b *FixedShapeTensorBuilder) NewArray() array.Array { return b.Finish() }

// AppendFixedShapeTensor appends one tensor given by its elements in
// row-major order; T is the element type's Go type (float32 for float32,
// …). The error, wrapping [array.ErrInvalid], reports a wrong element
// count or Go type; nothing is appended then.
func AppendFixedShapeTensor[T array.FixedWidth](b *FixedShapeTensorBuilder, values []T) error {
	if n := b.typ.NumElements(); len(values) != n {
		return valuef(FixedShapeTensorName, "%d values for shape %s (%d elements)", len(values), intList(b.typ.shape), n)
	}
	if _, ok := b.ValueBuilder().(*array.PrimitiveBuilder[T]); !ok {
		return appendPrimitives(FixedShapeTensorName, b.ValueBuilder(), values)
	}
	b.Append()
	return appendPrimitives(FixedShapeTensorName, b.ValueBuilder(), values)
}
