package compute

import (
	"fmt"
	"math"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/stretchr/testify/require"
)

func TestComparePromotes(t *testing.T) {
	i32 := arrayjson.MustParse(datatype.Int32, `[1, 2, 3, null, -5]`)
	cases := []struct {
		op   CompareOp
		s    any
		want string
	}{
		{Gt, 2.5, "[false false true (null) false]"},
		{Le, 2.5, "[true true false (null) true]"},
		{Eq, 2.5, "[false false false (null) false]"},
		{Ne, 2.5, "[true true true (null) true]"},
		{Lt, -4.5, "[false false false (null) true]"},
		{Ge, 2.0, "[false true true (null) false]"},
		{Lt, 1e30, "[true true true (null) true]"},
		{Gt, -1e30, "[true true true (null) true]"},
		{Eq, math.NaN(), "[false false false (null) false]"},
		{Ne, math.NaN(), "[true true true (null) true]"},
		{Lt, math.Inf(1), "[true true true (null) true]"},
		{Gt, Scalar{Type: datatype.Float64, Valid: true, Value: 1.5}, "[false true true (null) false]"},
		{Gt, float32(2.5), "[false false true (null) false]"},
	}
	for _, c := range cases {
		got, err := CompareScalar(c.op, i32, c.s)
		require.NoError(t, err, "%s %v", c.op, c.s)
		require.Equal(t, c.want, got.String(), "int32 %s %v", c.op, c.s)
	}
	u8 := arrayjson.MustParse(datatype.Uint8, `[0, 255]`)
	got, err := CompareScalar(Lt, u8, 255.5)
	require.NoError(t, err)
	require.Equal(t, "[true true]", got.String())

	// Arrays of two number types.
	for _, c := range []struct {
		a, b datatype.DataType
		x, y string
		want string
	}{
		{datatype.Int32, datatype.Float64, `[1, 2, null]`, `[1.5, 2, 0]`, "[true false (null)]"},
		{datatype.Int8, datatype.Int64, `[-1, 5]`, `[-1, 1000]`, "[false true]"},
		{datatype.Uint64, datatype.Int8, `[18446744073709551615, 0]`, `[-1, 0]`, "[false false]"},
		{datatype.Float32, datatype.Uint16, `[0.5, 70000]`, `[1, 65535]`, "[true false]"},
	} {
		got, err := Compare(Lt, arrayjson.MustParse(c.a, c.x), arrayjson.MustParse(c.b, c.y))
		require.NoError(t, err, fmt.Sprint(c.a, c.b))
		require.Equal(t, c.want, got.String(), fmt.Sprint(c.a, c.b))
	}
}

func TestCompareDictionaryByValue(t *testing.T) {
	dt := must(datatype.NewDictionary(datatype.Int8, datatype.String, false))
	d := arrayjson.MustParse(dt, `["b", "a", null, "c"]`)
	got, err := CompareScalar(Gt, d, "a")
	require.NoError(t, err)
	require.Equal(t, "[true false (null) true]", got.String())
	got, err = Compare(Eq, d, arrayjson.MustParse(datatype.String, `["b", "b", "x", "c"]`))
	require.NoError(t, err)
	require.Equal(t, "[true false (null) true]", got.String())
	// Two dictionaries with different dictionaries.
	e := arrayjson.MustParse(dt, `["a", "a", "a", "d"]`)
	got, err = Compare(Lt, e, d)
	require.NoError(t, err)
	require.Equal(t, "[true false (null) false]", got.String())
}

func TestMinMaxByOrder(t *testing.T) {
	for _, c := range []struct {
		dt     datatype.DataType
		in     string
		lo, hi any
	}{
		{datatype.String, `["pear", null, "apple", "zoo"]`, "apple", "zoo"},
		{datatype.LargeString, `["b", "a"]`, "a", "b"},
		{datatype.StringView, `["a very long string value", "a"]`, "a", "a very long string value"},
		{datatype.Binary, `["b", "ab"]`, []byte("ab"), []byte("b")},
		{datatype.Bool, `[true, null, false]`, false, true},
		{must(datatype.NewDictionary(datatype.Int8, datatype.String, false)), `["m", "b", "x"]`, "b", "x"},
		{dec(128, 10, 1), `["1.5", "-2.0"]`, datatype.Decimal128{Lo: math.MaxUint64 - 19, Hi: -1}, datatype.Decimal128{Lo: 15}},
	} {
		a := arrayjson.MustParse(c.dt, c.in)
		lo, hi, err := MinMax(a)
		require.NoError(t, err, c.dt.String())
		require.Equal(t, c.lo, lo.Value, c.dt.String())
		require.Equal(t, c.hi, hi.Value, c.dt.String())
	}
	// Over chunks.
	s := arrayjson.MustParse(datatype.String, `["m", "q", null, "c", "z"]`)
	c := mustChunked(t, datatype.String, array.Slice(s, 0, 2), array.Slice(s, 2, 3), array.Slice(s, 3, 5))
	lo, hi, err := MinMaxChunked(c)
	require.NoError(t, err)
	require.Equal(t, "c", lo.Value)
	require.Equal(t, "z", hi.Value)
	allNull, err := Min(arrayjson.MustParse(datatype.String, `[null]`))
	require.NoError(t, err)
	require.False(t, allNull.Valid)
}

func mustChunked(t *testing.T, dt datatype.DataType, chunks ...array.Array) *alkaid.Chunked {
	t.Helper()
	c, err := alkaid.NewChunked(dt, chunks)
	require.NoError(t, err)
	return c
}

func TestTemporalScalarsPrint(t *testing.T) {
	for _, c := range []struct {
		dt   datatype.DataType
		in   string
		want string
	}{
		{datatype.Date32Type, `[19783, 19000]`, "2022-01-08"},
		{datatype.Date64Type, `[86400000]`, "1970-01-02"},
		{tm(datatype.Millisecond), `[49500500]`, "13:45:00.5"},
		{tm(datatype.Nanosecond), `[1]`, "00:00:00.000000001"},
		{ts(datatype.Second, ""), `[1700000000]`, "2023-11-14T22:13:20"},
		{ts(datatype.Millisecond, "Asia/Tokyo"), `[0]`, "1970-01-01T09:00:00+09:00"},
		{dur(datatype.Second), `[5400]`, "5400"},
	} {
		lo, err := Min(arrayjson.MustParse(c.dt, c.in))
		require.NoError(t, err)
		require.Equal(t, c.want, lo.String(), c.dt.String())
	}
	require.Equal(t, "7", Scalar{Type: datatype.Int64, Valid: true, Value: int64(7)}.String())
}
