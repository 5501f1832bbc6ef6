package array

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/datatype"
)

// TestConcatenateEveryLayout cuts each case into three slices at every pair
// of points and joins them again, and joins slices out of order against
// the same values built from JSON.
func TestConcatenateEveryLayout(t *testing.T) {
	for _, tc := range equalCases {
		t.Run(tc.t.String(), func(t *testing.T) {
			whole := MustFromJSON(tc.t, tc.literal)
			n := whole.Len()
			for i := 0; i <= n; i++ {
				for j := i; j <= n; j++ {
					c, err := Concatenate(Slice(whole, 0, i), Slice(whole, i, j), Slice(whole, j, n))
					require.NoError(t, err)
					require.NoError(t, Validate(c.Data(), ValidateFull), "cuts %d, %d", i, j)
					require.Zero(t, c.Data().Offset)
					idx, desc, eq := FirstDifference(whole, c)
					require.True(t, eq, "cuts %d, %d: differs at %d: %s", i, j, idx, desc)
				}
			}
			// [3:5] + [1:3] + [0:1] + [4:4]
			got, err := Concatenate(Slice(whole, 3, 5), Slice(whole, 1, 3), Slice(whole, 0, 1), Slice(whole, 4, 4))
			require.NoError(t, err)
			require.NoError(t, Validate(got.Data(), ValidateFull))
			var parts []string
			for _, r := range [][2]int{{3, 5}, {1, 3}, {0, 1}} {
				if inner := jsonSlice(t, tc.literal, r[0], r[1]); inner != "[]" {
					parts = append(parts, inner[1:len(inner)-1])
				}
			}
			lit := "[" + strings.Join(parts, ", ") + "]"
			want := MustFromJSON(tc.t, lit)
			idx, desc, eq := FirstDifference(want, got)
			require.True(t, eq, "differs at %d: %s", idx, desc)

			// A single array is copied, compacted.
			one, err := Concatenate(Slice(whole, 1, n))
			require.NoError(t, err)
			require.True(t, Equal(one, Slice(whole, 1, n)))
			require.NoError(t, Validate(one.Data(), ValidateFull))
		})
	}
}

func TestConcatenateDictionaries(t *testing.T) {
	a := MustMake(dictData(tDictStr, "", []int8{0, 1, 0}, strs("", "a", "b")))
	b := MustMake(dictData(tDictStr, "001", []int8{1, 0, 1}, strs("", "b", "c")))
	c, err := Concatenate(a, b)
	require.NoError(t, err)
	require.NoError(t, Validate(c.Data(), ValidateFull))
	d := c.(*Dictionary)
	require.Equal(t, `["a" "b" "c"]`, Format(d.Dictionary()), "unified, without duplicates")
	require.Equal(t, "[0 1 0 (null) (null) 2]", Format(d.Indices()))
	require.Equal(t, `["a" "b" "a" (null) (null) "c"]`, Format(c))

	// A shared dictionary, or an equal one, is kept as it is.
	s1 := MustMake(dictData(tDictStr, "", []int8{1}, strs("", "x", "y")))
	s2 := MustMake(dictData(tDictStr, "", []int8{0}, strs("", "x", "y")))
	c, err = Concatenate(Slice(a, 1, 3), a, Slice(a, 0, 1))
	require.NoError(t, err)
	require.Same(t, a.Data().Dictionary, c.Data().Dictionary)
	require.Equal(t, `["b" "a" "a" "b" "a" "a"]`, Format(c))
	c, err = Concatenate(s1, s2)
	require.NoError(t, err)
	require.Same(t, s1.Data().Dictionary, c.Data().Dictionary)
	require.Equal(t, `["y" "x"]`, Format(c))

	// Null and duplicate dictionary values survive unification.
	n1 := MustMake(dictData(tDictStr, "", []int8{0, 1, 2}, strs("101", "a", "", "a")))
	n2 := MustMake(dictData(tDictStr, "", []int8{1, 0, 2}, strs("011", "", "z", "a")))
	c, err = Concatenate(n1, n2)
	require.NoError(t, err)
	require.NoError(t, Validate(c.Data(), ValidateFull))
	require.Equal(t, `["a" (null) "a" "z" (null) "a"]`, Format(c))
	require.Equal(t, `["a" (null) "a" "z"]`, Format(c.(*Dictionary).Dictionary()))

	// Nested dictionary values unify by value too.
	lt := mustT(datatype.NewDictionary(datatype.Int16, datatype.ListOf(datatype.String), false))
	lst := datatype.ListOf(datatype.String)
	l1 := MustMake(dictData(lt, "", []int16{0, 1, 0}, listData(lst, "", []int32{0, 1, 3}, strs("110", "a", "b", ""))))
	l2 := MustMake(dictData(lt, "110", []int16{1, 0, 7}, listData(lst, "", []int32{0, 0, 2}, strs("10", "b", ""))))
	c, err = Concatenate(l1, l2)
	require.NoError(t, err)
	require.NoError(t, Validate(c.Data(), ValidateFull))
	require.Equal(t, `[["a"] ["b" (null)] ["a"] ["b" (null)] [] (null)]`, Format(c))
	require.Equal(t, `[["a"] ["b" (null)] []]`, Format(c.(*Dictionary).Dictionary()))

	// Too many values for the index type.
	vals := make([]string, 100)
	for i := range vals {
		vals[i] = fmt.Sprint(i)
	}
	idx := make([]int8, 100)
	for i := range idx {
		idx[i] = int8(i)
	}
	big1 := MustMake(dictData(tDictStr, "", idx, strs("", vals...)))
	for i := range vals {
		vals[i] = fmt.Sprint("x", i)
	}
	big2 := MustMake(dictData(tDictStr, "", idx, strs("", vals...)))
	_, err = Concatenate(big1, big2)
	require.EqualError(t, err, "array: concatenate dictionary<values=utf8, indices=int8>: 200 dictionary values do not fit index type int8")
	require.ErrorIs(t, err, ErrInvalid)
}

