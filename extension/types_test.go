package extension_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
)

func TestJSONType(t *testing.T) {
	// The spec: the metadata is an empty string or a JSON object (empty
	// today); both read, and either is written back as it was read.
	for _, meta := range []string{``, `{}`, `{ "future": [1, 2] }`} {
		et, err := deserialize(t, extension.JSONName, datatype.String, meta)
		require.NoError(t, err)
		require.Equal(t, meta, et.Serialize())
		require.True(t, datatype.Equal(et, mustJSON(t, datatype.String)))
	}
	require.Equal(t, "", mustJSON(t, datatype.String).Serialize())
	require.Equal(t, "extension<arrow.json>", mustJSON(t, datatype.String).String())
	require.Equal(t, "extension<arrow.json[storage=utf8_view]>", mustJSON(t, datatype.StringView).String())
	require.False(t, datatype.Equal(mustJSON(t, datatype.String), mustJSON(t, datatype.LargeString)))

	for _, c := range []struct {
		storage datatype.DataType
		meta    string
		err     string
	}{
		{datatype.Binary, ``, "storage must be utf8, large_utf8 or utf8_view, got binary"},
		{datatype.Int32, ``, "storage must be utf8, large_utf8 or utf8_view, got int32"},
		{nil, ``, "storage must be utf8, large_utf8 or utf8_view, got <nil>"},
		{datatype.String, `[]`, `metadata "[]" is not a JSON object`},
		{datatype.String, `{"a":}`, `metadata "{\"a\":}" is not a JSON object`},
		{datatype.String, `"{}"`, `metadata "\"{}\"" is not a JSON object`},
	} {
		_, err := deserialize(t, extension.JSONName, c.storage, c.meta)
		require.ErrorIs(t, err, datatype.ErrInvalid)
		require.EqualError(t, err, "extension: invalid: arrow.json: "+c.err)
	}
	_, err := extension.NewJSONType(extension.NewUUIDType())
	require.EqualError(t, err, "extension: invalid: arrow.json: storage must be utf8, large_utf8 or utf8_view, got extension<arrow.uuid>")
}

func mustJSON(t *testing.T, storage datatype.DataType) *extension.JSONType {
	t.Helper()
	jt, err := extension.NewJSONType(storage)
	require.NoError(t, err)
	return jt
}

func TestJSONArray(t *testing.T) {
	for _, st := range []datatype.DataType{datatype.String, datatype.LargeString, datatype.StringView} {
		b := extension.NewJSONBuilder(mustJSON(t, st))
		require.NoError(t, b.Append(json.RawMessage(` {"a": 1} `)))
		b.AppendNull()
		require.NoError(t, b.AppendValue(map[string]any{"k": []int{1, 2}}))
		require.NoError(t, b.AppendString(`"a string that is longer than twelve"`))
		for _, c := range []struct{ in, err string }{
			{`{"a":1`, "value is not valid JSON: unexpected end of JSON input"},
			{`{'a':1}`, "value is not valid JSON: invalid character '\\'' looking for beginning of object key string"},
			{``, "value is not valid JSON: unexpected end of JSON input"},
			{"\"\xff\"", "value is not valid UTF-8"},
			{`1 2`, "value is not valid JSON: invalid character '2' after top-level value"},
		} {
			err := b.AppendString(c.in)
			require.ErrorIs(t, err, array.ErrInvalid)
			require.EqualError(t, err, "extension: invalid: arrow.json: "+c.err)
		}
		err := b.AppendValue(func() {})
		require.EqualError(t, err, "extension: invalid: arrow.json: json: unsupported type: func()")
		a := b.Finish()
		require.Equal(t, 4, a.Len())
		require.Equal(t, json.RawMessage(` {"a": 1} `), a.Value(0))
		require.Nil(t, a.Value(1))
		require.Equal(t, `{"k":[1,2]}`, a.ValueString(2))
		var v map[string][]int
		require.NoError(t, a.Unmarshal(2, &v))
		require.Equal(t, map[string][]int{"k": {1, 2}}, v)
		var p *int
		require.NoError(t, a.Unmarshal(1, &p))
		require.Nil(t, p)
		require.Equal(t, `[ {"a": 1}  (null) {"k":[1,2]} "a string that is longer than twelve"]`, a.String())
		require.NoError(t, extension.ValidateFull(a))
	}

	// Storage holding text that is not JSON fails ValidateFull.
	storage := arrayjson.MustParse(datatype.String, `["[1]", null, "nope"]`)
	e, err := array.NewExtension(mustJSON(t, datatype.String), storage)
	require.NoError(t, err)
	err = extension.ValidateFull(e)
	require.ErrorIs(t, err, array.ErrInvalid)
	require.EqualError(t, err, "extension: invalid: arrow.json: slot 2: value is not valid JSON: invalid character 'o' in literal null (expecting 'u')")
	_, err = array.NewExtension(mustJSON(t, datatype.String), arrayjson.MustParse(datatype.LargeString, `["1"]`))
	require.Error(t, err)
}

