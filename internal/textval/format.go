package textval

import (
	"encoding/base64"
	"fmt"
	"strconv"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/textval/grammar"
)

// FormatOptions configure how values are written.
type FormatOptions struct {
	// True and False are the spellings of the booleans (default "true",
	// "false").
	True, False string
}

// Formatter appends the text form of slot i of its array to dst. The
// caller handles nulls. The text reads back to the same value through an
// Appender of the same type (Options with default spellings and
// base64 binary).
type Formatter func(dst []byte, i int) []byte

// IsString reports whether t's values are written as they are (strings),
// so that a writer may need to quote them.
func IsString(t datatype.DataType) bool {
	switch t.Kind() {
	case datatype.KindString, datatype.KindLargeString, datatype.KindStringView:
		return true
	}
	return false
}

// NewFormatter returns the formatter of a (a scalar type: see Supported).
func NewFormatter(a array.Array, o FormatOptions) (Formatter, error) {
	t := a.DataType()
	if err := Supported(t); err != nil {
		return nil, err
	}
	if o.True == "" {
		o.True = "true"
	}
	if o.False == "" {
		o.False = "false"
	}
	switch aa := a.(type) {
	case *array.Null:
		return func(dst []byte, _ int) []byte { return dst }, nil
	case *array.Boolean:
		return func(dst []byte, i int) []byte {
			if aa.Value(i) {
				return append(dst, o.True...)
			}
			return append(dst, o.False...)
		}, nil
	case *array.Primitive[int8]:
		return intFormatter(aa), nil
	case *array.Primitive[int16]:
		return intFormatter(aa), nil
	case *array.Primitive[int32]:
		return intFormatter(aa), nil
	case *array.Primitive[int64]:
		return intFormatter(aa), nil
	case *array.Primitive[uint8]:
		return uintFormatter(aa), nil
	case *array.Primitive[uint16]:
		return uintFormatter(aa), nil
	case *array.Primitive[uint32]:
		return uintFormatter(aa), nil
	case *array.Primitive[uint64]:
		return uintFormatter(aa), nil
	case *array.Primitive[datatype.Float16]:
		return func(dst []byte, i int) []byte { return grammar.AppendFloat(dst, float64(aa.Value(i).Float32()), 16) }, nil
	case *array.Primitive[float32]:
		return func(dst []byte, i int) []byte { return grammar.AppendFloat(dst, float64(aa.Value(i)), 32) }, nil
	case *array.Primitive[float64]:
		return func(dst []byte, i int) []byte { return grammar.AppendFloat(dst, aa.Value(i), 64) }, nil
	case *array.Primitive[datatype.Decimal32]:
		s := t.(*datatype.DecimalType).Scale
		return func(dst []byte, i int) []byte { return grammar.AppendDecimal(dst, int64(aa.Value(i)), nil, s) }, nil
	case *array.Primitive[datatype.Decimal64]:
		s := t.(*datatype.DecimalType).Scale
		return func(dst []byte, i int) []byte { return grammar.AppendDecimal(dst, int64(aa.Value(i)), nil, s) }, nil
	case *array.Primitive[datatype.Decimal128]:
		s := t.(*datatype.DecimalType).Scale
		return func(dst []byte, i int) []byte {
			v := aa.Value(i)
			if (v.Hi == 0 && v.Lo < 1<<63) || (v.Hi == -1 && v.Lo >= 1<<63) {
				return grammar.AppendDecimal(dst, int64(v.Lo), nil, s)
			}
			return grammar.AppendDecimal(dst, 0, v.BigInt(), s)
		}, nil
	case *array.Primitive[datatype.Decimal256]:
		s := t.(*datatype.DecimalType).Scale
		return func(dst []byte, i int) []byte { return grammar.AppendDecimal(dst, 0, aa.Value(i).BigInt(), s) }, nil
	case *array.Primitive[datatype.Date32]:
		return func(dst []byte, i int) []byte { return grammar.AppendDate(dst, int64(aa.Value(i))) }, nil
	case *array.Primitive[datatype.Date64]:
		return func(dst []byte, i int) []byte {
			v := int64(aa.Value(i))
			if v%86400000 == 0 {
				return grammar.AppendDate(dst, v/86400000)
			}
			return strconv.AppendInt(dst, v, 10) // not a whole day: the count
		}, nil
	case *array.Primitive[datatype.Time32]:
		per := t.(*datatype.TimeType).Unit.PerSecond()
		return func(dst []byte, i int) []byte { return grammar.AppendTimeOfDay(dst, int64(aa.Value(i)), per) }, nil
	case *array.Primitive[datatype.Time64]:
		per := t.(*datatype.TimeType).Unit.PerSecond()
		return func(dst []byte, i int) []byte { return grammar.AppendTimeOfDay(dst, int64(aa.Value(i)), per) }, nil
	case *array.Primitive[datatype.Timestamp]:
		tt := t.(*datatype.TimestampType)
		per := tt.Unit.PerSecond()
		z, err := grammar.ParseZone(tt.TimeZone)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: unknown time zone", ErrNoText, t)
		}
		return func(dst []byte, i int) []byte { return grammar.AppendTimestamp(dst, int64(aa.Value(i)), per, z) }, nil
	case *array.Primitive[datatype.Duration]:
		return func(dst []byte, i int) []byte { return grammar.AppendDuration(dst, int64(aa.Value(i))) }, nil
	case *array.FixedSizeBinary:
		return func(dst []byte, i int) []byte { return base64.StdEncoding.AppendEncode(dst, aa.Value(i)) }, nil
	case *array.Binary[int32]:
		return bytesFormatter(IsString(t), aa.Value), nil
	case *array.Binary[int64]:
		return bytesFormatter(IsString(t), aa.Value), nil
	case *array.BinaryView:
		return bytesFormatter(IsString(t), aa.Value), nil
	}
	return nil, fmt.Errorf("%w: %s", ErrNoText, t)
}

func bytesFormatter(isString bool, value func(int) []byte) Formatter {
	if isString {
		return func(dst []byte, i int) []byte { return append(dst, value(i)...) }
	}
	return func(dst []byte, i int) []byte { return base64.StdEncoding.AppendEncode(dst, value(i)) }
}

func intFormatter[T int8 | int16 | int32 | int64](a *array.Primitive[T]) Formatter {
	return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(a.Value(i)), 10) }
}

func uintFormatter[T uint8 | uint16 | uint32 | uint64](a *array.Primitive[T]) Formatter {
	return func(dst []byte, i int) []byte { return strconv.AppendUint(dst, uint64(a.Value(i)), 10) }
}
