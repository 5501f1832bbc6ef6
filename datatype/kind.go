package datatype

import "strconv"

// Kind identifies a logical type of the spec's type table. Parameterised
// types (timestamps, lists, …) share one Kind across their parameters.
type Kind uint8

// The kinds of the type table.
const (
	KindNull Kind = iota
	KindBool
	KindInt8
	KindInt16
	KindInt32
	KindInt64
	KindUint8
	KindUint16
	KindUint32
	KindUint64
	KindFloat16
	KindFloat32
	KindFloat64
	KindDecimal32
	KindDecimal64
	KindDecimal128
	KindDecimal256
	KindDate32
	KindDate64
	KindTime32
	KindTime64
	KindTimestamp
	KindMonthInterval
	KindDayTimeInterval
	KindMonthDayNanoInterval
	KindDuration
	KindFixedSizeBinary
	KindBinary
	KindString
	KindLargeBinary
	KindLargeString
	KindBinaryView
	KindStringView
	KindFixedSizeList
	KindList
	KindLargeList
	KindListView
	KindLargeListView
	KindStruct
	KindMap
	KindSparseUnion
	KindDenseUnion
	KindDictionary
	KindRunEndEncoded
	KindExtension
	numKinds
)

var kindNames = [numKinds]string{
	"null", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
	"float16", "float32", "float64", "decimal32", "decimal64", "decimal128", "decimal256",
	"date32", "date64", "time32", "time64", "timestamp", "month_interval", "day_time_interval",
	"month_day_nano_interval", "duration", "fixed_size_binary", "binary", "utf8", "large_binary",
	"large_utf8", "binary_view", "utf8_view", "fixed_size_list", "list", "large_list", "list_view",
	"large_list_view", "struct", "map", "sparse_union", "dense_union", "dictionary",
	"run_end_encoded", "extension",
}

// String returns the kind's name as used in type strings ("int64", "utf8", …).
func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// IsInteger reports whether k is a signed or unsigned integer kind.
func (k Kind) IsInteger() bool { return k >= KindInt8 && k <= KindUint64 }

// IsSignedInteger reports whether k is a signed integer kind.
func (k Kind) IsSignedInteger() bool { return k >= KindInt8 && k <= KindInt64 }

// IsFloat reports whether k is a floating-point kind.
func (k Kind) IsFloat() bool { return k >= KindFloat16 && k <= KindFloat64 }

// IsNumeric reports whether k is an integer or floating-point kind.
func (k Kind) IsNumeric() bool { return k.IsInteger() || k.IsFloat() }

// IsBinaryLike reports whether k is one of the variable-size binary or
// string kinds, offset-based or view.
func (k Kind) IsBinaryLike() bool { return k >= KindBinary && k <= KindStringView }

// IsListLike reports whether k is one of the list kinds (including map).
func (k Kind) IsListLike() bool {
	return (k >= KindFixedSizeList && k <= KindLargeListView) || k == KindMap
}

// IsUnion reports whether k is a sparse or dense union.
func (k Kind) IsUnion() bool { return k == KindSparseUnion || k == KindDenseUnion }

// IsNested reports whether values of k have child arrays.
func (k Kind) IsNested() bool {
	return k.IsListLike() || k == KindStruct || k.IsUnion() || k == KindRunEndEncoded
}
