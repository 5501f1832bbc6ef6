package extension_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
	"github.com/alkaid-go/alkaid/memory"
)

func fsl(t *testing.T, elem datatype.DataType, n int32) *datatype.ListType {
	t.Helper()
	l, err := datatype.FixedSizeListOf(elem, n)
	require.NoError(t, err)
	return l
}

// deserialize runs the registered prototype's Deserialize, as IPC readers
// do.
func deserialize(t *testing.T, name string, storage datatype.DataType, meta string) (datatype.ExtensionType, error) {
	t.Helper()
	proto, ok := datatype.LookupExtension(name)
	require.True(t, ok)
	return proto.Deserialize(storage, meta)
}

// TestFixedShapeTensorSpecExamples parses the metadata examples of spec
// 002 verbatim and serialises them again in canonical form.
func TestFixedShapeTensorSpecExamples(t *testing.T) {
	for _, c := range []struct {
		meta, canonical  string
		size             int32
		shape, logical   []int
		dimNames         []string
		perm             []int
		logicalNamesWant []string
	}{
		{`{ "shape": [2, 5]}`, `{"shape":[2,5]}`, 10, []int{2, 5}, []int{2, 5}, nil, nil, nil},
		{`{ "shape": [100, 200, 500], "dim_names": ["C", "H", "W"]}`, `{"shape":[100,200,500],"dim_names":["C","H","W"]}`,
			10_000_000, []int{100, 200, 500}, []int{100, 200, 500}, []string{"C", "H", "W"}, nil, nil},
		{`{ "shape": [100, 200, 500], "permutation": [2, 0, 1]}`, `{"shape":[100,200,500],"permutation":[2,0,1]}`,
			10_000_000, []int{100, 200, 500}, []int{500, 100, 200}, nil, []int{2, 0, 1}, nil},
	} {
		t.Run(c.meta, func(t *testing.T) {
			et, err := deserialize(t, extension.FixedShapeTensorName, fsl(t, datatype.Float32, c.size), c.meta)
			require.NoError(t, err)
			ft := et.(*extension.FixedShapeTensorType)
			require.Equal(t, c.canonical, ft.Serialize())
			require.Equal(t, c.shape, ft.Shape())
			require.Equal(t, c.logical, ft.LogicalShape())
			require.Equal(t, c.dimNames, ft.DimNames())
			require.Equal(t, c.perm, ft.Permutation())
			require.True(t, datatype.Equal(datatype.Float32, ft.ValueType()))

			// Re-parsing the canonical form gives an equal type.
			again, err := deserialize(t, extension.FixedShapeTensorName, ft.StorageType(), ft.Serialize())
			require.NoError(t, err)
			require.True(t, datatype.Equal(ft, again))

			// The constructor builds the same type.
			var opts []extension.TensorOption
			if c.dimNames != nil {
				opts = append(opts, extension.WithDimNames(c.dimNames...))
			}
			if c.perm != nil {
				opts = append(opts, extension.WithPermutation(c.perm...))
			}
			made, err := extension.NewFixedShapeTensor(datatype.Float32, c.shape, opts...)
			require.NoError(t, err)
			require.True(t, datatype.Equal(ft, made))
			require.Equal(t, c.canonical, made.Serialize())
		})
	}
}

