package interop

import (
	"bytes"
	"strings"
	"testing"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	aipc "github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/variant"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
	"github.com/alkaid-go/alkaid/ipc"
)

// The canonical types arrow-go v18 implements (and registers on import of
// its extensions package); the two tensor types it lacks are checked
// through the field metadata it keeps for unknown extensions.
var arrowGoHas = map[string]bool{
	extension.JSONName: true, extension.UUIDName: true, extension.OpaqueName: true,
	extension.Bool8Name: true, extension.VariantName: true,
}

const uuidText = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"

// alkaidSamples builds one array of each canonical type with Alkaid.
func alkaidSamples(t *testing.T) []array.Array {
	t.Helper()
	var out []array.Array

	ft, err := extension.NewFixedShapeTensor(datatype.Float32, []int{2, 3},
		extension.WithDimNames("H", "W"), extension.WithPermutation(1, 0))
	require.NoError(t, err)
	fb := extension.NewFixedShapeTensorBuilder(ft)
	require.NoError(t, extension.AppendFixedShapeTensor(fb, []float32{1, 2, 3, 4, 5, 6}))
	fb.AppendNull()
	out = append(out, fb.Finish())

	vt, err := extension.NewVariableShapeTensor(datatype.Int32, 2,
		extension.WithDimNames("H", "W"), extension.WithUniformShape(extension.NonUniform, 2))
	require.NoError(t, err)
	vb := extension.NewVariableShapeTensorBuilder(vt)
	require.NoError(t, extension.AppendVariableShapeTensor(vb, []int{1, 2}, []int32{1, 2}))
	require.NoError(t, extension.AppendVariableShapeTensor(vb, []int{3, 2}, []int32{1, 2, 3, 4, 5, 6}))
	out = append(out, vb.Finish())

	for _, st := range []datatype.DataType{datatype.String, datatype.LargeString, datatype.StringView} {
		jt, err := extension.NewJSONType(st)
		require.NoError(t, err)
		jb := extension.NewJSONBuilder(jt)
		require.NoError(t, jb.AppendString(`{"a":[1,2]}`))
		jb.AppendNull()
		require.NoError(t, jb.AppendString(`"a string longer than twelve bytes"`))
		out = append(out, jb.Finish())
	}

	ub := extension.NewUUIDBuilder()
	require.NoError(t, ub.AppendString(uuidText))
	ub.AppendNull()
	out = append(out, ub.Finish())

	ot, err := extension.NewOpaque(datatype.Binary, "geometry", "PostGIS")
	require.NoError(t, err)
	ob := extension.NewOpaqueBuilder(ot)
	ob.StorageBuilder().(*array.BinaryBuilder32).Append([]byte{1, 2, 3})
	ob.AppendNull()
	out = append(out, ob.Finish())

	bb := extension.NewBool8Builder()
	bb.AppendValues([]bool{true, false, true}, []bool{true, true, false})
	out = append(out, bb.Finish())

	wb := extension.NewVariantBuilder(extension.NewVariantType())
	require.NoError(t, wb.Append([]byte{0x01, 0x00, 0x00}, []byte{0x0c, 0x2a}))
	require.NoError(t, wb.Append([]byte{0x01, 0x00, 0x00}, []byte{0x00}))
	out = append(out, wb.Finish())

	// A shredded variant, fields out of order: an object with one int64
	// field "a".
	group := datatype.StructOf(
		datatype.Field{Name: "typed_value", Type: datatype.Int64, Nullable: true},
		datatype.Field{Name: "value", Type: datatype.Binary, Nullable: true},
	)
	shredded, err := extension.NewVariantTypeOf(datatype.StructOf(
		datatype.Field{Name: "typed_value", Type: datatype.StructOf(datatype.Field{Name: "a", Type: group}), Nullable: true},
		datatype.Field{Name: "value", Type: datatype.LargeBinary, Nullable: true},
		datatype.Field{Name: "metadata", Type: datatype.BinaryView},
	))
	require.NoError(t, err)
	sb := extension.NewVariantBuilder(shredded)
	require.NoError(t, sb.Append([]byte{0x01, 0x00, 0x00}, []byte{0x0c, 0x2a}))
	out = append(out, sb.Finish())
	return out
}

// readArrowGo reads an IPC stream or file with arrow-go and returns the
// schema and the first record.
func readArrowGo(t *testing.T, b []byte, file bool) (*aarrow.Schema, aarrow.RecordBatch) {
	t.Helper()
	if file {
		r, err := aipc.NewFileReader(bytes.NewReader(b))
		require.NoError(t, err)
		rec, err := r.RecordBatch(0)
		require.NoError(t, err)
		return r.Schema(), rec
	}
	r, err := aipc.NewReader(bytes.NewReader(b))
	require.NoError(t, err)
	require.True(t, r.Next(), "%v", r.Err())
	rec := r.RecordBatch()
	rec.Retain()
	return r.Schema(), rec
}

