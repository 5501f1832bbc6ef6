package array

import (
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// FixedWidth is the set of Go value types stored one per slot in a single
// values buffer: the Go numbers and the named types of package datatype.
type FixedWidth interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64 |
		datatype.DayTimeInterval | datatype.MonthDayNanoInterval | datatype.Decimal128 | datatype.Decimal256
}

// Primitive is an array of fixed-width values of Go type T: every integer,
// float, decimal, date, time, timestamp, duration and interval type.
//
//	validity  [1 0 1 1]    one bit per slot (absent when no nulls)
//	values    [v0 v1 v2 v3] len(T) bytes per slot; null slots hold anything
type Primitive[T FixedWidth] struct {
	base
	values []T
}

// Aliases for the common primitive arrays.
type (
	Int8          = Primitive[int8]
	Int16         = Primitive[int16]
	Int32         = Primitive[int32]
	Int64         = Primitive[int64]
	Uint8         = Primitive[uint8]
	Uint16        = Primitive[uint16]
	Uint32        = Primitive[uint32]
	Uint64        = Primitive[uint64]
	Float16       = Primitive[datatype.Float16]
	Float32       = Primitive[float32]
	Float64       = Primitive[float64]
	Date32        = Primitive[datatype.Date32]
	Date64        = Primitive[datatype.Date64]
	Time32        = Primitive[datatype.Time32]
	Time64        = Primitive[datatype.Time64]
	Timestamp     = Primitive[datatype.Timestamp]
	Duration      = Primitive[datatype.Duration]
	Decimal32     = Primitive[datatype.Decimal32]
	Decimal64     = Primitive[datatype.Decimal64]
	Decimal128    = Primitive[datatype.Decimal128]
	Decimal256    = Primitive[datatype.Decimal256]
	MonthInterval = Primitive[datatype.MonthInterval]
	DayTime       = Primitive[datatype.DayTimeInterval]
	MonthDayNano  = Primitive[datatype.MonthDayNanoInterval]
)

func newPrimitive[T FixedWidth](d *Data) *Primitive[T] {
	a := &Primitive[T]{}
	a.init(d)
	all := memory.View[T](d.Buffers[1])
	a.values = all[d.Offset : d.Offset+d.Length : d.Offset+d.Length]
	return a
}

// Value returns slot i's value (unspecified for a null slot).
func (a *Primitive[T]) Value(i int) T { return a.values[i] }

// Values returns the values of every slot without copying; null slots
// hold unspecified values. Do not modify the slice.
func (a *Primitive[T]) Values() []T { return a.values }

// String prints the values.
func (a *Primitive[T]) String() string { return Format(a) }

// makePrimitive maps a fixed-width kind to its Go value type.
func makePrimitive(d *Data) Array {
	switch d.Type.Kind() {
	case datatype.KindInt8:
		return newPrimitive[int8](d)
	case datatype.KindInt16:
		return newPrimitive[int16](d)
	case datatype.KindInt32:
		return newPrimitive[int32](d)
	case datatype.KindInt64:
		return newPrimitive[int64](d)
	case datatype.KindUint8:
		return newPrimitive[uint8](d)
	case datatype.KindUint16:
		return newPrimitive[uint16](d)
	case datatype.KindUint32:
		return newPrimitive[uint32](d)
	case datatype.KindUint64:
		return newPrimitive[uint64](d)
	case datatype.KindFloat16:
		return newPrimitive[datatype.Float16](d)
	case datatype.KindFloat32:
		return newPrimitive[float32](d)
	case datatype.KindFloat64:
		return newPrimitive[float64](d)
	case datatype.KindDecimal32:
		return newPrimitive[datatype.Decimal32](d)
	case datatype.KindDecimal64:
		return newPrimitive[datatype.Decimal64](d)
	case datatype.KindDecimal128:
		return newPrimitive[datatype.Decimal128](d)
	case datatype.KindDecimal256:
		return newPrimitive[datatype.Decimal256](d)
	case datatype.KindDate32:
		return newPrimitive[datatype.Date32](d)
	case datatype.KindDate64:
		return newPrimitive[datatype.Date64](d)
	case datatype.KindTime32:
		return newPrimitive[datatype.Time32](d)
	case datatype.KindTime64:
		return newPrimitive[datatype.Time64](d)
	case datatype.KindTimestamp:
		return newPrimitive[datatype.Timestamp](d)
	case datatype.KindDuration:
		return newPrimitive[datatype.Duration](d)
	case datatype.KindMonthInterval:
		return newPrimitive[datatype.MonthInterval](d)
	case datatype.KindDayTimeInterval:
		return newPrimitive[datatype.DayTimeInterval](d)
	case datatype.KindMonthDayNanoInterval:
		return newPrimitive[datatype.MonthDayNanoInterval](d)
	}
	panic("array: no array for type " + d.Type.String())
}

// Boolean is an array of bits.
//
//	validity [1 0 1]   values [1 0 0] (bit-packed, LSB first)
type Boolean struct {
	base
	bits []byte
}

func newBoolean(d *Data) *Boolean {
	a := &Boolean{bits: d.Buffers[1].Bytes()}
	a.init(d)
	return a
}

// Value returns slot i's value (unspecified for a null slot).
func (a *Boolean) Value(i int) bool { return bitutil.GetBit(a.bits, a.data.Offset+i) }

// Bitmap returns the values bitmap and the bit offset of slot 0.
func (a *Boolean) Bitmap() ([]byte, int) { return a.bits, a.data.Offset }

// String prints the values.
func (a *Boolean) String() string { return Format(a) }

// Null is an array whose every slot is null; it has no buffers.
type Null struct{ base }

func newNull(d *Data) *Null {
	a := &Null{}
	a.data = d
	return a
}

// NewNull returns a null array of n slots.
func NewNull(n int) *Null { return newNull(&Data{Type: datatype.Null, Length: n, NullCount: n}) }

// IsNull is true for every slot.
func (a *Null) IsNull(int) bool { return true }

// IsValid is false for every slot.
func (a *Null) IsValid(int) bool { return false }

// String prints the values.
func (a *Null) String() string { return Format(a) }

// FixedSizeBinary is an array of byte strings of one fixed width.
type FixedSizeBinary struct {
	base
	width int
	bytes []byte
}

func newFixedSizeBinary(d *Data) *FixedSizeBinary {
	w := datatype.StorageOf(d.Type).(*datatype.FixedSizeBinaryType).ByteWidth
	a := &FixedSizeBinary{width: w, bytes: d.Buffers[1].Bytes()}
	a.init(d)
	return a
}

// Value returns slot i's bytes without copying; do not modify them.
func (a *FixedSizeBinary) Value(i int) []byte {
	off := (a.data.Offset + i) * a.width
	return a.bytes[off : off+a.width : off+a.width]
}

// Width is the byte width of every value.
func (a *FixedSizeBinary) Width() int { return a.width }

// String prints the values.
func (a *FixedSizeBinary) String() string { return Format(a) }
