package datatype

import "fmt"

// DataType is a logical type of the spec's type table. Values are
// immutable and safe to share; compare them with [Equal], not ==.
type DataType interface {
	// Kind identifies the type, without its parameters.
	Kind() Kind
	// String is a readable form such as "list<item: int32>" or
	// "timestamp[ms, tz=UTC]".
	String() string
}

// primitive is a parameterless type; there is one value of it per kind.
type primitive struct{ kind Kind }

func (p *primitive) Kind() Kind     { return p.kind }
func (p *primitive) String() string { return p.kind.String() }

// The parameterless types. These values are shared; do not modify them.
var (
	Null                     DataType = &primitive{KindNull}
	Bool                     DataType = &primitive{KindBool}
	Int8                     DataType = &primitive{KindInt8}
	Int16                    DataType = &primitive{KindInt16}
	Int32                    DataType = &primitive{KindInt32}
	Int64                    DataType = &primitive{KindInt64}
	Uint8                    DataType = &primitive{KindUint8}
	Uint16                   DataType = &primitive{KindUint16}
	Uint32                   DataType = &primitive{KindUint32}
	Uint64                   DataType = &primitive{KindUint64}
	Float16Type              DataType = &primitive{KindFloat16}
	Float32                  DataType = &primitive{KindFloat32}
	Float64                  DataType = &primitive{KindFloat64}
	Date32Type               DataType = &primitive{KindDate32}
	Date64Type               DataType = &primitive{KindDate64}
	MonthIntervalType        DataType = &primitive{KindMonthInterval}
	DayTimeIntervalType      DataType = &primitive{KindDayTimeInterval}
	MonthDayNanoIntervalType DataType = &primitive{KindMonthDayNanoInterval}
	Binary                   DataType = &primitive{KindBinary}
	String                   DataType = &primitive{KindString}
	LargeBinary              DataType = &primitive{KindLargeBinary}
	LargeString              DataType = &primitive{KindLargeString}
	BinaryView               DataType = &primitive{KindBinaryView}
	StringView               DataType = &primitive{KindStringView}
)

// Primitive returns the shared parameterless type of kind k, or nil when
// k needs parameters.
func Primitive(k Kind) DataType {
	for _, t := range []DataType{Null, Bool, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64,
		Float16Type, Float32, Float64, Date32Type, Date64Type, MonthIntervalType, DayTimeIntervalType,
		MonthDayNanoIntervalType, Binary, String, LargeBinary, LargeString, BinaryView, StringView} {
		if t.Kind() == k {
			return t
		}
	}
	return nil
}

// IntType returns the integer type of the given bit width (8, 16, 32, 64)
// and signedness.
func IntType(bitWidth int, signed bool) (DataType, error) {
	var t DataType
	switch bitWidth {
	case 8:
		t = pick(signed, Int8, Uint8)
	case 16:
		t = pick(signed, Int16, Uint16)
	case 32:
		t = pick(signed, Int32, Uint32)
	case 64:
		t = pick(signed, Int64, Uint64)
	default:
		return nil, invalidf("integer bit width %d (want 8, 16, 32 or 64)", bitWidth)
	}
	return t, nil
}

func pick(c bool, a, b DataType) DataType {
	if c {
		return a
	}
	return b
}

// TimeUnit is the resolution of times, timestamps and durations.
type TimeUnit uint8

// The time units.
const (
	Second TimeUnit = iota
	Millisecond
	Microsecond
	Nanosecond
)

var unitNames = [...]string{"s", "ms", "us", "ns"}

// String is "s", "ms", "us" or "ns".
func (u TimeUnit) String() string {
	if int(u) < len(unitNames) {
		return unitNames[u]
	}
	return fmt.Sprintf("unit(%d)", uint8(u))
}

// PerSecond is the number of units in one second.
func (u TimeUnit) PerSecond() int64 {
	return [...]int64{1, 1e3, 1e6, 1e9}[u&3]
}

func (u TimeUnit) valid() bool { return u <= Nanosecond }

// TimeType is a time of day: Time32 in seconds or milliseconds, Time64 in
// microseconds or nanoseconds.
type TimeType struct{ Unit TimeUnit }

// NewTime returns the time-of-day type of the unit: Time32 for s and ms,
// Time64 for us and ns.
func NewTime(unit TimeUnit) (*TimeType, error) {
	if !unit.valid() {
		return nil, invalidf("time unit %d", unit)
	}
	return &TimeType{Unit: unit}, nil
}

// Kind is KindTime32 or KindTime64, depending on the unit.
func (t *TimeType) Kind() Kind {
	if t.Unit <= Millisecond {
		return KindTime32
	}
	return KindTime64
}

// String implements fmt.Stringer: the readable form of the TimeType.
func (t *TimeType) String() string { return fmt.Sprintf("%s[%s]", t.Kind(), t.Unit) }

