package array

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/datatype"
)

// jsonSlice returns elements [i, j) of a JSON array literal as a literal.
func jsonSlice(t *testing.T, literal string, i, j int) string {
	var elems []json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(literal), &elems))
	parts := make([]string, 0, j-i)
	for _, e := range elems[i:j] {
		parts = append(parts, string(e))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// equalCases are arrays of every layout as JSON; each has at least five
// slots.
var equalCases = []struct {
	t       datatype.DataType
	literal string
}{
	{datatype.Null, `[null, null, null, null, null]`},
	{datatype.Bool, `[true, null, false, true, true, false, null, true, false, true]`},
	{datatype.Int8, `[1, -2, null, 4, 5, 6]`},
	{datatype.Int64, `[1, null, 3, 4, null, 6, 7]`},
	{datatype.Float64, `[1.5, null, -0.0, 2.25, 1e300, -3]`},
	{datatype.Float16Type, `[1.5, null, 2, 0.5, 8]`},
	{tDec, `["12.34", null, "-0.01", "99.99", "0"]`},
	{mustT(datatype.NewFixedSizeBinary(2)), `["ab", null, "cd", "ef", "gh"]`},
	{datatype.DayTimeIntervalType, `[[1, 2], null, [3, 4], [5, 6], [7, 8]]`},
	{datatype.String, `["a", "bc", null, "", "déf", "g"]`},
	{datatype.LargeBinary, `["a", "bc", null, "", "def", "g"]`},
	{datatype.StringView, `["short", "a value longer than twelve", null, "", "another long one here", "x"]`},
	{tListI32, `[[1, 2], null, [], [3], [4, null, 5], [6]]`},
	{tLListI32, `[[1, 2], null, [], [3], [4, null, 5], [6]]`},
	{tLViewI32, `[[1, 2], null, [], [3], [4, null, 5], [6]]`},
	{tLLViewI32, `[[1, 2], null, [], [3], [4, null, 5], [6]]`},
	{tFSLI32, `[[1, 2], null, [3, null], [5, 6], [7, 8]]`},
	{datatype.ListOf(datatype.ListOf(datatype.String)), `[[["a"], []], null, [["b", null]], [], [null, ["c"]]]`},
	{datatype.StructOf(field("a", datatype.Int32), field("b", datatype.String)), `[{"a": 1, "b": "x"}, null, {"a": null, "b": "y"}, {"a": 3}, {"a": 4, "b": "z"}]`},
	{tMapSI, `[[["a", 1], ["b", 2]], null, [], [["c", null]], [["d", 4]]]`},
	{tSparse, `[[5, 1], [7, "a"], [5, null], [7, null], [7, "b"], [5, 3]]`},
	{tDense, `[[5, 1], [7, "a"], [5, null], [7, null], [7, "b"], [5, 3]]`},
	{tDictStr, `["a", "b", null, "a", "c", "b"]`},
	{tREE, `["a", "a", null, null, "b", "b", "b", "c"]`},
	{vExt{datatype.String}, `["a", null, "b", "c", "d"]`},
}

// TestEqualSlices compares every slice of every case with the same values
// built afresh, and with the neighbouring slice.
func TestEqualSlices(t *testing.T) {
	for _, tc := range equalCases {
		t.Run(tc.t.String(), func(t *testing.T) {
			whole := MustFromJSON(tc.t, tc.literal)
			n := whole.Len()
			require.True(t, Equal(whole, MustFromJSON(tc.t, tc.literal)))
			for i := 0; i <= n; i++ {
				for j := i; j <= n; j++ {
					s := Slice(whole, i, j)
					fresh := MustFromJSON(tc.t, jsonSlice(t, tc.literal, i, j))
					idx, desc, eq := FirstDifference(s, fresh)
					require.True(t, eq, "[%d:%d] differs at %d: %s", i, j, idx, desc)
					require.True(t, Equal(fresh, s))
					require.True(t, ApproxEqual(s, fresh))
				}
			}
			if tc.t.Kind() == datatype.KindNull {
				return
			}
			// Shifted by one, the values differ (every case has neighbours
			// that differ somewhere).
			require.False(t, Equal(Slice(whole, 0, n-1), Slice(whole, 1, n)))
		})
	}
}

func TestEqualIgnoresLayout(t *testing.T) {
	st := datatype.StructOf(field("a", datatype.Int32))
	tests := []struct {
		name string
		a, b *Data
	}{
		{"null slot contents", i32s("101", 1, 99, 3), i32s("101", 1, -7, 3)},
		{"bitmap present without nulls", i32s("111", 1, 2, 3), i32s("", 1, 2, 3)},
		{"binary offsets not from zero", binData(datatype.String, "", []int32{4, 5, 7}, "....abc"), strs("", "a", "bc")},
		{"binary null slot with bytes", binData(datatype.String, "01", []int32{0, 3, 4}, "xyzb"), strs("01", "", "b")},
		{"views inline vs in buffers", viewData(datatype.StringView, "", [][]byte{mkView("a long value here", 1, 2), mkView("ab", 0, 0)}, "zzz", "..a long value here"),
			viewData(datatype.StringView, "", [][]byte{mkView("a long value here", 0, 0), mkView("ab", 0, 0)}, "a long value here")},
		{"list offsets not from zero", listData(tListI32, "", []int32{2, 4, 5}, i32s("", 9, 9, 1, 2, 3)), listData(tListI32, "", []int32{0, 2, 3}, i32s("", 1, 2, 3))},
		{"list null slot with values", listData(tListI32, "01", []int32{0, 2, 3}, i32s("", 7, 7, 3)), listData(tListI32, "01", []int32{0, 0, 1}, i32s("", 3))},
		{"list views out of order", listViewData(tLViewI32, "", []int32{3, 0}, []int32{2, 3}, i32s("", 1, 2, 3, 4, 5)), listViewData(tLViewI32, "", []int32{0, 2}, []int32{2, 3}, i32s("", 4, 5, 1, 2, 3))},
		{"struct null slot hides children", structData(st, "01", 2, i32s("", 1, 2)), structData(st, "01", 2, i32s("", 5, 2))},
		{"dictionaries differ, values do not", dictData(tDictStr, "", []int8{0, 1, 0}, strs("", "a", "b")), dictData(tDictStr, "", []int8{2, 0, 2}, strs("", "b", "x", "a"))},
		{"dictionary null value vs null index", dictData(tDictStr, "10", []int8{0, 0}, strs("", "a")), dictData(tDictStr, "", []int8{1, 0}, strs("01", "z", "a"))},
		{"run splits", reeData(tREE, 5, []int32{2, 5}, strs("", "a", "a")), reeData(tREE, 5, []int32{1, 3, 5}, strs("", "a", "a", "a"))},
		{"run-end slice vs fresh", reeData(tREE, 6, []int32{2, 4, 6}, strs("", "a", "b", "c")).Slice(1, 5), reeData(tREE, 4, []int32{1, 3, 4}, strs("", "a", "b", "c"))},
		{"dense offsets elsewhere", unionData(tDense, []int8{5, 7}, []int32{2, 0}, i32s("", 0, 0, 4), strs("", "s")), unionData(tDense, []int8{5, 7}, []int32{0, 0}, i32s("", 4), strs("", "s"))},
		{"sparse unselected slots", unionData(tSparse, []int8{5, 7}, nil, i32s("", 4, 8), strs("", "q", "s")), unionData(tSparse, []int8{5, 7}, nil, i32s("", 4, 0), strs("", "", "s"))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b := MustMake(tc.a), MustMake(tc.b)
			i, desc, eq := FirstDifference(a, b)
			require.True(t, eq, "differs at %d: %s", i, desc)
			require.True(t, Equal(b, a))
		})
	}
}

