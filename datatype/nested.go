package datatype

import (
	"fmt"
	"strings"
)

// ListType covers the five list layouts: List, LargeList, ListView,
// LargeListView (variable size) and FixedSizeList (Size values each).
// The element is a full Field so that its name and metadata round-trip.
type ListType struct {
	kind Kind
	elem Field
	size int32 // FixedSizeList only
}

// newList keeps elem as given, its name included: an empty name is a
// name some writers give (the *Of constructors name the element "item").
func newList(k Kind, elem Field, size int32) *ListType {
	return &ListType{kind: k, elem: elem, size: size}
}

// ListOf returns list<item: t> with a nullable element.
func ListOf(t DataType) *ListType { return ListOfField(Field{Name: "item", Type: t, Nullable: true}) }

// ListOfField returns a list whose element is f, named exactly as f is
// (an empty name stays empty).
func ListOfField(f Field) *ListType { return newList(KindList, f, 0) }

// LargeListOf returns large_list<item: t> (64-bit offsets).
func LargeListOf(t DataType) *ListType {
	return LargeListOfField(Field{Name: "item", Type: t, Nullable: true})
}

// LargeListOfField returns a large list whose element is f.
func LargeListOfField(f Field) *ListType { return newList(KindLargeList, f, 0) }

// ListViewOf returns list_view<item: t> (32-bit offsets and sizes).
func ListViewOf(t DataType) *ListType {
	return ListViewOfField(Field{Name: "item", Type: t, Nullable: true})
}

// ListViewOfField returns a list view whose element is f.
func ListViewOfField(f Field) *ListType { return newList(KindListView, f, 0) }

// LargeListViewOf returns large_list_view<item: t> (64-bit offsets and sizes).
func LargeListViewOf(t DataType) *ListType {
	return LargeListViewOfField(Field{Name: "item", Type: t, Nullable: true})
}

// LargeListViewOfField returns a large list view whose element is f.
func LargeListViewOfField(f Field) *ListType { return newList(KindLargeListView, f, 0) }

// FixedSizeListOf returns fixed_size_list<item: t>[size].
func FixedSizeListOf(t DataType, size int32) (*ListType, error) {
	return FixedSizeListOfField(Field{Name: "item", Type: t, Nullable: true}, size)
}

// FixedSizeListOfField returns a fixed-size list whose element is f; the
// size must not be negative.
func FixedSizeListOfField(f Field, size int32) (*ListType, error) {
	if size < 0 {
		return nil, invalidf("fixed_size_list size %d is negative", size)
	}
	return newList(KindFixedSizeList, f, size), nil
}

// Kind is one of the list kinds.
func (t *ListType) Kind() Kind { return t.kind }

// Elem is the element field.
func (t *ListType) Elem() Field { return t.elem }

// Size is the number of elements per value of a fixed-size list (0 for
// the other list kinds).
func (t *ListType) Size() int32 { return t.size }

// String implements fmt.Stringer: the readable form of the ListType.
func (t *ListType) String() string {
	if t.kind == KindFixedSizeList {
		return fmt.Sprintf("fixed_size_list<%s>[%d]", t.elem, t.size)
	}
	return fmt.Sprintf("%s<%s>", t.kind, t.elem)
}

// StructType is a set of named child fields of equal length.
type StructType struct{ fields []Field }

// StructOf returns a struct of the fields (copied). Duplicate names are
// allowed, as in the spec.
func StructOf(fields ...Field) *StructType {
	return &StructType{fields: append([]Field(nil), fields...)}
}

// Kind is KindStruct.
func (*StructType) Kind() Kind { return KindStruct }

// Fields returns the child fields (a copy).
func (t *StructType) Fields() []Field { return append([]Field(nil), t.fields...) }

// NumFields is the number of children.
func (t *StructType) NumFields() int { return len(t.fields) }

// Field returns the i'th child field.
func (t *StructType) Field(i int) Field { return t.fields[i] }

// FieldIndex returns the index of the first child with the name, or -1.
func (t *StructType) FieldIndex(name string) int {
	for i, f := range t.fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// String implements fmt.Stringer: the readable form of the StructType.
func (t *StructType) String() string { return "struct<" + joinFields(t.fields) + ">" }

func joinFields(fs []Field) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.String()
	}
	return strings.Join(parts, ", ")
}

// MapType is a list of key–value entries, physically
// list<entries: struct<key, value>> with non-null entries and keys.
type MapType struct {
	entries    Field
	KeysSorted bool
}

