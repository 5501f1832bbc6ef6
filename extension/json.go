package extension

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// JSONType is arrow.json: UTF-8 JSON texts (RFC 8259) stored as utf8,
// large_utf8 or utf8_view. Its metadata is "" or a JSON object; this
// package writes "" and keeps an object it read, unchanged, for fields
// later versions of the spec may add.
type JSONType struct {
	storage  datatype.DataType
	metadata string
}

// NewJSONType returns the JSON type over the storage: [datatype.String],
// [datatype.LargeString] or [datatype.StringView]. Errors wrap
// [datatype.ErrInvalid].
func NewJSONType(storage datatype.DataType) (*JSONType, error) {
	if storage == nil {
		return nil, invalidf(JSONName, "storage must be utf8, large_utf8 or utf8_view, got <nil>")
	}
	switch storage.Kind() {
	case datatype.KindString, datatype.KindLargeString, datatype.KindStringView:
		if _, ext := storage.(datatype.ExtensionType); !ext {
			return &JSONType{storage: storage}, nil
		}
	}
	return nil, invalidf(JSONName, "storage must be utf8, large_utf8 or utf8_view, got %s", storage)
}

// Kind is [datatype.KindExtension].
func (*JSONType) Kind() datatype.Kind { return datatype.KindExtension }

// String is "extension<arrow.json>" over utf8, else e.g.
// "extension<arrow.json[storage=large_utf8]>".
func (t *JSONType) String() string {
	if t.storage == nil || t.storage.Kind() == datatype.KindString {
		return "extension<" + JSONName + ">"
	}
	return "extension<" + JSONName + "[storage=" + t.storage.String() + "]>"
}

// ExtensionName is "arrow.json".
func (*JSONType) ExtensionName() string { return JSONName }

// StorageType is utf8, large_utf8 or utf8_view.
func (t *JSONType) StorageType() datatype.DataType { return t.storage }

// Serialize returns "" for a type made here, or the metadata object the
// type was read with.
func (t *JSONType) Serialize() string { return t.metadata }

// Deserialize checks the storage and the metadata: "" or a JSON object
// (any members; none is needed to read the data).
func (*JSONType) Deserialize(storage datatype.DataType, serialized string) (datatype.ExtensionType, error) {
	t, err := NewJSONType(storage)
	if err != nil {
		return nil, err
	}
	if _, err := parseObject(JSONName, serialized, true); err != nil {
		return nil, err
	}
	t.metadata = serialized
	return t, nil
}

// ExtensionEqual reports whether other is a JSON type (the metadata has
// no parameters to compare; storage types are compared separately).
func (*JSONType) ExtensionEqual(other datatype.ExtensionType) bool {
	_, ok := other.(*JSONType)
	return ok
}

// JSONArray is an array of arrow.json.
type JSONArray struct {
	*array.Extension
	str func(i int) string
}

// NewJSONArray wraps an array of a [JSONType]. It checks the type only;
// ValidateFull checks that every value is valid JSON.
func NewJSONArray(a array.Array) (*JSONArray, error) {
	e, _, err := asExtension[*JSONType](JSONName, a)
	if err != nil {
		return nil, err
	}
	return newJSONArray(e), nil
}

func newJSONArray(e *array.Extension) *JSONArray {
	out := &JSONArray{Extension: e}
	switch s := e.Storage().(type) {
	case *array.Binary[int32]:
		out.str = s.ValueString
	case *array.Binary[int64]:
		out.str = s.ValueString
	case *array.BinaryView:
		out.str = s.ValueString
	}
	return out
}

func (a *JSONArray) extension() *array.Extension { return a.Extension }

// ValueString returns slot i's JSON text ("" for a null slot).
func (a *JSONArray) ValueString(i int) string { return a.str(i) }

// Value returns slot i's JSON text as a [json.RawMessage] (nil for a null
// slot), a copy that may be kept and modified.
func (a *JSONArray) Value(i int) json.RawMessage {
	if a.IsNull(i) {
		return nil
	}
	return json.RawMessage(a.str(i))
}

// Unmarshal decodes slot i's JSON into v, as [json.Unmarshal] does; a
// null slot decodes as the JSON null.
func (a *JSONArray) Unmarshal(i int, v any) error {
	if a.IsNull(i) {
		return json.Unmarshal([]byte("null"), v)
	}
	return json.Unmarshal([]byte(a.str(i)), v)
}

// ValidateFull checks that every non-null value is valid UTF-8 JSON
// (RFC 8259). Errors wrap [array.ErrInvalid].
func (a *JSONArray) ValidateFull() error { return a.validateValues() }

func (a *JSONArray) validateValues() error {
	for i := range a.Len() {
		if a.IsNull(i) {
			continue
		}
		if err := checkJSON(a.str(i)); err != nil {
			return valuef(JSONName, "slot %d: %v", i, err)
		}
	}
	return nil
}

type jsonError string

func (e jsonError) Error() string { return string(e) }

func checkJSON(s string) error {
	if !utf8.ValidString(s) {
		return jsonError("value is not valid UTF-8")
	}
	if !json.Valid([]byte(s)) {
		var v any
		err := json.Unmarshal([]byte(s), &v)
		if err == nil {
			return jsonError("value is not valid JSON")
		}
		return jsonError("value is not valid JSON: " + err.Error())
	}
	return nil
}

// String prints the JSON texts unquoted: [{"a":1} (null) [2,3]].
func (a *JSONArray) String() string { return formatValues(a, a.str) }

// JSONBuilder builds a [JSONArray], checking each value.
type JSONBuilder struct {
	*array.ExtensionBuilder
	add func(string)
}

// NewJSONBuilder returns a builder of arrays of t.
func NewJSONBuilder(t *JSONType, opts ...array.BuilderOption) *JSONBuilder {
	eb := array.NewExtensionBuilder(t, opts...)
	b := &JSONBuilder{ExtensionBuilder: eb}
	switch s := eb.StorageBuilder().(type) {
	case *array.BinaryBuilder[int32]:
		b.add = s.AppendString
	case *array.BinaryBuilder[int64]:
		b.add = s.AppendString
	case *array.BinaryViewBuilder:
		b.add = s.AppendString
	}
	return b
}

// Append appends a JSON text. The error, wrapping [array.ErrInvalid],
// reports text that is not valid JSON; nothing is appended then.
func (b *JSONBuilder) Append(v json.RawMessage) error { return b.AppendString(string(v)) }

// AppendString appends a JSON text given as a string, checking it like
// Append.
func (b *JSONBuilder) AppendString(s string) error {
	if err := checkJSON(s); err != nil {
		return valuef(JSONName, "%v", err)
	}
	b.add(s)
	return nil
}

// AppendValue appends the JSON encoding of v ([json.Marshal]).
func (b *JSONBuilder) AppendValue(v any) error {
	enc, err := json.Marshal(v)
	if err != nil {
		return valuef(JSONName, "%v", err)
	}
	b.add(string(enc))
	return nil
}

// Finish returns the array built so far and resets the builder.
func (b *JSONBuilder) Finish() *JSONArray { return newJSONArray(b.ExtensionBuilder.Finish()) }

// NewArray is Finish as an [array.Array].
func (b *JSONBuilder) NewArray() array.Array { return b.Finish() }