// TestAlkaidToArrowGo writes each canonical type with Alkaid in Arrow
// compatibility mode, stream and file, and reads it with arrow-go: the
// types arrow-go has come back as its extension types with the same name
// and Serialize(); the others keep ARROW:extension:name and
// ARROW:extension:metadata on the field, equal to ours. The values agree.
func TestAlkaidToArrowGo(t *testing.T) {
	for _, a := range alkaidSamples(t) {
		ext := a.DataType().(datatype.ExtensionType)
		for _, file := range []bool{false, true} {
			name := ext.String()
			if file {
				name += "/file"
			}
			t.Run(name, func(t *testing.T) {
				schema := alkaid.NewSchema([]datatype.Field{{Name: "col", Type: ext, Nullable: true}}, datatype.Metadata{})
				rec, err := alkaid.NewRecord(schema, []array.Array{a}, a.Len())
				require.NoError(t, err)
				var buf bytes.Buffer
				if file {
					w, err := ipc.NewFileWriter(&buf, schema, ipc.WithArrowCompat())
					require.NoError(t, err)
					require.NoError(t, w.Write(rec))
					require.NoError(t, w.Close())
				} else {
					w, err := ipc.NewStreamWriter(&buf, schema, ipc.WithArrowCompat())
					require.NoError(t, err)
					require.NoError(t, w.Write(rec))
					require.NoError(t, w.Close())
				}

				as, arec := readArrowGo(t, buf.Bytes(), file)
				defer arec.Release()
				f := as.Field(0)
				if arrowGoHas[ext.ExtensionName()] {
					at, ok := f.Type.(aarrow.ExtensionType)
					require.True(t, ok, "arrow-go read %s as %s", ext, f.Type)
					require.Equal(t, ext.ExtensionName(), at.ExtensionName())
					require.Equal(t, ext.Serialize(), at.Serialize())
					require.False(t, f.HasMetadata() && f.Metadata.FindKey("ARROW:extension:name") >= 0)
				} else {
					_, isExt := f.Type.(aarrow.ExtensionType)
					require.False(t, isExt)
					name, ok := f.Metadata.GetValue("ARROW:extension:name")
					require.True(t, ok)
					require.Equal(t, ext.ExtensionName(), name)
					meta, ok := f.Metadata.GetValue("ARROW:extension:metadata")
					require.True(t, ok)
					require.Equal(t, ext.Serialize(), meta)
				}
				checkValues(t, a, arec.Column(0))
			})
		}
	}
}

// checkValues compares an Alkaid array with an arrow-go array of the
// same data, slot by slot, through each side's typed accessors.
func checkValues(t *testing.T, ours array.Array, theirs aarrow.Array) {
	t.Helper()
	require.Equal(t, ours.Len(), theirs.Len())
	// Nulls compare on arrow-go's storage, as its variant array reports a
	// Variant null value as a null slot; its null arrays count their nulls
	// but report every slot as valid.
	theirStorage := theirs
	if e, ok := theirs.(aarray.ExtensionArray); ok {
		theirStorage = e.Storage()
	}
	require.Equal(t, ours.NullN(), theirStorage.NullN())
	for i := range ours.Len() {
		if theirStorage.DataType().ID() == aarrow.NULL {
			break
		}
		require.Equal(t, ours.IsNull(i), theirStorage.IsNull(i), "slot %d", i)
	}
	valid := func(f func(i int)) {
		for i := range ours.Len() {
			if ours.IsValid(i) {
				f(i)
			}
		}
	}
	switch o := ours.(type) {
	case *extension.UUIDArray:
		th := theirs.(*extensions.UUIDArray)
		valid(func(i int) { require.Equal(t, o.Value(i).String(), th.Value(i).String()) })
	case *extension.Bool8Array:
		th := theirs.(*extensions.Bool8Array)
		valid(func(i int) { require.Equal(t, o.Value(i), th.Value(i)) })
	case *extension.JSONArray:
		th := theirs.(*extensions.JSONArray)
		valid(func(i int) { require.Equal(t, o.ValueString(i), string(th.ValueJSON(i))) })
	case *extension.OpaqueArray:
		th := theirs.(*extensions.OpaqueArray)
		ot := th.ExtensionType().(*extensions.OpaqueType)
		require.Equal(t, o.OpaqueType().TypeName(), ot.TypeName)
		require.Equal(t, o.OpaqueType().VendorName(), ot.VendorName)
		if b, ok := o.Storage().(*array.BinaryArray); ok {
			valid(func(i int) { require.Equal(t, b.Value(i), th.Storage().(*aarray.Binary).Value(i)) })
		}
	case *extension.VariantArray:
		th := theirs.(*extensions.VariantArray)
		valid(func(i int) {
			require.Equal(t, o.Metadata(i), th.Metadata().Value(i))
			require.Equal(t, o.Value(i), th.UntypedValues().Value(i))
		})
		v, err := th.Value(0)
		require.NoError(t, err)
		require.Equal(t, int8(42), v.Value())
	case *extension.FixedShapeTensorArray:
		th := theirs.(*aarray.FixedSizeList)
		valid(func(i int) {
			s, e := th.ValueOffsets(i)
			require.Equal(t, o.Tensor(i).Values.String(), aarray.NewSlice(th.ListValues(), s, e).String())
		})
	case *extension.VariableShapeTensorArray:
		th := theirs.(*aarray.Struct)
		st := th.DataType().(*aarrow.StructType)
		si, _ := st.FieldIdx("shape")
		di, _ := st.FieldIdx("data")
		shapes, data := th.Field(si).(*aarray.FixedSizeList), th.Field(di).(*aarray.List)
		dims := shapes.ListValues().(*aarray.Int32).Int32Values()
		valid(func(i int) {
			s, e := shapes.ValueOffsets(i)
			var shape []int
			for _, d := range dims[s:e] {
				shape = append(shape, int(d))
			}
			require.Equal(t, o.Shape(i), shape)
			ds, de := data.ValueOffsets(i)
			require.Equal(t, o.Tensor(i).Values.String(), aarray.NewSlice(data.ListValues(), ds, de).String())
		})
	default:
		t.Fatalf("no check for %T", ours)
	}
}

