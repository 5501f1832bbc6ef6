package compute

import (
	"fmt"
	"math/big"

	"github.com/alkaid-go/alkaid/datatype"
)

// Scalar is one value of a type, possibly null: what the aggregates
// return, and what the array–scalar functions accept (besides plain Go
// numbers).
type Scalar struct {
	// Type is the value's logical type.
	Type datatype.DataType
	// Valid is false for the null scalar (Value is then nil).
	Valid bool
	// Value is the Go value: int64, uint64 or float64 for sums and means
	// of numbers, datatype.Decimal32…Decimal256 for those of decimals,
	// the array's value type (int8, float32, datatype.Timestamp, …) for
	// minima and maxima.
	Value any
}

// NullScalar returns the null scalar of type t.
func NullScalar(t datatype.DataType) Scalar { return Scalar{Type: t} }

// String prints the value, or "null"; temporal values print in the text
// grammar csv and ndjson write (2024-03-01, 13:45:00.5,
// 2024-03-01T13:45:00+01:00; a duration as the count of its unit, 5400;
// an interval as {"months":1,"days":2,"nanoseconds":3}) and
// decimals with their scale (12.30).
func (s Scalar) String() string {
	if !s.Valid {
		return "null"
	}
	if t, ok := temporalString(s); ok {
		return t
	}
	if d, ok := s.Type.(*datatype.DecimalType); ok {
		var v *big.Int
		switch x := s.Value.(type) {
		case datatype.Decimal32:
			v = big.NewInt(int64(x))
		case datatype.Decimal64:
			v = big.NewInt(int64(x))
		case datatype.Decimal128:
			v = x.BigInt()
		case datatype.Decimal256:
			v = x.BigInt()
		}
		if v != nil {
			return datatype.FormatDecimal(v, d.Scale)
		}
	}
	return fmt.Sprint(s.Value)
}

// Int64 returns the value of a valid int64 scalar; ok is false otherwise.
func (s Scalar) Int64() (v int64, ok bool) {
	v, ok = s.Value.(int64)
	return v, ok && s.Valid
}

// Uint64 returns the value of a valid uint64 scalar; ok is false otherwise.
func (s Scalar) Uint64() (v uint64, ok bool) {
	v, ok = s.Value.(uint64)
	return v, ok && s.Valid
}

// Float64 returns the value of a valid float64 scalar; ok is false
// otherwise.
func (s Scalar) Float64() (v float64, ok bool) {
	v, ok = s.Value.(float64)
	return v, ok && s.Valid
}
