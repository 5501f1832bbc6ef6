package array

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// TestGrowFromHandsOutStableData appends slices of every layout one by
// one to a Growable that grows in place: each Data handed out equals the
// concatenation so far, and its bytes stay as they were while later
// appends grow the array.
func TestGrowFromHandsOutStableData(t *testing.T) {
	for _, tc := range equalCases {
		if tc.t.Kind() == datatype.KindDictionary {
			continue // dictionary-encoded values need a generation (ipc tests them)
		}
		t.Run(tc.t.String(), func(t *testing.T) {
			whole := MustFromJSON(tc.t, tc.literal)
			n := whole.Len()
			pieces := []Array{Slice(whole, 1, 3), Slice(whole, 0, n), Slice(whole, 2, 2), Slice(whole, 3, n)}
			e, err := GrowFrom(pieces[0].Data(), nil)
			require.NoError(t, err)
			type handed struct {
				d     *Data
				bytes [][]byte
			}
			var out []handed
			for k, p := range pieces {
				if k > 0 {
					require.NoError(t, e.Append(p.Data()), "piece %d", k)
				}
				d, err := e.Finish()
				require.NoError(t, err)
				require.NoError(t, Validate(d, ValidateFull))
				want, err := Concatenate(pieces[:k+1]...)
				require.NoError(t, err)
				i, desc, eq := FirstDifference(want, MustMake(d))
				require.True(t, eq, "after piece %d, differs at %d: %s", k, i, desc)
				out = append(out, handed{d, copyBuffers(d)})
			}
			for k, h := range out {
				require.Equal(t, h.bytes, copyBuffers(h.d), "data handed out after piece %d changed", k)
			}
		})
	}
}

// copyBuffers copies every buffer of d and its children.
func copyBuffers(d *Data) [][]byte {
	var out [][]byte
	for _, b := range d.Buffers {
		out = append(out, bytes.Clone(b.Bytes()))
	}
	for _, c := range d.Children {
		out = append(out, copyBuffers(c)...)
	}
	return out
}

func TestGrowFromRefuses(t *testing.T) {
	_, err := GrowFrom(MustFromJSON(tDictStr, `["a"]`).Data(), nil)
	require.ErrorIs(t, err, ErrInvalid, "dictionary values without a generation")
	e, err := GrowFrom(MustFromJSON(datatype.Int32, `[1]`).Data(), nil)
	require.NoError(t, err)
	bad := &Data{Type: datatype.Int32, Length: 2, NullCount: 1, Buffers: []*memory.Buffer{nil, memory.FromSlice([]int32{1, 2})}}
	require.ErrorIs(t, e.Append(bad), ErrInvalid, "nulls without a bitmap")
	require.ErrorIs(t, e.Append(MustFromJSON(datatype.Int64, `[1]`).Data()), ErrInvalid, "another type")
	g, err := NewGrowable(datatype.Int32, nil, 0)
	require.NoError(t, err)
	require.ErrorIs(t, g.Append(MustFromJSON(datatype.Int32, `[1]`).Data()), ErrInvalid, "not in place")
}