func TestUUID(t *testing.T) {
	const s = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
	u, err := extension.ParseUUID(s)
	require.NoError(t, err)
	require.Equal(t, extension.UUID{0xf8, 0x1d, 0x4f, 0xae, 0x7d, 0xec, 0x11, 0xd0, 0xa7, 0x65, 0x00, 0xa0, 0xc9, 0x1e, 0x6b, 0xf6}, u)
	require.Equal(t, s, u.String())
	upper, err := extension.ParseUUID("F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6")
	require.NoError(t, err)
	require.Equal(t, u, upper)
	for _, c := range []struct{ in, err string }{
		{"f81d4fae7dec11d0a76500a0c91e6bf6", `"f81d4fae7dec11d0a76500a0c91e6bf6" is not a UUID of the form xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`},
		{"{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}", `"{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}" is not a UUID of the form xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`},
		{"f81d4fae-7dec-11d0-a765_00a0c91e6bf6", `"f81d4fae-7dec-11d0-a765_00a0c91e6bf6" is not a UUID of the form xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`},
		{"g81d4fae-7dec-11d0-a765-00a0c91e6bf6", `"g81d4fae-7dec-11d0-a765-00a0c91e6bf6" is not a UUID: "g" is not a hexadecimal digit`},
		{"f81d4fae-7dec-11d0-a765-00a0c91e6bfz", `"f81d4fae-7dec-11d0-a765-00a0c91e6bfz" is not a UUID: "z" is not a hexadecimal digit`},
	} {
		_, err := extension.ParseUUID(c.in)
		require.ErrorIs(t, err, datatype.ErrInvalid)
		require.EqualError(t, err, "extension: invalid: arrow.uuid: "+c.err)
	}
	js, err := json.Marshal(map[string]extension.UUID{"id": u})
	require.NoError(t, err)
	require.Equal(t, `{"id":"`+s+`"}`, string(js))
	var back map[string]extension.UUID
	require.NoError(t, json.Unmarshal(js, &back))
	require.Equal(t, u, back["id"])
	require.Error(t, json.Unmarshal([]byte(`{"id":"x"}`), &back))
	require.Panics(t, func() { extension.MustParseUUID("x") })

	ut := extension.NewUUIDType()
	require.Equal(t, "extension<arrow.uuid>", ut.String())
	require.Equal(t, "fixed_size_binary[16]", ut.StorageType().String())
	require.Equal(t, "", ut.Serialize())
	fsb15, _ := datatype.NewFixedSizeBinary(15)
	for _, c := range []struct {
		storage datatype.DataType
		meta    string
		err     string
	}{
		{fsb15, ``, "storage must be fixed_size_binary[16], got fixed_size_binary[15]"},
		{datatype.Binary, ``, "storage must be fixed_size_binary[16], got binary"},
		{ut.StorageType(), `uuid-serialized`, `metadata must be empty, got "uuid-serialized"`},
		{ut.StorageType(), `{}`, `metadata must be empty, got "{}"`},
	} {
		_, err := deserialize(t, extension.UUIDName, c.storage, c.meta)
		require.ErrorIs(t, err, datatype.ErrInvalid)
		require.EqualError(t, err, "extension: invalid: arrow.uuid: "+c.err)
	}

	b := extension.NewUUIDBuilder()
	b.AppendValues([]extension.UUID{u, {}, {1}}, []bool{true, false, true})
	require.NoError(t, b.AppendString(s))
	require.Error(t, b.AppendString("nope"))
	a := b.Finish()
	require.Equal(t, 4, a.Len())
	require.Equal(t, []extension.UUID{u, {}, {1}, u}, a.Values())
	require.True(t, a.IsNull(1))
	require.Equal(t, "[f81d4fae-7dec-11d0-a765-00a0c91e6bf6 (null) 01000000-0000-0000-0000-000000000000 f81d4fae-7dec-11d0-a765-00a0c91e6bf6]", a.String())
	// Big-endian bytes: the first byte printed is the first stored.
	require.Equal(t, []byte(u[:]), a.Storage().(*array.FixedSizeBinary).Value(0))
}

