package compute

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/stretchr/testify/require"
)

func dec(bits int, p, s int32) datatype.DataType { return must(datatype.NewDecimal(bits, p, s)) }
func ts(u datatype.TimeUnit, tz string) datatype.DataType {
	return must(datatype.NewTimestamp(u, tz))
}
func tm(u datatype.TimeUnit) datatype.DataType  { return must(datatype.NewTime(u)) }
func dur(u datatype.TimeUnit) datatype.DataType { return must(datatype.NewDuration(u)) }
func fsb(width int) datatype.DataType           { return must(datatype.NewFixedSizeBinary(width)) }
func dictOf(i, v datatype.DataType) datatype.DataType {
	return must(datatype.NewDictionary(i, v, false))
}

type castCase struct {
	from     datatype.DataType
	in       string
	to       datatype.DataType
	opts     []Option
	want     string // JSON of to; "" when err is set
	err      error
	contains string
}

var castCases = []castCase{
	// Integers and floats, checked.
	{from: datatype.Int32, in: `[1, -2, null, 2147483647]`, to: datatype.Float64, want: `[1, -2, null, 2147483647]`},
	{from: datatype.Int64, in: `[1, 300]`, to: datatype.Int8, err: ErrOverflow, contains: "row 1: value 300"},
	{from: datatype.Int64, in: `[1, 300]`, to: datatype.Int8, opts: []Option{AllowOverflow()}, want: `[1, 44]`},
	{from: datatype.Int8, in: `[-1]`, to: datatype.Uint8, err: ErrOverflow, contains: "value -1"},
	{from: datatype.Uint64, in: `[18446744073709551615]`, to: datatype.Int64, err: ErrOverflow},
	{from: datatype.Uint32, in: `[4294967295, null]`, to: datatype.Int64, want: `[4294967295, null]`},
	{from: datatype.Int16, in: `[-32768, 7]`, to: datatype.Int32, want: `[-32768, 7]`},
	{from: datatype.Float64, in: `[1.5]`, to: datatype.Int32, err: ErrTruncation, contains: "row 0: value 1.5"},
	{from: datatype.Float64, in: `[1.5, -2.9]`, to: datatype.Int32, opts: []Option{AllowTruncation()}, want: `[1, -2]`},
	{from: datatype.Float64, in: `[1e10]`, to: datatype.Int32, err: ErrOverflow},
	{from: datatype.Float64, in: `["NaN"]`, to: datatype.Int64, err: ErrOverflow, contains: "NaN"},
	{from: datatype.Float32, in: `[2.5, null]`, to: datatype.Float64, want: `[2.5, null]`},
	{from: datatype.Float64, in: `[0.5, 1e300]`, to: datatype.Float32, want: `[0.5, "+Inf"]`},
	{from: datatype.Float64, in: `[1.5, -2]`, to: datatype.Float16Type, want: `[1.5, -2]`},
	{from: datatype.Float16Type, in: `[1.5, null]`, to: datatype.Int8, opts: []Option{AllowTruncation()}, want: `[1, null]`},
	{from: datatype.Uint8, in: `[255]`, to: datatype.Float32, want: `[255]`},
	// Booleans.
	{from: datatype.Bool, in: `[true, false, null]`, to: datatype.Int32, want: `[1, 0, null]`},
	{from: datatype.Float64, in: `[0, -0.5, 2]`, to: datatype.Bool, want: `[false, true, true]`},
	{from: datatype.Bool, in: `[true, null]`, to: datatype.String, want: `["true", null]`},
	{from: datatype.String, in: `["true", "FALSE", "False"]`, to: datatype.Bool, want: `[true, false, false]`},
	{from: datatype.String, in: `["0"]`, to: datatype.Bool, err: ErrInvalid},
	{from: datatype.String, in: `["yes"]`, to: datatype.Bool, err: ErrInvalid, contains: `row 0: value "yes"`},
	// Strings to and from numbers.
	{from: datatype.String, in: `["12", "-7", null, "+3"]`, to: datatype.Int64, want: `[12, -7, null, 3]`},
	{from: datatype.String, in: `["1", "x1"]`, to: datatype.Int64, err: ErrInvalid, contains: `row 1: value "x1"`},
	{from: datatype.String, in: `["99999999999999999999"]`, to: datatype.Int64, err: ErrInvalid},
	{from: datatype.LargeString, in: `["300"]`, to: datatype.Int8, err: ErrOverflow, contains: "value 300"},
	{from: datatype.StringView, in: `["18446744073709551615"]`, to: datatype.Uint64, want: `[18446744073709551615]`},
	{from: datatype.String, in: `["-1"]`, to: datatype.Uint32, err: ErrInvalid},
	{from: datatype.String, in: `["2.5", "1e3", "-inf"]`, to: datatype.Float64, want: `[2.5, 1000, "-Inf"]`},
	{from: datatype.String, in: `["2.5x"]`, to: datatype.Float32, err: ErrInvalid, contains: "not in the text grammar"},
	{from: datatype.Int64, in: `[-5, null]`, to: datatype.String, want: `["-5", null]`},
	{from: datatype.Uint64, in: `[18446744073709551615]`, to: datatype.LargeString, want: `["18446744073709551615"]`},
	{from: datatype.Float64, in: `[0.1, 1e21]`, to: datatype.StringView, want: `["0.1", "1e+21"]`},
	{from: datatype.Float32, in: `[0.1]`, to: datatype.String, want: `["0.1"]`},
	// Binary and string layouts.
	{from: datatype.String, in: `["ab", null]`, to: datatype.LargeString, want: `["ab", null]`},
	{from: datatype.LargeString, in: `["ab"]`, to: datatype.StringView, want: `["ab"]`},
	{from: datatype.String, in: `["ab"]`, to: datatype.Binary, want: `["ab"]`},
	{from: datatype.Binary, in: `["ab"]`, to: datatype.String, want: `["ab"]`},
	// Fixed-size binaries: to the other layouts their bytes; to a
	// fixed-size binary only values of its width.
	{from: fsb(2), in: `["ab", null, "é"]`, to: datatype.Binary, want: `["ab", null, "é"]`},
	{from: fsb(2), in: `["ab", null]`, to: datatype.LargeBinary, want: `["ab", null]`},
	{from: fsb(2), in: `["ab", null]`, to: datatype.BinaryView, want: `["ab", null]`},
	{from: fsb(2), in: `["é", null]`, to: datatype.String, want: `["é", null]`},
	{from: fsb(2), in: `["ab"]`, to: datatype.LargeString, want: `["ab"]`},
	{from: datatype.Binary, in: `["ab", null, "cd"]`, to: fsb(2), want: `["ab", null, "cd"]`},
	{from: datatype.String, in: `["é"]`, to: fsb(2), want: `["é"]`},
	{from: datatype.BinaryView, in: `["ab", "abc"]`, to: fsb(2), err: ErrInvalid, contains: `row 1: value "abc" (3 bytes, not 2)`},
	{from: fsb(2), in: `[null, "ab"]`, to: fsb(3), err: ErrInvalid, contains: `row 1: value "ab" (2 bytes, not 3)`},
	{from: fsb(2), in: `["ab"]`, to: datatype.Int32, err: ErrNotSupported},
	// Decimals.
	{from: dec(128, 10, 2), in: `["1.25", null]`, to: dec(128, 10, 4), want: `["1.2500", null]`},
	{from: dec(128, 10, 2), in: `["1.25"]`, to: dec(64, 10, 1), err: ErrTruncation, contains: "value 1.25"},
	{from: dec(128, 10, 2), in: `["1.25"]`, to: dec(32, 9, 1), opts: []Option{AllowTruncation()}, want: `["1.2"]`},
	{from: dec(256, 40, 0), in: `["1000"]`, to: dec(32, 3, 0), err: ErrOverflow},
	{from: dec(32, 9, 2), in: `["-12.34"]`, to: dec(256, 40, 2), want: `["-12.34"]`},
	{from: dec(64, 18, 2), in: `["12.00", "-3.00"]`, to: datatype.Int16, want: `[12, -3]`},
	{from: dec(64, 18, 2), in: `["12.5"]`, to: datatype.Int16, err: ErrTruncation},
	{from: dec(128, 20, 3), in: `["1.5", null]`, to: datatype.Float64, want: `[1.5, null]`},
	{from: dec(64, 10, 2), in: `["0.5", "0", null]`, to: datatype.Bool, want: `[true, false, null]`},
	{from: datatype.Bool, in: `[true, false]`, to: dec(32, 3, 1), want: `["1.0", "0.0"]`},
	{from: datatype.Int32, in: `[7, null]`, to: dec(64, 5, 2), want: `["7.00", null]`},
	{from: datatype.Int32, in: `[7000]`, to: dec(64, 5, 2), err: ErrOverflow},
	{from: datatype.Float64, in: `[0.5]`, to: dec(128, 5, 2), want: `["0.50"]`},
	{from: datatype.Float64, in: `[0.125]`, to: dec(128, 5, 2), err: ErrTruncation},
	{from: datatype.Float64, in: `["Inf"]`, to: dec(128, 5, 2), err: ErrOverflow},
	{from: datatype.String, in: `["3.14", "-2"]`, to: dec(128, 10, 2), want: `["3.14", "-2.00"]`},
	{from: datatype.String, in: `["3.141"]`, to: dec(128, 10, 2), err: ErrTruncation},
	{from: datatype.String, in: `["abc"]`, to: dec(128, 10, 2), err: ErrInvalid, contains: "not in the text grammar"},
	{from: dec(128, 10, 3), in: `["-0.001"]`, to: datatype.String, want: `["-0.001"]`},
	// Temporal.
	{from: datatype.Date32Type, in: `[1, null]`, to: datatype.Date64Type, want: `[86400000, null]`},
	{from: datatype.Date64Type, in: `[86400001]`, to: datatype.Date32Type, err: ErrTruncation},
	// A date64 holds whole days; a time of day lies in [0, 24h).
	{from: datatype.Int64, in: `[172800000, null]`, to: datatype.Date64Type, want: `[172800000, null]`},
	{from: datatype.Int64, in: `[0, -101]`, to: datatype.Date64Type, err: ErrTruncation, contains: "row 1: value -101"},
	{from: datatype.Int64, in: `[-101, 86400001]`, to: datatype.Date64Type, opts: []Option{AllowTruncation()}, want: `[-86400000, 86400000]`},
	{from: ts(datatype.Second, ""), in: `[1, -1, null]`, to: datatype.Date64Type, want: `[0, -86400000, null]`},
	{from: datatype.Int32, in: `[0, 86399]`, to: tm(datatype.Second), want: `[0, 86399]`},
	{from: datatype.Int32, in: `[86400]`, to: tm(datatype.Second), err: ErrOverflow, contains: "row 0: value 86400"},
	{from: datatype.Int64, in: `[-1]`, to: tm(datatype.Nanosecond), err: ErrOverflow},
	{from: datatype.Date32Type, in: `[1]`, to: ts(datatype.Second, ""), want: `[86400]`},
	{from: ts(datatype.Millisecond, ""), in: `[-1, 86400000]`, to: datatype.Date32Type, want: `[-1, 1]`},
	{from: ts(datatype.Second, ""), in: `[2]`, to: ts(datatype.Nanosecond, "UTC"), want: `[2000000000]`},
	{from: ts(datatype.Second, ""), in: `[9223372037]`, to: ts(datatype.Nanosecond, ""), err: ErrOverflow},
	{from: ts(datatype.Nanosecond, ""), in: `[1500000000]`, to: ts(datatype.Second, ""), err: ErrTruncation},
	{from: ts(datatype.Nanosecond, ""), in: `[1500000000]`, to: ts(datatype.Second, ""), opts: []Option{AllowTruncation()}, want: `[1]`},
	{from: tm(datatype.Second), in: `[3600]`, to: tm(datatype.Nanosecond), want: `[3600000000000]`},
	{from: tm(datatype.Microsecond), in: `[1500]`, to: tm(datatype.Millisecond), err: ErrTruncation},
	{from: dur(datatype.Second), in: `[3]`, to: dur(datatype.Millisecond), want: `[3000]`},
	{from: datatype.Int32, in: `[5]`, to: datatype.Date32Type, want: `[5]`},
	{from: datatype.Int64, in: `[5]`, to: datatype.Date32Type, want: `[5]`},
	{from: ts(datatype.Second, ""), in: `[5]`, to: datatype.Int64, want: `[5]`},
	{from: datatype.Date32Type, in: `[5]`, to: datatype.Int8, want: `[5]`},
	{from: datatype.Date32Type, in: `[5]`, to: tm(datatype.Second), err: ErrNotSupported},
	{from: datatype.Date32Type, in: `[19000, null]`, to: datatype.String, want: `["2022-01-08", null]`},
	{from: datatype.String, in: `["2022-01-08"]`, to: datatype.Date32Type, want: `[19000]`},
	{from: datatype.String, in: `["2022-01-08"]`, to: datatype.Date64Type, want: `[1641600000000]`},
	{from: datatype.String, in: `["2022-13-08"]`, to: datatype.Date32Type, err: ErrInvalid, contains: `row 0: value "2022-13-08"`},
	{from: ts(datatype.Millisecond, ""), in: `[1700000000123]`, to: datatype.String, want: `["2023-11-14T22:13:20.123"]`},
	{from: ts(datatype.Second, "Asia/Tokyo"), in: `[0]`, to: datatype.String, want: `["1970-01-01T09:00:00+09:00"]`},
	{from: datatype.String, in: `["2023-11-14T22:13:20.123Z", "1970-01-01 09:00:00+09:00"]`, to: ts(datatype.Millisecond, "UTC"), want: `[1700000000123, 0]`},
	{from: datatype.String, in: `["1970-01-01 00:00:01.5"]`, to: ts(datatype.Second, ""), err: ErrTruncation},
	{from: datatype.String, in: `["01:02:03.004"]`, to: tm(datatype.Millisecond), want: `[3723004]`},
	{from: datatype.String, in: `["25:00:00"]`, to: tm(datatype.Second), err: ErrInvalid},
	{from: tm(datatype.Microsecond), in: `[3723000004]`, to: datatype.String, want: `["01:02:03.000004"]`},
	{from: dur(datatype.Second), in: `[-3]`, to: datatype.String, want: `["-3"]`},
	{from: datatype.String, in: `["-3"]`, to: dur(datatype.Second), want: `[-3]`},
	// One text grammar with csv and ndjson (issue 36): spaces only on
	// request, no Go number syntax, no hex floats, lost digits are
	// ErrTruncation, the written date of a zoned timestamp.
	{from: datatype.String, in: `[" 12"]`, to: datatype.Int64, err: ErrInvalid, contains: `" 12"`},
	{from: datatype.String, in: `[" 12", "7\t"]`, to: datatype.Int64, opts: []Option{TrimSpace()}, want: `[12, 7]`},
	{from: datatype.String, in: `["1/4"]`, to: dec(128, 10, 2), err: ErrInvalid},
	{from: datatype.String, in: `["0x10"]`, to: dec(128, 10, 2), err: ErrInvalid},
	{from: datatype.String, in: `["0b101"]`, to: dec(128, 10, 2), err: ErrInvalid},
	{from: datatype.String, in: `["0o17"]`, to: dec(128, 10, 2), err: ErrInvalid},
	{from: datatype.String, in: `["0x1p-2"]`, to: dec(128, 10, 2), err: ErrInvalid},
	{from: datatype.String, in: `["1.5e2", "-25E-2"]`, to: dec(128, 10, 2), want: `["150.00", "-0.25"]`},
	{from: datatype.String, in: `["0x1p4"]`, to: datatype.Float64, err: ErrInvalid},
	{from: datatype.String, in: `["0x.8p1"]`, to: datatype.Float64, err: ErrInvalid},
	{from: datatype.String, in: `["1_000"]`, to: datatype.Float64, err: ErrInvalid},
	{from: datatype.String, in: `["2024-01-01T00:00:00.1234567"]`, to: ts(datatype.Microsecond, ""), err: ErrTruncation},
	{from: datatype.String, in: `["2024-01-01T00:00:00.1234567"]`, to: ts(datatype.Microsecond, ""), opts: []Option{AllowTruncation()}, want: `[1704067200123456]`},
	{from: datatype.String, in: `["2024-01-01T00:00:00.1234560"]`, to: ts(datatype.Microsecond, ""), want: `[1704067200123456]`},
	{from: datatype.String, in: `["2024-01-01T00:00:00+02:00"]`, to: datatype.Date32Type, want: `[19723]`},
	{from: datatype.String, in: `["2024-01-01T10:00:00"]`, to: datatype.Date32Type, err: ErrTruncation},
	{from: ts(datatype.Second, "+02:00"), in: `[1704060000]`, to: datatype.Date32Type, want: `[19723]`},
	{from: ts(datatype.Second, "America/New_York"), in: `[1704070800]`, to: datatype.Date64Type, want: `[1703980800000]`},
	{from: ts(datatype.Second, ""), in: `[1704060000]`, to: datatype.Date32Type, want: `[19722]`},
	{from: datatype.String, in: `["1e400"]`, to: datatype.Float64, err: ErrOverflow},
	{from: datatype.String, in: `["1e999999"]`, to: dec(128, 10, 2), opts: []Option{AllowOverflow()}, err: ErrOverflow},
	{from: datatype.String, in: `["1e-400"]`, to: datatype.Float64, err: ErrOverflow},
	// Dictionaries.
	{from: dictOf(datatype.Int8, datatype.String), in: `["a", null, "b", "a"]`, to: datatype.String, want: `["a", null, "b", "a"]`},
	{from: dictOf(datatype.Int8, datatype.String), in: `["1", "2"]`, to: datatype.Int64, want: `[1, 2]`},
	{from: datatype.String, in: `["a", null, "a"]`, to: dictOf(datatype.Int16, datatype.String), want: `["a", null, "a"]`},
	{from: datatype.Int64, in: `[1, 2, 1]`, to: dictOf(datatype.Int32, datatype.Float64), want: `[1, 2, 1]`},
	// Nested.
	{from: datatype.ListOf(datatype.Int32), in: `[[1, 2], null, []]`, to: datatype.ListOf(datatype.Float64), want: `[[1, 2], null, []]`},
	{from: datatype.ListOf(datatype.Int32), in: `[[1, 300]]`, to: datatype.ListOf(datatype.Int8), err: ErrOverflow, contains: "row 1: value 300"},
	{from: datatype.ListOf(datatype.Int32), in: `[[1], [2, 3]]`, to: datatype.LargeListOf(datatype.Int64), want: `[[1], [2, 3]]`},
	{from: datatype.LargeListOf(datatype.String), in: `[["1"], null]`, to: datatype.ListOf(datatype.Int8), want: `[[1], null]`},
	{from: datatype.ListViewOf(datatype.Int8), in: `[[1], [2, 3]]`, to: datatype.ListViewOf(datatype.Int64), want: `[[1], [2, 3]]`},
	{from: must(datatype.FixedSizeListOf(datatype.Int8, 2)), in: `[[1, 2], null]`, to: must(datatype.FixedSizeListOf(datatype.Float32, 2)), want: `[[1, 2], null]`},
	{from: must(datatype.FixedSizeListOf(datatype.Int8, 2)), in: `[[1, 2]]`, to: must(datatype.FixedSizeListOf(datatype.Int8, 3)), err: ErrNotSupported},
	{from: datatype.ListOf(datatype.Int8), in: `[[1]]`, to: datatype.ListViewOf(datatype.Int8), err: ErrNotSupported},
	{from: datatype.StructOf(datatype.Field{Name: "a", Type: datatype.Int8, Nullable: true}, datatype.Field{Name: "b", Type: datatype.String, Nullable: true}),
		in:   `[{"a": 1, "b": "2"}, null]`,
		to:   datatype.StructOf(datatype.Field{Name: "x", Type: datatype.Int64, Nullable: true}, datatype.Field{Name: "y", Type: datatype.Int64, Nullable: true}),
		want: `[{"x": 1, "y": 2}, null]`},
	{from: datatype.StructOf(datatype.Field{Name: "a", Type: datatype.Int8}), in: `[{"a": 1}]`,
		to: datatype.StructOf(), err: ErrNotSupported},
	// Null and unsupported.
	{from: datatype.Null, in: `[null, null]`, to: datatype.Int32, want: `[null, null]`},
	{from: datatype.ListOf(datatype.Int8), in: `[[1]]`, to: datatype.Int8, err: ErrNotSupported},
	{from: datatype.MonthIntervalType, in: `[1]`, to: datatype.Int32, err: ErrNotSupported},
}

