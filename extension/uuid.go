package extension

import (
	"encoding/hex"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// UUID is a universally unique identifier: 16 bytes in big-endian
// (network) order, as arrow.uuid stores them. No version is implied.
type UUID [16]byte

// ParseUUID parses the canonical text form, 32 hexadecimal digits in
// groups of 8-4-4-4-12 separated by hyphens, in either case:
// "f81d4fae-7dec-11d0-a765-00a0c91e6bf6". Errors wrap
// [datatype.ErrInvalid].
func ParseUUID(s string) (UUID, error) {
	var u UUID
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return u, invalidf(UUIDName, "%q is not a UUID of the form xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", s)
	}
	j := 0
	for i := 0; i < 36; {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			i++
			continue
		}
		hi, ok1 := unhex(s[i])
		lo, ok2 := unhex(s[i+1])
		if !ok1 || !ok2 {
			return UUID{}, invalidf(UUIDName, "%q is not a UUID: %q is not a hexadecimal digit", s, nonHex(s[i], s[i+1], ok1))
		}
		u[j] = hi<<4 | lo
		j++
		i += 2
	}
	return u, nil
}

func nonHex(a, b byte, aOK bool) string {
	if !aOK {
		return string(a)
	}
	return string(b)
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// MustParseUUID is [ParseUUID] for constants; it panics on a bad string.
func MustParseUUID(s string) UUID {
	u, err := ParseUUID(s)
	if err != nil {
		panic(err)
	}
	return u
}

// String is the canonical lower-case text form
// "f81d4fae-7dec-11d0-a765-00a0c91e6bf6".
func (u UUID) String() string {
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return string(b[:])
}

// MarshalText returns the canonical text form.
func (u UUID) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText parses the canonical text form.
func (u *UUID) UnmarshalText(b []byte) error {
	v, err := ParseUUID(string(b))
	if err != nil {
		return err
	}
	*u = v
	return nil
}

// UUIDType is arrow.uuid: fixed_size_binary[16] storage holding UUIDs in
// big-endian byte order. Its metadata is empty.
type UUIDType struct{}

var uuidStorage, _ = datatype.NewFixedSizeBinary(16)

// NewUUIDType returns the UUID type.
func NewUUIDType() *UUIDType { return &UUIDType{} }

// Kind is [datatype.KindExtension].
func (*UUIDType) Kind() datatype.Kind { return datatype.KindExtension }

// String is "extension<arrow.uuid>".
func (*UUIDType) String() string { return "extension<" + UUIDName + ">" }

// ExtensionName is "arrow.uuid".
func (*UUIDType) ExtensionName() string { return UUIDName }

// StorageType is fixed_size_binary[16].
func (*UUIDType) StorageType() datatype.DataType { return uuidStorage }

// Serialize returns "".
func (*UUIDType) Serialize() string { return "" }

// Deserialize checks that the storage is fixed_size_binary[16] and the
// metadata empty.
func (*UUIDType) Deserialize(storage datatype.DataType, serialized string) (datatype.ExtensionType, error) {
	if err := checkStorage(UUIDName, storage, uuidStorage); err != nil {
		return nil, err
	}
	if err := checkEmpty(UUIDName, serialized); err != nil {
		return nil, err
	}
	return &UUIDType{}, nil
}

// checkStorage requires storage to equal want (and not be an extension).
func checkStorage(name string, storage, want datatype.DataType) error {
	if _, ext := storage.(datatype.ExtensionType); ext || !datatype.Equal(storage, want) {
		return invalidf(name, "storage must be %s, got %s", want, typeString(storage))
	}
	return nil
}

// checkEmpty requires empty metadata.
func checkEmpty(name, serialized string) error {
	if serialized != "" {
		return invalidf(name, "metadata must be empty, got %q", serialized)
	}
	return nil
}

// ExtensionEqual reports whether other is the UUID type.
func (*UUIDType) ExtensionEqual(other datatype.ExtensionType) bool {
	_, ok := other.(*UUIDType)
	return ok
}

// UUIDArray is an array of arrow.uuid.
type UUIDArray struct {
	*array.Extension
	values *array.FixedSizeBinary
}

// NewUUIDArray wraps an array of the [UUIDType].
func NewUUIDArray(a array.Array) (*UUIDArray, error) {
	e, _, err := asExtension[*UUIDType](UUIDName, a)
	if err != nil {
		return nil, err
	}
	return &UUIDArray{Extension: e, values: e.Storage().(*array.FixedSizeBinary)}, nil
}

func (a *UUIDArray) extension() *array.Extension { return a.Extension }

// Value returns slot i's UUID (the zero UUID for a null slot built here;
// unspecified for other null slots).
func (a *UUIDArray) Value(i int) UUID { return UUID(a.values.Value(i)) }

// Values returns the UUIDs of every slot (null slots as stored).
func (a *UUIDArray) Values() []UUID {
	out := make([]UUID, a.Len())
	for i := range out {
		out[i] = a.Value(i)
	}
	return out
}

// String prints the UUIDs in canonical form.
func (a *UUIDArray) String() string {
	return formatValues(a, func(i int) string { return a.Value(i).String() })
}

// UUIDBuilder builds a [UUIDArray].
type UUIDBuilder struct {
	*array.ExtensionBuilder
	values *array.FixedSizeBinaryBuilder
}

// NewUUIDBuilder returns a builder of UUID arrays.
func NewUUIDBuilder(opts ...array.BuilderOption) *UUIDBuilder {
	eb := array.NewExtensionBuilder(NewUUIDType(), opts...)
	return &UUIDBuilder{ExtensionBuilder: eb, values: eb.StorageBuilder().(*array.FixedSizeBinaryBuilder)}
}

// Append appends a UUID.
func (b *UUIDBuilder) Append(u UUID) { b.values.Append(u[:]) }

// AppendValues appends UUIDs; valid, when not nil, marks which are not
// null (it must be as long as vs).
func (b *UUIDBuilder) AppendValues(vs []UUID, valid []bool) {
	for i, u := range vs {
		if valid != nil && !valid[i] {
			b.values.AppendNull()
			continue
		}
		b.values.Append(u[:])
	}
}

// AppendString parses the canonical text form and appends the UUID; on
// error nothing is appended.
func (b *UUIDBuilder) AppendString(s string) error {
	u, err := ParseUUID(s)
	if err != nil {
		return err
	}
	b.Append(u)
	return nil
}

// Finish returns the array built so far and resets the builder.
func (b *UUIDBuilder) Finish() *UUIDArray {
	e := b.ExtensionBuilder.Finish()
	return &UUIDArray{Extension: e, values: e.Storage().(*array.FixedSizeBinary)}
}

// NewArray is Finish as an [array.Array].
func (b *UUIDBuilder) NewArray() array.Array { return b.Finish() }
