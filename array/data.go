package array

import (
	"fmt"

	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// ErrInvalid is datatype.ErrInvalid, wrapped by every validation error
// and every error about arrays that do not fit together.
var ErrInvalid = datatype.ErrInvalid

// ErrNotSupported is datatype.ErrNotSupported, wrapped by the errors about
// types a builder cannot build.
var ErrNotSupported = datatype.ErrNotSupported

// UnknownNullCount asks [NewData] to count the nulls from the bitmap.
const UnknownNullCount = -1

// Data is the physical description of an array: its type, length, offset
// into the buffers, null count, buffers (in the order of the type's
// layout, nil for an absent one), children and, for dictionary arrays, the
// dictionary. Data is immutable once built and safe to share between
// goroutines and arrays; slicing moves Offset and shares everything else.
type Data struct {
	Type       datatype.DataType
	Length     int
	Offset     int
	NullCount  int
	Buffers    []*memory.Buffer
	Children   []*Data
	Dictionary *Data
}

// NewData builds a Data. With nulls == UnknownNullCount the nulls are
// counted from the validity bitmap (types without one count as having
// none, except null arrays whose every slot is null).
func NewData(t datatype.DataType, length int, buffers []*memory.Buffer, children []*Data, nulls, offset int) *Data {
	d := &Data{Type: t, Length: length, Offset: offset, NullCount: nulls, Buffers: buffers, Children: children}
	if nulls == UnknownNullCount {
		d.NullCount = countNulls(d)
	}
	return d
}

func countNulls(d *Data) int {
	switch datatype.StorageOf(d.Type).Kind() {
	case datatype.KindNull:
		return d.Length
	case datatype.KindSparseUnion, datatype.KindDenseUnion, datatype.KindRunEndEncoded:
		return 0
	}
	if len(d.Buffers) == 0 || d.Buffers[0] == nil {
		return 0
	}
	b := d.Buffers[0].Bytes()
	if len(b)*8 < d.Offset+d.Length {
		return 0 // structurally invalid; Validate reports it
	}
	return d.Length - bitutil.CountSetBits(b, d.Offset, d.Length)
}

// Slice returns the data of rows [i, j), sharing buffers. It panics when
// the range is out of bounds (a programmer error).
func (d *Data) Slice(i, j int) *Data {
	if i < 0 || j < i || j > d.Length {
		panic(fmt.Sprintf("array: slice [%d:%d] of length %d", i, j, d.Length))
	}
	out := *d
	out.Offset = d.Offset + i
	out.Length = j - i
	switch {
	case d.NullCount == 0 || j-i == d.Length:
	case datatype.StorageOf(d.Type).Kind() == datatype.KindNull:
		out.NullCount = j - i
	default:
		out.NullCount = countNulls(&out)
	}
	return &out
}

// validity returns the validity bitmap bytes, or nil when there is none or
// no slot is null.
func (d *Data) validity() []byte {
	if d.NullCount == 0 || len(d.Buffers) == 0 {
		return nil
	}
	return d.Buffers[0].Bytes()
}

// Array is an immutable, typed view of a [Data]. Every array type of this
// package implements it; the concrete types add typed accessors.
type Array interface {
	// DataType is the array's logical type.
	DataType() datatype.DataType
	// Len is the number of slots.
	Len() int
	// NullN is the number of null slots.
	NullN() int
	// IsNull reports whether slot i is null.
	IsNull(i int) bool
	// IsValid reports whether slot i holds a value.
	IsValid(i int) bool
	// Data is the physical description.
	Data() *Data
	// String prints the values, e.g. "[1 (null) 3]".
	String() string
}

// base implements the parts of Array common to every layout.
type base struct {
	data  *Data
	valid []byte // validity bytes, nil when no slot is null
}

func (b *base) init(d *Data) {
	b.data = d
	b.valid = d.validity()
}

func (b *base) DataType() datatype.DataType { return b.data.Type }
func (b *base) Len() int                    { return b.data.Length }
func (b *base) NullN() int                  { return b.data.NullCount }
func (b *base) Data() *Data                 { return b.data }

func (b *base) IsNull(i int) bool {
	return b.valid != nil && !bitutil.GetBit(b.valid, b.data.Offset+i)
}

func (b *base) IsValid(i int) bool { return !b.IsNull(i) }

// Make builds the array of the right concrete type for d, after the cheap
// structural checks of [ValidateStructure] (buffer counts and sizes, child
// counts and lengths). It reads no values: the offsets, view lengths,
// dictionary indices, type codes and run ends that accessors trust are
// checked by [ValidateSafe] (the readers' default level), and the spec's
// other value rules (UTF-8, null counts, decimal precision, …) by
// [ValidateFull]. Data from outside the process must pass ValidateSafe
// before its array is used.
func Make(d *Data) (Array, error) {
	if err := validateAtStructure(d); err != nil {
		return nil, err
	}
	return makeArray(d), nil
}

// MustMake is [Make] for data known to be valid (built by this package);
// it panics on invalid data.
func MustMake(d *Data) Array {
	a, err := Make(d)
	if err != nil {
		panic(err)
	}
	return a
}

// makeArray picks the concrete array type; d must be structurally valid.
func makeArray(d *Data) Array {
	switch t := d.Type.(type) {
	case datatype.ExtensionType:
		return newExtension(d, t)
	}
	switch d.Type.Kind() {
	case datatype.KindNull:
		return newNull(d)
	case datatype.KindBool:
		return newBoolean(d)
	case datatype.KindFixedSizeBinary:
		return newFixedSizeBinary(d)
	case datatype.KindBinary, datatype.KindString:
		return newBinary[int32](d)
	case datatype.KindLargeBinary, datatype.KindLargeString:
		return newBinary[int64](d)
	case datatype.KindBinaryView, datatype.KindStringView:
		return newBinaryView(d)
	case datatype.KindList:
		return newList[int32](d)
	case datatype.KindLargeList:
		return newList[int64](d)
	case datatype.KindMap:
		return newMap(d)
	case datatype.KindListView:
		return newListView[int32](d)
	case datatype.KindLargeListView:
		return newListView[int64](d)
	case datatype.KindFixedSizeList:
		return newFixedSizeList(d)
	case datatype.KindStruct:
		return newStruct(d)
	case datatype.KindSparseUnion, datatype.KindDenseUnion:
		return newUnion(d)
	case datatype.KindDictionary:
		return newDictionary(d)
	case datatype.KindRunEndEncoded:
		return newRunEndEncoded(d)
	}
	return makePrimitive(d)
}

// Slice returns rows [i, j) of a as a new array sharing a's buffers.
// It panics when the range is out of bounds (a programmer error).
func Slice(a Array, i, j int) Array { return makeArray(a.Data().Slice(i, j)) }

func invalidf(format string, args ...any) error {
	return fmt.Errorf("array: %w: "+format, append([]any{ErrInvalid}, args...)...)
}
