package extension

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// The registered names of the canonical extension types.
const (
	FixedShapeTensorName    = "arrow.fixed_shape_tensor"
	VariableShapeTensorName = "arrow.variable_shape_tensor"
	JSONName                = "arrow.json"
	UUIDName                = "arrow.uuid"
	OpaqueName              = "arrow.opaque"
	Bool8Name               = "arrow.bool8"
	VariantName             = "arrow.parquet.variant"
)

// Names returns the names of the canonical extension types this package
// registers, in the order of spec 002.
func Names() []string {
	return []string{FixedShapeTensorName, VariableShapeTensorName, JSONName, UUIDName, OpaqueName, Bool8Name, VariantName}
}

// init registers one prototype per canonical type. The registry only uses
// a prototype's Deserialize, which ignores the receiver's parameters. A
// name someone registered before this package was initialised is left
// to them.
func init() {
	for _, t := range []datatype.ExtensionType{
		&FixedShapeTensorType{}, &VariableShapeTensorType{}, &JSONType{storage: datatype.String},
		&UUIDType{}, &OpaqueType{storage: datatype.Null}, &Bool8Type{}, NewVariantType(),
	} {
		_ = datatype.RegisterExtension(t)
	}
}

// invalidf is the error about an invalid type parameter, storage type or
// metadata string of the named extension: it wraps [datatype.ErrInvalid].
func invalidf(name, format string, args ...any) error {
	return fmt.Errorf("extension: %w: %s: "+format, append([]any{datatype.ErrInvalid, name}, args...)...)
}

// valuef is the error about an invalid value of an array of the named
// extension: it wraps [array.ErrInvalid].
func valuef(name, format string, args ...any) error {
	return fmt.Errorf("extension: %w: %s: "+format, append([]any{array.ErrInvalid, name}, args...)...)
}

// Wrap returns the typed array of this package for an array of one of
// the canonical extension types (a [*UUIDArray] for arrow.uuid, …), as
// read from IPC or built with [array.NewExtension]; other arrays are
// returned unchanged. It checks the type only, in O(1); the values are
// checked by each typed array's ValidateFull.
func Wrap(a array.Array) (array.Array, error) {
	switch a.DataType().(type) {
	case *FixedShapeTensorType:
		return NewFixedShapeTensorArray(a)
	case *VariableShapeTensorType:
		return NewVariableShapeTensorArray(a)
	case *JSONType:
		return NewJSONArray(a)
	case *UUIDType:
		return NewUUIDArray(a)
	case *OpaqueType:
		return NewOpaqueArray(a)
	case *Bool8Type:
		return NewBool8Array(a)
	case *VariantType:
		return NewVariantArray(a)
	}
	return a, nil
}

// ValidateFull checks an array of one of the canonical extension types:
// the storage with [array.ValidateFull], then the values with the typed
// array's own rules (valid JSON, tensor shapes that match their data, …).
// Arrays of other types get [array.ValidateFull] only.
func ValidateFull(a array.Array) error {
	return array.Validate(a.Data(), array.ValidateFull)
}

// validateWrapped checks the type's value rules on a valid storage; the
// types with such rules implement array.ValueValidator with it, so that
// array.ValidateFull (and readers validating fully) apply them.
func validateWrapped(a array.Array) error {
	w, err := Wrap(a)
	if err != nil {
		return err
	}
	if v, ok := w.(interface{ validateValues() error }); ok {
		return v.validateValues()
	}
	return nil
}

// asExtension returns a as an *array.Extension of type T.
func asExtension[T datatype.ExtensionType](name string, a array.Array) (*array.Extension, T, error) {
	var zero T
	t, ok := a.DataType().(T)
	if !ok {
		return nil, zero, invalidf(name, "array of type %s is not an %s array", a.DataType(), name)
	}
	if e, ok := a.(*array.Extension); ok {
		return e, t, nil
	}
	if e, ok := a.(interface{ extension() *array.Extension }); ok {
		return e.extension(), t, nil
	}
	m, err := array.Make(a.Data())
	if err != nil {
		return nil, zero, err
	}
	e, ok := m.(*array.Extension)
	if !ok {
		return nil, zero, invalidf(name, "array of type %s is not an extension array", a.DataType())
	}
	return e, t, nil
}

// formatValues prints n slots as "[v0 v1 (null) …]", like the array
// package, with each valid slot formatted by f.
func formatValues(a array.Array, f func(i int) string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range a.Len() {
		if i > 0 {
			b.WriteByte(' ')
		}
		if a.IsNull(i) {
			b.WriteString("(null)")
			continue
		}
		b.WriteString(f(i))
	}
	b.WriteByte(']')
	return b.String()
}

// parseObject parses metadata that must be a JSON object into its
// members. An empty string is an empty object when emptyOK.
func parseObject(name, s string, emptyOK bool) (map[string]json.RawMessage, error) {
	if s == "" && emptyOK {
		return map[string]json.RawMessage{}, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &m); err != nil || m == nil {
		return nil, invalidf(name, "metadata %q is not a JSON object", s)
	}
	return m, nil
}

// onlyKeys rejects members other than the allowed ones.
func onlyKeys(name string, m map[string]json.RawMessage, allowed ...string) error {
	for k := range m {
		found := false
		for _, a := range allowed {
			found = found || k == a
		}
		if !found {
			return invalidf(name, "metadata has unknown key %q", k)
		}
	}
	return nil
}

// parseInts parses a JSON array of integers; null elements are allowed
// (and returned as -1) when nullOK.
func parseInts(name, key string, raw json.RawMessage, nullOK bool) ([]int, error) {
	var elems []json.RawMessage
	what := "integers"
	if nullOK {
		what = "integers or nulls"
	}
	if err := json.Unmarshal(raw, &elems); err != nil || elems == nil {
		return nil, invalidf(name, "metadata %q is not an array of %s", key, what)
	}
	out := make([]int, len(elems))
	for i, e := range elems {
		s := string(e)
		if s == "null" && nullOK {
			out[i] = -1
			continue
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v < 0 {
			return nil, invalidf(name, "metadata %q element %d is %s, not a non-negative integer", key, i, s)
		}
		if v > maxDim {
			return nil, invalidf(name, "metadata %q element %d is %d, more than %d", key, i, v, maxDim)
		}
		out[i] = int(v)
	}
	return out, nil
}

// parseStrings parses a JSON array of strings.
func parseStrings(name, key string, raw json.RawMessage) ([]string, error) {
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil || elems == nil {
		return nil, invalidf(name, "metadata %q is not an array of strings", key)
	}
	out := make([]string, len(elems))
	for i, e := range elems {
		if err := json.Unmarshal(e, &out[i]); err != nil || e[0] != '"' {
			return nil, invalidf(name, "metadata %q element %d is %s, not a string", key, i, e)
		}
	}
	return out, nil
}

// jsonString quotes s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// ValidateValues implements array.ValueValidator: every value parses as
// JSON.
func (t *JSONType) ValidateValues(a array.Array) error { return validateWrapped(a) }

// ValidateValues implements array.ValueValidator: each row's shape matches
// its data and the uniform dimensions.
func (t *VariableShapeTensorType) ValidateValues(a array.Array) error { return validateWrapped(a) }

// ValidateValues implements array.ValueValidator: the variant's nested
// rules hold row by row.
func (t *VariantType) ValidateValues(a array.Array) error { return validateWrapped(a) }
