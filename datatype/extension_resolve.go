package datatype

import "fmt"

// The field metadata keys that carry an extension type over the wire: its
// name and its serialized parameters, in Alkaid's namespace and in Apache
// Arrow's. Readers accept both; writers use one.
const (
	ExtensionNameKey          = "ALKAID:extension:name"
	ExtensionMetadataKey      = "ALKAID:extension:metadata"
	ArrowExtensionNameKey     = "ARROW:extension:name"
	ArrowExtensionMetadataKey = "ARROW:extension:metadata"
)

// ResolveExtension is how every reader (IPC, integration JSON, the C Data
// Interface) turns a field's storage type and metadata into its type: when
// the metadata names an extension type (ALKAID:extension:name, else
// ARROW:extension:name) that is registered, the result is that type,
// deserialized from the storage and the matching …:extension:metadata
// value, and the metadata without those two keys. A field without the
// keys, or naming an extension type not registered, keeps its storage
// type and all its metadata, so that it is written back unchanged.
//
// An error means a registered type refused the storage or the
// parameters; it names the extension and wraps the type's error.
func ResolveExtension(storage DataType, md Metadata) (DataType, Metadata, error) {
	nameKey, metaKey := ExtensionNameKey, ExtensionMetadataKey
	name, ok := md.Get(nameKey)
	if !ok {
		nameKey, metaKey = ArrowExtensionNameKey, ArrowExtensionMetadataKey
		if name, ok = md.Get(nameKey); !ok {
			return storage, md, nil
		}
	}
	ext, ok := LookupExtension(name)
	if !ok {
		return storage, md, nil
	}
	serialized, _ := md.Get(metaKey)
	t, err := ext.Deserialize(storage, serialized)
	if err != nil {
		return nil, md, fmt.Errorf("extension type %q: %w", name, err)
	}
	return t, md.Without(nameKey, metaKey), nil
}
