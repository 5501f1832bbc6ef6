//go:build cgo

package cdata

import (
	"encoding/binary"
	"errors"
	"fmt"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/cdata/internal/ctest"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/memory"
)

// schemaChild returns child i of s.
func schemaChild(s *ArrowSchema, i int) *ArrowSchema {
	return unsafe.Slice(s.children, int(s.n_children))[i]
}

// TestImportHostileSchemas corrupts exported schemas one way each; the
// import names what is wrong.
func TestImportHostileSchemas(t *testing.T) {
	base := datatype.Field{Name: "root", Type: datatype.StructOf(
		datatype.Field{Name: "a", Type: datatype.Int32, Nullable: true},
		datatype.Field{Name: "d", Type: must(datatype.NewDictionary(datatype.Int8, datatype.String, false))},
	)}
	cases := []struct {
		name    string
		corrupt func(s *ArrowSchema)
		want    string
	}{
		{"negative n_children", func(s *ArrowSchema) { s.n_children = -1 }, "the root field: n_children is -1"},
		{"children NULL", func(s *ArrowSchema) { s.children = nil }, "n_children is 2 but children is NULL"},
		{"child NULL", func(s *ArrowSchema) { unsafe.Slice(s.children, 2)[1] = nil }, "child 1 is NULL"},
		{"child released", func(s *ArrowSchema) { schemaChild(s, 0).release = nil }, "child 0 is released"},
		{"dictionary released", func(s *ArrowSchema) { schemaChild(s, 1).dictionary.release = nil }, "field d: dictionary is released"},
		{"float index", func(s *ArrowSchema) { schemaChild(s, 1).format = cstring("f") }, "dictionary index type float32 is not an integer type"},
		{"bad decimal", func(s *ArrowSchema) { schemaChild(s, 0).format = cstring("d:abc,2") }, `decimal parameter "abc" is not a number`},
		{"decimal width", func(s *ArrowSchema) { schemaChild(s, 0).format = cstring("d:5,2,100") }, "decimal"},
		{"union code", func(s *ArrowSchema) { s.format = cstring("+us:1,200") }, `union type code "200"`},
		{"union codes", func(s *ArrowSchema) { s.format = cstring("+ud:1") }, "union has 2 fields but 1 type codes"},
		{"fixed width", func(s *ArrowSchema) { schemaChild(s, 0).format = cstring("w:x") }, "fixed-size binary width is not a number"},
		{"time unit", func(s *ArrowSchema) { schemaChild(s, 0).format = cstring("ttq") }, "unknown time unit"},
		{"timestamp unit", func(s *ArrowSchema) { schemaChild(s, 0).format = cstring("tsq:UTC") }, "unknown timestamp unit"},
		{"list children", func(s *ArrowSchema) { s.format = cstring("+l") }, `format "+l": has 2 children, want 1`},
		{"map entries", func(s *ArrowSchema) { s.format = cstring("+m") }, `has 2 children, want 1`},
		{"empty format", func(s *ArrowSchema) { schemaChild(s, 0).format = cstring("") }, `format ""`},
		{"metadata count", func(s *ArrowSchema) { s.metadata = metadataBytes(-1) }, "metadata has -1 pairs"},
		{"metadata key length", func(s *ArrowSchema) { s.metadata = metadataBytes(1, -5) }, "metadata key 0 has length -5"},
		{"metadata too long", func(s *ArrowSchema) { s.metadata = metadataBytes(1, 1<<30) }, "metadata longer than"},
		{"cycle", func(s *ArrowSchema) { unsafe.Slice(s.children, 2)[0] = s }, "nests deeper than 64 levels"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewArrowSchema()
			defer Free(s)
			require.NoError(t, ExportField(base, s))
			ctest.SetNoopRelease(unsafe.Pointer(s)) // the corrupt tree leaks
			c.corrupt(s)
			_, err := ImportField(s)
			require.Error(t, err)
			t.Log(err)
			require.Contains(t, err.Error(), c.want)
			require.True(t, errors.Is(err, ErrInvalid) || errors.Is(err, ErrNotSupported), "%v", err)
			require.True(t, SchemaReleased(s))
		})
	}
}