func TestFixedShapeTensorInvalid(t *testing.T) {
	f6 := fsl(t, datatype.Float32, 6)
	for _, c := range []struct {
		storage datatype.DataType
		meta    string
		err     string
	}{
		{datatype.ListOf(datatype.Float32), `{"shape":[2,3]}`, "storage must be a fixed_size_list, got list<item: float32>"},
		{datatype.Float32, `{"shape":[2,3]}`, "storage must be a fixed_size_list, got float32"},
		{f6, ``, `metadata "" is not a JSON object`},
		{f6, `[2,3]`, `metadata "[2,3]" is not a JSON object`},
		{f6, `{"shape":[2,3]`, `metadata "{\"shape\":[2,3]" is not a JSON object`},
		{f6, `{}`, `metadata has no "shape"`},
		{f6, `{"shape":[2,3],"dim_name":["a","b"]}`, `metadata has unknown key "dim_name"`},
		{f6, `{"shape":"2x3"}`, `metadata "shape" is not an array of integers`},
		{f6, `{"shape":[2,3.0]}`, `metadata "shape" element 1 is 3.0, not a non-negative integer`},
		{f6, `{"shape":[-2,-3]}`, `metadata "shape" element 0 is -2, not a non-negative integer`},
		{f6, `{"shape":[2,null]}`, `metadata "shape" element 1 is null, not a non-negative integer`},
		{f6, `{"shape":[3,3]}`, `shape [3,3] has 9 elements but the storage list size is 6`},
		{f6, `{"shape":[65536,65536]}`, `shape [65536,65536] has more than 2147483647 elements`},
		{f6, `{"shape":[2,3],"dim_names":["H"]}`, `dim_names has 1 names for 2 dimensions`},
		{f6, `{"shape":[2,3],"dim_names":"HW"}`, `metadata "dim_names" is not an array of strings`},
		{f6, `{"shape":[2,3],"dim_names":["H",2]}`, `metadata "dim_names" element 1 is 2, not a string`},
		{f6, `{"shape":[2,3],"dim_names":["H",null]}`, `metadata "dim_names" element 1 is null, not a string`},
		{f6, `{"shape":[2,3],"permutation":[0]}`, `permutation has 1 indices for 2 dimensions`},
		{f6, `{"shape":[2,3],"permutation":[1,1]}`, `permutation [1,1] is not a permutation of 0…1`},
		{f6, `{"shape":[2,3],"permutation":[0,2]}`, `permutation [0,2] is not a permutation of 0…1`},
	} {
		t.Run(c.meta, func(t *testing.T) {
			_, err := deserialize(t, extension.FixedShapeTensorName, c.storage, c.meta)
			require.ErrorIs(t, err, datatype.ErrInvalid)
			require.EqualError(t, err, "extension: invalid: arrow.fixed_shape_tensor: "+c.err)
		})
	}

	for _, c := range []struct {
		value datatype.DataType
		shape []int
		opts  []extension.TensorOption
		err   string
	}{
		{nil, []int{2}, nil, "value type is missing"},
		{datatype.Int8, nil, nil, "shape is missing"},
		{datatype.Int8, []int{2, -1}, nil, "shape [2,-1] has a negative dimension"},
		{datatype.Int8, []int{2}, []extension.TensorOption{extension.WithUniformShape(2)}, "uniform_shape is a parameter of arrow.variable_shape_tensor only"},
		{datatype.Int8, []int{2}, []extension.TensorOption{extension.WithDimNames("a", "b")}, "dim_names has 2 names for 1 dimensions"},
		{datatype.Int8, []int{2, 2}, []extension.TensorOption{extension.WithPermutation(-1, 0)}, "permutation [-1,0] is not a permutation of 0…1"},
	} {
		_, err := extension.NewFixedShapeTensor(c.value, c.shape, c.opts...)
		require.ErrorIs(t, err, datatype.ErrInvalid)
		require.EqualError(t, err, "extension: invalid: arrow.fixed_shape_tensor: "+c.err)
	}
}

