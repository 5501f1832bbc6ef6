package extension_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
	"github.com/alkaid-go/alkaid/integration"
)

// TestIntegrationJSONRoundTrip writes every canonical type as integration
// JSON (Arrow's format, so the ARROW: keys) and reads it back: the same
// types and values; with the type unregistered the field keeps the name
// and metadata.
func TestIntegrationJSONRoundTrip(t *testing.T) {
	for _, s := range samples(t) {
		t.Run(s.arr.DataType().String(), func(t *testing.T) {
			ext := s.arr.DataType().(datatype.ExtensionType)
			schema, rec := oneColumn(t, s.arr, datatype.Metadata{})
			var buf bytes.Buffer
			require.NoError(t, integration.Write(&buf, schema, []*alkaid.Record{rec}))
			text := buf.String()
			require.True(t, strings.Contains(text, `"ARROW:extension:name"`), text)
			require.True(t, strings.Contains(text, `"`+ext.ExtensionName()+`"`))

			f, err := integration.Read(strings.NewReader(text))
			require.NoError(t, err)
			got := f.Schema.Field(0)
			require.True(t, datatype.Equal(ext, got.Type), "%s vs %s", ext, got.Type)
			col := f.Records[0].Column(0)
			require.True(t, array.Equal(s.arr, col), "%s vs %s", s.arr, col)
			typed, err := extension.Wrap(col)
			require.NoError(t, err)
			require.Equal(t, s.arr.String(), typed.String())
			require.NoError(t, integration.Compare(&integration.File{Schema: schema, Records: []*alkaid.Record{rec}}, f))

			withoutRegistration(t, ext.ExtensionName(), func() {
				raw, err := integration.Read(strings.NewReader(text))
				require.NoError(t, err)
				rf := raw.Schema.Field(0)
				require.True(t, datatype.Equal(ext.StorageType(), rf.Type))
				name, _ := rf.Metadata.Get("ARROW:extension:name")
				meta, ok := rf.Metadata.Get("ARROW:extension:metadata")
				require.Equal(t, ext.ExtensionName(), name)
				require.True(t, ok)
				require.Equal(t, ext.Serialize(), meta)
			})
		})
	}
}