// metadataBytes is serialized metadata of a count then lengths, in C
// memory; its pointer serves as a metadata field.
func metadataBytes(vals ...int32) *cchar {
	b := make([]byte, 0, 4*len(vals))
	for _, v := range vals {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	return cbytes(b)
}

// TestImportHostileArrays corrupts exported arrays one way each.
func TestImportHostileArrays(t *testing.T) {
	g := randdata.New(6)
	dict := g.Array(must(datatype.NewDictionary(datatype.Int8, datatype.String, false)), 10, true)
	ints := g.Array(datatype.Int32, 10, true)
	views := g.Array(datatype.StringView, 50, true)
	valid := 0
	for dict.IsNull(valid) {
		valid++
	}
	cases := []struct {
		name    string
		corrupt func(a *ArrowArray)
		want    string
	}{
		{"released", func(a *ArrowArray) { a.release = nil }, "is released"},
		{"dictionary missing", func(a *ArrowArray) { a.dictionary = nil }, "dictionary-encoded array without a dictionary"},
		{"dictionary released", func(a *ArrowArray) { a.dictionary.release = nil }, "dictionary is released"},
		{"buffers NULL", func(a *ArrowArray) { a.buffers = nil }, "n_buffers is 2 but buffers is NULL"},
		{"offset out of range", func(a *ArrowArray) { a.offset = 1 << 62 }, "is out of range"},
		{"index out of range", func(a *ArrowArray) {
			unsafe.Slice((*int8)(unsafe.Slice(a.buffers, 2)[1]), 10)[valid] = 100
		}, fmt.Sprintf("[%d]: dictionary index 100", valid)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := NewArrowArray()
			defer Free(a)
			// Export a copy: the index case writes into the buffers.
			d := *dict.Data()
			d.Buffers = cloneBuffers(d.Buffers)
			require.NoError(t, exportRootArray(&d, a))
			ctest.SetNoopArrayRelease(unsafe.Pointer(a)) // the corrupt tree leaks
			c.corrupt(a)
			_, err := ImportArrayOf(a, dict.DataType())
			require.Error(t, err)
			t.Log(err)
			require.Contains(t, err.Error(), c.want)
			require.ErrorIs(t, err, ErrInvalid)
		})
	}
	// A dictionary where the type has none; a view's lengths buffer NULL;
	// a negative variadic length.
	for _, c := range []struct {
		name    string
		t       datatype.DataType
		corrupt func(a *ArrowArray)
		want    string
	}{
		{"unexpected dictionary", datatype.Int32, func(a *ArrowArray) { a.dictionary = a }, "int32 array has a dictionary"},
		{"view lengths NULL", datatype.StringView, func(a *ArrowArray) {
			b := unsafe.Slice(a.buffers, int(a.n_buffers))
			b[len(b)-1] = nil
		}, "the variadic buffer lengths buffer is NULL"},
		{"view length negative", datatype.StringView, func(a *ArrowArray) {
			b := unsafe.Slice(a.buffers, int(a.n_buffers))
			*(*int64)(b[len(b)-1]) = -7
		}, "variadic buffer 0 has length -7"},
		{"view too few buffers", datatype.StringView, func(a *ArrowArray) { a.n_buffers = 2 }, "has 2 buffers, want at least 3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := ints
			if c.t.Kind() == datatype.KindStringView {
				src = views
				require.Greater(t, len(views.Data().Buffers), 2, "the views need a data buffer")
			}
			a := NewArrowArray()
			defer Free(a)
			require.NoError(t, exportRootArray(src.Data(), a))
			ctest.SetNoopArrayRelease(unsafe.Pointer(a))
			c.corrupt(a)
			_, err := ImportArrayOf(a, c.t)
			require.Error(t, err)
			t.Log(err)
			require.Contains(t, err.Error(), c.want)
		})
	}
}

func cloneBuffers(bs []*memory.Buffer) []*memory.Buffer {
	out := make([]*memory.Buffer, len(bs))
	for i, b := range bs {
		if b != nil {
			out[i] = memory.NewBuffer(append([]byte(nil), b.Bytes()...))
		}
	}
	return out
}