// castInput is the array of in's values; a date64 literal is built
// without validation, because full validation refuses values that are not
// whole days, which the cast must still reject by itself.
func castInput(from datatype.DataType, in string) array.Array {
	if from.Kind() != datatype.KindDate64 {
		return arrayjson.MustParse(from, in)
	}
	var vals []int64
	if err := json.Unmarshal([]byte(in), &vals); err != nil {
		panic(err) // a malformed literal in the table above
	}
	b := array.NewPrimitiveBuilder[datatype.Date64](from)
	for _, v := range vals {
		b.Append(datatype.Date64(v))
	}
	return b.Finish()
}

func TestCastTable(t *testing.T) {
	for _, c := range castCases {
		name := fmt.Sprintf("%s->%s %s", c.from, c.to, c.in)
		a := castInput(c.from, c.in)
		got, err := Cast(a, c.to, c.opts...)
		if c.err != nil {
			require.ErrorIs(t, err, c.err, name)
			require.ErrorContains(t, err, c.contains, name)
			continue
		}
		require.NoError(t, err, name)
		require.True(t, datatype.Equal(c.to, got.DataType()), name)
		requireSame(t, arrayjson.MustParse(c.to, c.want), got, name)
		// A sliced input gives the sliced output.
		if a.Len() > 1 {
			part, err := Cast(array.Slice(a, 1, a.Len()), c.to, c.opts...)
			require.NoError(t, err, name)
			requireSame(t, array.Slice(got, 1, got.Len()), part, name+" sliced")
		}
	}
}

