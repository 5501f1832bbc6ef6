package extension_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
	"github.com/alkaid-go/alkaid/memory"
)

func fld(name string, t datatype.DataType, nullable bool) datatype.Field {
	return datatype.Field{Name: name, Type: t, Nullable: nullable}
}

var (
	metaF  = fld("metadata", datatype.Binary, false)
	valueF = fld("value", datatype.Binary, true)
)

// group is a shredded element or object field: a non-nullable struct of
// value and typed_value.
func group(name string, typed datatype.DataType) datatype.Field {
	return fld(name, datatype.StructOf(valueF, fld("typed_value", typed, true)), false)
}

func TestVariantStorageValid(t *testing.T) {
	ts, _ := datatype.NewTimestamp(datatype.Microsecond, "UTC")
	tsNTZ, _ := datatype.NewTimestamp(datatype.Nanosecond, "")
	t64, _ := datatype.NewTime(datatype.Microsecond)
	d128, _ := datatype.NewDecimal(128, 20, 2)
	dictMeta, _ := datatype.NewDictionary(datatype.Int8, datatype.Binary, false)
	reeMeta, _ := datatype.NewRunEndEncoded(datatype.Int32, datatype.LargeBinary)
	for _, st := range []*datatype.StructType{
		datatype.StructOf(metaF, valueF),
		datatype.StructOf(valueF, metaF),
		datatype.StructOf(fld("metadata", datatype.LargeBinary, false), fld("value", datatype.BinaryView, false)),
		datatype.StructOf(fld("metadata", dictMeta, false), valueF),
		datatype.StructOf(fld("metadata", reeMeta, false), valueF),
		datatype.StructOf(metaF, fld("typed_value", datatype.Int64, true)),
		datatype.StructOf(fld("typed_value", datatype.String, true), metaF, valueF),
		datatype.StructOf(metaF, valueF, fld("typed_value", ts, true)),
		datatype.StructOf(metaF, valueF, fld("typed_value", tsNTZ, true)),
		datatype.StructOf(metaF, valueF, fld("typed_value", t64, true)),
		datatype.StructOf(metaF, valueF, fld("typed_value", d128, true)),
		datatype.StructOf(metaF, valueF, fld("typed_value", datatype.Uint32, true)),
		datatype.StructOf(metaF, valueF, fld("typed_value", extension.NewUUIDType(), true)),
		datatype.StructOf(metaF, valueF, fld("typed_value", datatype.ListOfField(group("element", datatype.Float64)), true)),
		datatype.StructOf(metaF, valueF, fld("typed_value", datatype.LargeListOfField(group("element", datatype.Float64)), true)),
		datatype.StructOf(metaF, valueF, fld("typed_value", datatype.ListViewOfField(group("element", datatype.Float64)), true)),
		// An object whose field "a" is a list of objects of field "b".
		datatype.StructOf(metaF, valueF, fld("typed_value", datatype.StructOf(
			group("a", datatype.ListOfField(group("element", datatype.StructOf(group("b", datatype.Bool))))),
			fld("c", datatype.StructOf(valueF), false),
		), true)),
	} {
		t.Run(st.String(), func(t *testing.T) {
			vt, err := extension.NewVariantTypeOf(st)
			require.NoError(t, err)
			et, err := deserialize(t, extension.VariantName, st, "")
			require.NoError(t, err)
			require.True(t, datatype.Equal(vt, et))
			require.Equal(t, "", et.Serialize())
		})
	}
	require.Equal(t, "extension<arrow.parquet.variant>", extension.NewVariantType().String())
	require.Equal(t, "struct<metadata: binary not null, value: binary not null>", extension.NewVariantType().StorageType().String())
	require.False(t, extension.NewVariantType().Shredded())
}

