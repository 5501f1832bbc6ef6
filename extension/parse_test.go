package extension_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
)

// Every canonical type reads back from its String through
// datatype.ParseType, also nested in other types.
func TestParseTypeCanonical(t *testing.T) {
	ok := func(ty datatype.ExtensionType, err error) datatype.ExtensionType {
		require.NoError(t, err)
		return ty
	}
	fixed := ok(extension.NewFixedShapeTensor(datatype.Int32, []int{2, 3, 2},
		extension.WithDimNames("a", "b, c>", `d"e`), extension.WithPermutation(2, 0, 1)))
	variable := ok(extension.NewVariableShapeTensor(datatype.Float32, 3,
		extension.WithUniformShape(extension.NonUniform, 2, extension.NonUniform), extension.WithDimNames("x", "y", "z")))
	types := []datatype.DataType{
		extension.NewUUIDType(), extension.NewBool8Type(), extension.NewVariantType(),
		ok(extension.NewJSONType(datatype.String)), ok(extension.NewJSONType(datatype.StringView)),
		ok(extension.NewOpaque(datatype.Binary, `a "quoted", name]>`, "v")),
		fixed, variable,
		ok(extension.NewFixedShapeTensor(datatype.Float64, []int{4})),
		datatype.ListOf(fixed),
		datatype.StructOf(datatype.Field{Name: "u", Type: extension.NewUUIDType()}, datatype.Field{Name: "v", Type: variable, Nullable: true}),
	}
	for _, ty := range types {
		t.Run(ty.String(), func(t *testing.T) {
			got, err := datatype.ParseType(ty.String())
			require.NoError(t, err)
			require.True(t, datatype.Equal(got, ty), "%s read back as %s", ty, got)
			require.Equal(t, ty.String(), got.String())
		})
	}
}

func TestParseTypeCanonicalErrors(t *testing.T) {
	for in, want := range map[string]string{
		"extension<arrow.json[storage=int32]>":                                               "storage must be utf8",
		"extension<arrow.json[size=3]>":                                                      `unknown parameter "size"`,
		"extension<arrow.json[storage=utf8, storage=utf8]>":                                  "given twice",
		"extension<arrow.opaque[storage=binary, type_name=\"t\"]>":                           `"vendor_name" is missing`,
		"extension<arrow.fixed_shape_tensor[value_type=int8]>":                               `"shape" is missing`,
		"extension<arrow.fixed_shape_tensor[value_type=int8, shape=x]>":                      "shape=x",
		"extension<arrow.variable_shape_tensor[value_type=int8, ndim=2, uniform_shape=[1]]>": "uniform",
		"extension<arrow.uuid[storage=utf8]>":                                                "cannot read parameters",
		"extension<arrow.json[storage=utf8>":                                                 `want "]"`,
	} {
		_, err := datatype.ParseType(in)
		require.ErrorIs(t, err, datatype.ErrInvalid, in)
		require.ErrorContains(t, err, want, in)
	}
}
