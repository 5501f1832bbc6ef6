package array

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/datatype"
)

// growStep is one call on a Growable and the slots (indices into the
// whole case, -1 null) it should append.
type growStep struct {
	name string
	do   func(g *Growable, n int)
	want func(n int) []int
}

// growSteps mix every call over two sources: the whole case (0) and the
// case without its first slot (1), so that sources sit at offsets 0 and 1.
var growSteps = []growStep{
	{"range of the slice", func(g *Growable, n int) { g.ExtendRange(1, 1, 2) }, func(int) []int { return []int{2, 3} }},
	{"indices with a null", func(g *Growable, n int) { g.ExtendIndices(0, []int{4, -1, 0, 0, n - 1}) },
		func(n int) []int { return []int{4, -1, 0, 0, n - 1} }},
	{"nulls", func(g *Growable, n int) { g.AppendNulls(2) }, func(int) []int { return []int{-1, -1} }},
	{"whole", func(g *Growable, n int) { g.ExtendRange(0, 0, n) }, func(n int) []int {
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		return all
	}},
	{"indices of the slice", func(g *Growable, n int) { g.ExtendIndices(1, []int{0, 2, 2}) }, func(int) []int { return []int{1, 3, 3} }},
	{"empty calls", func(g *Growable, n int) { g.ExtendRange(0, 1, 0); g.ExtendIndices(1, nil); g.AppendNulls(0) }, func(int) []int { return nil }},
	{"run again", func(g *Growable, n int) { g.ExtendIndices(0, []int{n - 1, n - 1, -1, -1}) }, func(n int) []int { return []int{n - 1, n - 1, -1, -1} }},
}

// TestGrowableEveryLayout runs the steps, each alone and all in a row,
// over every layout, against the same values built from JSON.
func TestGrowableEveryLayout(t *testing.T) {
	for _, tc := range equalCases {
		t.Run(tc.t.String(), func(t *testing.T) {
			whole := MustFromJSON(tc.t, tc.literal)
			n := whole.Len()
			var elems []json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(tc.literal), &elems))
			null := "null"
			if ut, ok := tc.t.(*datatype.UnionType); ok {
				null = "[" + string(rune('0'+ut.TypeCodes()[0])) + ", null]"
			}
			check := func(t *testing.T, steps []growStep) {
				srcs := []*Data{whole.Data(), whole.Data().Slice(1, n)}
				g, err := NewGrowable(tc.t, srcs, 4)
				require.NoError(t, err)
				var parts []string
				for _, s := range steps {
					s.do(g, n)
					for _, i := range s.want(n) {
						if i < 0 {
							parts = append(parts, null)
						} else {
							parts = append(parts, string(elems[i]))
						}
					}
				}
				require.Equal(t, len(parts), g.Len())
				d, err := g.Finish()
				require.NoError(t, err)
				require.NoError(t, Validate(d, ValidateFull))
				require.Zero(t, d.Offset)
				got := MustMake(d)
				want := MustFromJSON(tc.t, "["+strings.Join(parts, ", ")+"]")
				i, desc, eq := FirstDifference(want, got)
				require.True(t, eq, "differs at %d: %s\nwant %s\n got %s", i, desc, want, got)
			}
			for _, s := range growSteps {
				t.Run(s.name, func(t *testing.T) { check(t, []growStep{s}) })
			}
			t.Run("all", func(t *testing.T) { check(t, growSteps) })
		})
	}
}

func TestGrowableDictionariesUnify(t *testing.T) {
	a := dictData(tDictStr, "", []int8{0, 1, 0}, strs("", "a", "b"))
	b := dictData(tDictStr, "011", []int8{1, 0, 2}, strs("", "b", "c", "a"))
	g, err := NewGrowable(tDictStr, []*Data{a, b}, 0)
	require.NoError(t, err)
	g.ExtendIndices(1, []int{2, -1, 1, 0})
	g.ExtendRange(0, 1, 2)
	g.ExtendRange(1, 0, 3)
	d, err := g.Finish()
	require.NoError(t, err)
	require.NoError(t, Validate(d, ValidateFull))
	require.Equal(t, `["a" (null) "b" (null) "b" "a" (null) "b" "a"]`, Format(MustMake(d)))
	require.Equal(t, `["a" "b" "c"]`, Format(MustMake(d.Dictionary)), "the first dictionary, then what the others add")

	// One shared dictionary is kept as it is.
	g, err = NewGrowable(tDictStr, []*Data{a, a.Slice(1, 3)}, 0)
	require.NoError(t, err)
	g.ExtendIndices(1, []int{1, 0})
	d, err = g.Finish()
	require.NoError(t, err)
	require.Same(t, a.Dictionary, d.Dictionary)
	require.Equal(t, `["a" "b"]`, Format(MustMake(d)))
}