// variantInt8 is the Variant encoding of an int8, built by arrow-go.
func variantInt8(t *testing.T, v int8) variant.Value {
	t.Helper()
	out, err := variant.Of(v)
	require.NoError(t, err)
	return out
}

// arrowGoSamples builds, with arrow-go, one array of each canonical type:
// arrow-go's own extension arrays where it has the type, and for the
// tensors the storage with the extension name and metadata on the field,
// as an Arrow implementation that has them writes it.
type arrowGoSample struct {
	field aarrow.Field
	arr   aarrow.Array
	// the type Alkaid must read it as
	want datatype.ExtensionType
}

func arrowGoSamples(t *testing.T) []arrowGoSample {
	t.Helper()
	mem := memory.NewGoAllocator()
	var out []arrowGoSample
	add := func(dt aarrow.DataType, md aarrow.Metadata, arr aarrow.Array, want datatype.ExtensionType) {
		out = append(out, arrowGoSample{aarrow.Field{Name: "col", Type: dt, Nullable: true, Metadata: md}, arr, want})
	}

	ub := extensions.NewUUIDBuilder(mem)
	ub.Append(uuid.MustParse(uuidText))
	ub.AppendNull()
	add(extensions.NewUUIDType(), aarrow.Metadata{}, ub.NewArray(), extension.NewUUIDType())

	bb := extensions.NewBool8Builder(mem)
	bb.AppendValues([]bool{true, false}, []bool{true, false})
	add(extensions.NewBool8Type(), aarrow.Metadata{}, bb.NewArray(), extension.NewBool8Type())

	for _, st := range []aarrow.DataType{aarrow.BinaryTypes.String, aarrow.BinaryTypes.LargeString, aarrow.BinaryTypes.StringView} {
		jt, err := extensions.NewJSONType(st)
		require.NoError(t, err)
		storage, _, err := aarray.FromJSON(mem, st, strings.NewReader(`["{\"a\": 1}", null, "[true, \"longer than twelve\"]"]`))
		require.NoError(t, err)
		ours, err := extension.NewJSONType(map[aarrow.Type]datatype.DataType{
			aarrow.STRING: datatype.String, aarrow.LARGE_STRING: datatype.LargeString, aarrow.STRING_VIEW: datatype.StringView,
		}[st.ID()])
		require.NoError(t, err)
		add(jt, aarrow.Metadata{}, aarray.NewExtensionArrayWithStorage(jt, storage), ours)
	}

	opq := extensions.NewOpaqueType(aarrow.Null, "varray", "Oracle")
	wantOpq, err := extension.NewOpaque(datatype.Null, "varray", "Oracle")
	require.NoError(t, err)
	add(opq, aarrow.Metadata{}, aarray.NewExtensionArrayWithStorage(opq, aarray.NewNull(2)), wantOpq)

	vb := extensions.NewVariantBuilder(mem, extensions.NewDefaultVariantType())
	vb.Append(variantInt8(t, 42))
	vb.AppendNull()
	add(extensions.NewDefaultVariantType(), aarrow.Metadata{}, vb.NewArray(), extension.NewVariantType())

	// Tensors: storage plus the field metadata of the Arrow format.
	fst := aarrow.FixedSizeListOf(6, aarrow.PrimitiveTypes.Int64)
	storage, _, err := aarray.FromJSON(mem, fst, strings.NewReader(`[[1, 2, 3, 4, 5, 6], null]`))
	require.NoError(t, err)
	wantF, err := extension.NewFixedShapeTensor(datatype.Int64, []int{2, 3}, extension.WithPermutation(1, 0))
	require.NoError(t, err)
	add(fst, aarrow.NewMetadata([]string{"ARROW:extension:name", "ARROW:extension:metadata"},
		[]string{"arrow.fixed_shape_tensor", `{ "shape": [2, 3], "permutation": [1, 0] }`}), storage, wantF)

	vst := aarrow.StructOf(
		aarrow.Field{Name: "shape", Type: aarrow.FixedSizeListOf(2, aarrow.PrimitiveTypes.Int32), Nullable: true},
		aarrow.Field{Name: "data", Type: aarrow.ListOf(aarrow.PrimitiveTypes.Float64), Nullable: true},
	)
	storage, _, err = aarray.FromJSON(mem, vst, strings.NewReader(`[{"shape": [1, 2], "data": [1.5, 2.5]}, null]`))
	require.NoError(t, err)
	proto, _ := datatype.LookupExtension(extension.VariableShapeTensorName)
	wantV, err := proto.Deserialize(datatype.StructOf(
		datatype.Field{Name: "shape", Type: mustFSL(t, datatype.Int32, 2), Nullable: true},
		datatype.Field{Name: "data", Type: datatype.ListOf(datatype.Float64), Nullable: true},
	), `{"dim_names":["H","W"],"uniform_shape":[1,null]}`)
	require.NoError(t, err)
	add(vst, aarrow.NewMetadata([]string{"ARROW:extension:name", "ARROW:extension:metadata"},
		[]string{"arrow.variable_shape_tensor", `{"dim_names": ["H", "W"], "uniform_shape": [1, null]}`}), storage, wantV)
	return out
}