func TestCastBinaryNotUTF8(t *testing.T) {
	b := array.NewBinaryBuilder[int32](datatype.Binary)
	b.Append([]byte("ok"))
	b.Append([]byte{0xff, 'x'})
	_, err := Cast(b.NewArray(), datatype.String)
	require.ErrorIs(t, err, ErrInvalid)
	require.ErrorContains(t, err, `row 1: value "\xffx" (not UTF-8)`)
	f := array.NewFixedSizeBinaryBuilder(fsb(2))
	f.Append([]byte("ok"))
	f.Append([]byte{0xff, 'x'})
	_, err = Cast(f.NewArray(), datatype.StringView)
	require.ErrorIs(t, err, ErrInvalid)
	require.ErrorContains(t, err, `row 1: value "\xffx" (not UTF-8)`)
}

// TestCastErrorQuotesLittle: a value that does not cast is quoted, at
// most a hundred bytes of it (before, the whole value was in the error).
func TestCastErrorQuotesLittle(t *testing.T) {
	long := strings.Repeat("9", 1<<20)
	s := array.NewBinaryBuilder[int32](datatype.String)
	s.Append([]byte(long + "x"))
	_, err := Cast(s.NewArray(), datatype.Int64)
	require.ErrorIs(t, err, ErrInvalid)
	require.Less(t, len(err.Error()), 400)
	b := array.NewBinaryBuilder[int32](datatype.Binary)
	b.Append(append([]byte(long), 0xff))
	_, err = Cast(b.NewArray(), datatype.String)
	require.ErrorIs(t, err, ErrInvalid)
	require.Less(t, len(err.Error()), 400)
}