func TestGrowableAppendEmpty(t *testing.T) {
	st := datatype.StructOf(field("a", datatype.Int32), field("b", datatype.String))
	tests := []struct {
		t    datatype.DataType
		lit  string
		want string
	}{
		{datatype.Int32, `[7, null]`, `[7 (null) 0 0 7]`},
		{datatype.Bool, `[true, null]`, `[true (null) false false true]`},
		{datatype.String, `["xy", null]`, `["xy" (null) "" "" "xy"]`},
		{datatype.StringView, `["a long value of a view", null]`, `["a long value of a view" (null) "" "" "a long value of a view"]`},
		{tListI32, `[[1], null]`, `[[1] (null) [] [] [1]]`},
		{tFSLI32, `[[1, 2], null]`, `[[1 2] (null) [0 0] [0 0] [1 2]]`},
		{st, `[{"a": 1, "b": "x"}, null]`, `[{a: 1, b: "x"} (null) {a: 0, b: ""} {a: 0, b: ""} {a: 1, b: "x"}]`},
	}
	for _, tc := range tests {
		t.Run(tc.t.String(), func(t *testing.T) {
			src := MustFromJSON(tc.t, tc.lit).Data()
			g, err := NewGrowable(tc.t, []*Data{src}, 0)
			require.NoError(t, err)
			g.ExtendRange(0, 0, 2)
			g.AppendEmpty(2)
			g.ExtendIndices(0, []int{0})
			d, err := g.Finish()
			require.NoError(t, err)
			require.NoError(t, Validate(d, ValidateFull))
			require.Equal(t, 1, d.NullCount)
			require.Equal(t, tc.want, Format(MustMake(d)))
		})
	}
}

func TestGrowableErrors(t *testing.T) {
	_, err := NewGrowable(datatype.Int32, []*Data{MustFromJSON(datatype.Int64, `[1]`).Data()}, 0)
	require.EqualError(t, err, "array: invalid: growable: source 0 has type int64, want int32")
	_, err = NewGrowable(datatype.Int32, []*Data{nil}, 0)
	require.ErrorIs(t, err, ErrInvalid)

	for _, typ := range []datatype.DataType{tSparse, tDense, tREE, datatype.Null} {
		g, err := NewGrowable(typ, nil, 0)
		require.NoError(t, err)
		g.AppendEmpty(1)
		_, err = g.Finish()
		require.ErrorIs(t, err, ErrNotSupported, "%s", typ)
		var ge *GrowError
		require.True(t, errors.As(err, &ge))
		require.Contains(t, err.Error(), "no empty value")
	}

	empty := mustT(datatype.NewUnion(datatype.Sparse, nil, nil))
	g, err := NewGrowable(empty, nil, 0)
	require.NoError(t, err)
	g.AppendNulls(1)
	_, err = g.Finish()
	require.ErrorIs(t, err, ErrNotSupported)
	require.EqualError(t, err, "array: sparse_union<>: a null slot in a union without children")

	rt := mustT(datatype.NewRunEndEncoded(datatype.Int16, datatype.String))
	a := reeData(rt, 20000, []int16{20000}, strs("", "a"))
	g, err = NewGrowable(rt, []*Data{a}, 0)
	require.NoError(t, err)
	g.ExtendRange(0, 0, 20000)
	g.ExtendIndices(0, make([]int, 20000))
	_, err = g.Finish()
	require.ErrorIs(t, err, ErrInvalid)
	require.EqualError(t, err, "array: run_end_encoded<run_ends: int16, values: utf8>: length 40000 overflows the run ends")
}

func ExampleGrowable() {
	a := MustFromJSON(datatype.String, `["a", "b", null, "d"]`)
	b := MustFromJSON(datatype.String, `["x", "y"]`)
	g, _ := NewGrowable(datatype.String, []*Data{a.Data(), b.Data()}, 8)
	g.ExtendRange(0, 1, 2)          // "b", null
	g.ExtendIndices(1, []int{1, 0}) // "y", "x"
	g.AppendNulls(1)
	g.ExtendIndices(0, []int{3, -1}) // "d", null
	d, err := g.Finish()
	if err != nil {
		panic(err)
	}
	fmt.Println(MustMake(d))
	// Output: ["b" (null) "y" "x" (null) "d" (null)]
}