func TestFirstDifference(t *testing.T) {
	tests := []struct {
		name  string
		a, b  Array
		index int
		desc  string
	}{
		{"value", MustFromJSON(datatype.Int32, `[1, 2, 3]`), MustFromJSON(datatype.Int32, `[1, 2, 4]`), 2, "slot 2: 3 vs 4"},
		{"null vs value", MustFromJSON(datatype.Int32, `[1, null]`), MustFromJSON(datatype.Int32, `[1, 2]`), 1, "slot 1: (null) vs 2"},
		{"types", MustFromJSON(datatype.Int32, `[1]`), MustFromJSON(datatype.Int64, `[1]`), -1, "types differ: int32 vs int64"},
		{"field names", MustFromJSON(datatype.StructOf(field("a", datatype.Int8)), `[]`), MustFromJSON(datatype.StructOf(field("b", datatype.Int8)), `[]`), -1,
			"types differ: struct<a: int8> vs struct<b: int8>"},
		{"lengths", MustFromJSON(datatype.String, `["a", "b"]`), MustFromJSON(datatype.String, `["a", "b", "c"]`), 2, "lengths differ: 2 vs 3"},
		{"earlier value before lengths", MustFromJSON(datatype.String, `["a", "b"]`), MustFromJSON(datatype.String, `["x", "b", "c"]`), 0, `slot 0: "a" vs "x"`},
		{"nested", MustFromJSON(tListI32, `[[1], [1, 2], [3]]`), MustFromJSON(tListI32, `[[1], [1, 5], [3]]`), 1, "slot 1: [1 2] vs [1 5]"},
		{"list lengths", MustFromJSON(tListI32, `[[1], [1, 2], [3]]`), MustFromJSON(tListI32, `[[1], [1], [2, 3]]`), 1, "slot 1: [1 2] vs [1]"},
		{"struct field", MustFromJSON(datatype.StructOf(field("a", datatype.Int8), field("b", datatype.Int8)), `[{"a": 1, "b": 2}, {"a": 1, "b": 2}]`),
			MustFromJSON(datatype.StructOf(field("a", datatype.Int8), field("b", datatype.Int8)), `[{"a": 1, "b": 2}, {"a": 1, "b": 3}]`), 1, "slot 1: {a: 1, b: 2} vs {a: 1, b: 3}"},
		{"union code", MustFromJSON(tDense, `[[5, 1], [5, 2]]`), MustFromJSON(tDense, `[[5, 1], [7, "2"]]`), 1, `slot 1: 2 vs "2"`},
		{"run ends", MustFromJSON(tREE, `["a", "a", "b"]`), MustFromJSON(tREE, `["a", "b", "b"]`), 1, `slot 1: "a" vs "b"`},
		{"dictionary", MustFromJSON(tDictStr, `["a", "b", "c"]`), MustFromJSON(tDictStr, `["a", "b", "b"]`), 2, `slot 2: "c" vs "b"`},
		{"nil", nil, MustFromJSON(datatype.Int8, `[]`), -1, "one array is nil"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			i, desc, eq := FirstDifference(tc.a, tc.b)
			require.False(t, eq)
			require.Equal(t, tc.index, i)
			require.Equal(t, tc.desc, desc)
			require.False(t, Equal(tc.a, tc.b))
		})
	}
	i, desc, eq := FirstDifference(nil, nil)
	require.True(t, eq)
	require.Equal(t, -1, i)
	require.Empty(t, desc)
}