// TestGrowFromOneSlotAtATime appends every slot of every layout one by
// one (twice over), so that the arrays handed out end at every bit of a
// byte: each equals the concatenation so far, and no byte of any of them
// changes while the array grows. Structs holding bools, lists, structs
// and unions (which cannot be read from a shifted offset) are included.
func TestGrowFromOneSlotAtATime(t *testing.T) {
	type tcase struct {
		t       datatype.DataType
		literal string
	}
	cases := []tcase{
		{datatype.StructOf(field("b", datatype.Bool), field("l", tListI32)), `[{"b": true, "l": [1]}, null, {"b": null, "l": null}, {"b": false, "l": [2, 3]}, {"b": true, "l": []}, null, {"b": false}, {"b": true, "l": [4]}, null]`},
		{datatype.StructOf(field("s", datatype.StructOf(field("a", datatype.Int8))), field("n", datatype.Null)), `[{"s": {"a": 1}}, null, {"s": null}, {"s": {"a": null}}, {"s": {"a": 5}}, null, {"s": {"a": 7}}, {"s": {"a": 8}}, {"s": {"a": 9}}]`},
		{datatype.StructOf(field("u", tSparse)), `[{"u": [5, 1]}, null, {"u": [7, "a"]}, {"u": [5, null]}, null, {"u": [7, "b"]}, {"u": [5, 3]}, null, {"u": [5, 4]}]`},
	}
	for _, tc := range equalCases {
		if tc.t.Kind() != datatype.KindDictionary {
			cases = append(cases, tcase{tc.t, tc.literal})
		}
	}
	for _, tc := range cases {
		t.Run(tc.t.String(), func(t *testing.T) {
			whole := MustFromJSON(tc.t, tc.literal)
			n := whole.Len()
			var pieces []Array
			for i := range 2 * n {
				pieces = append(pieces, Slice(whole, i%n, i%n+1))
			}
			g, err := GrowFrom(pieces[0].Data(), nil)
			require.NoError(t, err)
			var handed []*Data
			var saved [][][]byte
			offsets := map[int]bool{}
			for k, p := range pieces {
				if k > 0 {
					require.NoError(t, g.Append(p.Data()), "piece %d", k)
				}
				d, err := g.Finish()
				require.NoError(t, err)
				require.NoError(t, Validate(d, ValidateFull), "after piece %d", k)
				want, err := Concatenate(pieces[:k+1]...)
				require.NoError(t, err)
				i, desc, eq := FirstDifference(want, MustMake(d))
				require.True(t, eq, "after piece %d, differs at %d: %s", k, i, desc)
				handed, saved = append(handed, d), append(saved, copyBuffers(d))
				offsets[d.Offset] = true
			}
			// Bitmaps end on a byte: bool values and structs of fields that
			// can be led are handed out at every offset 0 to 7; a struct
			// holding a union is not (it copies its validity instead).
			switch name := tc.t.String(); {
			case tc.t.Kind() == datatype.KindBool, strings.HasPrefix(name, "struct<b:"), strings.HasPrefix(name, "struct<s:"):
				require.Len(t, offsets, 8)
			case strings.HasPrefix(name, "struct<u:"):
				require.Equal(t, map[int]bool{0: true}, offsets)
			}
			for k, d := range handed {
				require.Equal(t, saved[k], copyBuffers(d), "data handed out after piece %d changed", k)
			}
		})
	}
}

func ExampleGrowFrom() {
	dict := MustFromJSON(datatype.String, `["a", "b"]`)
	g, err := GrowFrom(dict.Data(), nil)
	if err != nil {
		panic(err)
	}
	first, _ := g.Finish()
	if err := g.Append(MustFromJSON(datatype.String, `["c", null]`).Data()); err != nil {
		panic(err)
	}
	second, _ := g.Finish()
	fmt.Println(MustMake(first), MustMake(second))
	// Output: ["a" "b"] ["a" "b" "c" (null)]
}

// TestGrowFromKeepsOneSource: a Growable that grows in place keeps only
// the array last appended (and its children) as its source, so that the
// arrays appended earlier (IPC message bodies) are not kept alive.
func TestGrowFromKeepsOneSource(t *testing.T) {
	typ := datatype.StructOf(field("l", tListI32), field("v", datatype.StringView))
	lit := `[{"l": [1, 2], "v": "a value longer than twelve"}, null, {"l": [], "v": "x"}]`
	g, err := GrowFrom(MustFromJSON(typ, lit).Data(), nil)
	require.NoError(t, err)
	for range 5 {
		require.NoError(t, g.Append(MustFromJSON(typ, lit).Data()))
	}
	var check func(g *Growable)
	check = func(g *Growable) {
		require.Len(t, g.srcs, 1, "%s", g.typ)
		for _, k := range g.kids {
			check(k.g)
		}
	}
	check(g)
	d, err := g.Finish()
	require.NoError(t, err)
	require.Equal(t, 18, d.Length)
	require.Len(t, d.Children[1].Buffers, 3, "views: one data buffer of the grower's")
}
