// Package datatype describes the logical types of the Alkaid columnar
// format: every type of the spec's type table, with its parameters, its
// buffer layout ([LayoutOf]) and equality ([Equal]); [Field] and ordered
// key–value [Metadata]; and user-defined extension types with a registry.
//
// Parameterless types are shared values ([Int64], [String], …);
// parameterised ones come from constructors that check their parameters
// and return an error wrapping [ErrInvalid] when they are wrong:
//
//	ts, _ := datatype.NewTimestamp(datatype.Millisecond, "UTC")
//	list := datatype.ListOf(datatype.Int32)
//	dict, err := datatype.NewDictionary(datatype.Float64, datatype.String, false)
//	// err: datatype: invalid: dictionary index type float64 is not an integer type
//
// The package also defines the Go value types of the fixed-width logical
// types that have no Go counterpart ([Date32], [Timestamp], [Decimal128],
// [Float16], …), so that one generic array serves every fixed width.
package datatype
