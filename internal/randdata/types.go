package randdata

import (
	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// AllTypes returns a schema with one nullable field of every type of the
// spec's type table (parameterised types with typical parameters), plus
// nested combinations: dictionaries inside lists and structs, lists of
// structs, maps, unions of both modes, run-end encoding.
func AllTypes() *alkaid.Schema {
	f := func(name string, t datatype.DataType) datatype.Field {
		return datatype.Field{Name: name, Type: t, Nullable: true}
	}
	dictStr := must(datatype.NewDictionary(datatype.Int32, datatype.String, false))
	fields := []datatype.Field{
		f("null", datatype.Null), f("bool", datatype.Bool),
		f("int8", datatype.Int8), f("int16", datatype.Int16), f("int32", datatype.Int32), f("int64", datatype.Int64),
		f("uint8", datatype.Uint8), f("uint16", datatype.Uint16), f("uint32", datatype.Uint32), f("uint64", datatype.Uint64),
		f("float16", datatype.Float16Type), f("float32", datatype.Float32), f("float64", datatype.Float64),
		f("decimal32", must(datatype.NewDecimal(32, 9, 2))), f("decimal64", must(datatype.NewDecimal(64, 18, 4))),
		f("decimal128", must(datatype.NewDecimal(128, 38, 10))), f("decimal256", must(datatype.NewDecimal(256, 76, 20))),
		f("date32", datatype.Date32Type), f("date64", datatype.Date64Type),
		f("time32s", must(datatype.NewTime(datatype.Second))), f("time32ms", must(datatype.NewTime(datatype.Millisecond))),
		f("time64us", must(datatype.NewTime(datatype.Microsecond))), f("time64ns", must(datatype.NewTime(datatype.Nanosecond))),
		f("timestamp_s", must(datatype.NewTimestamp(datatype.Second, ""))),
		f("timestamp_us_utc", must(datatype.NewTimestamp(datatype.Microsecond, "UTC"))),
		f("interval_months", datatype.MonthIntervalType), f("interval_day_time", datatype.DayTimeIntervalType),
		f("interval_mdn", datatype.MonthDayNanoIntervalType),
		f("duration_ms", must(datatype.NewDuration(datatype.Millisecond))),
		f("fixed_size_binary", must(datatype.NewFixedSizeBinary(5))),
		f("binary", datatype.Binary), f("utf8", datatype.String),
		f("large_binary", datatype.LargeBinary), f("large_utf8", datatype.LargeString),
		f("binary_view", datatype.BinaryView), f("utf8_view", datatype.StringView),
		f("fixed_size_list", must(datatype.FixedSizeListOf(datatype.Int16, 3))),
		f("list", datatype.ListOf(datatype.Int32)), f("large_list", datatype.LargeListOf(datatype.String)),
		f("list_view", datatype.ListViewOf(datatype.Int8)), f("large_list_view", datatype.LargeListViewOf(datatype.Float64)),
		f("list_of_lists", datatype.ListOf(datatype.ListOf(datatype.Int8))),
		f("struct", datatype.StructOf(f("a", datatype.Int64), datatype.Field{Name: "b", Type: datatype.String})),
		f("map", datatype.MapOf(datatype.String, datatype.Int32, false)),
		f("sparse_union", must(datatype.NewUnion(datatype.Sparse, []datatype.Field{f("i", datatype.Int32), f("s", datatype.String)}, []int8{3, 7}))),
		f("dense_union", must(datatype.NewUnion(datatype.Dense, []datatype.Field{f("f", datatype.Float64), f("b", datatype.Bool), f("l", datatype.ListOf(datatype.Int8))}, nil))),
		f("dictionary", dictStr),
		f("dictionary_uint8_int64", must(datatype.NewDictionary(datatype.Uint8, datatype.Int64, true))),
		f("list_of_dictionary", datatype.ListOf(must(datatype.NewDictionary(datatype.Int16, datatype.String, false)))),
		f("struct_of_dictionary", datatype.StructOf(f("d", must(datatype.NewDictionary(datatype.Int8, datatype.LargeString, false))))),
		f("run_end_encoded", must(datatype.NewRunEndEncoded(datatype.Int32, datatype.Float32))),
		f("run_end_encoded_utf8", must(datatype.NewRunEndEncoded(datatype.Int64, datatype.String))),
		f("list_of_struct", datatype.ListOf(datatype.StructOf(f("x", datatype.Int32), f("y", datatype.ListOf(datatype.String))))),
	}
	return alkaid.NewSchema(fields, datatype.MetadataFrom("generator", "alkaid randdata"))
}