// TestCastNumbersProperty checks every pair of integer and float types on
// random values against exact arithmetic: a checked cast succeeds exactly
// when the value fits (and has no fraction for float to integer).
func TestCastNumbersProperty(t *testing.T) {
	types := []datatype.DataType{datatype.Int8, datatype.Int16, datatype.Int32, datatype.Int64, datatype.Uint8,
		datatype.Uint16, datatype.Uint32, datatype.Uint64, datatype.Float32, datatype.Float64}
	r := rand.New(rand.NewPCG(13, 14))
	lim := map[datatype.Kind][2]*big.Float{}
	for _, dt := range types[:8] {
		var lo, hi big.Float
		bits := uint(8 * datatype.ByteWidth(dt))
		if dt.Kind().IsSignedInteger() {
			lo.SetMantExp(big.NewFloat(-1), int(bits-1))
			hi.SetMantExp(big.NewFloat(1), int(bits-1))
		} else {
			hi.SetMantExp(big.NewFloat(1), int(bits))
		}
		hi.Sub(&hi, big.NewFloat(1))
		lim[dt.Kind()] = [2]*big.Float{&lo, &hi}
	}
	for _, from := range types {
		g := fewValues(t, r, from, 300, 300)
		for _, to := range types {
			for i := range g.Len() {
				one := array.Slice(g, i, i+1)
				got, err := Cast(one, to)
				if g.IsNull(i) {
					require.NoError(t, err)
					require.True(t, got.IsNull(0))
					continue
				}
				v := sortRef(g, i)
				name := fmt.Sprintf("%s %v -> %s", from, array.FormatValue(g, i), to)
				l, isInt := lim[to.Kind()]
				switch {
				case !isInt:
					require.NoError(t, err, name)
				case v.nan || v.num.IsInf() || v.num.Cmp(l[0]) < 0 || v.num.Cmp(l[1]) > 0:
					require.ErrorIs(t, err, ErrOverflow, name)
				case !v.num.IsInt():
					require.ErrorIs(t, err, ErrTruncation, name)
				default:
					require.NoError(t, err, name)
					require.Equal(t, 0, sortRef(got, 0).num.Cmp(v.num), name)
				}
			}
		}
	}
	_ = math.Pi
}