func TestEqualFloats(t *testing.T) {
	nan := math.NaN()
	f64 := func(vs ...float64) Array { return MustMake(primData(datatype.Float64, "", vs...)) }
	f32 := func(vs ...float32) Array { return MustMake(primData(datatype.Float32, "", vs...)) }
	f16 := func(vs ...float32) Array {
		h := make([]datatype.Float16, len(vs))
		for i, v := range vs {
			h[i] = datatype.Float16From(v)
		}
		return MustMake(primData(datatype.Float16Type, "", h...))
	}

	require.True(t, Equal(f64(0), f64(math.Copysign(0, -1))), "0 == -0")
	require.False(t, Equal(f64(1, nan), f64(1, nan)), "NaN != NaN")
	require.False(t, ApproxEqual(f64(1, nan), f64(1, nan)), "NaN != NaN without NaNEqual")
	require.True(t, ApproxEqual(f64(1, nan), f64(1, nan), NaNEqual()))
	require.False(t, ApproxEqual(f64(nan), f64(1), NaNEqual()))
	require.True(t, Equal(f64(math.Inf(1)), f64(math.Inf(1))))
	require.False(t, ApproxEqual(f64(math.Inf(1)), f64(math.Inf(-1)), AbsTolerance(math.MaxFloat64)))

	require.False(t, Equal(f64(1), f64(1+1e-9)))
	require.True(t, ApproxEqual(f64(1), f64(1+1e-9)), "default absolute tolerance 1e-5")
	require.False(t, ApproxEqual(f64(1), f64(1.001)))
	require.True(t, ApproxEqual(f64(1), f64(1.001), AbsTolerance(0.01)))
	require.False(t, ApproxEqual(f64(1e6), f64(1e6+10), AbsTolerance(1)))
	require.True(t, ApproxEqual(f64(1e6), f64(1e6+10), RelTolerance(1e-4)))
	require.False(t, ApproxEqual(f64(1e-9), f64(2e-9), RelTolerance(0.1)))
	require.True(t, ApproxEqual(f64(1e-9), f64(2e-9), RelTolerance(0.1), AbsTolerance(1e-8)), "either tolerance suffices")

	require.True(t, ApproxEqual(f32(1, 2), f32(1.000001, 2)))
	require.False(t, Equal(f32(1, 2), f32(1.000001, 2)))
	require.True(t, ApproxEqual(f16(1, float32(nan)), f16(1, float32(nan)), NaNEqual()))
	require.False(t, Equal(f16(1, float32(nan)), f16(1, float32(nan))))
	require.True(t, Equal(f16(0), f16(float32(math.Copysign(0, -1)))), "float16 0 == -0")

	// Nested floats use the same options.
	lt := datatype.ListOf(datatype.StructOf(field("x", datatype.Float64)))
	a := MustFromJSON(lt, `[[{"x": 1}, {"x": "NaN"}], null]`)
	b := MustFromJSON(lt, `[[{"x": 1.000000001}, {"x": "NaN"}], null]`)
	require.False(t, Equal(a, b))
	require.False(t, ApproxEqual(a, b))
	require.True(t, ApproxEqual(a, b, NaNEqual()))
	d := MustFromJSON(mustT(datatype.NewDictionary(datatype.Int8, datatype.Float32, false)), `[1.5, 2.5]`)
	e := MustFromJSON(mustT(datatype.NewDictionary(datatype.Int8, datatype.Float32, false)), `[1.5000001, 2.5]`)
	require.False(t, Equal(d, e))
	require.True(t, ApproxEqual(d, e))
}
