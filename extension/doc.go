// Package extension implements the canonical extension types of the
// Alkaid format (spec 002), wire-compatible with Apache Arrow's:
//
//	arrow.fixed_shape_tensor     FixedShapeTensorType     fixed_size_list<T>[∏shape]
//	arrow.variable_shape_tensor  VariableShapeTensorType  struct<data: list<T>, shape: fixed_size_list<int32>[ndim]>
//	arrow.json                   JSONType                 utf8, large_utf8 or utf8_view
//	arrow.uuid                   UUIDType                 fixed_size_binary[16]
//	arrow.opaque                 OpaqueType               any
//	arrow.bool8                  Bool8Type                int8
//	arrow.parquet.variant        VariantType              struct<metadata, value and/or typed_value>
//
// Each type has a constructor that checks its parameters, a typed array
// that wraps [array.Extension] (UUIDArray.Value returns a [UUID],
// Bool8Array.Value a bool, JSONArray.Value a json.RawMessage, the tensor
// arrays a [Tensor] with shape and strides, …) and a builder. Errors about
// types and metadata wrap [datatype.ErrInvalid]; errors about values
// (invalid JSON, a tensor whose shape does not match its data) wrap
// [array.ErrInvalid].
//
// # Registration
//
// Importing the package registers every type with
// [datatype.RegisterExtension], so that IPC readers turn fields carrying
// ALKAID:extension:name (or ARROW:extension:name) into these types; there
// is no Register function to call. A program that only reads needs a
// blank import:
//
//	import _ "github.com/alkaid-go/alkaid/extension"
//
// Without it, the fields read as their storage types with the extension
// name and metadata kept in the field metadata, and written back
// unchanged. A name registered before this package is initialised is left
// as it was.
//
// Readers return an [*array.Extension] per column; [Wrap] (or a type's
// New…Array) turns it into the typed array. Wrapping checks the type in
// O(1); [ValidateFull] also checks the values.
//
// # Metadata
//
// Types serialise their parameters as the spec describes, in a compact
// canonical form: {"shape":[2,5],"dim_names":["C","H","W"]} for tensors,
// {"type_name":…,"vendor_name":…} for opaque, "" for uuid, bool8, json and
// variant. Parsing accepts any JSON spacing; keys the spec does not define
// are rejected for tensors and kept for opaque and json, whose spec allows
// future members.
package extension
