package ipc

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestListChildNamesKept: the element names of every list kind are
// written and read exactly as given, the empty name included (some
// writers name a list's child ""), through streams and files of both
// magics.
func TestListChildNamesKept(t *testing.T) {
	for _, name := range []string{"", "item", "element", " x "} {
		elem := datatype.Field{Name: name, Type: datatype.Int32, Nullable: true}
		fsl, err := datatype.FixedSizeListOfField(elem, 2)
		require.NoError(t, err)
		schema := schemaOf(
			field("l", datatype.ListOfField(elem)),
			field("ll", datatype.LargeListOfField(elem)),
			field("lv", datatype.ListViewOfField(elem)),
			field("llv", datatype.LargeListViewOfField(elem)),
			field("fsl", fsl),
			field("nested", datatype.ListOfField(datatype.Field{Name: name, Type: datatype.ListOfField(elem)})),
		)
		for _, opts := range [][]Option{nil, {WithArrowCompat()}} {
			var sbuf, fbuf bytes.Buffer
			sw, err := NewStreamWriter(&sbuf, schema, opts...)
			require.NoError(t, err)
			require.NoError(t, sw.Close())
			sr, err := NewStreamReaderBytes(sbuf.Bytes(), WithValidation(array.ValidateFull))
			require.NoError(t, err)
			requireSameSchema(t, schema, sr.Schema())

			fw, err := NewFileWriter(&fbuf, schema, opts...)
			require.NoError(t, err)
			require.NoError(t, fw.Close())
			fr, err := NewFileReader(bytes.NewReader(fbuf.Bytes()), int64(fbuf.Len()), WithValidation(array.ValidateFull))
			require.NoError(t, err)
			requireSameSchema(t, schema, fr.Schema())
		}
	}
}

func requireSameSchema(t *testing.T, want, got *alkaid.Schema) {
	t.Helper()
	require.Equal(t, want.String(), got.String())
	for i, f := range want.Fields() {
		g := got.Field(i)
		for {
			wl, ok := f.Type.(*datatype.ListType)
			if !ok {
				break
			}
			gl := g.Type.(*datatype.ListType)
			require.Equal(t, wl.Elem().Name, gl.Elem().Name, "field %s", want.Field(i).Name)
			f, g = wl.Elem(), gl.Elem()
		}
	}
}