func TestFixedShapeTensorAccess(t *testing.T) {
	// 2×3×2 tensors, logical view permuted to (dim 2, dim 0, dim 1).
	tt, err := extension.NewFixedShapeTensor(datatype.Int32, []int{2, 3, 2},
		extension.WithDimNames("a", "b", "c"), extension.WithPermutation(2, 0, 1))
	require.NoError(t, err)
	require.Equal(t, 12, tt.NumElements())
	require.Equal(t, []int{6, 2, 1}, tt.Strides())
	require.Equal(t, "extension<arrow.fixed_shape_tensor[value_type=int32, shape=[2,3,2], dim_names=[\"a\",\"b\",\"c\"], permutation=[2,0,1]]>", tt.String())
	require.True(t, datatype.Equal(fsl(t, datatype.Int32, 12), tt.StorageType()))

	b := extension.NewFixedShapeTensorBuilder(tt)
	vals := make([]int32, 12)
	for i := range vals {
		vals[i] = int32(i)
	}
	require.NoError(t, extension.AppendFixedShapeTensor(b, vals))
	b.AppendNull()
	for i := range vals {
		vals[i] += 100
	}
	require.NoError(t, extension.AppendFixedShapeTensor(b, vals))
	err = extension.AppendFixedShapeTensor(b, []int32{1, 2})
	require.ErrorIs(t, err, array.ErrInvalid)
	require.EqualError(t, err, "extension: invalid: arrow.fixed_shape_tensor: 2 values for shape [2,3,2] (12 elements)")
	err = extension.AppendFixedShapeTensor(b, make([]float64, 12))
	require.EqualError(t, err, "extension: invalid: arrow.fixed_shape_tensor: values of Go type float64 do not fit the element type int32")
	a := b.Finish()
	require.Equal(t, 3, a.Len())
	require.Equal(t, 1, a.NullN())
	require.NoError(t, extension.ValidateFull(a))

	ten := a.Tensor(2)
	require.Equal(t, []int{2, 3, 2}, ten.Shape)
	require.Equal(t, []int{6, 2, 1}, ten.Strides)
	require.Equal(t, []int{2, 2, 3}, ten.LogicalShape())
	require.Equal(t, []int{1, 6, 2}, ten.LogicalStrides())
	require.Equal(t, []string{"c", "a", "b"}, ten.LogicalDimNames())
	v, ok := extension.TensorValues[int32](ten)
	require.True(t, ok)
	require.Len(t, v, 12)
	require.Equal(t, int32(100+1*6+2*2+1), v[ten.Offset(1, 2, 1)])
	// Logical index (c=1, a=1, b=2) is physical (1, 2, 1).
	require.Equal(t, ten.Offset(1, 2, 1), ten.LogicalOffset(1, 1, 2))
	require.Panics(t, func() { ten.Offset(2, 0, 0) })
	require.Panics(t, func() { ten.Offset(0, 0) })
	_, ok = extension.TensorValues[float32](ten)
	require.False(t, ok)

	require.Equal(t, "[[[0 1] [2 3] [4 5]] [[6 7] [8 9] [10 11]]]", a.Tensor(0).String())
	require.Equal(t, "[[[[0 1] [2 3] [4 5]] [[6 7] [8 9] [10 11]]] (null) [[[100 101] [102 103] [104 105]] [[106 107] [108 109] [110 111]]]]", a.String())

	// Slices keep row access right.
	s, err := extension.NewFixedShapeTensorArray(array.Slice(a, 2, 3))
	require.NoError(t, err)
	v, _ = extension.TensorValues[int32](s.Tensor(0))
	require.Equal(t, int32(100), v[0])
	require.True(t, array.Equal(array.Slice(a, 2, 3), s))

	// Wrapping checks the type.
	_, err = extension.NewFixedShapeTensorArray(arrayjson.MustParse(datatype.Int32, "[1]"))
	require.EqualError(t, err, "extension: invalid: arrow.fixed_shape_tensor: array of type int32 is not an arrow.fixed_shape_tensor array")

	// A zero-dimensional tensor holds one element.
	scalar, err := extension.NewFixedShapeTensor(datatype.Int8, []int{})
	require.NoError(t, err)
	require.Equal(t, `{"shape":[]}`, scalar.Serialize())
	require.Equal(t, 1, scalar.NumElements())
}