// TestGrowableRandomPlans is a property test: random sequences of ranges,
// indices and nulls over random slices of every layout give, slot by
// slot, the values picked, and valid data.
func TestGrowableRandomPlans(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 3))
	for _, tc := range equalCases {
		whole := MustFromJSON(tc.t, tc.literal)
		n := whole.Len()
		for plan := range 40 {
			// Up to three sources, each a random slice of the case.
			srcs := make([]Array, 1+r.IntN(3))
			for i := range srcs {
				lo := r.IntN(n + 1)
				srcs[i] = Slice(whole, lo, lo+r.IntN(n-lo+1))
			}
			ds := make([]*Data, len(srcs))
			for i, s := range srcs {
				ds[i] = s.Data()
			}
			g, err := NewGrowable(tc.t, ds, r.IntN(8))
			require.NoError(t, err)
			var want []string
			for range 1 + r.IntN(6) {
				s := r.IntN(len(srcs))
				m := srcs[s].Len()
				switch op := r.IntN(3); {
				case op == 0 && m > 0:
					start := r.IntN(m)
					k := r.IntN(m - start + 1)
					g.ExtendRange(s, start, k)
					for i := start; i < start+k; i++ {
						want = append(want, FormatValue(srcs[s], i))
					}
				case op == 1:
					idx := make([]int, r.IntN(6))
					for i := range idx {
						idx[i] = -1
						if m > 0 && r.IntN(4) > 0 {
							idx[i] = r.IntN(m)
						}
					}
					g.ExtendIndices(s, idx)
					for _, i := range idx {
						if i < 0 {
							want = append(want, "(null)")
						} else {
							want = append(want, FormatValue(srcs[s], i))
						}
					}
				default:
					k := r.IntN(3)
					g.AppendNulls(k)
					for range k {
						want = append(want, "(null)")
					}
				}
			}
			d, err := g.Finish()
			require.NoError(t, err)
			require.NoError(t, Validate(d, ValidateFull), "%s plan %d", tc.t, plan)
			got := MustMake(d)
			require.Equal(t, len(want), got.Len())
			for i, w := range want {
				require.Equal(t, w, FormatValue(got, i), "%s plan %d slot %d", tc.t, plan, i)
			}
		}
	}
}

// FuzzGrowable drives the engine with plans read from bytes: a case of
// equalCases, sources cut from it, then ranges, indices and nulls; every
// result must be valid and hold, slot by slot, the values picked.
func FuzzGrowable(f *testing.F) {
	f.Add([]byte{0, 1, 2, 0, 1, 3})
	f.Add([]byte{12, 0, 9, 1, 4, 5, 200, 2, 3})
	f.Add([]byte{21, 2, 0, 6, 0, 2, 5, 1, 1, 255, 0, 2, 2})
	f.Fuzz(func(t *testing.T, plan []byte) {
		next := func() int {
			if len(plan) == 0 {
				return 0
			}
			b := plan[0]
			plan = plan[1:]
			return int(b)
		}
		tc := equalCases[next()%len(equalCases)]
		whole := MustFromJSON(tc.t, tc.literal)
		n := whole.Len()
		srcs := make([]Array, 1+next()%3)
		ds := make([]*Data, len(srcs))
		for i := range srcs {
			lo := next() % (n + 1)
			srcs[i] = Slice(whole, lo, lo+next()%(n-lo+1))
			ds[i] = srcs[i].Data()
		}
		g, err := NewGrowable(tc.t, ds, next()%16)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for steps := 0; len(plan) > 0 && steps < 32; steps++ {
			s := next() % len(srcs)
			m := srcs[s].Len()
			switch next() % 3 {
			case 0:
				start := next() % (m + 1)
				k := next() % (m - start + 1)
				g.ExtendRange(s, start, k)
				for i := start; i < start+k; i++ {
					want = append(want, FormatValue(srcs[s], i))
				}
			case 1:
				idx := make([]int, next()%8)
				for i := range idx {
					idx[i] = next()%(m+1) - 1 // -1: null
					if idx[i] < 0 {
						want = append(want, "(null)")
					} else {
						want = append(want, FormatValue(srcs[s], idx[i]))
					}
				}
				g.ExtendIndices(s, idx)
			default:
				k := next() % 4
				g.AppendNulls(k)
				for range k {
					want = append(want, "(null)")
				}
			}
		}
		d, err := g.Finish()
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(d, ValidateFull); err != nil {
			t.Fatal(err)
		}
		got := MustMake(d)
		if got.Len() != len(want) {
			t.Fatalf("length %d, want %d", got.Len(), len(want))
		}
		for i, w := range want {
			if v := FormatValue(got, i); v != w {
				t.Fatalf("%s slot %d: %s, want %s", tc.t, i, v, w)
			}
		}
	})
}
