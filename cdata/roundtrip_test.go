//go:build cgo

package cdata

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

// roundTripArray exports a with f and imports it back, checking that the
// caller's structs end released (moved).
func roundTripArray(t *testing.T, a array.Array, f datatype.Field) (datatype.Field, array.Array) {
	t.Helper()
	ca, cs := NewArrowArray(), NewArrowSchema()
	defer Free(ca)
	defer Free(cs)
	require.NoError(t, ExportArray(a, f, ca, cs))
	require.False(t, ArrayReleased(ca))
	gf, got, err := ImportArray(ca, cs, WithValidation(array.ValidateFull))
	require.NoError(t, err)
	require.True(t, ArrayReleased(ca), "import must move the array")
	require.True(t, SchemaReleased(cs), "import must release the schema")
	return gf, got
}

func TestRoundTripEveryRanddataType(t *testing.T) {
	schema := randdata.AllTypes()
	for _, n := range []int{0, 1, 7, 100} {
		g := randdata.New(uint64(n) + 1)
		rec := g.Record(schema, n)
		for i, f := range schema.Fields() {
			col := rec.Column(i)
			cases := []struct {
				name string
				a    array.Array
			}{{"whole", col}}
			if n > 2 {
				cases = append(cases, struct {
					name string
					a    array.Array
				}{"sliced", array.Slice(col, 1, n-1)}, struct {
					name string
					a    array.Array
				}{"empty-at-end", array.Slice(col, n, n)})
			}
			for _, c := range cases {
				t.Run(fmt.Sprintf("%s/n=%d/%s", f.Name, n, c.name), func(t *testing.T) {
					gf, got := roundTripArray(t, c.a, f)
					require.True(t, datatype.FieldEqual(f, gf), "field %v came back as %v", f, gf)
					require.True(t, array.Equal(c.a, got), "want %v\ngot  %v", c.a, got)
					require.Equal(t, c.a.Len(), got.Len())
					require.Equal(t, c.a.NullN(), got.NullN())
				})
			}
		}
	}
}

func TestRoundTripRecord(t *testing.T) {
	schema := randdata.AllTypes()
	rec := randdata.New(9).Record(schema, 50)
	for _, r := range []*alkaid.Record{rec, rec.Slice(10, 40), rec.Slice(50, 50)} {
		ca, cs := NewArrowArray(), NewArrowSchema()
		require.NoError(t, ExportRecord(r, ca, cs))
		got, err := ImportRecord(ca, cs, WithValidation(array.ValidateFull))
		Free(ca)
		Free(cs)
		require.NoError(t, err)
		require.True(t, schema.Equal(got.Schema()), "schema came back as\n%v", got.Schema())
		require.Equal(t, r.NumRows(), got.NumRows())
		for i := range r.NumCols() {
			require.True(t, array.Equal(r.Column(i), got.Column(i)), "column %s", r.ColumnName(i))
		}
	}
}

func TestRoundTripExtensionTypes(t *testing.T) {
	storage := randdata.New(3).Array(must(datatype.NewFixedSizeBinary(16)), 20, true)
	uuids, err := array.NewExtension(&extension.UUIDType{}, storage)
	require.NoError(t, err)
	f := datatype.Field{Name: "id", Type: uuids.DataType(), Nullable: true, Metadata: datatype.MetadataFrom("k", "v")}

	// The C schema carries Arrow's extension keys.
	cs := NewArrowSchema()
	defer Free(cs)
	require.NoError(t, ExportField(f, cs))
	md, err := decodeMetadata(cReader(unsafe.Pointer(cs.metadata), new(int)))
	require.NoError(t, err)
	name, _ := md.Get(extensionNameKey)
	require.Equal(t, extension.UUIDName, name)
	ReleaseSchema(cs)

	gf, got := roundTripArray(t, uuids, f)
	require.True(t, datatype.FieldEqual(f, gf), "field came back as %v (%v)", gf, gf.Metadata)
	require.IsType(t, &extension.UUIDType{}, got.DataType())
	require.True(t, array.Equal(uuids, got))

	// An unregistered extension stays its storage, with the keys kept.
	f2 := datatype.Field{Name: "x", Type: datatype.Int32, Metadata: datatype.MetadataFrom(alkaidExtensionNameKey, "no.such.type")}
	ints := randdata.New(4).Array(datatype.Int32, 5, false)
	gf2, got2 := roundTripArray(t, ints, f2)
	require.True(t, datatype.Equal(datatype.Int32, gf2.Type))
	v, ok := gf2.Metadata.Get(alkaidExtensionNameKey)
	require.True(t, ok)
	require.Equal(t, "no.such.type", v)
	require.True(t, array.Equal(ints, got2))
}

func TestImportSharesBuffers(t *testing.T) {
	g := randdata.New(5)
	for _, ty := range []datatype.DataType{datatype.Int64, datatype.String, datatype.StringView, datatype.ListOf(datatype.Int32)} {
		a := g.Array(ty, 40, true)
		_, got := roundTripArray(t, a, datatype.Field{Name: "c", Type: ty, Nullable: true})
		for i, b := range a.Data().Buffers {
			gb := got.Data().Buffers[i]
			if b.Len() == 0 {
				continue
			}
			require.Equal(t, unsafe.Pointer(&b.Bytes()[0]), unsafe.Pointer(&gb.Bytes()[0]), "%s buffer %d was copied", ty, i)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestImportStructChildrenSlicedLikeArrowGo: arrow-go exports a sliced
// struct with its children sliced by the parent's offset too; the import
// reads the same slots as the struct it sliced.
func TestImportStructChildrenSlicedLikeArrowGo(t *testing.T) {
	g := randdata.New(8)
	st := datatype.StructOf(datatype.Field{Name: "a", Type: datatype.Int32, Nullable: true},
		datatype.Field{Name: "s", Type: datatype.String, Nullable: true})
	whole := g.Array(st, 30, true)
	want := array.Slice(whole, 5, 25)
	// The struct sliced by 5, each child sliced by 5 as well.
	d := *want.Data()
	d.Children = []*array.Data{whole.Data().Children[0].Slice(5, 25), whole.Data().Children[1].Slice(5, 25)}
	ca := NewArrowArray()
	defer Free(ca)
	require.NoError(t, exportRootArray(&d, ca))
	got, err := ImportArrayOf(ca, st, WithValidation(array.ValidateFull))
	require.NoError(t, err)
	require.True(t, array.Equal(want, got), "want %v\ngot  %v", want, got)
}

// TestImportEmptyBuffersMayBeNull: an empty array may leave every buffer
// NULL, and a zero-width one its values.
func TestImportEmptyBuffersMayBeNull(t *testing.T) {
	for _, c := range []struct {
		t datatype.DataType
		n int
	}{{datatype.String, 0}, {datatype.ListOf(datatype.Int32), 0}, {datatype.Int64, 0}, {datatype.StringView, 0},
		{must(datatype.NewFixedSizeBinary(0)), 5}} {
		a := randdata.New(1).Array(c.t, c.n, false)
		ca := NewArrowArray()
		require.NoError(t, exportRootArray(a.Data(), ca))
		bufs := unsafe.Slice(ca.buffers, int(ca.n_buffers))
		for i := range bufs {
			if i < len(bufs)-1 || c.t.Kind() != datatype.KindStringView { // views keep their lengths
				bufs[i] = nil
			}
		}
		got, err := ImportArrayOf(ca, c.t, WithValidation(array.ValidateFull))
		Free(ca)
		require.NoError(t, err, "%s", c.t)
		require.Equal(t, c.n, got.Len())
	}
}