func mustFSL(t *testing.T, elem datatype.DataType, n int32) datatype.DataType {
	t.Helper()
	l, err := datatype.FixedSizeListOf(elem, n)
	require.NoError(t, err)
	return l
}

// TestArrowGoToAlkaid writes each canonical type with arrow-go, stream
// and file, and reads it with Alkaid: the field has our type, equal to
// the one expected, with arrow-go's metadata string; the values agree.
func TestArrowGoToAlkaid(t *testing.T) {
	for _, s := range arrowGoSamples(t) {
		for _, file := range []bool{false, true} {
			name := s.want.String()
			if file {
				name += "/file"
			}
			t.Run(name, func(t *testing.T) {
				as := aarrow.NewSchema([]aarrow.Field{s.field}, nil)
				rec := aarray.NewRecordBatch(as, []aarrow.Array{s.arr}, int64(s.arr.Len()))
				defer rec.Release()
				var buf bytes.Buffer
				if file {
					w, err := aipc.NewFileWriter(&buf, aipc.WithSchema(as))
					require.NoError(t, err)
					require.NoError(t, w.Write(rec))
					require.NoError(t, w.Close())
				} else {
					w := aipc.NewWriter(&buf, aipc.WithSchema(as))
					require.NoError(t, w.Write(rec))
					require.NoError(t, w.Close())
				}

				var got *alkaid.Record
				if file {
					r, err := ipc.NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), ipc.WithValidation(array.ValidateFull))
					require.NoError(t, err)
					require.Equal(t, "ARROW1", r.Magic())
					got, err = r.Record(0)
					require.NoError(t, err)
				} else {
					r, err := ipc.NewStreamReader(bytes.NewReader(buf.Bytes()), ipc.WithValidation(array.ValidateFull))
					require.NoError(t, err)
					for rec, err := range r.Records() {
						require.NoError(t, err)
						got = rec
						break
					}
					require.NotNil(t, got)
				}
				f := got.Schema().Field(0)
				require.True(t, datatype.Equal(s.want, f.Type), "%s vs %s", s.want, f.Type)
				require.Equal(t, 0, f.Metadata.Len(), "extension keys are taken off the field")
				if et, ok := s.field.Type.(aarrow.ExtensionType); ok {
					require.Equal(t, et.ExtensionName(), f.Type.(datatype.ExtensionType).ExtensionName())
					require.Equal(t, et.Serialize(), f.Type.(datatype.ExtensionType).Serialize())
				}
				col, err := extension.Wrap(got.Column(0))
				require.NoError(t, err)
				require.NoError(t, extension.ValidateFull(col))
				checkValues(t, col, s.arr)
			})
		}
	}
}
