package extension_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
	"github.com/alkaid-go/alkaid/ipc"
)

// sample is one array of each canonical type, with a null where the type
// allows one, for the round-trip tests.
type sample struct {
	name string
	arr  array.Array
}

func samples(t *testing.T) []sample {
	t.Helper()
	var out []sample

	ft, err := extension.NewFixedShapeTensor(datatype.Int16, []int{2, 3}, extension.WithDimNames("H", "W"), extension.WithPermutation(1, 0))
	require.NoError(t, err)
	fb := extension.NewFixedShapeTensorBuilder(ft)
	require.NoError(t, extension.AppendFixedShapeTensor(fb, []int16{1, 2, 3, 4, 5, 6}))
	fb.AppendNull()
	require.NoError(t, extension.AppendFixedShapeTensor(fb, []int16{7, 8, 9, 10, 11, 12}))
	out = append(out, sample{extension.FixedShapeTensorName, fb.Finish()})

	vt, err := extension.NewVariableShapeTensor(datatype.Float64, 2, extension.WithDimNames("H", "W"), extension.WithUniformShape(2, extension.NonUniform))
	require.NoError(t, err)
	vb := extension.NewVariableShapeTensorBuilder(vt)
	require.NoError(t, extension.AppendVariableShapeTensor(vb, []int{2, 1}, []float64{1, 2}))
	vb.AppendNull()
	require.NoError(t, extension.AppendVariableShapeTensor(vb, []int{2, 3}, []float64{1, 2, 3, 4, 5, 6}))
	out = append(out, sample{extension.VariableShapeTensorName, vb.Finish()})

	for _, st := range []datatype.DataType{datatype.String, datatype.LargeString, datatype.StringView} {
		jt, err := extension.NewJSONType(st)
		require.NoError(t, err)
		jb := extension.NewJSONBuilder(jt)
		require.NoError(t, jb.AppendString(`{"a":[1,2,{"b":null}]}`))
		jb.AppendNull()
		require.NoError(t, jb.AppendValue([]string{"x", "a value longer than twelve bytes"}))
		out = append(out, sample{extension.JSONName, jb.Finish()})
	}

	ub := extension.NewUUIDBuilder()
	require.NoError(t, ub.AppendString("f81d4fae-7dec-11d0-a765-00a0c91e6bf6"))
	ub.AppendNull()
	ub.Append(extension.UUID{0: 0xff, 15: 1})
	out = append(out, sample{extension.UUIDName, ub.Finish()})

	ot, err := extension.NewOpaque(datatype.Binary, "geometry", "PostGIS")
	require.NoError(t, err)
	ob := extension.NewOpaqueBuilder(ot)
	ob.StorageBuilder().(*array.BinaryBuilder32).Append([]byte{1, 2, 3})
	ob.AppendNull()
	out = append(out, sample{extension.OpaqueName, ob.Finish()})
	on, err := extension.NewOpaque(datatype.Null, "varray", "Oracle")
	require.NoError(t, err)
	onb := extension.NewOpaqueBuilder(on)
	onb.AppendNulls(3)
	out = append(out, sample{extension.OpaqueName, onb.Finish()})

	bb := extension.NewBool8Builder()
	bb.AppendValues([]bool{true, false, true}, []bool{true, true, false})
	out = append(out, sample{extension.Bool8Name, bb.Finish()})

	wb := extension.NewVariantBuilder(extension.NewVariantType())
	require.NoError(t, wb.Append([]byte{1, 0, 0}, []byte{0x0c, 42}))
	wb.AppendNull()
	out = append(out, sample{extension.VariantName, wb.Finish()})

	shredded, err := extension.NewVariantTypeOf(shreddedStorage())
	require.NoError(t, err)
	sb := extension.NewVariantBuilder(shredded)
	require.NoError(t, sb.Append([]byte{1, 0, 0}, []byte{0x0c, 42}))
	out = append(out, sample{extension.VariantName, sb.Finish()})
	return out
}

// shreddedStorage is a variant storage with a typed_value struct of one
// shredded int64 field, fields in an unusual order.
func shreddedStorage() datatype.DataType {
	group := datatype.StructOf(
		datatype.Field{Name: "typed_value", Type: datatype.Int64, Nullable: true},
		datatype.Field{Name: "value", Type: datatype.Binary, Nullable: true},
	)
	return datatype.StructOf(
		datatype.Field{Name: "typed_value", Type: datatype.StructOf(datatype.Field{Name: "a", Type: group}), Nullable: true},
		datatype.Field{Name: "value", Type: datatype.LargeBinary, Nullable: true},
		datatype.Field{Name: "metadata", Type: datatype.BinaryView},
	)
}

type ipcMode struct {
	name   string
	file   bool
	compat bool
}

