package expr

import (
	"github.com/alkaid-go/alkaid/datatype"
)

// The promotion rules: see "Types" in the package documentation.

func isInt(t datatype.DataType) bool   { return t.Kind().IsInteger() }
func isFloat(t datatype.DataType) bool { return t.Kind().IsFloat() }
func isNum(t datatype.DataType) bool   { return t.Kind().IsNumeric() }
func isNull(t datatype.DataType) bool  { return t.Kind() == datatype.KindNull }

func isStringy(t datatype.DataType) bool {
	switch t.Kind() {
	case datatype.KindString, datatype.KindLargeString, datatype.KindStringView:
		return true
	}
	return false
}

func isTemporal(t datatype.DataType) bool {
	switch t.Kind() {
	case datatype.KindDate32, datatype.KindDate64, datatype.KindTimestamp, datatype.KindTime32,
		datatype.KindTime64, datatype.KindDuration:
		return true
	}
	return false
}

func intWidth(t datatype.DataType) int { return datatype.ByteWidth(t) * 8 }

// commonInt is the integer type both a and b fit in: the wider of two
// signed or two unsigned types, the signed type twice as wide as the
// unsigned one (at most int64) for a mix.
func commonInt(a, b datatype.DataType) datatype.DataType {
	sa, sb := a.Kind().IsSignedInteger(), b.Kind().IsSignedInteger()
	wa, wb := intWidth(a), intWidth(b)
	if sa == sb {
		t, _ := datatype.IntType(max(wa, wb), sa)
		return t
	}
	if !sa {
		wa, wb = wb, wa // wa: signed, wb: unsigned
	}
	t, _ := datatype.IntType(min(64, max(wa, 2*wb)), true)
	return t
}

// commonType is the type a and b are both cast to for comparing, for
// arithmetic and for the branches of conditionals; ok is false when
// there is none. aLit and bLit say that a or b is a literal, which takes
// the other side's type where its value fits (checked by the caller).
func commonType(a, b datatype.DataType, aLit, bLit bool) (datatype.DataType, bool) {
	switch {
	case datatype.Equal(a, b, datatype.IgnoreMetadata()):
		return a, true
	case isNull(a):
		return b, true
	case isNull(b):
		return a, true
	case isInt(a) && isInt(b):
		if aLit && a.Kind() == datatype.KindInt64 || aLit && a.Kind() == datatype.KindUint64 {
			return b, true
		}
		if bLit && b.Kind() == datatype.KindInt64 || bLit && b.Kind() == datatype.KindUint64 {
			return a, true
		}
		return commonInt(a, b), true
	case isNum(a) && isNum(b):
		if aLit && isFloat(b) && isInt(a) || bLit && isFloat(a) && isInt(b) {
			// An integer literal takes a float column's type.
			if isFloat(a) {
				return a, true
			}
			return b, true
		}
		if a.Kind() == datatype.KindFloat32 && b.Kind() == datatype.KindFloat32 {
			return a, true
		}
		return datatype.Float64, true
	case a.Kind() == datatype.KindDecimal128 || b.Kind() == datatype.KindDecimal128 ||
		a.Kind() == datatype.KindDecimal64 || b.Kind() == datatype.KindDecimal64 ||
		a.Kind() == datatype.KindDecimal32 || b.Kind() == datatype.KindDecimal32:
		// Literals take the decimal's type; decimals with floats compare as floats.
		if aLit && (isNum(a) || isStringy(a)) {
			return b, true
		}
		if bLit && (isNum(b) || isStringy(b)) {
			return a, true
		}
		if isFloat(a) || isFloat(b) {
			return datatype.Float64, true
		}
		return nil, false
	case isStringy(a) && isStringy(b):
		if a.Kind() == datatype.KindLargeString || b.Kind() == datatype.KindLargeString {
			return datatype.LargeString, true
		}
		return datatype.String, true
	case isBytes(a) && isBytes(b):
		if a.Kind() == datatype.KindLargeBinary || b.Kind() == datatype.KindLargeBinary {
			return datatype.LargeBinary, true
		}
		return datatype.Binary, true
	case aLit && isStringy(a) && isBytes(b):
		return bytesType(b), true
	case bLit && isStringy(b) && isBytes(a):
		return bytesType(a), true
	case aLit && isStringy(a) && (isTemporal(b) || isNum(b) || b.Kind() == datatype.KindBool):
		return b, true
	case bLit && isStringy(b) && (isTemporal(a) || isNum(a) || a.Kind() == datatype.KindBool):
		return a, true
	case a.Kind() == datatype.KindTimestamp && b.Kind() == datatype.KindTimestamp:
		x, y := a.(*datatype.TimestampType), b.(*datatype.TimestampType)
		if (x.TimeZone == "") != (y.TimeZone == "") {
			return nil, false
		}
		if x.Unit >= y.Unit {
			return a, true
		}
		return b, true
	case a.Kind() == datatype.KindTimestamp && (b.Kind() == datatype.KindDate32 || b.Kind() == datatype.KindDate64):
		return a, true
	case b.Kind() == datatype.KindTimestamp && (a.Kind() == datatype.KindDate32 || a.Kind() == datatype.KindDate64):
		return b, true
	case a.Kind() == datatype.KindDate32 && b.Kind() == datatype.KindDate64 ||
		a.Kind() == datatype.KindDate64 && b.Kind() == datatype.KindDate32:
		return datatype.Date64Type, true
	}
	return nil, false
}

// bytesType is the type a string literal takes next to the binary type
// t: t, or binary for a fixed_size_binary (the literal may have another
// length).
func bytesType(t datatype.DataType) datatype.DataType {
	if t.Kind() == datatype.KindFixedSizeBinary {
		return datatype.Binary
	}
	return t
}