// TimestampType is an instant: a 64-bit count of units since the Unix
// epoch, in the time zone TimeZone ("" for a zone-less local date-time).
type TimestampType struct {
	Unit     TimeUnit
	TimeZone string
}

// NewTimestamp returns a timestamp type.
func NewTimestamp(unit TimeUnit, tz string) (*TimestampType, error) {
	if !unit.valid() {
		return nil, invalidf("timestamp unit %d", unit)
	}
	return &TimestampType{Unit: unit, TimeZone: tz}, nil
}

// Kind is KindTimestamp.
func (*TimestampType) Kind() Kind { return KindTimestamp }

// String implements fmt.Stringer: the readable form of the TimestampType.
func (t *TimestampType) String() string {
	if t.TimeZone == "" {
		return fmt.Sprintf("timestamp[%s]", t.Unit)
	}
	return fmt.Sprintf("timestamp[%s, tz=%s]", t.Unit, t.TimeZone)
}

// DurationType is a 64-bit length of time in Unit.
type DurationType struct{ Unit TimeUnit }

// NewDuration returns a duration type.
func NewDuration(unit TimeUnit) (*DurationType, error) {
	if !unit.valid() {
		return nil, invalidf("duration unit %d", unit)
	}
	return &DurationType{Unit: unit}, nil
}

// Kind is KindDuration.
func (*DurationType) Kind() Kind { return KindDuration }

// String implements fmt.Stringer: the readable form of the DurationType.
func (t *DurationType) String() string { return fmt.Sprintf("duration[%s]", t.Unit) }

// DecimalType is a fixed-point decimal stored as a two's-complement integer
// of BitWidth bits (32, 64, 128 or 256), with Precision significant digits
// of which Scale are after the point.
type DecimalType struct {
	BitWidth  int
	Precision int32
	Scale     int32
}

// MaxDecimalPrecision returns the largest precision a decimal of the bit
// width can hold (9, 18, 38, 76), or 0 for an unsupported width.
func MaxDecimalPrecision(bitWidth int) int32 {
	switch bitWidth {
	case 32:
		return 9
	case 64:
		return 18
	case 128:
		return 38
	case 256:
		return 76
	}
	return 0
}

// MaxDecimalScale bounds the magnitude of a decimal's scale. The spec
// sets no bound, but a scale far beyond any precision only pads values
// with zeros, and an unbounded one lets a tiny schema ask for gigabytes
// of zeros when a value is printed.
const MaxDecimalScale = 1000

// NewDecimal returns a decimal type, checking that 1 ≤ precision ≤ the
// width's maximum. The scale may be negative or exceed the precision, as
// the spec allows, within ±[MaxDecimalScale].
func NewDecimal(bitWidth int, precision, scale int32) (*DecimalType, error) {
	max := MaxDecimalPrecision(bitWidth)
	if max == 0 {
		return nil, invalidf("decimal bit width %d (want 32, 64, 128 or 256)", bitWidth)
	}
	if precision < 1 || precision > max {
		return nil, invalidf("decimal%d precision %d out of range [1, %d]", bitWidth, precision, max)
	}
	if scale < -MaxDecimalScale || scale > MaxDecimalScale {
		return nil, invalidf("decimal%d scale %d out of range [%d, %d]", bitWidth, scale, -MaxDecimalScale, MaxDecimalScale)
	}
	return &DecimalType{BitWidth: bitWidth, Precision: precision, Scale: scale}, nil
}

// Kind is one of KindDecimal32…KindDecimal256.
func (t *DecimalType) Kind() Kind {
	switch t.BitWidth {
	case 32:
		return KindDecimal32
	case 64:
		return KindDecimal64
	case 256:
		return KindDecimal256
	}
	return KindDecimal128
}

// String implements fmt.Stringer: the readable form of the DecimalType.
func (t *DecimalType) String() string {
	return fmt.Sprintf("decimal%d(%d, %d)", t.BitWidth, t.Precision, t.Scale)
}

// FixedSizeBinaryType holds values of exactly ByteWidth bytes.
type FixedSizeBinaryType struct{ ByteWidth int }

// NewFixedSizeBinary returns a fixed-size binary type; the width must not
// be negative.
func NewFixedSizeBinary(byteWidth int) (*FixedSizeBinaryType, error) {
	if byteWidth < 0 {
		return nil, invalidf("fixed_size_binary width %d is negative", byteWidth)
	}
	return &FixedSizeBinaryType{ByteWidth: byteWidth}, nil
}

// Kind is KindFixedSizeBinary.
func (*FixedSizeBinaryType) Kind() Kind { return KindFixedSizeBinary }

// String implements fmt.Stringer: the readable form of the FixedSizeBinaryType.
func (t *FixedSizeBinaryType) String() string {
	return fmt.Sprintf("fixed_size_binary[%d]", t.ByteWidth)
}