var ipcModes = []ipcMode{
	{"stream", false, false},
	{"stream/arrow", false, true},
	{"file", true, false},
	{"file/arrow", true, true},
}

func writeIPC(t *testing.T, m ipcMode, schema *alkaid.Schema, rec *alkaid.Record) []byte {
	t.Helper()
	var opts []ipc.Option
	if m.compat {
		opts = append(opts, ipc.WithArrowCompat())
	}
	var buf bytes.Buffer
	if m.file {
		w, err := ipc.NewFileWriter(&buf, schema, opts...)
		require.NoError(t, err)
		require.NoError(t, w.Write(rec))
		require.NoError(t, w.Close())
	} else {
		w, err := ipc.NewStreamWriter(&buf, schema, opts...)
		require.NoError(t, err)
		require.NoError(t, w.Write(rec))
		require.NoError(t, w.Close())
	}
	return buf.Bytes()
}

func readIPC(t *testing.T, m ipcMode, b []byte) *alkaid.Record {
	t.Helper()
	if m.file {
		r, err := ipc.NewFileReader(bytes.NewReader(b), int64(len(b)), ipc.WithValidation(array.ValidateFull))
		require.NoError(t, err)
		rec, err := r.Record(0)
		require.NoError(t, err)
		return rec
	}
	r, err := ipc.NewStreamReader(bytes.NewReader(b), ipc.WithValidation(array.ValidateFull))
	require.NoError(t, err)
	for rec, err := range r.Records() {
		require.NoError(t, err)
		return rec
	}
	require.FailNow(t, "no record batch")
	return nil
}