// MapOf returns map<key, item> with the customary field names
// ("entries", "key", "value") and a nullable value.
func MapOf(key, item DataType, keysSorted bool) *MapType {
	m, _ := MapOfFields(Field{Name: "key", Type: key}, Field{Name: "value", Type: item, Nullable: true}, keysSorted)
	return m
}

// MapOfFields returns a map with the given key and value fields; the key
// must not be nullable.
func MapOfFields(key, item Field, keysSorted bool) (*MapType, error) {
	if key.Nullable {
		return nil, invalidf("map key field %q must not be nullable", key.Name)
	}
	return &MapType{entries: Field{Name: "entries", Type: StructOf(key, item)}, KeysSorted: keysSorted}, nil
}

// MapOfEntries returns a map whose entries field is given whole (as read
// from the wire, names kept). It must be a non-nullable struct of two
// fields whose first (the key) is not nullable.
func MapOfEntries(entries Field, keysSorted bool) (*MapType, error) {
	st, ok := entries.Type.(*StructType)
	if !ok || st.NumFields() != 2 {
		return nil, invalidf("map entries must be a struct of two fields, got %v", entries.Type)
	}
	if entries.Nullable {
		return nil, invalidf("map entries field %q must not be nullable", entries.Name)
	}
	if st.Field(0).Nullable {
		return nil, invalidf("map key field %q must not be nullable", st.Field(0).Name)
	}
	return &MapType{entries: entries, KeysSorted: keysSorted}, nil
}

// Kind is KindMap.
func (*MapType) Kind() Kind { return KindMap }

// Entries is the entries field: a struct of key and value.
func (t *MapType) Entries() Field { return t.entries }

// Key is the key field.
func (t *MapType) Key() Field { return t.entries.Type.(*StructType).fields[0] }

// Item is the value field.
func (t *MapType) Item() Field { return t.entries.Type.(*StructType).fields[1] }

// String implements fmt.Stringer: the readable form of the MapType.
func (t *MapType) String() string {
	s := fmt.Sprintf("map<%s, %s", t.Key().Type, t.Item().Type)
	if t.KeysSorted {
		s += ", keys_sorted"
	}
	return s + ">"
}

// UnionMode is sparse or dense.
type UnionMode uint8

// The union modes.
const (
	Sparse UnionMode = iota
	Dense
)

// UnionType is a sparse or dense union. Each child has a type code (an
// int8 in [0, 127]) that the array's type-id buffer uses to name it.
type UnionType struct {
	mode   UnionMode
	fields []Field
	codes  []int8
}

// NewUnion returns a union of the fields; codes gives each field's type
// code (nil means 0, 1, 2, …). Codes must be distinct and in [0, 127].
func NewUnion(mode UnionMode, fields []Field, codes []int8) (*UnionType, error) {
	if mode != Sparse && mode != Dense {
		return nil, invalidf("union mode %d", mode)
	}
	if codes == nil {
		if len(fields) > 128 {
			return nil, invalidf("union of %d fields (at most 128)", len(fields))
		}
		codes = make([]int8, len(fields))
		for i := range codes {
			codes[i] = int8(i)
		}
	}
	if len(codes) != len(fields) {
		return nil, invalidf("union has %d fields but %d type codes", len(fields), len(codes))
	}
	var seen [128]bool
	for _, c := range codes {
		if c < 0 {
			return nil, invalidf("union type code %d is negative", c)
		}
		if seen[c] {
			return nil, invalidf("union type code %d used twice", c)
		}
		seen[c] = true
	}
	return &UnionType{mode: mode, fields: append([]Field(nil), fields...), codes: append([]int8(nil), codes...)}, nil
}

// Kind is KindSparseUnion or KindDenseUnion.
func (t *UnionType) Kind() Kind {
	if t.mode == Dense {
		return KindDenseUnion
	}
	return KindSparseUnion
}

// Mode is sparse or dense.
func (t *UnionType) Mode() UnionMode { return t.mode }

// Fields returns the children (a copy).
func (t *UnionType) Fields() []Field { return append([]Field(nil), t.fields...) }

// NumFields is the number of children.
func (t *UnionType) NumFields() int { return len(t.fields) }

// Field returns the i'th child.
func (t *UnionType) Field(i int) Field { return t.fields[i] }

