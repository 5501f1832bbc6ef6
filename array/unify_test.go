package array

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/datatype"
)

func TestUnifyDictionaries(t *testing.T) {
	tList := datatype.ListOf(tDictStr)
	listOf := func(d *Data, offs ...int32) Array { return MustMake(listData(tList, "", offs, d)) }
	for _, tc := range []struct {
		name       string
		prev, next Array
		want       string // the slots of the result, as Format prints them
		wantDict   string // the unified dictionary (of the list's child for lists)
	}{
		{
			name:     "new values follow prev's",
			prev:     MustMake(dictData(tDictStr, "", []int8{0, 1}, strs("", "a", "b"))),
			next:     MustMake(dictData(tDictStr, "", []int8{1, 0, 1}, strs("", "c", "a"))),
			want:     `["a" "c" "a"]`,
			wantDict: `["a" "b" "c"]`,
		},
		{
			name:     "nulls in the indices and in the dictionary",
			prev:     MustMake(dictData(tDictStr, "", []int8{0}, strs("01", "", "x"))),
			next:     MustMake(dictData(tDictStr, "0110", []int8{5, 1, 0, 9}, strs("10", "y", ""))),
			want:     `[(null) (null) "y" (null)]`,
			wantDict: `[(null) "x" "y"]`,
		},
		{
			name:     "multi-byte strings",
			prev:     MustMake(dictData(tDictStr, "", []int8{0, 1}, strs("", "Mizar", "矢"))),
			next:     MustMake(dictData(tDictStr, "", []int8{0, 1, 2}, strs("", "€uro", "矢", "Alkaïd"))),
			want:     `["€uro" "矢" "Alkaïd"]`,
			wantDict: `["Mizar" "矢" "€uro" "Alkaïd"]`,
		},
		{
			name:     "next's dictionary is prev's, reordered",
			prev:     MustMake(dictData(tDictStr, "", []int8{0}, strs("", "p", "q"))),
			next:     MustMake(dictData(tDictStr, "", []int8{0, 1}, strs("", "q", "p"))),
			want:     `["q" "p"]`,
			wantDict: `["p" "q"]`,
		},
		{
			name:     "a dictionary inside a list",
			prev:     listOf(dictData(tDictStr, "", []int8{0}, strs("", "a")), 0, 1),
			next:     listOf(dictData(tDictStr, "", []int8{0, 1, 1}, strs("", "b", "a")), 0, 2, 3),
			want:     `[["b" "a"] ["a"]]`,
			wantDict: `["a" "b"]`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := UnifyDictionaries(Slice(tc.prev, 0, 0), tc.next)
			require.NoError(t, err)
			require.NoError(t, Validate(got.Data(), ValidateFull))
			require.Equal(t, tc.want, Format(got))
			require.Equal(t, Format(tc.next), Format(got), "values unchanged")
			d := got.Data()
			if d.Dictionary == nil {
				d = d.Children[0]
			}
			require.Equal(t, tc.wantDict, Format(MustMake(d.Dictionary)))
			// Unifying again against the result changes nothing.
			again, err := UnifyDictionaries(got, got)
			require.NoError(t, err)
			require.Same(t, got, again)
		})
	}
}

func TestUnifyDictionariesKeepsWhatNeedsNothing(t *testing.T) {
	a := MustMake(dictData(tDictStr, "", []int8{0, 1}, strs("", "a", "b")))
	b := Slice(a, 1, 2) // the same dictionary object
	got, err := UnifyDictionaries(a, b)
	require.NoError(t, err)
	require.Same(t, b, got)

	plain := MustFromJSON(datatype.Int32, "[1, 2]")
	got, err = UnifyDictionaries(MustFromJSON(datatype.Int32, "[]"), plain)
	require.NoError(t, err)
	require.Same(t, plain, got)
}

func TestUnifyDictionariesErrors(t *testing.T) {
	a := MustMake(dictData(tDictStr, "", []int8{0}, strs("", "a")))
	_, err := UnifyDictionaries(nil, a)
	require.ErrorIs(t, err, ErrInvalid)
	_, err = UnifyDictionaries(MustFromJSON(datatype.Int32, "[]"), a)
	require.ErrorIs(t, err, ErrInvalid)
	_, err = UnifyDictionaries(MustFromJSON(datatype.Int32, "[]"), MustFromJSON(datatype.Int64, "[1]"))
	require.ErrorIs(t, err, ErrInvalid)
	require.ErrorContains(t, err, "array: ")

	// 100 values in prev and 100 others in next do not fit int8 indices.
	vals := func(prefix string) *Data {
		vs := make([]string, 100)
		idx := make([]int8, 100)
		for i := range vs {
			vs[i], idx[i] = fmt.Sprintf("%s%d", prefix, i), int8(i)
		}
		return dictData(tDictStr, "", idx, strs("", vs...))
	}
	p, n := vals("p"), vals("n")
	_, err = UnifyDictionaries(MustMake(p), MustMake(n))
	require.ErrorIs(t, err, ErrInvalid)
	require.ErrorContains(t, err, "do not fit index type")
}

// Batches whose dictionaries differ, made to share one that grows, as a
// file writer needs: the second batch's values are kept, its indices
// point into the first one's dictionary followed by the value it lacked.
func ExampleUnifyDictionaries() {
	dt, _ := datatype.NewDictionary(datatype.Int8, datatype.String, false)
	first, _ := NewDictionaryArray(dt, MustFromJSON(datatype.Int8, "[0, 1]"), MustFromJSON(datatype.String, `["Mizar", "Alcor"]`))
	next, _ := NewDictionaryArray(dt, MustFromJSON(datatype.Int8, "[1, 0]"), MustFromJSON(datatype.String, `["Alkaid", "Mizar"]`))
	unified, err := UnifyDictionaries(first, next)
	if err != nil {
		fmt.Println(err)
		return
	}
	d := unified.(*Dictionary)
	fmt.Println(d, d.Indices(), d.Dictionary())
	// Output:
	// ["Mizar" "Alkaid"] [0 2] ["Mizar" "Alcor" "Alkaid"]
}