func TestVariantStorageInvalid(t *testing.T) {
	f16 := datatype.Float16Type
	u64 := datatype.Uint64
	tsMs, _ := datatype.NewTimestamp(datatype.Millisecond, "UTC")
	d256, _ := datatype.NewDecimal(256, 40, 2)
	dictInt, _ := datatype.NewDictionary(datatype.Int8, datatype.Int32, false)
	for _, c := range []struct {
		storage datatype.DataType
		meta    string
		err     string
	}{
		{datatype.Binary, "", "storage must be a struct, got binary"},
		{datatype.StructOf(valueF), "", `storage has no field "metadata"`},
		{datatype.StructOf(metaF), "", `storage has neither "value" nor "typed_value"`},
		{datatype.StructOf(fld("metadata", datatype.Binary, true), valueF), "", `storage field "metadata" must not be nullable`},
		{datatype.StructOf(fld("metadata", datatype.String, false), valueF), "", `storage field "metadata" must be binary, large_binary or binary_view (or a dictionary or run-end encoding of one), got utf8`},
		{datatype.StructOf(fld("metadata", dictInt, false), valueF), "", `storage field "metadata" must be binary, large_binary or binary_view (or a dictionary or run-end encoding of one), got dictionary<values=int32, indices=int8>`},
		{datatype.StructOf(metaF, fld("value", datatype.String, true)), "", `storage field "value" must be binary, large_binary or binary_view, got utf8`},
		{datatype.StructOf(metaF, valueF, fld("Value", datatype.Binary, true)), "", `storage has an unexpected field "Value"`},
		{datatype.StructOf(metaF, valueF, valueF), "", `storage has two fields named "value"`},
		{datatype.StructOf(metaF, valueF), "x", `metadata must be empty, got "x"`},
		{datatype.StructOf(metaF, fld("typed_value", f16, true)), "", `storage field "typed_value" has type float16, which has no Variant equivalent`},
		{datatype.StructOf(metaF, fld("typed_value", u64, true)), "", `storage field "typed_value" has type uint64, which has no Variant equivalent`},
		{datatype.StructOf(metaF, fld("typed_value", tsMs, true)), "", `storage field "typed_value" has type timestamp[ms, tz=UTC], which has no Variant equivalent`},
		{datatype.StructOf(metaF, fld("typed_value", d256, true)), "", `storage field "typed_value" has type decimal256(40, 2), which has no Variant equivalent`},
		{datatype.StructOf(metaF, fld("typed_value", extension.NewBool8Type(), true)), "", `storage field "typed_value" has type extension<arrow.bool8>, which has no Variant equivalent`},
		{datatype.StructOf(metaF, fld("typed_value", datatype.LargeListViewOfField(group("element", datatype.Int8)), true)), "",
			`storage field "typed_value" has type large_list_view<element: struct<value: binary, typed_value: int8> not null>, which has no Variant equivalent`},
		{datatype.StructOf(metaF, fld("typed_value", datatype.ListOf(datatype.StructOf(valueF)), true)), "", `storage field "typed_value.item" must not be nullable`},
		{datatype.StructOf(metaF, fld("typed_value", datatype.ListOfField(fld("element", datatype.Binary, false)), true)), "", `storage field "typed_value.element" must be a struct of value and/or typed_value, got binary`},
		{datatype.StructOf(metaF, fld("typed_value", datatype.ListOfField(fld("element", datatype.StructOf(), false)), true)), "", `storage field "typed_value.element" has neither "value" nor "typed_value"`},
		{datatype.StructOf(metaF, fld("typed_value", datatype.ListOfField(fld("element", datatype.StructOf(metaF, valueF), false)), true)), "", `storage field "typed_value.element" has an unexpected field "metadata"`},
		{datatype.StructOf(metaF, fld("typed_value", datatype.StructOf(), true)), "", `storage field "typed_value" is a struct without fields`},
		{datatype.StructOf(metaF, fld("typed_value", datatype.StructOf(fld("a", datatype.StructOf(valueF), true)), true)), "", `storage field "typed_value.a" must not be nullable`},
		{datatype.StructOf(metaF, fld("typed_value", datatype.StructOf(group("a", datatype.Int8), fld("b", datatype.Int8, false)), true)), "", `storage field "typed_value.b" must be a struct of value and/or typed_value, got int8`},
		{datatype.StructOf(metaF, fld("typed_value", datatype.StructOf(fld("a", datatype.StructOf(fld("value", datatype.String, true)), false)), true)), "", `storage field "typed_value.a.value" must be binary, large_binary or binary_view, got utf8`},
		{datatype.StructOf(metaF, fld("typed_value", datatype.StructOf(group("a", datatype.ListOfField(group("element", f16)))), true)), "", `storage field "typed_value.a.typed_value.element.typed_value" has type float16, which has no Variant equivalent`},
	} {
		t.Run(c.err, func(t *testing.T) {
			_, err := deserialize(t, extension.VariantName, c.storage, c.meta)
			require.ErrorIs(t, err, datatype.ErrInvalid)
			require.EqualError(t, err, "extension: invalid: arrow.parquet.variant: "+c.err)
		})
	}
}