// TestOpaqueSpecExamples parses the metadata examples of spec 002
// verbatim and serialises them again.
func TestOpaqueSpecExamples(t *testing.T) {
	for _, c := range []struct {
		storage         datatype.DataType
		meta, canonical string
		typeName        string
		vendor          string
	}{
		{datatype.Null, `{"type_name": "varray", "vendor_name": "Oracle"}`, `{"type_name":"varray","vendor_name":"Oracle"}`, "varray", "Oracle"},
		{datatype.Binary, `{"type_name": "geometry", "vendor_name": "PostGIS"}`, `{"type_name":"geometry","vendor_name":"PostGIS"}`, "geometry", "PostGIS"},
		{datatype.StructOf(datatype.Field{Name: "r", Type: datatype.Float64}, datatype.Field{Name: "i", Type: datatype.Float64}),
			`{"type_name": "database_name.schema_name.complex", "vendor_name": "PostgreSQL"}`,
			`{"type_name":"database_name.schema_name.complex","vendor_name":"PostgreSQL"}`, "database_name.schema_name.complex", "PostgreSQL"},
		{datatype.Null, `{"type_name": "OTHER", "vendor_name": "JDBC driver name"}`, `{"type_name":"OTHER","vendor_name":"JDBC driver name"}`, "OTHER", "JDBC driver name"},
		// Members a later spec may add are kept, compacted, sorted by key.
		{datatype.Null, `{"vendor_name": "V", "z": {"b": [1, 2]}, "type_name": "T", "a": true}`, `{"type_name":"T","vendor_name":"V","a":true,"z":{"b":[1,2]}}`, "T", "V"},
	} {
		et, err := deserialize(t, extension.OpaqueName, c.storage, c.meta)
		require.NoError(t, err)
		ot := et.(*extension.OpaqueType)
		require.Equal(t, c.canonical, ot.Serialize())
		require.Equal(t, c.typeName, ot.TypeName())
		require.Equal(t, c.vendor, ot.VendorName())
		require.True(t, datatype.Equal(c.storage, ot.StorageType()))
		made, err := extension.NewOpaque(c.storage, c.typeName, c.vendor)
		require.NoError(t, err)
		require.True(t, datatype.Equal(made, ot))
		again, err := deserialize(t, extension.OpaqueName, c.storage, ot.Serialize())
		require.NoError(t, err)
		require.Equal(t, c.canonical, again.Serialize())
	}
	ot, _ := extension.NewOpaque(datatype.Binary, `a "quoted" name`, "v")
	require.Equal(t, `{"type_name":"a \"quoted\" name","vendor_name":"v"}`, ot.Serialize())
	require.Equal(t, `extension<arrow.opaque[storage=binary, type_name="a \"quoted\" name", vendor_name="v"]>`, ot.String())
	o2, _ := extension.NewOpaque(datatype.Binary, "other", "v")
	require.False(t, datatype.Equal(ot, o2))
}

func TestOpaqueInvalid(t *testing.T) {
	for _, c := range []struct {
		storage datatype.DataType
		meta    string
		err     string
	}{
		{nil, `{"type_name":"a","vendor_name":"b"}`, "storage type is missing"},
		{extension.NewBool8Type(), `{"type_name":"a","vendor_name":"b"}`, "storage must not be an extension type, got extension<arrow.bool8>"},
		{datatype.Null, ``, `metadata "" is not a JSON object`},
		{datatype.Null, `{"type_name":"a"}`, `metadata has no "vendor_name"`},
		{datatype.Null, `{"vendor_name":"b"}`, `metadata has no "type_name"`},
		{datatype.Null, `{"type_name":1,"vendor_name":"b"}`, `metadata "type_name" is 1, not a string`},
		{datatype.Null, `{"type_name":"a","vendor_name":null}`, `metadata "vendor_name" is null, not a string`},
	} {
		_, err := deserialize(t, extension.OpaqueName, c.storage, c.meta)
		require.ErrorIs(t, err, datatype.ErrInvalid)
		require.EqualError(t, err, "extension: invalid: arrow.opaque: "+c.err)
	}
}

func TestBool8(t *testing.T) {
	bt := extension.NewBool8Type()
	require.Equal(t, "extension<arrow.bool8>", bt.String())
	require.Equal(t, "", bt.Serialize())
	et, err := deserialize(t, extension.Bool8Name, datatype.Int8, "")
	require.NoError(t, err)
	require.True(t, datatype.Equal(bt, et))
	for _, c := range []struct {
		storage datatype.DataType
		meta    string
		err     string
	}{
		{datatype.Uint8, ``, "storage must be int8, got uint8"},
		{datatype.Bool, ``, "storage must be int8, got bool"},
		{datatype.Int8, `{}`, `metadata must be empty, got "{}"`},
	} {
		_, err := deserialize(t, extension.Bool8Name, c.storage, c.meta)
		require.ErrorIs(t, err, datatype.ErrInvalid)
		require.EqualError(t, err, "extension: invalid: arrow.bool8: "+c.err)
	}

	b := extension.NewBool8Builder()
	b.Append(true)
	b.AppendNull()
	b.AppendValues([]bool{false, true}, nil)
	a := b.Finish()
	require.Equal(t, []bool{true, false, false, true}, a.Values())
	require.Equal(t, "[true (null) false true]", a.String())
	require.Equal(t, []int8{1, 0, 0, 1}, a.Storage().(*array.Int8).Values())

	// Any non-zero byte is true.
	e, err := array.NewExtension(bt, arrayjson.MustParse(datatype.Int8, "[0, 1, -1, 42, null]"))
	require.NoError(t, err)
	w, err := extension.NewBool8Array(e)
	require.NoError(t, err)
	require.Equal(t, "[false true true true (null)]", w.String())
	require.True(t, w.Value(2))
	_, err = extension.NewBool8Array(arrayjson.MustParse(datatype.Int8, "[1]"))
	require.EqualError(t, err, "extension: invalid: arrow.bool8: array of type int8 is not an arrow.bool8 array")
}
