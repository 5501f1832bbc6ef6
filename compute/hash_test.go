package compute

import (
	"math/rand/v2"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/stretchr/testify/require"
)

// refGroups is the reference numbering: a Go map from each slot's key to
// the first row holding it.
func refGroups(a array.Array) (firsts []int, counts map[int]int64, first map[string]int) {
	first = map[string]int{}
	counts = map[int]int64{}
	for i := range a.Len() {
		k := string(array.AppendKey(nil, a, i))
		f, ok := first[k]
		if !ok {
			f = i
			first[k] = i
			firsts = append(firsts, i)
		}
		counts[f]++
	}
	return firsts, counts, first
}

func sameSlot(a array.Array, i int, b array.Array, j int) bool {
	return string(array.AppendKey(nil, a, i)) == string(array.AppendKey(nil, b, j))
}

func TestHashingEveryType(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, f := range everyType() {
		for _, n := range []int{0, 1, 50, 700} {
			a := fewValues(t, r, f.Type, n+2, 1+r.IntN(40))
			a = array.Slice(a, 2, n+2)
			firsts, counts, first := refGroups(a)

			u, err := Unique(a)
			require.NoError(t, err, f.Name)
			require.NoError(t, array.Validate(u.Data(), array.ValidateFull))
			require.Equal(t, len(firsts), u.Len(), f.Name)
			for k, i := range firsts {
				require.True(t, sameSlot(a, i, u, k), "%s unique %d", f.Name, k)
			}

			vals, cnt, err := ValueCounts(a)
			require.NoError(t, err)
			require.Equal(t, len(firsts), vals.Len())
			for k, i := range firsts {
				require.Equal(t, counts[i], cnt.Value(k), "%s count of row %d", f.Name, i)
			}

			nulls := 0
			if _, ok := first[string([]byte{0})]; ok {
				nulls = 1
			}
			distinct, err := CountDistinct(a)
			require.NoError(t, err, f.Name)
			require.Equal(t, len(firsts)-nulls, distinct, f.Name)

			if _, isDict := a.(*array.Dictionary); !isDict {
				d, err := DictionaryEncode(a)
				require.NoError(t, err, f.Name)
				require.NoError(t, array.Validate(d.Data(), array.ValidateFull), f.Name)
				require.Equal(t, len(firsts)-nulls, d.Dictionary().Len())
				for i := range n {
					if d.IsNull(i) {
						require.Equal(t, "\x00", string(array.AppendKey(nil, a, i)), "%s row %d", f.Name, i)
						continue
					}
					require.True(t, sameSlot(a, i, d.Dictionary(), d.ValueIndex(i)), "%s row %d", f.Name, i)
				}
			}

			set := array.Slice(a, 0, n/3)
			_, _, inSet := refGroups(set)
			is, err := IsIn(a, set)
			require.NoError(t, err)
			idx, err := IndexIn(a, set)
			require.NoError(t, err)
			for i := range n {
				p, ok := inSet[string(array.AppendKey(nil, a, i))]
				require.Equal(t, ok, is.Value(i), "%s is_in row %d", f.Name, i)
				require.Equal(t, ok, idx.IsValid(i))
				if ok {
					require.Equal(t, int32(p), idx.Value(i))
				}
			}
		}
	}
}

func TestHashingCases(t *testing.T) {
	a := arrayjson.MustParse(datatype.Int64, `[3, null, 3, 1, null, 2, 1]`)
	u, err := Unique(a)
	require.NoError(t, err)
	require.Equal(t, "[3 (null) 1 2]", u.String())
	_, cnt, err := ValueCounts(a)
	require.NoError(t, err)
	require.Equal(t, []int64{2, 2, 2, 1}, cnt.Values())
	distinct, err := CountDistinct(a)
	require.NoError(t, err)
	require.Equal(t, 3, distinct)
	d, err := DictionaryEncode(a)
	require.NoError(t, err)
	require.Equal(t, "[3 1 2]", d.Dictionary().String())
	idx, err := IndexIn(a, arrayjson.MustParse(datatype.Int64, `[2, 3]`))
	require.NoError(t, err)
	require.Equal(t, "[1 (null) 1 (null) (null) 0 (null)]", idx.String())
	_, err = IsIn(a, arrayjson.MustParse(datatype.Int32, `[2]`))
	require.ErrorIs(t, err, ErrInvalid)

	c, err := alkaid.NewChunked(datatype.String, []array.Array{
		arrayjson.MustParse(datatype.String, `["x", "y"]`), arrayjson.MustParse(datatype.String, `["y", "z"]`)})
	require.NoError(t, err)
	uc, err := UniqueChunked(c)
	require.NoError(t, err)
	require.Equal(t, `["x" "y" "z"]`, uc.String())
}

// TestBitsTableGrows checks the fast path against a Go map across many
// table growths.
func TestBitsTableGrows(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	v := make([]int64, 200_000)
	for i := range v {
		v[i] = r.Int64N(50_000) * 7919
	}
	b := array.NewPrimitiveBuilder[int64](datatype.Int64)
	b.AppendValues(v, nil)
	g := groupOf(b.NewArray(), &config{workers: 1})
	ref := map[int64]int32{}
	for i, x := range v {
		id, ok := ref[x]
		if !ok {
			id = int32(len(ref))
			ref[x] = id
		}
		require.Equal(t, id, g.ids[i])
	}
	require.Equal(t, len(ref), g.n())
}

// TestGroupHalves checks the two-goroutine grouping against a Go map,
// for few and many distinct values, with and without per-row ids.
func TestGroupHalvesParallel(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 28))
	for _, distinct := range []int{3, 1000, 200_000} {
		v := make([]int64, parallelMin+12345)
		for i := range v {
			v[i] = r.Int64N(int64(distinct)) * 1_000_003
		}
		a := int64Array(v)
		g := groupOf(a, &config{workers: 2})
		first := map[int64]int{}
		var firsts []int
		for i, x := range v {
			if _, ok := first[x]; !ok {
				first[x] = len(firsts)
				firsts = append(firsts, i)
			}
			require.Equal(t, int32(first[x]), g.ids[i], "row %d", i)
		}
		require.Equal(t, firsts, g.firsts)
		require.Equal(t, firsts, groupIDs(a, false, &config{workers: 2}).firsts)
	}
}