func oneColumn(t *testing.T, a array.Array, md datatype.Metadata) (*alkaid.Schema, *alkaid.Record) {
	t.Helper()
	schema := alkaid.NewSchema([]datatype.Field{{Name: "col", Type: a.DataType(), Nullable: true, Metadata: md}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(schema, []array.Array{a}, a.Len())
	require.NoError(t, err)
	return schema, rec
}

// withoutRegistration runs f with the named extension unregistered.
func withoutRegistration(t *testing.T, name string, f func()) {
	t.Helper()
	proto, ok := datatype.LookupExtension(name)
	require.True(t, ok, name)
	require.True(t, datatype.UnregisterExtension(name))
	defer func() { require.NoError(t, datatype.RegisterExtension(proto)) }()
	f()
}

// TestIPCRoundTrip writes every canonical type through a stream and a
// file, in the Alkaid and the Arrow namespace; reading it back gives the
// same type and values, and the typed array; read with the type
// unregistered, the field carries exactly the name and metadata keys of
// the namespace written, and writing that back gives the same bytes'
// worth of metadata again.
func TestIPCRoundTrip(t *testing.T) {
	for _, s := range samples(t) {
		for _, m := range ipcModes {
			t.Run(s.name+"/"+s.arr.DataType().String()+"/"+m.name, func(t *testing.T) {
				ext := s.arr.DataType().(datatype.ExtensionType)
				schema, rec := oneColumn(t, s.arr, datatype.MetadataFrom("k", "v"))
				b := writeIPC(t, m, schema, rec)
				if m.file {
					magic := ipc.DetectMagic(b)
					if m.compat {
						require.Equal(t, "ARROW1", magic)
					} else {
						require.Equal(t, "ALKAID1", magic)
					}
				}

				got := readIPC(t, m, b)
				f := got.Schema().Field(0)
				require.True(t, datatype.Equal(ext, f.Type), "%s vs %s", ext, f.Type)
				require.Equal(t, datatype.MetadataFrom("k", "v"), f.Metadata)
				col := got.Column(0)
				require.True(t, array.Equal(s.arr, col), "%s vs %s", s.arr, col)
				require.True(t, array.Equal(col, s.arr))
				require.Equal(t, array.Format(col), array.Format(s.arr))
				typed, err := extension.Wrap(col)
				require.NoError(t, err)
				require.IsType(t, s.arr, typed)
				require.Equal(t, s.arr.String(), typed.String())
				require.NoError(t, extension.ValidateFull(typed))

				nameKey, metaKey, other := ipc.ExtensionNameKey, ipc.ExtensionMetadataKey, ipc.ArrowExtensionNameKey
				if m.compat {
					nameKey, metaKey, other = ipc.ArrowExtensionNameKey, ipc.ArrowExtensionMetadataKey, ipc.ExtensionNameKey
				}
				var again []byte
				withoutRegistration(t, ext.ExtensionName(), func() {
					raw := readIPC(t, m, b)
					rf := raw.Schema().Field(0)
					require.True(t, datatype.Equal(ext.StorageType(), rf.Type))
					name, _ := rf.Metadata.Get(nameKey)
					meta, ok := rf.Metadata.Get(metaKey)
					require.Equal(t, ext.ExtensionName(), name)
					require.True(t, ok)
					require.Equal(t, ext.Serialize(), meta)
					_, ok = rf.Metadata.Get(other)
					require.False(t, ok)
					require.Equal(t, 3, rf.Metadata.Len())

					again = writeIPC(t, m, raw.Schema(), raw)
				})
				// Written back as storage + metadata, read registered.
				got = readIPC(t, m, again)
				require.True(t, datatype.Equal(ext, got.Schema().Field(0).Type))
				require.True(t, array.Equal(s.arr, got.Column(0)))
			})
		}
	}
}

// TestUnknownExtension: a name nobody registered reads as its storage
// type with both keys kept byte for byte, in either namespace, and is
// written back unchanged.
func TestUnknownExtension(t *testing.T) {
	const meta = "{ \"odd\" : [1, 2.50, \"\\u00e9\"] }\n\x00tail"
	for _, ns := range [][2]string{
		{ipc.ExtensionNameKey, ipc.ExtensionMetadataKey},
		{ipc.ArrowExtensionNameKey, ipc.ArrowExtensionMetadataKey},
	} {
		md := datatype.MetadataFrom(ns[0], "acme.unknown", ns[1], meta, "other", "x")
		storage := arrayjson.MustParse(datatype.Int32, "[1, null, 3]")
		for _, m := range ipcModes {
			t.Run(ns[0]+"/"+m.name, func(t *testing.T) {
				schema, rec := oneColumn(t, storage, md)
				got := readIPC(t, m, writeIPC(t, m, schema, rec))
				f := got.Schema().Field(0)
				require.True(t, datatype.Equal(datatype.Int32, f.Type))
				require.Equal(t, md, f.Metadata)
				again := readIPC(t, m, writeIPC(t, m, got.Schema(), got))
				require.Equal(t, md, again.Schema().Field(0).Metadata)
				require.True(t, array.Equal(storage, again.Column(0)))
			})
		}
	}
}

// TestIPCInvalidMetadata: a registered name with metadata its type
// rejects makes reading the schema fail with the type's error.
func TestIPCInvalidMetadata(t *testing.T) {
	storage := arrayjson.MustParse(datatype.Int8, "[1, 0]")
	md := datatype.MetadataFrom(ipc.ExtensionNameKey, extension.Bool8Name, ipc.ExtensionMetadataKey, "yes")
	schema, rec := oneColumn(t, storage, md)
	b := writeIPC(t, ipcModes[0], schema, rec)
	_, err := ipc.NewStreamReader(bytes.NewReader(b))
	require.ErrorIs(t, err, ipc.ErrInvalid)
	require.Contains(t, err.Error(), `extension: invalid: arrow.bool8: metadata must be empty, got "yes"`)

	md = datatype.MetadataFrom(ipc.ArrowExtensionNameKey, extension.UUIDName)
	schema, rec = oneColumn(t, storage, md)
	b = writeIPC(t, ipcModes[0], schema, rec)
	_, err = ipc.NewStreamReader(bytes.NewReader(b))
	require.ErrorIs(t, err, ipc.ErrInvalid)
	require.Contains(t, err.Error(), "extension: invalid: arrow.uuid: storage must be fixed_size_binary[16], got int8")
}

func TestRegistered(t *testing.T) {
	for _, n := range extension.Names() {
		proto, ok := datatype.LookupExtension(n)
		require.True(t, ok, n)
		require.Equal(t, n, proto.ExtensionName())
		require.Equal(t, datatype.KindExtension, proto.Kind())
	}
}

// TestIPCReaderAppliesValueRules checks that a reader validating fully
// rejects values that break an extension's rules (JSON that does not
// parse), through array.ValueValidator, while the default level does not
// read values.
func TestIPCReaderAppliesValueRules(t *testing.T) {
	storage := arrayjson.MustParse(datatype.String, `["{\"a\": 1}", "not json"]`)
	md := datatype.MetadataFrom(ipc.ExtensionNameKey, extension.JSONName, ipc.ExtensionMetadataKey, "")
	schema, rec := oneColumn(t, storage, md)
	b := writeIPC(t, ipcModes[0], schema, rec)
	r, err := ipc.NewStreamReader(bytes.NewReader(b), ipc.WithValidation(array.ValidateFull))
	require.NoError(t, err)
	_, err = alkaid.ReadAll(r)
	require.ErrorIs(t, err, ipc.ErrInvalid)
	require.Contains(t, err.Error(), "arrow.json: slot 1: value is not valid JSON")

	r, err = ipc.NewStreamReader(bytes.NewReader(b))
	require.NoError(t, err)
	_, err = alkaid.ReadAll(r)
	require.NoError(t, err)
}
