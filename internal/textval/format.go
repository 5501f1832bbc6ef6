package textval

import (
	"encoding/base64"
	"fmt"
	"math/big"
	"strconv"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
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
		return func(dst []byte, i int) []byte {
			return strconv.AppendFloat(dst, float64(aa.Value(i).Float32()), 'g', -1, 32)
		}, nil
	case *array.Primitive[float32]:
		return func(dst []byte, i int) []byte { return strconv.AppendFloat(dst, float64(aa.Value(i)), 'g', -1, 32) }, nil
	case *array.Primitive[float64]:
		return func(dst []byte, i int) []byte { return strconv.AppendFloat(dst, aa.Value(i), 'g', -1, 64) }, nil
	case *array.Primitive[datatype.Decimal32]:
		s := t.(*datatype.DecimalType).Scale
		return func(dst []byte, i int) []byte { return appendDecimal(dst, int64(aa.Value(i)), nil, s) }, nil
	case *array.Primitive[datatype.Decimal64]:
		s := t.(*datatype.DecimalType).Scale
		return func(dst []byte, i int) []byte { return appendDecimal(dst, int64(aa.Value(i)), nil, s) }, nil
	case *array.Primitive[datatype.Decimal128]:
		s := t.(*datatype.DecimalType).Scale
		return func(dst []byte, i int) []byte {
			v := aa.Value(i)
			if (v.Hi == 0 && v.Lo < 1<<63) || (v.Hi == -1 && v.Lo >= 1<<63) {
				return appendDecimal(dst, int64(v.Lo), nil, s)
			}
			return appendDecimal(dst, 0, v.BigInt(), s)
		}, nil
	case *array.Primitive[datatype.Decimal256]:
		s := t.(*datatype.DecimalType).Scale
		return func(dst []byte, i int) []byte { return appendDecimal(dst, 0, aa.Value(i).BigInt(), s) }, nil
	case *array.Primitive[datatype.Date32]:
		return func(dst []byte, i int) []byte {
			v := int64(aa.Value(i))
			if out, ok := appendDate(dst, v); ok {
				return out
			}
			return strconv.AppendInt(dst, v, 10)
		}, nil
	case *array.Primitive[datatype.Date64]:
		return func(dst []byte, i int) []byte {
			v := int64(aa.Value(i))
			if v%86400000 == 0 {
				if out, ok := appendDate(dst, v/86400000); ok {
					return out
				}
			}
			return strconv.AppendInt(dst, v, 10)
		}, nil
	case *array.Primitive[datatype.Time32]:
		per := t.(*datatype.TimeType).Unit.PerSecond()
		return func(dst []byte, i int) []byte { return appendTimeOfDay(dst, int64(aa.Value(i)), per) }, nil
	case *array.Primitive[datatype.Time64]:
		per := t.(*datatype.TimeType).Unit.PerSecond()
		return func(dst []byte, i int) []byte { return appendTimeOfDay(dst, int64(aa.Value(i)), per) }, nil
	case *array.Primitive[datatype.Timestamp]:
		tt := t.(*datatype.TimestampType)
		per, zone := tt.Unit.PerSecond(), tt.TimeZone != ""
		return func(dst []byte, i int) []byte { return appendTimestamp(dst, int64(aa.Value(i)), per, zone) }, nil
	case *array.Primitive[datatype.Duration]:
		return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(aa.Value(i)), 10) }, nil
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

// appendDecimal writes an unscaled value (v, or bi when not nil) with
// scale fractional digits.
func appendDecimal(dst []byte, v int64, bi *big.Int, scale int32) []byte {
	var digs []byte
	var tmp [24]byte
	neg := false
	if bi != nil {
		neg = bi.Sign() < 0
		digs = new(big.Int).Abs(bi).Append(tmp[:0], 10)
	} else {
		neg = v < 0
		u := uint64(v)
		if neg {
			u = -u
		}
		digs = strconv.AppendUint(tmp[:0], u, 10)
	}
	if neg {
		dst = append(dst, '-')
	}
	if scale <= 0 {
		dst = append(dst, digs...)
		for range -scale {
			dst = append(dst, '0')
		}
		return dst
	}
	s := int(scale)
	if len(digs) <= s {
		dst = append(dst, '0', '.')
		for range s - len(digs) {
			dst = append(dst, '0')
		}
		return append(dst, digs...)
	}
	dst = append(dst, digs[:len(digs)-s]...)
	dst = append(dst, '.')
	return append(dst, digs[len(digs)-s:]...)
}

func fracDigits(per int64) int {
	switch per {
	case 1:
		return 0
	case 1000:
		return 3
	case 1000000:
		return 6
	}
	return 9
}

func appendTimeOfDay(dst []byte, v, per int64) []byte {
	if v < 0 || v >= 86400*per {
		return strconv.AppendInt(dst, v, 10)
	}
	return appendClock(dst, v*(1e9/per), fracDigits(per))
}

func appendTimestamp(dst []byte, v, per int64, zone bool) []byte {
	secs, sub := v/per, v%per
	if sub < 0 {
		secs--
		sub += per
	}
	days, sod := secs/86400, secs%86400
	if sod < 0 {
		days--
		sod += 86400
	}
	out, ok := appendDate(dst, days)
	if !ok {
		return strconv.AppendInt(dst, v, 10)
	}
	out = append(out, 'T')
	out = appendClock(out, sod*1e9+sub*(1e9/per), fracDigits(per))
	if zone {
		out = append(out, 'Z')
	}
	return out
}
