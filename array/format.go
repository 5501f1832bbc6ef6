package array

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/textval/grammar"
)

// Format prints an array's values in brackets separated by spaces, nulls as
// (null), strings quoted, nested values in brackets or braces:
//
//	[1 (null) 3]   ["joe" (null)]   [[1 2] []]   [{a: 1, b: "x"} (null)]
func Format(a Array) string {
	var b strings.Builder
	writeArray(&b, a)
	return b.String()
}

// FormatValue prints slot i of a as [Format] would.
func FormatValue(a Array, i int) string {
	var b strings.Builder
	writeValue(&b, a, i)
	return b.String()
}

func writeArray(b *strings.Builder, a Array) {
	b.WriteByte('[')
	for i := range a.Len() {
		if i > 0 {
			b.WriteByte(' ')
		}
		writeValue(b, a, i)
	}
	b.WriteByte(']')
}

func writeValue(b *strings.Builder, a Array, i int) {
	if a.IsNull(i) {
		b.WriteString("(null)")
		return
	}
	switch a := a.(type) {
	case *Boolean:
		b.WriteString(strconv.FormatBool(a.Value(i)))
	case *Binary[int32]:
		writeBytes(b, a.Value(i), a.DataType())
	case *Binary[int64]:
		writeBytes(b, a.Value(i), a.DataType())
	case *BinaryView:
		writeBytes(b, a.Value(i), a.DataType())
	case *FixedSizeBinary:
		writeBytes(b, a.Value(i), a.DataType())
	case *Map:
		s, e := a.ValueOffsets(i)
		b.WriteByte('{')
		for j := s; j < e; j++ {
			if j > s {
				b.WriteString(", ")
			}
			writeValue(b, a.keys, j)
			b.WriteString(": ")
			writeValue(b, a.items, j)
		}
		b.WriteByte('}')
	case ListLike:
		s, e := a.ValueOffsets(i)
		writeArray(b, Slice(a.ListValues(), s, e))
	case *Struct:
		st := datatype.StorageOf(a.DataType()).(*datatype.StructType)
		b.WriteByte('{')
		for j := range a.NumField() {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(st.Field(j).Name)
			b.WriteString(": ")
			writeValue(b, a.Field(j), i)
		}
		b.WriteByte('}')
	case *Union:
		writeValue(b, a.Child(a.ChildIndex(i)), a.ValueOffset(i))
	case *Dictionary:
		writeValue(b, a.dict, a.ValueIndex(i))
	case *RunEndEncoded:
		writeValue(b, a.values, a.PhysicalIndex(i))
	case extensionArray:
		writeValue(b, a.extensionBase().storage, i)
	default:
		writePrimitive(b, a, i)
	}
}

// writeBytes quotes strings; binary values are quoted too, with Go escapes
// for bytes that are not printable UTF-8.
func writeBytes(b *strings.Builder, v []byte, _ datatype.DataType) {
	b.WriteString(strconv.Quote(string(v)))
}

// writePrimitive prints numbers, decimals, temporal values, durations and
// intervals in the text grammar (internal/textval/grammar), the forms csv
// and ndjson write and compute.Cast prints.
func writePrimitive(b *strings.Builder, a Array, i int) {
	t := datatype.StorageOf(a.DataType())
	var tmp [64]byte
	var out []byte
	switch a := a.(type) {
	case *Float16:
		out = grammar.AppendFloat(tmp[:0], float64(a.Value(i).Float32()), 16)
	case *Float32:
		out = grammar.AppendFloat(tmp[:0], float64(a.Value(i)), 32)
	case *Float64:
		out = grammar.AppendFloat(tmp[:0], a.Value(i), 64)
	case *Decimal32:
		out = grammar.AppendDecimal(tmp[:0], int64(a.Value(i)), nil, t.(*datatype.DecimalType).Scale)
	case *Decimal64:
		out = grammar.AppendDecimal(tmp[:0], int64(a.Value(i)), nil, t.(*datatype.DecimalType).Scale)
	case *Decimal128:
		out = grammar.AppendDecimal(tmp[:0], 0, a.Value(i).BigInt(), t.(*datatype.DecimalType).Scale)
	case *Decimal256:
		out = grammar.AppendDecimal(tmp[:0], 0, a.Value(i).BigInt(), t.(*datatype.DecimalType).Scale)
	case *MonthInterval:
		out = grammar.AppendMonthInterval(tmp[:0], int32(a.Value(i)))
	case *DayTime:
		v := a.Value(i)
		out = grammar.AppendDayTimeInterval(tmp[:0], v.Days, v.Milliseconds)
	case *MonthDayNano:
		v := a.Value(i)
		out = grammar.AppendMonthDayNanoInterval(tmp[:0], v.Months, v.Days, v.Nanoseconds)
	case *Duration:
		out = grammar.AppendDuration(tmp[:0], int64(a.Value(i)))
	case *Timestamp:
		tt := t.(*datatype.TimestampType)
		z, err := grammar.ParseZone(tt.TimeZone)
		if err != nil {
			z = grammar.UTC // an unknown zone: the instant in UTC
		}
		out = grammar.AppendTimestamp(tmp[:0], int64(a.Value(i)), tt.Unit.PerSecond(), z)
	case *Date32:
		out = grammar.AppendDate(tmp[:0], int64(a.Value(i)))
	case *Date64:
		if v := int64(a.Value(i)); v%86400000 == 0 {
			out = grammar.AppendDate(tmp[:0], v/86400000)
		} else {
			out = strconv.AppendInt(tmp[:0], v, 10)
		}
	case *Time32:
		out = grammar.AppendTimeOfDay(tmp[:0], int64(a.Value(i)), t.(*datatype.TimeType).Unit.PerSecond())
	case *Time64:
		out = grammar.AppendTimeOfDay(tmp[:0], int64(a.Value(i)), t.(*datatype.TimeType).Unit.PerSecond())
	default:
		fmt.Fprint(b, valueAny(a, i))
	}
	b.Write(out)
}

// valueAny returns slot i of a primitive array as a Go value.
func valueAny(a Array, i int) any {
	switch a := a.(type) {
	case *Int8:
		return a.Value(i)
	case *Int16:
		return a.Value(i)
	case *Int32:
		return a.Value(i)
	case *Int64:
		return a.Value(i)
	case *Uint8:
		return a.Value(i)
	case *Uint16:
		return a.Value(i)
	case *Uint32:
		return a.Value(i)
	case *Uint64:
		return a.Value(i)
	}
	return fmt.Sprintf("<%s>", a.DataType())
}
