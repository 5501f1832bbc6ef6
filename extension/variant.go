package extension

import (
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// VariantType is arrow.parquet.variant: Parquet Variant values (see the
// Parquet format's Variant encoding) in a struct storage of
//
//   - "metadata": binary, large_binary or binary_view, not nullable (it
//     may be dictionary or run-end encoded);
//   - "value": binary, large_binary or binary_view, and/or
//   - "typed_value": the shredded part, a type with a Variant equivalent,
//     or a list, large_list or list_view of non-nullable structs, or a
//     struct of non-nullable structs, each such struct holding "value"
//     and/or "typed_value" by the same rules.
//
// Fields are found by name, in any order. An unshredded variant has just
// metadata and value. The metadata string is empty.
type VariantType struct {
	storage *datatype.StructType
	meta    int // field indexes; -1 when absent
	value   int
	typed   int
}

var defaultVariantStorage = datatype.StructOf(
	datatype.Field{Name: "metadata", Type: datatype.Binary},
	datatype.Field{Name: "value", Type: datatype.Binary},
)

// NewVariantType returns the unshredded variant type,
// struct<metadata: binary not null, value: binary not null>.
func NewVariantType() *VariantType {
	t, _ := NewVariantTypeOf(defaultVariantStorage)
	return t
}

// NewVariantTypeOf returns the variant type over the storage, checking
// it against the rules of [VariantType]. Errors wrap
// [datatype.ErrInvalid] and name the offending field by its path.
func NewVariantTypeOf(storage datatype.DataType) (*VariantType, error) {
	st, ok := storage.(*datatype.StructType)
	if !ok {
		return nil, invalidf(VariantName, "storage must be a struct, got %s", typeString(storage))
	}
	idx, err := variantFields(st, "", true)
	if err != nil {
		return nil, err
	}
	mf := st.Field(idx["metadata"])
	if mf.Nullable {
		return nil, invalidf(VariantName, "storage field \"metadata\" must not be nullable")
	}
	if !binaryOrEncoded(mf.Type) {
		return nil, invalidf(VariantName, "storage field \"metadata\" must be binary, large_binary or binary_view (or a dictionary or run-end encoding of one), got %s", typeString(mf.Type))
	}
	return &VariantType{storage: st, meta: idx["metadata"], value: idx["value"], typed: idx["typed_value"]}, nil
}

// variantFields finds "value" and "typed_value" (and at the top level
// "metadata") by name, rejecting other and duplicate fields, and checks
// value and typed_value. It returns each name's index, -1 when absent.
func variantFields(st *datatype.StructType, path string, top bool) (map[string]int, error) {
	idx := map[string]int{"metadata": -1, "value": -1, "typed_value": -1}
	where := "storage"
	if path != "" {
		where = "storage field " + jsonString(path)
	}
	for i, f := range st.Fields() {
		j, known := idx[f.Name]
		if !known || (f.Name == "metadata" && !top) {
			return nil, invalidf(VariantName, "%s has an unexpected field %q", where, f.Name)
		}
		if j >= 0 {
			return nil, invalidf(VariantName, "%s has two fields named %q", where, f.Name)
		}
		idx[f.Name] = i
	}
	if top && idx["metadata"] < 0 {
		return nil, invalidf(VariantName, "storage has no field \"metadata\"")
	}
	if idx["value"] < 0 && idx["typed_value"] < 0 {
		return nil, invalidf(VariantName, "%s has neither \"value\" nor \"typed_value\"", where)
	}
	if i := idx["value"]; i >= 0 {
		if t := st.Field(i).Type; !isBinary(t) {
			return nil, invalidf(VariantName, "storage field %s must be binary, large_binary or binary_view, got %s", jsonString(join(path, "value")), typeString(t))
		}
	}
	if i := idx["typed_value"]; i >= 0 {
		if err := checkTypedValue(st.Field(i).Type, join(path, "typed_value")); err != nil {
			return nil, err
		}
	}
	return idx, nil
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func isBinary(t datatype.DataType) bool {
	if _, ext := t.(datatype.ExtensionType); ext || t == nil {
		return false
	}
	switch t.Kind() {
	case datatype.KindBinary, datatype.KindLargeBinary, datatype.KindBinaryView:
		return true
	}
	return false
}

// binaryOrEncoded is isBinary, or a dictionary or run-end encoding of a
// binary type.
func binaryOrEncoded(t datatype.DataType) bool {
	switch t := t.(type) {
	case *datatype.DictionaryType:
		return isBinary(t.Value)
	case *datatype.RunEndEncodedType:
		return isBinary(t.Values().Type)
	}
	return isBinary(t)
}

// checkTypedValue checks a typed_value type at path.
func checkTypedValue(t datatype.DataType, path string) error {
	if t == nil {
		return invalidf(VariantName, "storage field %s has no type", jsonString(path))
	}
	if _, ok := t.(*UUIDType); ok {
		return nil
	}
	if _, ext := t.(datatype.ExtensionType); !ext {
		if variantPrimitive(t) {
			return nil
		}
		switch tt := t.(type) {
		case *datatype.ListType:
			if tt.Kind() == datatype.KindList || tt.Kind() == datatype.KindLargeList || tt.Kind() == datatype.KindListView {
				return checkShreddedGroup(tt.Elem(), join(path, tt.Elem().Name))
			}
		case *datatype.StructType:
			if tt.NumFields() == 0 {
				return invalidf(VariantName, "storage field %s is a struct without fields", jsonString(path))
			}
			for _, f := range tt.Fields() {
				if err := checkShreddedGroup(f, join(path, f.Name)); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return invalidf(VariantName, "storage field %s has type %s, which has no Variant equivalent", jsonString(path), t)
}

// checkShreddedGroup checks a list element or shredded object field: a
// non-nullable struct of value and/or typed_value.
func checkShreddedGroup(f datatype.Field, path string) error {
	if f.Nullable {
		return invalidf(VariantName, "storage field %s must not be nullable", jsonString(path))
	}
	st, ok := f.Type.(*datatype.StructType)
	if !ok {
		return invalidf(VariantName, "storage field %s must be a struct of value and/or typed_value, got %s", jsonString(path), typeString(f.Type))
	}
	_, err := variantFields(st, path, false)
	return err
}

// variantPrimitive reports whether t is one of the primitive types the
// spec maps to a Variant type. Timestamps may have any time zone (their
// values are UTC instants).
func variantPrimitive(t datatype.DataType) bool {
	switch t.Kind() {
	case datatype.KindNull, datatype.KindBool,
		datatype.KindInt8, datatype.KindInt16, datatype.KindInt32, datatype.KindInt64,
		datatype.KindUint8, datatype.KindUint16, datatype.KindUint32,
		datatype.KindFloat32, datatype.KindFloat64,
		datatype.KindDecimal32, datatype.KindDecimal64, datatype.KindDecimal128,
		datatype.KindDate32, datatype.KindTime64,
		datatype.KindBinary, datatype.KindLargeBinary, datatype.KindBinaryView,
		datatype.KindString, datatype.KindLargeString, datatype.KindStringView:
		return true
	case datatype.KindTimestamp:
		ts, ok := t.(*datatype.TimestampType)
		return ok && (ts.Unit == datatype.Microsecond || ts.Unit == datatype.Nanosecond)
	}
	return false
}

// Kind is [datatype.KindExtension].
func (*VariantType) Kind() datatype.Kind { return datatype.KindExtension }

// String is "extension<arrow.parquet.variant>" for the unshredded binary
// storage, else e.g. "extension<arrow.parquet.variant[storage=struct<…>]>".
func (t *VariantType) String() string {
	if t.storage == nil || datatype.Equal(t.storage, defaultVariantStorage) {
		return "extension<" + VariantName + ">"
	}
	return "extension<" + VariantName + "[storage=" + t.storage.String() + "]>"
}

// ExtensionName is "arrow.parquet.variant".
func (*VariantType) ExtensionName() string { return VariantName }

// StorageType is the struct storage.
func (t *VariantType) StorageType() datatype.DataType {
	if t.storage == nil {
		return nil
	}
	return t.storage
}

// Shredded reports whether the storage has a typed_value field.
func (t *VariantType) Shredded() bool { return t.typed >= 0 }

// Serialize returns "".
func (*VariantType) Serialize() string { return "" }

// Deserialize checks the storage ([NewVariantTypeOf]) and that the
// metadata is empty.
func (*VariantType) Deserialize(storage datatype.DataType, serialized string) (datatype.ExtensionType, error) {
	t, err := NewVariantTypeOf(storage)
	if err != nil {
		return nil, err
	}
	if err := checkEmpty(VariantName, serialized); err != nil {
		return nil, err
	}
	return t, nil
}

// ExtensionEqual reports whether other is a variant type (storage types
// are compared separately).
func (*VariantType) ExtensionEqual(other datatype.ExtensionType) bool {
	_, ok := other.(*VariantType)
	return ok
}

// VariantArray is an array of arrow.parquet.variant. It gives the encoded
// metadata and value bytes of each row and the shredded typed_value
// child; decoding the Variant encoding is left to the caller.
type VariantArray struct {
	*array.Extension
	typ      *VariantType
	row      *array.Struct
	metadata func(int) []byte
	value    func(int) []byte // nil without a value field
}

// NewVariantArray wraps an array of a [VariantType].
func NewVariantArray(a array.Array) (*VariantArray, error) {
	e, t, err := asExtension[*VariantType](VariantName, a)
	if err != nil {
		return nil, err
	}
	return newVariantArray(e, t), nil
}

func newVariantArray(e *array.Extension, t *VariantType) *VariantArray {
	row := e.Storage().(*array.Struct)
	a := &VariantArray{Extension: e, typ: t, row: row, metadata: binaryGetter(row.Field(t.meta))}
	if t.value >= 0 {
		a.value = binaryGetter(row.Field(t.value))
	}
	return a
}

// binaryGetter reads values of a binary array, or of a dictionary or
// run-end encoding of one; null slots read as nil.
func binaryGetter(a array.Array) func(int) []byte {
	var get func(int) []byte
	switch b := a.(type) {
	case *array.Binary[int32]:
		get = b.Value
	case *array.Binary[int64]:
		get = b.Value
	case *array.BinaryView:
		get = b.Value
	case *array.Dictionary:
		inner := binaryGetter(b.Dictionary())
		return func(i int) []byte {
			if b.IsNull(i) {
				return nil
			}
			return inner(b.ValueIndex(i))
		}
	case *array.RunEndEncoded:
		inner := binaryGetter(b.Values())
		return func(i int) []byte { return inner(b.PhysicalIndex(i)) }
	default:
		return func(int) []byte { return nil }
	}
	return func(i int) []byte {
		if a.IsNull(i) {
			return nil
		}
		return get(i)
	}
}

func (a *VariantArray) extension() *array.Extension { return a.Extension }

// VariantType is the array's type.
func (a *VariantArray) VariantType() *VariantType { return a.typ }

// Metadata returns row i's encoded Variant metadata.
func (a *VariantArray) Metadata(i int) []byte { return a.metadata(i) }

// Value returns row i's encoded Variant value; nil when the row is null,
// the value is null (its content is then in typed_value) or the storage
// has no value field.
func (a *VariantArray) Value(i int) []byte {
	if a.value == nil || a.IsNull(i) {
		return nil
	}
	return a.value(i)
}

// TypedValue is the typed_value child aligned with this array's rows, or
// nil for an unshredded variant.
func (a *VariantArray) TypedValue() array.Array {
	if a.typ.typed < 0 {
		return nil
	}
	return a.row.Field(a.typ.typed)
}

// ValidateFull checks that no valid row's metadata is null. Errors wrap
// [array.ErrInvalid].
func (a *VariantArray) ValidateFull() error { return a.validateValues() }

func (a *VariantArray) validateValues() error {
	m := a.row.Field(a.typ.meta)
	for i := range a.Len() {
		if a.IsValid(i) && m.IsNull(i) {
			return valuef(VariantName, "row %d: metadata is null", i)
		}
	}
	return nil
}

// String prints each row's metadata and value bytes in hexadecimal.
func (a *VariantArray) String() string {
	return formatValues(a, func(i int) string {
		s := "{metadata: " + hexString(a.Metadata(i))
		if v := a.Value(i); v != nil {
			s += ", value: " + hexString(v)
		}
		return s + "}"
	})
}

func hexString(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 2+2*len(b))
	out[0], out[1] = '0', 'x'
	for i, c := range b {
		out[2+2*i], out[3+2*i] = digits[c>>4], digits[c&15]
	}
	return string(out)
}

// VariantBuilder builds a [VariantArray]. Append adds an unshredded row;
// for shredded storage, build rows through StorageBuilder (a
// [*array.StructBuilder]) instead.
type VariantBuilder struct {
	*array.ExtensionBuilder
	typ *VariantType
	row *array.StructBuilder
}

// NewVariantBuilder returns a builder of arrays of t.
func NewVariantBuilder(t *VariantType, opts ...array.BuilderOption) *VariantBuilder {
	eb := array.NewExtensionBuilder(t, opts...)
	return &VariantBuilder{ExtensionBuilder: eb, typ: t, row: eb.StorageBuilder().(*array.StructBuilder)}
}

// Append appends a row of encoded metadata and value bytes (typed_value,
// if any, is null). The error, wrapping [array.ErrInvalid], reports a
// storage without a value field or with field builders that do not take
// bytes, or a full metadata dictionary.
func (b *VariantBuilder) Append(metadata, value []byte) error {
	if b.typ.value < 0 {
		return valuef(VariantName, "storage has no value field; build shredded rows through StorageBuilder")
	}
	mb, vb := bytesAppender(b.row.FieldBuilder(b.typ.meta)), bytesAppender(b.row.FieldBuilder(b.typ.value))
	if mb == nil || vb == nil {
		return valuef(VariantName, "storage field builders do not take bytes; build rows through StorageBuilder")
	}
	// The metadata goes first: a full dictionary fails before anything
	// else is appended.
	if err := mb(metadata); err != nil {
		return valuef(VariantName, "metadata: %v", err)
	}
	b.row.Append(true)
	if err := vb(value); err != nil {
		return valuef(VariantName, "value: %v", err)
	}
	if b.typ.typed >= 0 {
		b.row.FieldBuilder(b.typ.typed).AppendNull()
	}
	return nil
}

// bytesAppender returns a function appending bytes to a binary builder,
// or to a dictionary or run-end encoded builder of binary values; nil for
// other builders.
func bytesAppender(b array.Builder) func([]byte) error {
	plain := func(f func([]byte)) func([]byte) error {
		return func(v []byte) error { f(v); return nil }
	}
	switch b := b.(type) {
	case *array.BinaryBuilder[int32]:
		return plain(b.Append)
	case *array.BinaryBuilder[int64]:
		return plain(b.Append)
	case *array.BinaryViewBuilder:
		return plain(b.Append)
	case *array.DictionaryBuilder[string]:
		return b.AppendBytes
	case *array.RunEndEncodedBuilder:
		inner := bytesAppender(b.ValueBuilder())
		if inner == nil {
			return nil
		}
		return func(v []byte) error {
			if err := inner(v); err != nil {
				return err
			}
			b.Append()
			return nil
		}
	}
	return nil
}

// Finish returns the array built so far and resets the builder.
func (b *VariantBuilder) Finish() *VariantArray {
	return newVariantArray(b.ExtensionBuilder.Finish(), b.typ)
}

// NewArray is Finish as an [array.Array].
func (b *VariantBuilder) NewArray() array.Array { return b.Finish() }
