package extension

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// OpaqueType is arrow.opaque: data of a type that another system has and
// this one cannot interpret, kept as any storage (null when there is no
// data) with the foreign type's name and the system's (vendor's) name.
// Its metadata is a JSON object:
//
//	{"type_name":"geometry","vendor_name":"PostGIS"}
//
// Members other than those two, which later versions of the spec may add,
// are kept and written back.
type OpaqueType struct {
	storage    datatype.DataType
	typeName   string
	vendorName string
	extra      map[string]json.RawMessage // compacted; nil when none
}

// NewOpaque returns the opaque type over the storage with the foreign
// type's name and the vendor's name. The storage must not be an extension
// type. Errors wrap [datatype.ErrInvalid].
func NewOpaque(storage datatype.DataType, typeName, vendorName string) (*OpaqueType, error) {
	if storage == nil {
		return nil, invalidf(OpaqueName, "storage type is missing")
	}
	if _, ext := storage.(datatype.ExtensionType); ext {
		return nil, invalidf(OpaqueName, "storage must not be an extension type, got %s", storage)
	}
	return &OpaqueType{storage: storage, typeName: typeName, vendorName: vendorName}, nil
}

// Kind is [datatype.KindExtension].
func (*OpaqueType) Kind() datatype.Kind { return datatype.KindExtension }

// String is e.g. `extension<arrow.opaque[storage=binary,
// type_name="geometry", vendor_name="PostGIS"]>`.
func (t *OpaqueType) String() string {
	return "extension<" + OpaqueName + "[storage=" + typeString(t.storage) + ", type_name=" +
		jsonString(t.typeName) + ", vendor_name=" + jsonString(t.vendorName) + "]>"
}

// ExtensionName is "arrow.opaque".
func (*OpaqueType) ExtensionName() string { return OpaqueName }

// StorageType is the storage.
func (t *OpaqueType) StorageType() datatype.DataType { return t.storage }

// TypeName is the name of the type in the foreign system.
func (t *OpaqueType) TypeName() string { return t.typeName }

// VendorName is the name of the foreign system.
func (t *OpaqueType) VendorName() string { return t.vendorName }

// Serialize returns the JSON metadata: type_name, vendor_name, then any
// other members read with it, sorted by key.
func (t *OpaqueType) Serialize() string {
	s := `{"type_name":` + jsonString(t.typeName) + `,"vendor_name":` + jsonString(t.vendorName)
	keys := make([]string, 0, len(t.extra))
	for k := range t.extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s += "," + jsonString(k) + ":" + string(t.extra[k])
	}
	return s + "}"
}

// Deserialize parses the JSON metadata, which must have string members
// "type_name" and "vendor_name"; other members are kept.
func (*OpaqueType) Deserialize(storage datatype.DataType, serialized string) (datatype.ExtensionType, error) {
	const name = OpaqueName
	t, err := NewOpaque(storage, "", "")
	if err != nil {
		return nil, err
	}
	m, err := parseObject(name, serialized, false)
	if err != nil {
		return nil, err
	}
	for _, k := range []string{"type_name", "vendor_name"} {
		raw, ok := m[k]
		if !ok {
			return nil, invalidf(name, "metadata has no %q", k)
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil || raw[0] != '"' {
			return nil, invalidf(name, "metadata %q is %s, not a string", k, raw)
		}
		if k == "type_name" {
			t.typeName = s
		} else {
			t.vendorName = s
		}
		delete(m, k)
	}
	for k, raw := range m {
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			return nil, invalidf(name, "metadata %q: %v", k, err)
		}
		if t.extra == nil {
			t.extra = map[string]json.RawMessage{}
		}
		t.extra[k] = b.Bytes()
	}
	return t, nil
}

// ExtensionEqual reports whether other is an opaque type with the same
// type and vendor names (other members are not compared).
func (t *OpaqueType) ExtensionEqual(other datatype.ExtensionType) bool {
	o, ok := other.(*OpaqueType)
	return ok && t.typeName == o.typeName && t.vendorName == o.vendorName
}

// OpaqueArray is an array of arrow.opaque; its data is the storage array.
type OpaqueArray struct {
	*array.Extension
	typ *OpaqueType
}

// NewOpaqueArray wraps an array of an [OpaqueType].
func NewOpaqueArray(a array.Array) (*OpaqueArray, error) {
	e, t, err := asExtension[*OpaqueType](OpaqueName, a)
	if err != nil {
		return nil, err
	}
	return &OpaqueArray{Extension: e, typ: t}, nil
}

func (a *OpaqueArray) extension() *array.Extension { return a.Extension }

// OpaqueType is the array's type.
func (a *OpaqueArray) OpaqueType() *OpaqueType { return a.typ }

// OpaqueBuilder builds an [OpaqueArray]; append values to the storage
// builder (StorageBuilder), or nulls to the builder itself.
type OpaqueBuilder struct {
	*array.ExtensionBuilder
	typ *OpaqueType
}

// NewOpaqueBuilder returns a builder of arrays of t.
func NewOpaqueBuilder(t *OpaqueType, opts ...array.BuilderOption) *OpaqueBuilder {
	return &OpaqueBuilder{ExtensionBuilder: array.NewExtensionBuilder(t, opts...), typ: t}
}

// Finish returns the array built so far and resets the builder.
func (b *OpaqueBuilder) Finish() *OpaqueArray {
	return &OpaqueArray{Extension: b.ExtensionBuilder.Finish(), typ: b.typ}
}

// NewArray is Finish as an [array.Array].
func (b *OpaqueBuilder) NewArray() array.Array { return b.Finish() }
