package extension

import (
	"strconv"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// VariableShapeTensorType is arrow.variable_shape_tensor: one tensor per
// row, each with its own shape of NDim dimensions, stored as
//
//	struct<data: list<item: T>, shape: fixed_size_list<item: int32>[ndim]>
//
// where data holds the row's elements in row-major order and shape its
// physical shape. The fields are found by name, in either order.
//
// Its metadata is a JSON object with optional "dim_names", "permutation"
// and "uniform_shape" (the sizes of the dimensions that are the same in
// every row, null for the others).
type VariableShapeTensorType struct {
	value    datatype.DataType
	ndim     int
	dimNames []string
	perm     []int
	uniform  []int // nil when not given; NonUniform for varying dimensions
	storage  *datatype.StructType
	data     int // index of the data field
	shape    int // index of the shape field
}

// NewVariableShapeTensor returns the tensor type of the element type and
// number of dimensions, with optional dimension names, permutation and
// uniform shape ([WithDimNames], [WithPermutation], [WithUniformShape]).
// The storage is struct<data: list<item: value>, shape:
// fixed_size_list<item: int32>[ndim]>. Errors wrap [datatype.ErrInvalid].
func NewVariableShapeTensor(value datatype.DataType, ndim int, opts ...TensorOption) (*VariableShapeTensorType, error) {
	const name = VariableShapeTensorName
	if value == nil {
		return nil, invalidf(name, "value type is missing")
	}
	if ndim < 0 || ndim > maxDim {
		return nil, invalidf(name, "number of dimensions %d is out of range", ndim)
	}
	shape, err := datatype.FixedSizeListOf(datatype.Int32, int32(ndim))
	if err != nil {
		return nil, invalidf(name, "%v", err)
	}
	storage := datatype.StructOf(
		datatype.Field{Name: "data", Type: datatype.ListOf(value), Nullable: true},
		datatype.Field{Name: "shape", Type: shape, Nullable: true},
	)
	o := collectOptions(opts)
	var uniform []int
	if o.hasUniform {
		uniform = o.uniform
	}
	return newVariableShapeTensor(storage, 0, 1, o.dimNames, o.perm, uniform)
}

func newVariableShapeTensor(storage *datatype.StructType, data, shape int, dimNames []string, perm, uniform []int) (*VariableShapeTensorType, error) {
	const name = VariableShapeTensorName
	ndim := int(storage.Field(shape).Type.(*datatype.ListType).Size())
	if err := checkLayout(name, ndim, dimNames, perm); err != nil {
		return nil, err
	}
	if uniform != nil {
		if len(uniform) != ndim {
			return nil, invalidf(name, "uniform_shape has %d dimensions for %d", len(uniform), ndim)
		}
		for _, d := range uniform {
			if d < NonUniform || d > maxDim {
				return nil, invalidf(name, "uniform_shape %s has a dimension out of range", intListNulls(uniform, true))
			}
		}
	}
	return &VariableShapeTensorType{
		value: storage.Field(data).Type.(*datatype.ListType).Elem().Type, ndim: ndim,
		dimNames: dimNames, perm: perm, uniform: uniform, storage: storage, data: data, shape: shape,
	}, nil
}

// Kind is [datatype.KindExtension].
func (*VariableShapeTensorType) Kind() datatype.Kind { return datatype.KindExtension }

// String is e.g. "extension<arrow.variable_shape_tensor[value_type=uint8,
// ndim=3, uniform_shape=[400,null,3]]>".
func (t *VariableShapeTensorType) String() string {
	s := "extension<" + VariableShapeTensorName + "[value_type=" + typeString(t.value) +
		", ndim=" + strconv.Itoa(t.ndim) + tensorLayoutString(t.dimNames, t.perm)
	if t.uniform != nil {
		s += ", uniform_shape=" + intListNulls(t.uniform, true)
	}
	return s + "]>"
}

// ExtensionName is "arrow.variable_shape_tensor".
func (*VariableShapeTensorType) ExtensionName() string { return VariableShapeTensorName }

// StorageType is the struct storage.
func (t *VariableShapeTensorType) StorageType() datatype.DataType {
	if t.storage == nil {
		return nil
	}
	return t.storage
}

// ValueType is the element type.
func (t *VariableShapeTensorType) ValueType() datatype.DataType { return t.value }

// NDim is the number of dimensions.
func (t *VariableShapeTensorType) NDim() int { return t.ndim }

// DimNames is the names of the physical dimensions (nil when unnamed).
func (t *VariableShapeTensorType) DimNames() []string { return cloneStrings(t.dimNames) }

// Permutation is the permutation from physical to logical dimensions (nil
// when not given).
func (t *VariableShapeTensorType) Permutation() []int { return cloneInts(t.perm) }

// UniformShape is the size of each uniform dimension, [NonUniform] for
// the others; nil when not given (every dimension may vary).
func (t *VariableShapeTensorType) UniformShape() []int { return cloneInts(t.uniform) }

// Serialize returns the JSON metadata: an object with "dim_names",
// "permutation" and "uniform_shape" when given ({} when none is).
func (t *VariableShapeTensorType) Serialize() string {
	s := ""
	add := func(k, v string) {
		if s != "" {
			s += ","
		}
		s += `"` + k + `":` + v
	}
	if t.dimNames != nil {
		add("dim_names", stringList(t.dimNames))
	}
	if t.perm != nil {
		add("permutation", intList(t.perm))
	}
	if t.uniform != nil {
		add("uniform_shape", intListNulls(t.uniform, true))
	}
	return "{" + s + "}"
}

// Deserialize parses the JSON metadata ("" counts as {}) and checks the
// storage: a struct of exactly a "data" list and a "shape"
// fixed_size_list of int32, in any order. The storage is kept as given.
func (*VariableShapeTensorType) Deserialize(storage datatype.DataType, serialized string) (datatype.ExtensionType, error) {
	const name = VariableShapeTensorName
	st, ok := storage.(*datatype.StructType)
	if !ok {
		return nil, invalidf(name, "storage must be a struct of data and shape, got %s", typeString(storage))
	}
	data, shape := -1, -1
	for i, f := range st.Fields() {
		switch {
		case f.Name == "data" && data < 0:
			data = i
		case f.Name == "shape" && shape < 0:
			shape = i
		default:
			return nil, invalidf(name, "storage has an unexpected field %q", f.Name)
		}
	}
	if data < 0 || shape < 0 {
		missing := "data"
		if data >= 0 {
			missing = "shape"
		}
		return nil, invalidf(name, "storage has no field %q", missing)
	}
	if dt := st.Field(data).Type; dt == nil || dt.Kind() != datatype.KindList {
		return nil, invalidf(name, "storage field \"data\" must be a list, got %s", typeString(dt))
	}
	lt, ok := st.Field(shape).Type.(*datatype.ListType)
	if !ok || lt.Kind() != datatype.KindFixedSizeList || lt.Elem().Type == nil || lt.Elem().Type.Kind() != datatype.KindInt32 {
		return nil, invalidf(name, "storage field \"shape\" must be a fixed_size_list of int32, got %s", typeString(st.Field(shape).Type))
	}
	m, err := parseObject(name, serialized, true)
	if err != nil {
		return nil, err
	}
	if err := onlyKeys(name, m, "dim_names", "permutation", "uniform_shape"); err != nil {
		return nil, err
	}
	dimNames, perm, err := parseLayout(name, m)
	if err != nil {
		return nil, err
	}
	var uniform []int
	if raw, ok := m["uniform_shape"]; ok {
		if uniform, err = parseInts(name, "uniform_shape", raw, true); err != nil {
			return nil, err
		}
	}
	return newVariableShapeTensor(st, data, shape, dimNames, perm, uniform)
}

// ExtensionEqual reports whether other is a variable-shape tensor type
// with the same element type, dimensions, names, permutation and uniform
// shape.
func (t *VariableShapeTensorType) ExtensionEqual(other datatype.ExtensionType) bool {
	o, ok := other.(*VariableShapeTensorType)
	return ok && datatype.Equal(t.value, o.value) && t.ndim == o.ndim &&
		equalStrings(t.dimNames, o.dimNames) && equalInts(t.perm, o.perm) && equalInts(t.uniform, o.uniform)
}

// VariableShapeTensorArray is an array of arrow.variable_shape_tensor:
// one tensor of its own shape per row.
type VariableShapeTensorArray struct {
	*array.Extension
	typ    *VariableShapeTensorType
	data   *array.ListArray
	shapes *array.FixedSizeList
	dims   []int32 // the shape child's values
}

// NewVariableShapeTensorArray wraps an array of a
// [VariableShapeTensorType]. It checks the type only; ValidateFull checks
// that each row's shape matches its data.
func NewVariableShapeTensorArray(a array.Array) (*VariableShapeTensorArray, error) {
	e, t, err := asExtension[*VariableShapeTensorType](VariableShapeTensorName, a)
	if err != nil {
		return nil, err
	}
	return newVariableShapeTensorArray(e, t), nil
}

func newVariableShapeTensorArray(e *array.Extension, t *VariableShapeTensorType) *VariableShapeTensorArray {
	st := e.Storage().(*array.Struct)
	shapes := st.Field(t.shape).(*array.FixedSizeList)
	return &VariableShapeTensorArray{
		Extension: e, typ: t, data: st.Field(t.data).(*array.ListArray), shapes: shapes,
		dims: shapes.ListValues().(*array.Int32).Values(),
	}
}

func (a *VariableShapeTensorArray) extension() *array.Extension { return a.Extension }

// TensorType is the array's type.
func (a *VariableShapeTensorArray) TensorType() *VariableShapeTensorType { return a.typ }

// Shape returns row i's physical shape.
func (a *VariableShapeTensorArray) Shape(i int) []int {
	s, e := a.shapes.ValueOffsets(i)
	out := make([]int, e-s)
	for j, d := range a.dims[s:e] {
		out[j] = int(d)
	}
	return out
}

// Tensor returns row i's tensor (unspecified for a null row). For data
// that has not passed ValidateFull the shape may not match the values.
func (a *VariableShapeTensorArray) Tensor(i int) Tensor {
	shape := a.Shape(i)
	return Tensor{
		Values:      a.data.Value(i),
		Shape:       shape,
		Strides:     RowMajorStrides(shape),
		DimNames:    a.typ.DimNames(),
		Permutation: a.typ.Permutation(),
	}
}

// ValidateFull checks every non-null row: the shape's dimensions are not
// negative, their product is the number of data elements, and the
// uniform dimensions have their declared size. Errors wrap
// [array.ErrInvalid]. See also the package's ValidateFull, which checks
// the storage first.
func (a *VariableShapeTensorArray) ValidateFull() error { return a.validateValues() }

func (a *VariableShapeTensorArray) validateValues() error {
	const name = VariableShapeTensorName
	for i := range a.Len() {
		if a.IsNull(i) {
			continue
		}
		shape := a.Shape(i)
		n, ok := elementCount(shape)
		if !ok {
			return valuef(name, "row %d: shape %s has a negative dimension or too many elements", i, intList(shape))
		}
		s, e := a.data.ValueOffsets(i)
		if n != e-s {
			return valuef(name, "row %d: shape %s has %d elements but the data has %d", i, intList(shape), n, e-s)
		}
		for j, u := range a.typ.uniform {
			if u != NonUniform && shape[j] != u {
				return valuef(name, "row %d: shape %s: dimension %d is %d, not the uniform %d", i, intList(shape), j, shape[j], u)
			}
		}
	}
	return nil
}

// String prints each row's tensor nested by its shape.
func (a *VariableShapeTensorArray) String() string {
	return formatValues(a, func(i int) string { return a.Tensor(i).String() })
}

// VariableShapeTensorBuilder builds a [VariableShapeTensorArray]. Append
// starts a tensor of a shape; append the product of the shape values to
// ValueBuilder for it, in row-major order. [AppendVariableShapeTensor]
// does both for Go slices.
type VariableShapeTensorBuilder struct {
	*array.ExtensionBuilder
	typ     *VariableShapeTensorType
	row     *array.StructBuilder
	data    *array.ListBuilder32
	shapes  *array.FixedSizeListBuilder
	shapeVs *array.Int32Builder
}

// NewVariableShapeTensorBuilder returns a builder of arrays of t.
func NewVariableShapeTensorBuilder(t *VariableShapeTensorType, opts ...array.BuilderOption) *VariableShapeTensorBuilder {
	eb := array.NewExtensionBuilder(t, opts...)
	row := eb.StorageBuilder().(*array.StructBuilder)
	shapes := row.FieldBuilder(t.shape).(*array.FixedSizeListBuilder)
	return &VariableShapeTensorBuilder{
		ExtensionBuilder: eb, typ: t, row: row,
		data:   row.FieldBuilder(t.data).(*array.ListBuilder32),
		shapes: shapes, shapeVs: shapes.ValueBuilder().(*array.Int32Builder),
	}
}

// Append starts a valid tensor of the physical shape. The error, wrapping
// [array.ErrInvalid], reports a shape of the wrong number of dimensions,
// a negative dimension or one that differs from the uniform shape;
// nothing is appended then.
func (b *VariableShapeTensorBuilder) Append(shape []int) error {
	if _, err := b.checkShape(shape); err != nil {
		return err
	}
	b.row.Append(true)
	b.data.Append(true)
	b.shapes.Append(true)
	for _, d := range shape {
		b.shapeVs.Append(int32(d))
	}
	return nil
}

func (b *VariableShapeTensorBuilder) checkShape(shape []int) (int, error) {
	const name = VariableShapeTensorName
	if len(shape) != b.typ.ndim {
		return 0, valuef(name, "shape %s has %d dimensions, want %d", intList(shape), len(shape), b.typ.ndim)
	}
	n, ok := elementCount(shape)
	if !ok {
		return 0, valuef(name, "shape %s has a negative dimension or too many elements", intList(shape))
	}
	for j, u := range b.typ.uniform {
		if u != NonUniform && shape[j] != u {
			return 0, valuef(name, "shape %s: dimension %d is %d, not the uniform %d", intList(shape), j, shape[j], u)
		}
	}
	return n, nil
}

// ValueBuilder is the builder of the elements.
func (b *VariableShapeTensorBuilder) ValueBuilder() array.Builder { return b.data.ValueBuilder() }

// Finish returns the array built so far and resets the builder.
func (b *VariableShapeTensorBuilder) Finish() *VariableShapeTensorArray {
	return newVariableShapeTensorArray(b.ExtensionBuilder.Finish(), b.typ)
}

// NewArray is Finish as an [array.Array].
func (b *VariableShapeTensorBuilder) NewArray() array.Array { return b.Finish() }

// AppendVariableShapeTensor appends one tensor of the shape given by its
// elements in row-major order; T is the element type's Go type. The
// error, wrapping [array.ErrInvalid], reports a bad shape, an element
// count that is not the product of the shape, or a wrong Go type; nothing
// is appended then.
func AppendVariableShapeTensor[T array.FixedWidth](b *VariableShapeTensorBuilder, shape []int, values []T) error {
	n, err := b.checkShape(shape)
	if err != nil {
		return err
	}
	if len(values) != n {
		return valuef(VariableShapeTensorName, "%d values for shape %s (%d elements)", len(values), intList(shape), n)
	}
	if _, ok := b.ValueBuilder().(*array.PrimitiveBuilder[T]); !ok {
		return appendPrimitives(VariableShapeTensorName, b.ValueBuilder(), values)
	}
	if err := b.Append(shape); err != nil {
		return err
	}
	return appendPrimitives(VariableShapeTensorName, b.ValueBuilder(), values)
}