// TestVariableShapeTensorSpecExamples parses the metadata examples of
// spec 002 verbatim and serialises them again.
func TestVariableShapeTensorSpecExamples(t *testing.T) {
	storage := func(ndim int32) datatype.DataType {
		return datatype.StructOf(
			datatype.Field{Name: "data", Type: datatype.ListOf(datatype.Uint8), Nullable: true},
			datatype.Field{Name: "shape", Type: fsl(t, datatype.Int32, ndim), Nullable: true},
		)
	}
	for _, c := range []struct {
		meta, canonical string
		dimNames        []string
		perm, uniform   []int
	}{
		{``, `{}`, nil, nil, nil},
		{`{ "dim_names": ["C", "H", "W"] }`, `{"dim_names":["C","H","W"]}`, []string{"C", "H", "W"}, nil, nil},
		{`{ "dim_names": ["H", "W", "C"], "uniform_shape": [400, null, 3] }`, `{"dim_names":["H","W","C"],"uniform_shape":[400,null,3]}`,
			[]string{"H", "W", "C"}, nil, []int{400, extension.NonUniform, 3}},
		{`{ "permutation": [2, 0, 1] }`, `{"permutation":[2,0,1]}`, nil, []int{2, 0, 1}, nil},
	} {
		t.Run(c.meta, func(t *testing.T) {
			et, err := deserialize(t, extension.VariableShapeTensorName, storage(3), c.meta)
			require.NoError(t, err)
			vt := et.(*extension.VariableShapeTensorType)
			require.Equal(t, c.canonical, vt.Serialize())
			require.Equal(t, 3, vt.NDim())
			require.Equal(t, c.dimNames, vt.DimNames())
			require.Equal(t, c.perm, vt.Permutation())
			require.Equal(t, c.uniform, vt.UniformShape())
			again, err := deserialize(t, extension.VariableShapeTensorName, storage(3), vt.Serialize())
			require.NoError(t, err)
			require.True(t, datatype.Equal(vt, again))

			var opts []extension.TensorOption
			if c.dimNames != nil {
				opts = append(opts, extension.WithDimNames(c.dimNames...))
			}
			if c.perm != nil {
				opts = append(opts, extension.WithPermutation(c.perm...))
			}
			if c.uniform != nil {
				opts = append(opts, extension.WithUniformShape(c.uniform...))
			}
			made, err := extension.NewVariableShapeTensor(datatype.Uint8, 3, opts...)
			require.NoError(t, err)
			require.True(t, datatype.Equal(vt, made), "%s vs %s", vt, made)
		})
	}

	// The spec's note: shape [10 20 30], dim_names [x y z], permutation
	// [2 0 1] is the logical tensor [z x y] of shape [30 10 20].
	vt, err := extension.NewVariableShapeTensor(datatype.Uint8, 3, extension.WithDimNames("x", "y", "z"), extension.WithPermutation(2, 0, 1))
	require.NoError(t, err)
	b := extension.NewVariableShapeTensorBuilder(vt)
	require.NoError(t, extension.AppendVariableShapeTensor(b, []int{10, 20, 30}, make([]uint8, 6000)))
	ten := b.Finish().Tensor(0)
	require.Equal(t, []string{"z", "x", "y"}, ten.LogicalDimNames())
	require.Equal(t, []int{30, 10, 20}, ten.LogicalShape())
}

