package extension

import (
	"strconv"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// Bool8Type is arrow.bool8: booleans stored one per byte as int8, 0 for
// false and any other value for true (1 when written here). Its metadata
// is empty.
type Bool8Type struct{}

// NewBool8Type returns the bool8 type.
func NewBool8Type() *Bool8Type { return &Bool8Type{} }

// Kind is [datatype.KindExtension].
func (*Bool8Type) Kind() datatype.Kind { return datatype.KindExtension }

// String is "extension<arrow.bool8>".
func (*Bool8Type) String() string { return "extension<" + Bool8Name + ">" }

// ExtensionName is "arrow.bool8".
func (*Bool8Type) ExtensionName() string { return Bool8Name }

// StorageType is int8.
func (*Bool8Type) StorageType() datatype.DataType { return datatype.Int8 }

// Serialize returns "".
func (*Bool8Type) Serialize() string { return "" }

// Deserialize checks that the storage is int8 and the metadata empty.
func (*Bool8Type) Deserialize(storage datatype.DataType, serialized string) (datatype.ExtensionType, error) {
	if err := checkStorage(Bool8Name, storage, datatype.Int8); err != nil {
		return nil, err
	}
	if err := checkEmpty(Bool8Name, serialized); err != nil {
		return nil, err
	}
	return &Bool8Type{}, nil
}

// ExtensionEqual reports whether other is the bool8 type.
func (*Bool8Type) ExtensionEqual(other datatype.ExtensionType) bool {
	_, ok := other.(*Bool8Type)
	return ok
}

// Bool8Array is an array of arrow.bool8.
type Bool8Array struct {
	*array.Extension
	values []int8
}

// NewBool8Array wraps an array of the [Bool8Type].
func NewBool8Array(a array.Array) (*Bool8Array, error) {
	e, _, err := asExtension[*Bool8Type](Bool8Name, a)
	if err != nil {
		return nil, err
	}
	return newBool8Array(e), nil
}

func newBool8Array(e *array.Extension) *Bool8Array {
	return &Bool8Array{Extension: e, values: e.Storage().(*array.Int8).Values()}
}

func (a *Bool8Array) extension() *array.Extension { return a.Extension }

// Value returns slot i's value: whether its byte is not zero (false for a
// null slot built here).
func (a *Bool8Array) Value(i int) bool { return a.values[i] != 0 }

// Values returns every slot's value (null slots as stored).
func (a *Bool8Array) Values() []bool {
	out := make([]bool, len(a.values))
	for i, v := range a.values {
		out[i] = v != 0
	}
	return out
}

// String prints the values: [true (null) false].
func (a *Bool8Array) String() string {
	return formatValues(a, func(i int) string { return strconv.FormatBool(a.Value(i)) })
}

// Bool8Builder builds a [Bool8Array].
type Bool8Builder struct {
	*array.ExtensionBuilder
	values *array.Int8Builder
}

// NewBool8Builder returns a builder of bool8 arrays.
func NewBool8Builder(opts ...array.BuilderOption) *Bool8Builder {
	eb := array.NewExtensionBuilder(NewBool8Type(), opts...)
	return &Bool8Builder{ExtensionBuilder: eb, values: eb.StorageBuilder().(*array.Int8Builder)}
}

// Append appends a boolean, stored as 1 or 0.
func (b *Bool8Builder) Append(v bool) {
	if v {
		b.values.Append(1)
	} else {
		b.values.Append(0)
	}
}

// AppendValues appends booleans; valid, when not nil, marks which are not
// null (it must be as long as vs).
func (b *Bool8Builder) AppendValues(vs []bool, valid []bool) {
	for i, v := range vs {
		if valid != nil && !valid[i] {
			b.values.AppendNull()
			continue
		}
		b.Append(v)
	}
}

// Finish returns the array built so far and resets the builder.
func (b *Bool8Builder) Finish() *Bool8Array { return newBool8Array(b.ExtensionBuilder.Finish()) }

// NewArray is Finish as an [array.Array].
func (b *Bool8Builder) NewArray() array.Array { return b.Finish() }
