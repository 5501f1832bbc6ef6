package expr

import (
	"fmt"
	"strings"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// duckNames are the SQL type names of CAST and their types.
var duckNames = map[string]datatype.DataType{
	"BOOLEAN": datatype.Bool, "BOOL": datatype.Bool,
	"TINYINT": datatype.Int8, "INT1": datatype.Int8, "SMALLINT": datatype.Int16, "INT2": datatype.Int16,
	"INTEGER": datatype.Int32, "INT": datatype.Int32, "INT4": datatype.Int32,
	"BIGINT": datatype.Int64, "INT8": datatype.Int64,
	"UTINYINT": datatype.Uint8, "USMALLINT": datatype.Uint16, "UINTEGER": datatype.Uint32, "UBIGINT": datatype.Uint64,
	"REAL": datatype.Float32, "FLOAT": datatype.Float32, "FLOAT4": datatype.Float32,
	"DOUBLE": datatype.Float64, "FLOAT8": datatype.Float64,
	"VARCHAR": datatype.String, "TEXT": datatype.String, "STRING": datatype.String,
	"BLOB": datatype.Binary, "BYTEA": datatype.Binary,
	"DATE": datatype.Date32Type, "INTERVAL": datatype.MonthDayNanoIntervalType,
}

func init() {
	ts, _ := datatype.NewTimestamp(datatype.Microsecond, "")
	duckNames["TIMESTAMP"] = ts
	tz, _ := datatype.NewTimestamp(datatype.Microsecond, "UTC")
	duckNames["TIMESTAMPTZ"] = tz
	t64, _ := datatype.NewTime(datatype.Microsecond)
	duckNames["TIME"] = t64
}

// typeName is the SQL name of t where it has one (DuckDB's), else its
// Alkaid type string in double quotes.
func typeName(t datatype.DataType) string {
	for _, n := range []string{"BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT",
		"UINTEGER", "UBIGINT", "REAL", "DOUBLE", "VARCHAR", "BLOB", "DATE", "TIMESTAMP", "TIMESTAMPTZ", "TIME", "INTERVAL"} {
		if datatype.Equal(duckNames[n], t) {
			return n
		}
	}
	if d, ok := t.(*datatype.DecimalType); ok && d.BitWidth == 128 {
		return fmt.Sprintf("DECIMAL(%d,%d)", d.Precision, d.Scale)
	}
	return `"` + strings.ReplaceAll(t.String(), `"`, `""`) + `"`
}

// one is a one-slot array of t holding v.
func one[T array.FixedWidth](t datatype.DataType, v T) array.Array {
	b := array.NewPrimitiveBuilder[T](t)
	b.Append(v)
	return b.NewArray()
}

// scalarArray is s repeated n times.
func scalarArray(s compute.Scalar, n int) (array.Array, error) {
	var a array.Array
	if !s.Valid {
		b, err := array.TryNewBuilder(s.Type)
		if err != nil {
			return nil, fmt.Errorf("expr: null of %s: %w", s.Type, err)
		}
		b.AppendNulls(n)
		return b.NewArray(), nil
	}
	switch v := s.Value.(type) {
	case bool:
		b := array.NewBooleanBuilder(datatype.Bool)
		b.Append(v)
		a = b.NewArray()
	case int64:
		a = one(datatype.Int64, v)
	case uint64:
		a = one(datatype.Uint64, v)
	case float64:
		a = one(datatype.Float64, v)
	case string:
		b := array.NewBinaryBuilder[int32](datatype.String)
		b.AppendString(v)
		a = b.NewArray()
	case []byte:
		b := array.NewBinaryBuilder[int32](datatype.Binary)
		b.Append(v)
		a = b.NewArray()
	case int8:
		a = one(s.Type, v)
	case int16:
		a = one(s.Type, v)
	case int32:
		a = one(s.Type, v)
	case uint8:
		a = one(s.Type, v)
	case uint16:
		a = one(s.Type, v)
	case uint32:
		a = one(s.Type, v)
	case float32:
		a = one(s.Type, v)
	case datatype.Float16:
		a = one(s.Type, v)
	case datatype.Date32:
		a = one(s.Type, v)
	case datatype.Date64:
		a = one(s.Type, v)
	case datatype.Timestamp:
		a = one(s.Type, v)
	case datatype.Time32:
		a = one(s.Type, v)
	case datatype.Time64:
		a = one(s.Type, v)
	case datatype.Duration:
		a = one(s.Type, v)
	case datatype.Decimal32:
		a = one(s.Type, v)
	case datatype.Decimal64:
		a = one(s.Type, v)
	case datatype.Decimal128:
		a = one(s.Type, v)
	case datatype.Decimal256:
		a = one(s.Type, v)
	case datatype.MonthDayNanoInterval:
		a = one(s.Type, v)
	default:
		return nil, fmt.Errorf("expr: literal %v of %T: %w", s.Value, s.Value, datatype.ErrNotSupported)
	}
	if !datatype.Equal(a.DataType(), s.Type) {
		var err error
		if a, err = compute.Cast(a, s.Type); err != nil {
			return nil, fmt.Errorf("expr: literal %v as %s: %w", s.Value, s.Type, err)
		}
	}
	if n == 1 {
		return a, nil
	}
	idx := array.NewPrimitiveBuilder[int32](datatype.Int32)
	idx.AppendValues(make([]int32, n), nil)
	return compute.Take(a, idx.NewArray())
}

// valueAt is slot i of a as a Go value (nil when null): integers as int64
// or uint64, floats as float64, other fixed-width types as their
// datatype value types, strings as string, binary as []byte.
func valueAt(a array.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch x := a.(type) {
	case *array.Boolean:
		return x.Value(i)
	case *array.Int8:
		return int64(x.Value(i))
	case *array.Int16:
		return int64(x.Value(i))
	case *array.Int32:
		return int64(x.Value(i))
	case *array.Int64:
		return x.Value(i)
	case *array.Uint8:
		return uint64(x.Value(i))
	case *array.Uint16:
		return uint64(x.Value(i))
	case *array.Uint32:
		return uint64(x.Value(i))
	case *array.Uint64:
		return x.Value(i)
	case *array.Float32:
		return float64(x.Value(i))
	case *array.Float64:
		return x.Value(i)
	case *array.Date32:
		return x.Value(i)
	case *array.Date64:
		return x.Value(i)
	case *array.Timestamp:
		return x.Value(i)
	case *array.Time32:
		return x.Value(i)
	case *array.Time64:
		return x.Value(i)
	case *array.Duration:
		return x.Value(i)
	case *array.Decimal32:
		return x.Value(i)
	case *array.Decimal64:
		return x.Value(i)
	case *array.Decimal128:
		return x.Value(i)
	case *array.Decimal256:
		return x.Value(i)
	case *array.MonthDayNano:
		return x.Value(i)
	case *array.String:
		if a.DataType().Kind() == datatype.KindString {
			return x.ValueString(i)
		}
		return append([]byte(nil), x.Value(i)...)
	case *array.LargeString:
		if a.DataType().Kind() == datatype.KindLargeString {
			return x.ValueString(i)
		}
		return append([]byte(nil), x.Value(i)...)
	case *array.BinaryView:
		if a.DataType().Kind() == datatype.KindStringView {
			return x.ValueString(i)
		}
		return append([]byte(nil), x.Value(i)...)
	case *array.FixedSizeBinary:
		return append([]byte(nil), x.Value(i)...)
	}
	return nil
}

// castScalar converts s to type t as compute.Cast does.
func castScalar(s compute.Scalar, t datatype.DataType) (compute.Scalar, error) {
	if datatype.Equal(s.Type, t) {
		return s, nil
	}
	if !s.Valid {
		return compute.NullScalar(t), nil
	}
	a, err := scalarArray(s, 1)
	if err != nil {
		return compute.Scalar{}, err
	}
	c, err := compute.Cast(a, t)
	if err != nil {
		return compute.Scalar{}, err
	}
	v := valueAt(c, 0)
	if v == nil {
		return compute.Scalar{}, fmt.Errorf("expr: %s as %s: %w", formatLiteral(s), t, datatype.ErrNotSupported)
	}
	return compute.Scalar{Type: t, Valid: true, Value: v}, nil
}

// valueText is slot i of a as printed, for error messages.
func valueText(a array.Array, i int) string { return array.FormatValue(a, i) }