func TestVariableShapeTensorInvalid(t *testing.T) {
	good := func(fields ...datatype.Field) datatype.DataType { return datatype.StructOf(fields...) }
	data := datatype.Field{Name: "data", Type: datatype.ListOf(datatype.Float32), Nullable: true}
	shape := datatype.Field{Name: "shape", Type: fsl(t, datatype.Int32, 2), Nullable: true}
	for _, c := range []struct {
		storage datatype.DataType
		meta    string
		err     string
	}{
		{datatype.ListOf(datatype.Float32), ``, "storage must be a struct of data and shape, got list<item: float32>"},
		{good(data), ``, `storage has no field "shape"`},
		{good(shape), ``, `storage has no field "data"`},
		{good(data, shape, datatype.Field{Name: "x", Type: datatype.Int8}), ``, `storage has an unexpected field "x"`},
		{good(data, shape, data), ``, `storage has an unexpected field "data"`},
		{good(datatype.Field{Name: "data", Type: datatype.LargeListOf(datatype.Float32)}, shape), ``, `storage field "data" must be a list, got large_list<item: float32>`},
		{good(data, datatype.Field{Name: "shape", Type: fsl(t, datatype.Int64, 2)}), ``, `storage field "shape" must be a fixed_size_list of int32, got fixed_size_list<item: int64>[2]`},
		{good(data, datatype.Field{Name: "shape", Type: datatype.ListOf(datatype.Int32)}), ``, `storage field "shape" must be a fixed_size_list of int32, got list<item: int32>`},
		{good(data, shape), `null`, `metadata "null" is not a JSON object`},
		{good(data, shape), `{"shape":[1,2]}`, `metadata has unknown key "shape"`},
		{good(data, shape), `{"dim_names":["a"]}`, `dim_names has 1 names for 2 dimensions`},
		{good(data, shape), `{"permutation":[1,2]}`, `permutation [1,2] is not a permutation of 0…1`},
		{good(data, shape), `{"uniform_shape":[1]}`, `uniform_shape has 1 dimensions for 2`},
		{good(data, shape), `{"uniform_shape":[1,-2]}`, `metadata "uniform_shape" element 1 is -2, not a non-negative integer`},
		{good(data, shape), `{"uniform_shape":{}}`, `metadata "uniform_shape" is not an array of integers or nulls`},
	} {
		t.Run(c.err, func(t *testing.T) {
			_, err := deserialize(t, extension.VariableShapeTensorName, c.storage, c.meta)
			require.ErrorIs(t, err, datatype.ErrInvalid)
			require.EqualError(t, err, "extension: invalid: arrow.variable_shape_tensor: "+c.err)
		})
	}
	_, err := extension.NewVariableShapeTensor(nil, 2)
	require.EqualError(t, err, "extension: invalid: arrow.variable_shape_tensor: value type is missing")
	_, err = extension.NewVariableShapeTensor(datatype.Int8, -1)
	require.EqualError(t, err, "extension: invalid: arrow.variable_shape_tensor: number of dimensions -1 is out of range")
	_, err = extension.NewVariableShapeTensor(datatype.Int8, 2, extension.WithUniformShape(3, -4))
	require.EqualError(t, err, "extension: invalid: arrow.variable_shape_tensor: uniform_shape [3,-4] has a dimension out of range")

	// Fields in the other order are found by name.
	swapped, err := deserialize(t, extension.VariableShapeTensorName, good(shape, data), `{"dim_names":["H","W"]}`)
	require.NoError(t, err)
	b := extension.NewVariableShapeTensorBuilder(swapped.(*extension.VariableShapeTensorType))
	require.NoError(t, extension.AppendVariableShapeTensor(b, []int{1, 2}, []float32{1, 2}))
	a := b.Finish()
	require.Equal(t, []int{1, 2}, a.Shape(0))
	require.Equal(t, "[[[1 2]]]", a.String())
}