func TestConcatenateLayoutDetails(t *testing.T) {
	t.Run("views keep their buffers", func(t *testing.T) {
		a := MustMake(viewData(datatype.StringView, "", [][]byte{mkView("a long value here", 0, 0)}, "a long value here"))
		b := MustMake(viewData(datatype.StringView, "", [][]byte{mkView("ab", 0, 0), mkView("second long value", 1, 1)}, "x", ".second long value"))
		c, err := Concatenate(b, a, b)
		require.NoError(t, err)
		require.NoError(t, Validate(c.Data(), ValidateFull))
		require.Equal(t, 5, c.(*BinaryView).NumDataBuffers())
		require.Equal(t, `["ab" "second long value" "a long value here" "ab" "second long value"]`, Format(c))
	})
	t.Run("run ends", func(t *testing.T) {
		a := MustMake(reeData(tREE, 6, []int32{2, 4, 6}, strs("", "a", "b", "c")))
		c, err := Concatenate(Slice(a, 1, 5), Slice(a, 3, 4), a)
		require.NoError(t, err)
		require.NoError(t, Validate(c.Data(), ValidateFull))
		r := c.(*RunEndEncoded)
		require.Equal(t, "[1 3 4 5 7 9 11]", Format(r.RunEnds()))
		require.Equal(t, `["a" "b" "c" "b" "a" "b" "c"]`, Format(r.Values()))
	})
	t.Run("run ends overflow", func(t *testing.T) {
		rt := mustT(datatype.NewRunEndEncoded(datatype.Int16, datatype.String))
		a := MustMake(reeData(rt, 20000, []int16{20000}, strs("", "a")))
		_, err := Concatenate(a, a)
		require.EqualError(t, err, "array: concatenate run_end_encoded<run_ends: int16, values: utf8>: length 40000 overflows the run ends")
		require.ErrorIs(t, err, ErrInvalid)
	})
	t.Run("dense union compacts children", func(t *testing.T) {
		a := MustMake(unionData(tDense, []int8{5, 7, 5, 7}, []int32{3, 0, 1, 2}, i32s("", 0, 10, 0, 30), strs("", "x", "y", "z")))
		c, err := Concatenate(Slice(a, 2, 4), a)
		require.NoError(t, err)
		require.NoError(t, Validate(c.Data(), ValidateFull))
		require.Equal(t, `[10 "z" 30 "x" 10 "z"]`, Format(c))
		u := c.(*Union)
		require.Equal(t, []int32{0, 0, 3, 1, 1, 3}, u.Offsets())
		require.Equal(t, "[10 10 0 30]", Format(u.Child(0)), "child i: [1:2] of the slice, [1:4] of the whole")
		require.Equal(t, `["z" "x" "y" "z"]`, Format(u.Child(1)))
	})
	t.Run("list views compact the child", func(t *testing.T) {
		a := MustMake(listViewData(tLViewI32, "101", []int32{4, 1, 0}, []int32{2, 2, 1}, i32s("", 1, 2, 3, 4, 5, 6)))
		c, err := Concatenate(a, Slice(a, 2, 3))
		require.NoError(t, err)
		require.NoError(t, Validate(c.Data(), ValidateFull))
		require.Equal(t, "[[5 6] (null) [1] [1]]", Format(c))
	})
	t.Run("bitmaps at odd offsets", func(t *testing.T) {
		a := MustFromJSON(datatype.Bool, `[true, false, null, true, true, false, true, null, false, true, true]`)
		c, err := Concatenate(Slice(a, 3, 10), Slice(a, 1, 6), Slice(a, 7, 11))
		require.NoError(t, err)
		require.NoError(t, Validate(c.Data(), ValidateFull))
		require.Equal(t, 3, c.NullN())
		require.Equal(t, "[true true false true (null) false true false (null) true true false (null) false true true]", Format(c))
	})
	t.Run("nulls only in some inputs", func(t *testing.T) {
		c, err := Concatenate(MustMake(i32s("", 1, 2)), MustMake(i32s("01", 3, 4)), MustMake(i32s("", 5)))
		require.NoError(t, err)
		require.NoError(t, Validate(c.Data(), ValidateFull))
		require.Equal(t, "[1 2 (null) 4 5]", Format(c))
	})
	t.Run("empty", func(t *testing.T) {
		for _, tc := range equalCases {
			e := Slice(MustFromJSON(tc.t, tc.literal), 2, 2)
			c, err := Concatenate(e, e)
			require.NoError(t, err, "%s", tc.t)
			require.NoError(t, Validate(c.Data(), ValidateFull), "%s", tc.t)
			require.Zero(t, c.Len())
		}
	})
}

func TestConcatenateErrors(t *testing.T) {
	_, err := Concatenate()
	require.EqualError(t, err, "array: invalid: concatenate: no arrays")
	require.ErrorIs(t, err, ErrInvalid)
	_, err = Concatenate(MustFromJSON(datatype.Int32, `[1]`), MustFromJSON(datatype.Int64, `[1]`))
	require.EqualError(t, err, "array: invalid: concatenate: array 1 has type int64, want int32")
	require.ErrorIs(t, err, ErrInvalid)
	_, err = Concatenate(MustFromJSON(datatype.Int32, `[1]`), nil)
	require.EqualError(t, err, "array: invalid: concatenate: array 1 is nil")
}