// TypeCodes returns each child's type code (a copy).
func (t *UnionType) TypeCodes() []int8 { return append([]int8(nil), t.codes...) }

// ChildIndex maps type codes to child indexes: entry c is the index of the
// child with code c, or -1 when no child has it.
func (t *UnionType) ChildIndex() [128]int {
	var m [128]int
	for i := range m {
		m[i] = -1
	}
	for i, c := range t.codes {
		m[c] = i
	}
	return m
}

// String implements fmt.Stringer: the readable form of the UnionType.
func (t *UnionType) String() string {
	parts := make([]string, len(t.fields))
	for i, f := range t.fields {
		parts[i] = fmt.Sprintf("%s=%d", f, t.codes[i])
	}
	return fmt.Sprintf("%s<%s>", t.Kind(), strings.Join(parts, ", "))
}

// DictionaryType is dictionary encoding: integer indices into a
// dictionary of Value-typed values.
type DictionaryType struct {
	Index   DataType
	Value   DataType
	Ordered bool
}

// NewDictionary returns a dictionary type; the index must be an integer
// type.
func NewDictionary(index, value DataType, ordered bool) (*DictionaryType, error) {
	if index == nil || !index.Kind().IsInteger() {
		return nil, invalidf("dictionary index type %v is not an integer type", index)
	}
	if value == nil {
		return nil, invalidf("dictionary value type is missing")
	}
	return &DictionaryType{Index: index, Value: value, Ordered: ordered}, nil
}

// Kind is KindDictionary.
func (*DictionaryType) Kind() Kind { return KindDictionary }

// String implements fmt.Stringer: the readable form of the DictionaryType.
func (t *DictionaryType) String() string {
	s := fmt.Sprintf("dictionary<values=%s, indices=%s", t.Value, t.Index)
	if t.Ordered {
		s += ", ordered"
	}
	return s + ">"
}

// RunEndEncodedType is run-end encoding: a child of run ends (int16, int32
// or int64, strictly increasing) and a child of values, one per run.
type RunEndEncodedType struct {
	runEnds Field
	values  Field
}

// NewRunEndEncoded returns run_end_encoded<run_ends: runEnds, values:
// values>; runEnds must be int16, int32 or int64.
func NewRunEndEncoded(runEnds, values DataType) (*RunEndEncodedType, error) {
	return NewRunEndEncodedFields(Field{Name: "run_ends", Type: runEnds}, Field{Name: "values", Type: values, Nullable: true})
}

// NewRunEndEncodedFields is [NewRunEndEncoded] with the two child fields
// given whole (as read from the wire). The run ends must not be nullable.
func NewRunEndEncodedFields(runEnds, values Field) (*RunEndEncodedType, error) {
	if runEnds.Type == nil {
		return nil, invalidf("run-end type is missing")
	}
	switch runEnds.Type.Kind() {
	case KindInt16, KindInt32, KindInt64:
	default:
		return nil, invalidf("run-end type %v (want int16, int32 or int64)", runEnds.Type)
	}
	if runEnds.Nullable {
		return nil, invalidf("run_ends field must not be nullable")
	}
	if values.Type == nil {
		return nil, invalidf("run-end encoded value type is missing")
	}
	return &RunEndEncodedType{runEnds: runEnds, values: values}, nil
}

// Kind is KindRunEndEncoded.
func (*RunEndEncodedType) Kind() Kind { return KindRunEndEncoded }

// RunEnds is the run-ends child field.
func (t *RunEndEncodedType) RunEnds() Field { return t.runEnds }

// Values is the values child field.
func (t *RunEndEncodedType) Values() Field { return t.values }

// String implements fmt.Stringer: the readable form of the RunEndEncodedType.
func (t *RunEndEncodedType) String() string {
	return fmt.Sprintf("run_end_encoded<run_ends: %s, values: %s>", t.runEnds.Type, t.values.Type)
}

// Children returns the child fields of a nested type in wire order (nil
// for types without children): list element, struct and union fields, the
// map's entries, run ends and values. Dictionary value types are not
// children: they travel in dictionary batches.
func Children(t DataType) []Field {
	switch t := t.(type) {
	case *ListType:
		return []Field{t.elem}
	case *StructType:
		return t.Fields()
	case *MapType:
		return []Field{t.entries}
	case *UnionType:
		return t.Fields()
	case *RunEndEncodedType:
		return []Field{t.runEnds, t.values}
	}
	return nil
}