func TestVariableShapeTensorAccessAndValidation(t *testing.T) {
	vt, err := extension.NewVariableShapeTensor(datatype.Int64, 3, extension.WithUniformShape(extension.NonUniform, 2, extension.NonUniform))
	require.NoError(t, err)
	require.Equal(t, "extension<arrow.variable_shape_tensor[value_type=int64, ndim=3, uniform_shape=[null,2,null]]>", vt.String())
	require.Equal(t, "struct<data: list<item: int64>, shape: fixed_size_list<item: int32>[3]>", vt.StorageType().String())
	b := extension.NewVariableShapeTensorBuilder(vt)
	require.NoError(t, extension.AppendVariableShapeTensor(b, []int{1, 2, 3}, []int64{1, 2, 3, 4, 5, 6}))
	b.AppendNull()
	require.NoError(t, extension.AppendVariableShapeTensor(b, []int{2, 2, 1}, []int64{7, 8, 9, 10}))
	require.NoError(t, extension.AppendVariableShapeTensor(b, []int{0, 2, 5}, []int64{}))

	for _, c := range []struct {
		err   func() error
		wants string
	}{
		{func() error { return b.Append([]int{1, 2}) }, "shape [1,2] has 2 dimensions, want 3"},
		{func() error { return b.Append([]int{1, 3, 1}) }, "shape [1,3,1]: dimension 1 is 3, not the uniform 2"},
		{func() error { return b.Append([]int{-1, 2, 1}) }, "shape [-1,2,1] has a negative dimension or too many elements"},
		{func() error { return extension.AppendVariableShapeTensor(b, []int{1, 2, 2}, []int64{1}) }, "1 values for shape [1,2,2] (4 elements)"},
		{func() error { return extension.AppendVariableShapeTensor(b, []int{1, 2, 1}, []int32{1, 2}) }, "values of Go type int32 do not fit the element type int64"},
	} {
		err := c.err()
		require.ErrorIs(t, err, array.ErrInvalid)
		require.EqualError(t, err, "extension: invalid: arrow.variable_shape_tensor: "+c.wants)
	}
	a := b.Finish()
	require.Equal(t, 4, a.Len())
	require.NoError(t, extension.ValidateFull(a))
	require.Equal(t, "[[[[1 2 3] [4 5 6]]] (null) [[[7] [8]] [[9] [10]]] []]", a.String())
	ten := a.Tensor(2)
	require.Equal(t, []int{2, 2, 1}, ten.Shape)
	require.Equal(t, []int{2, 1, 1}, ten.Strides)
	v, _ := extension.TensorValues[int64](ten)
	require.Equal(t, int64(9), v[ten.Offset(1, 0, 0)])
	sl, err := extension.NewVariableShapeTensorArray(array.Slice(a, 2, 4))
	require.NoError(t, err)
	require.Equal(t, []int{2, 2, 1}, sl.Shape(0))
	require.Equal(t, "[[[[7] [8]] [[9] [10]]] []]", sl.String())
	require.NoError(t, extension.ValidateFull(sl))

	// Hand-made storage whose shapes do not match the data.
	bad := func(dataJSON, shapeJSON string) error {
		st := vt.StorageType().(*datatype.StructType)
		d := arrayjson.MustParse(st.Field(0).Type, dataJSON)
		s := arrayjson.MustParse(st.Field(1).Type, shapeJSON)
		storage := array.MustMake(array.NewData(st, d.Len(), []*memory.Buffer{nil}, []*array.Data{d.Data(), s.Data()}, 0, 0))
		e, err := array.NewExtension(vt, storage)
		require.NoError(t, err)
		return extension.ValidateFull(e)
	}
	err = bad(`[[1, 2, 3]]`, `[[1, 2, 2]]`)
	require.ErrorIs(t, err, array.ErrInvalid)
	require.EqualError(t, err, "extension: invalid: arrow.variable_shape_tensor: row 0: shape [1,2,2] has 4 elements but the data has 3")
	err = bad(`[[], [1, 2, 3]]`, `[[0, 2, 0], [1, 3, 1]]`)
	require.EqualError(t, err, "extension: invalid: arrow.variable_shape_tensor: row 1: shape [1,3,1]: dimension 1 is 3, not the uniform 2")
	err = bad(`[[]]`, `[[-1, 2, 0]]`)
	require.EqualError(t, err, "extension: invalid: arrow.variable_shape_tensor: row 0: shape [-1,2,0] has a negative dimension or too many elements")
	require.True(t, errors.Is(err, array.ErrInvalid))
}
