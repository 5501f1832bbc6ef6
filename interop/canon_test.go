package interop

// A canonical value tree for one slot of an array, built the same way from
// an Alkaid array and from an arrow-go array, so the two libraries' data
// compare with reflect.DeepEqual whatever their Go types. The tree is:
//
//	nil                       null (and every slot of the null type)
//	bool                      boolean
//	int64                     signed integers, dates, times, timestamps,
//	                          durations, month intervals (in the type's unit)
//	uint64                    unsigned integers
//	float64                   float16, float32, float64 (exactly widened)
//	decimalValue              unscaled decimal integer, in base 10
//	string                    utf8, large utf8, utf8 view
//	binaryValue               binary, large binary, binary view, fixed-size binary
//	[]any                     lists of every layout (values in order), structs
//	                          (fields in order), maps (entries as [key, value]),
//	                          day-time [days, ms] and month-day-nano
//	                          [months, days, ns] intervals, unions
//	                          [type code, value]
//
// Dictionaries and run-end encoding resolve to their logical values: a slot
// is null if its index is null or its dictionary value is; a run-end
// encoded slot is its run's value.

import (
	"fmt"
	"reflect"
	"testing"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

type (
	decimalValue string
	binaryValue  string
)

// alkaidValue is slot i of an Alkaid array as a canonical tree.
func alkaidValue(a array.Array, i int) any {
	switch a := a.(type) {
	case *array.Null:
		return nil
	case *array.Extension:
		return alkaidValue(a.Storage(), i)
	case *array.Dictionary:
		if a.IsNull(i) {
			return nil
		}
		return alkaidValue(a.Dictionary(), a.ValueIndex(i))
	case *array.RunEndEncoded:
		return alkaidValue(a.Values(), a.PhysicalIndex(i))
	case *array.Union:
		return []any{int64(a.TypeCode(i)), alkaidValue(a.Child(a.ChildIndex(i)), a.ValueOffset(i))}
	}
	if a.IsNull(i) {
		return nil
	}
	switch a := a.(type) {
	case *array.Boolean:
		return a.Value(i)
	case *array.Int8:
		return int64(a.Value(i))
	case *array.Int16:
		return int64(a.Value(i))
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Int64:
		return a.Value(i)
	case *array.Uint8:
		return uint64(a.Value(i))
	case *array.Uint16:
		return uint64(a.Value(i))
	case *array.Uint32:
		return uint64(a.Value(i))
	case *array.Uint64:
		return a.Value(i)
	case *array.Float16:
		return float64(a.Value(i).Float32())
	case *array.Float32:
		return float64(a.Value(i))
	case *array.Float64:
		return a.Value(i)
	case *array.Decimal32:
		return decimalValue(fmt.Sprint(a.Value(i)))
	case *array.Decimal64:
		return decimalValue(fmt.Sprint(a.Value(i)))
	case *array.Decimal128:
		return decimalValue(a.Value(i).BigInt().String())
	case *array.Decimal256:
		return decimalValue(a.Value(i).BigInt().String())
	case *array.Date32:
		return int64(a.Value(i))
	case *array.Date64:
		return int64(a.Value(i))
	case *array.Time32:
		return int64(a.Value(i))
	case *array.Time64:
		return int64(a.Value(i))
	case *array.Timestamp:
		return int64(a.Value(i))
	case *array.Duration:
		return int64(a.Value(i))
	case *array.MonthInterval:
		return int64(a.Value(i))
	case *array.DayTime:
		v := a.Value(i)
		return []any{int64(v.Days), int64(v.Milliseconds)}
	case *array.MonthDayNano:
		v := a.Value(i)
		return []any{int64(v.Months), int64(v.Days), v.Nanoseconds}
	case *array.FixedSizeBinary:
		return binaryValue(a.Value(i))
	case *array.BinaryArray:
		if isUTF8(a) {
			return a.ValueString(i)
		}
		return binaryValue(a.Value(i))
	case *array.LargeBinaryArray:
		if isUTF8(a) {
			return a.ValueString(i)
		}
		return binaryValue(a.Value(i))
	case *array.BinaryView:
		if isUTF8(a) {
			return a.ValueString(i)
		}
		return binaryValue(a.Value(i))
	case array.ListLike: // every list layout and maps
		s, e := a.ValueOffsets(i)
		out := make([]any, 0, e-s)
		for j := s; j < e; j++ {
			out = append(out, alkaidValue(a.ListValues(), j))
		}
		return out
	case *array.Struct:
		out := make([]any, 0, a.NumField())
		for f := range a.NumField() {
			out = append(out, alkaidValue(a.Field(f), i))
		}
		return out
	}
	panic(fmt.Sprintf("alkaidValue: no canonical form for %T (%s)", a, a.DataType()))
}

func isUTF8(a array.Array) bool {
	switch datatype.StorageOf(a.DataType()).Kind() {
	case datatype.KindString, datatype.KindLargeString, datatype.KindStringView:
		return true
	}
	return false
}

// arrowGoValue is slot i of an arrow-go array as a canonical tree.
func arrowGoValue(a aarrow.Array, i int) any {
	switch a := a.(type) {
	case *aarray.Null:
		return nil
	case aarray.ExtensionArray:
		return arrowGoValue(a.Storage(), i)
	case *aarray.Dictionary:
		if a.IsNull(i) {
			return nil
		}
		return arrowGoValue(a.Dictionary(), a.GetValueIndex(i))
	case *aarray.RunEndEncoded:
		return arrowGoValue(a.Values(), a.GetPhysicalIndex(i))
	case *aarray.SparseUnion:
		return []any{int64(a.TypeCode(i)), arrowGoValue(a.Field(a.ChildID(i)), i)}
	case *aarray.DenseUnion:
		return []any{int64(a.TypeCode(i)), arrowGoValue(a.Field(a.ChildID(i)), int(a.ValueOffset(i)))}
	}
	if a.IsNull(i) {
		return nil
	}
	switch a := a.(type) {
	case *aarray.Boolean:
		return a.Value(i)
	case *aarray.Int8:
		return int64(a.Value(i))
	case *aarray.Int16:
		return int64(a.Value(i))
	case *aarray.Int32:
		return int64(a.Value(i))
	case *aarray.Int64:
		return a.Value(i)
	case *aarray.Uint8:
		return uint64(a.Value(i))
	case *aarray.Uint16:
		return uint64(a.Value(i))
	case *aarray.Uint32:
		return uint64(a.Value(i))
	case *aarray.Uint64:
		return a.Value(i)
	case *aarray.Float16:
		return float64(a.Value(i).Float32())
	case *aarray.Float32:
		return float64(a.Value(i))
	case *aarray.Float64:
		return a.Value(i)
	case *aarray.Decimal32:
		return decimalValue(fmt.Sprint(int32(a.Value(i))))
	case *aarray.Decimal64:
		return decimalValue(fmt.Sprint(int64(a.Value(i))))
	case *aarray.Decimal128:
		return decimalValue(a.Value(i).BigInt().String())
	case *aarray.Decimal256:
		return decimalValue(a.Value(i).BigInt().String())
	case *aarray.Date32:
		return int64(a.Value(i))
	case *aarray.Date64:
		return int64(a.Value(i))
	case *aarray.Time32:
		return int64(a.Value(i))
	case *aarray.Time64:
		return int64(a.Value(i))
	case *aarray.Timestamp:
		return int64(a.Value(i))
	case *aarray.Duration:
		return int64(a.Value(i))
	case *aarray.MonthInterval:
		return int64(a.Value(i))
	case *aarray.DayTimeInterval:
		v := a.Value(i)
		return []any{int64(v.Days), int64(v.Milliseconds)}
	case *aarray.MonthDayNanoInterval:
		v := a.Value(i)
		return []any{int64(v.Months), int64(v.Days), v.Nanoseconds}
	case *aarray.FixedSizeBinary:
		return binaryValue(a.Value(i))
	case *aarray.Binary:
		return binaryValue(a.Value(i))
	case *aarray.LargeBinary:
		return binaryValue(a.Value(i))
	case *aarray.BinaryView:
		return binaryValue(a.Value(i))
	case *aarray.String:
		return a.Value(i)
	case *aarray.LargeString:
		return a.Value(i)
	case *aarray.StringView:
		return a.Value(i)
	case aarray.ListLike: // every list layout and maps
		s, e := a.ValueOffsets(i)
		out := make([]any, 0, e-s)
		for j := s; j < e; j++ {
			out = append(out, arrowGoValue(a.ListValues(), int(j)))
		}
		return out
	case *aarray.Struct:
		out := make([]any, 0, a.NumField())
		for f := range a.NumField() {
			out = append(out, arrowGoValue(a.Field(f), i))
		}
		return out
	}
	panic(fmt.Sprintf("arrowGoValue: no canonical form for %T (%s)", a, a.DataType()))
}

// requireSameValues compares an Alkaid record with an arrow-go record
// slot by slot and names the first difference of each column.
func requireSameValues(t *testing.T, ours *alkaid.Record, theirs aarrow.RecordBatch) int {
	t.Helper()
	if int64(ours.NumRows()) != theirs.NumRows() || int64(ours.NumCols()) != theirs.NumCols() {
		t.Fatalf("shape: Alkaid %d rows × %d columns, arrow-go %d × %d",
			ours.NumRows(), ours.NumCols(), theirs.NumRows(), theirs.NumCols())
	}
	compared := 0
	for c := range ours.NumCols() {
		oc, tc := ours.Column(c), theirs.Column(c)
		for i := range ours.NumRows() {
			ov, tv := alkaidValue(oc, i), arrowGoValue(tc, i)
			if !reflect.DeepEqual(ov, tv) {
				t.Errorf("column %q row %d: Alkaid %#v, arrow-go %#v", ours.ColumnName(c), i, ov, tv)
				break
			}
			compared++
		}
	}
	return compared
}

// TestCanonicalValuesSeeData guards the comparison against being vacuous:
// for every type but null, two random records of different seeds differ
// somewhere as canonical trees, and each record has null and non-null
// slots (types without validity of their own aside).
func TestCanonicalValuesSeeData(t *testing.T) {
	all := randdata.AllTypes()
	a := randdata.New(1).Record(all, 200)
	b := randdata.New(2).Record(all, 200)
	for c, f := range all.Fields() {
		if f.Type.Kind() == datatype.KindNull {
			continue
		}
		differ, nulls, values := false, 0, 0
		for i := range a.NumRows() {
			av := alkaidValue(a.Column(c), i)
			if !reflect.DeepEqual(av, alkaidValue(b.Column(c), i)) {
				differ = true
			}
			if av == nil {
				nulls++
			} else {
				values++
			}
		}
		if !differ {
			t.Errorf("%s: records of different seeds compare equal", f.Name)
		}
		if values == 0 {
			t.Errorf("%s: no non-null values", f.Name)
		}
		switch f.Type.Kind() {
		case datatype.KindSparseUnion, datatype.KindDenseUnion, datatype.KindRunEndEncoded:
		default:
			if nulls == 0 {
				t.Errorf("%s: no nulls", f.Name)
			}
		}
	}
}