func TestVariantArray(t *testing.T) {
	b := extension.NewVariantBuilder(extension.NewVariantType())
	require.NoError(t, b.Append([]byte{0x01, 0x00, 0x00}, []byte{0x0c, 0x2a})) // int8 42
	b.AppendNull()
	require.NoError(t, b.Append([]byte{0x01, 0x00, 0x00}, []byte{0x00})) // null
	a := b.Finish()
	require.Equal(t, 3, a.Len())
	require.Equal(t, []byte{0x01, 0x00, 0x00}, a.Metadata(0))
	require.Equal(t, []byte{0x0c, 0x2a}, a.Value(0))
	require.Nil(t, a.Value(1))
	require.Nil(t, a.TypedValue())
	require.Equal(t, "[{metadata: 0x010000, value: 0x0c2a} (null) {metadata: 0x010000, value: 0x00}]", a.String())
	require.NoError(t, extension.ValidateFull(a))

	// Dictionary-encoded and run-end encoded metadata.
	dictMeta, _ := datatype.NewDictionary(datatype.Int8, datatype.Binary, false)
	reeMeta, _ := datatype.NewRunEndEncoded(datatype.Int16, datatype.BinaryView)
	for _, mt := range []datatype.DataType{dictMeta, reeMeta} {
		vt, err := extension.NewVariantTypeOf(datatype.StructOf(fld("value", datatype.LargeBinary, true), fld("metadata", mt, false)))
		require.NoError(t, err)
		b := extension.NewVariantBuilder(vt)
		for i := range 3 {
			require.NoError(t, b.Append([]byte{0x01, 0x00, 0x00}, []byte{0x0c, byte(i)}))
		}
		a := b.Finish()
		require.Equal(t, []byte{0x01, 0x00, 0x00}, a.Metadata(2))
		require.Equal(t, []byte{0x0c, 2}, a.Value(2))
		require.NoError(t, extension.ValidateFull(a))
		s, err := extension.NewVariantArray(array.Slice(a, 1, 3))
		require.NoError(t, err)
		require.Equal(t, []byte{0x01, 0x00, 0x00}, s.Metadata(1))
		require.Equal(t, []byte{0x0c, 1}, s.Value(0))
	}

	// Shredded: Append leaves typed_value null; shredded rows go through
	// the storage builder.
	vt, err := extension.NewVariantTypeOf(shreddedStorage())
	require.NoError(t, err)
	require.True(t, vt.Shredded())
	sb := extension.NewVariantBuilder(vt)
	require.NoError(t, sb.Append([]byte{1, 0, 0}, []byte{0x00}))
	a = sb.Finish()
	require.NotNil(t, a.TypedValue())
	require.True(t, a.TypedValue().IsNull(0))

	typedOnly, err := extension.NewVariantTypeOf(datatype.StructOf(metaF, fld("typed_value", datatype.Int64, true)))
	require.NoError(t, err)
	err = extension.NewVariantBuilder(typedOnly).Append([]byte{1, 0, 0}, nil)
	require.ErrorIs(t, err, array.ErrInvalid)
	require.EqualError(t, err, "extension: invalid: arrow.parquet.variant: storage has no value field; build shredded rows through StorageBuilder")

	// A valid row with null metadata fails ValidateFull.
	st := extension.NewVariantType().StorageType().(*datatype.StructType)
	m := arrayjson.MustParse(datatype.Binary, `["AQAA", null]`)
	v := arrayjson.MustParse(datatype.Binary, `["AA==", "AA=="]`)
	storage := array.MustMake(array.NewData(st, 2, []*memory.Buffer{nil}, []*array.Data{m.Data(), v.Data()}, 0, 0))
	e, err := array.NewExtension(extension.NewVariantType(), storage)
	require.NoError(t, err)
	err = extension.ValidateFull(e)
	require.ErrorIs(t, err, array.ErrInvalid)
	require.EqualError(t, err, "extension: invalid: arrow.parquet.variant: row 1: metadata is null")
}