// TestCastEveryPairNoPanic casts random arrays of every type to every
// type: a result or an error, never a panic, and a result is valid and of
// the asked type.
func TestCastEveryPairNoPanic(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	types := everyType()
	done := 0
	for _, from := range types {
		a := fewValues(t, r, from.Type, 12, 5)
		for _, to := range types {
			name := fmt.Sprintf("%s -> %s", from.Type, to.Type)
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("%s: panic %v", name, p)
					}
				}()
				out, err := Cast(a, to.Type)
				if err != nil {
					return
				}
				require.True(t, datatype.Equal(to.Type, out.DataType()), name)
				require.NoError(t, array.Validate(out.Data(), array.ValidateFull), name)
				require.Equal(t, a.Len(), out.Len(), name)
				done++
			}()
		}
	}
	t.Logf("%d of %d casts succeeded", done, len(types)*len(types))
	require.Greater(t, done, 400, "casts that succeeded")
}

// TestCastUtf8IntsParallel: past parallelMin rows the text is parsed in
// two halves; the values, the nulls and the first bad row are those of
// one pass.
func TestCastUtf8IntsParallel(t *testing.T) {
	n := parallelMin + 1001
	build := func(bad ...int) array.Array {
		b := array.NewBinaryBuilder[int32](datatype.String)
		for i := range n {
			switch {
			case slices.Contains(bad, i):
				b.AppendString("x" + strconv.Itoa(i))
			case i%97 == 5:
				b.AppendNull()
			default:
				b.AppendString(strconv.Itoa(i*7 - n))
			}
		}
		return b.Finish()
	}
	got, err := Cast(build(), datatype.Int64)
	require.NoError(t, err)
	vals := got.(*array.Primitive[int64])
	for i := range n {
		if i%97 == 5 {
			require.True(t, got.IsNull(i), "row %d", i)
			continue
		}
		require.Equal(t, int64(i*7-n), vals.Value(i), "row %d", i)
	}
	for _, bad := range [][]int{{n - 1}, {n/2 + 3}, {n / 2}, {n/2 - 1, n - 2}, {7, n/2 + 9}} {
		_, err := Cast(build(bad...), datatype.Int64)
		require.ErrorIs(t, err, ErrInvalid)
		require.ErrorContains(t, err, fmt.Sprintf("row %d:", bad[0]))
	}
}
