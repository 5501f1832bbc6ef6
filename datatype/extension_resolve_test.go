package datatype

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestResolveExtension(t *testing.T) {
	require.NoError(t, RegisterExtension(&testExt{}))
	defer UnregisterExtension("test.ext")
	other := MetadataFrom("k", "v")
	for _, c := range []struct {
		name    string
		storage DataType
		md      Metadata
		want    DataType
		wantMD  Metadata
		wantErr string
	}{
		{"no keys", Int32, other, Int32, other, ""},
		{"alkaid keys", Int32, MetadataFrom("k", "v", ExtensionNameKey, "test.ext", ExtensionMetadataKey, "p"), &testExt{"p"}, other, ""},
		{"arrow keys", Int32, MetadataFrom(ArrowExtensionNameKey, "test.ext", ArrowExtensionMetadataKey, "q", "k", "v"), &testExt{"q"}, other, ""},
		{"no parameters", Int32, MetadataFrom(ArrowExtensionNameKey, "test.ext"), &testExt{""}, Metadata{}, ""},
		{"alkaid first", Int32, MetadataFrom(ArrowExtensionNameKey, "nope", ExtensionNameKey, "test.ext"), &testExt{""}, MetadataFrom(ArrowExtensionNameKey, "nope"), ""},
		{"not registered", Int64, MetadataFrom(ExtensionNameKey, "nope", ExtensionMetadataKey, "x"), Int64, MetadataFrom(ExtensionNameKey, "nope", ExtensionMetadataKey, "x"), ""},
		{"storage refused", Int64, MetadataFrom(ExtensionNameKey, "test.ext"), nil, Metadata{}, `extension type "test.ext": datatype: invalid: test.ext storage int64`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, md, err := ResolveExtension(c.storage, c.md)
			if c.wantErr != "" {
				require.ErrorIs(t, err, ErrInvalid)
				require.EqualError(t, err, c.wantErr)
				return
			}
			require.NoError(t, err)
			require.True(t, Equal(got, c.want), "got %s", got)
			require.True(t, md.Equal(c.wantMD), "metadata %s", md)
		})
	}
}
