package array

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// TestDataAccessors checks every accessor of Data against the typed
// arrays of the same values, whole and sliced at every offset.
func TestDataAccessors(t *testing.T) {
	tests := []struct {
		t       datatype.DataType
		literal string
		check   func(t *testing.T, d *Data, a Array)
	}{
		{datatype.Null, `[null, null, null]`, nil},
		{datatype.Bool, `[true, null, false, true, true, false, null, true, false]`, func(t *testing.T, d *Data, a Array) {
			bits, off := d.BoolBits()
			for i := range d.Length {
				if a.IsValid(i) {
					require.Equal(t, a.(*Boolean).Value(i), bitGet(bits, off+i), "slot %d", i)
				}
			}
		}},
		{datatype.Int32, `[1, -2, null, 4, 5, 6, null, 8, 9]`, func(t *testing.T, d *Data, a Array) {
			require.True(t, slices.Equal(a.(*Int32).Values(), Values[int32](d)))
			doubled := make([]int32, d.Offset+d.Length)
			for i, x := range Values[int32](d) {
				doubled[d.Offset+i] = 2 * x
			}
			w := MustMake(d.WithValues(memory.FromSlice(doubled))).(*Int32)
			for i := range d.Length {
				require.Equal(t, a.IsNull(i), w.IsNull(i))
				require.Equal(t, 2*a.(*Int32).Value(i), w.Value(i))
			}
			require.Equal(t, d.Buffers[0], d.ValidityBuffer())
			require.Len(t, Values[int32](d), d.Length)
			vb := d.ValueBytes()
			require.Len(t, vb, 4*d.Length)
		}},
		{tDec, `["12.34", null, "-0.01", "99.99", "0"]`, func(t *testing.T, d *Data, a Array) {
			require.Len(t, d.ValueBytes(), 16*d.Length)
		}},
		{datatype.String, `["a", "bc", null, "", "déf", "g"]`, func(t *testing.T, d *Data, a Array) {
			offs := Offsets[int32](d)
			require.Len(t, offs, d.Length+1)
			for i := range d.Length {
				require.Equal(t, a.(*BinaryArray).Value(i), d.BinaryBytes()[offs[i]:offs[i+1]])
			}
		}},
		{datatype.LargeBinary, `["a", "bc", null, "", "def", "g"]`, func(t *testing.T, d *Data, a Array) {
			offs := Offsets[int64](d)
			for i := range d.Length {
				require.Equal(t, a.(*LargeBinaryArray).Value(i), d.BinaryBytes()[offs[i]:offs[i+1]])
			}
		}},
		{datatype.StringView, `["short", "a value longer than twelve", null, "", "another long one here", "x"]`, func(t *testing.T, d *Data, a Array) {
			require.Len(t, d.Views(), 16*d.Length)
			for i := range d.Length {
				if a.IsValid(i) {
					require.Equal(t, a.(*BinaryView).Value(i), d.ViewValue(i), "slot %d", i)
					v, ok := CheckedViewValue(d.Views()[16*i:16*i+16], d.ViewDataBuffers())
					require.True(t, ok)
					require.Equal(t, a.(*BinaryView).Value(i), v)
				}
			}
		}},
		{tLViewI32, `[[1, 2], null, [], [3], [4, null, 5], [6]]`, func(t *testing.T, d *Data, a Array) {
			offs, sizes := ListViewSpans[int32](d)
			require.Len(t, offs, d.Length)
			l := a.(ListLike)
			for i := range d.Length {
				s, e := l.ValueOffsets(i)
				if sizes[i] > 0 {
					require.Equal(t, [2]int{s, e}, [2]int{int(offs[i]), int(offs[i] + sizes[i])})
				}
			}
			require.Same(t, d.Children[0], d.Child(0))
		}},
		{tDense, `[[5, 1], [7, "a"], [5, null], [7, null], [7, "b"], [5, 3]]`, func(t *testing.T, d *Data, a Array) {
			u := a.(*Union)
			require.Len(t, d.TypeCodes(), d.Length)
			require.Len(t, d.UnionOffsets(), d.Length)
			for i := range d.Length {
				require.Equal(t, u.TypeCode(i), d.TypeCodes()[i])
				require.Equal(t, u.ValueOffset(i), int(d.UnionOffsets()[i]))
			}
		}},
		{tREE, `["a", "a", null, null, "b", "b", "b", "c"]`, func(t *testing.T, d *Data, a Array) {
			r := a.(*RunEndEncoded)
			ends := d.RunEnds()
			for i := range ends {
				require.Equal(t, ends[i], d.RunEndAt(i))
			}
			for i := range d.Length {
				require.Equal(t, r.PhysicalIndex(i), d.PhysicalIndex(i), "slot %d", i)
			}
			lends, values := d.LogicalRuns()
			e, v := MustMake(lends), MustMake(values)
			require.Equal(t, e.Len(), v.Len())
			run := 0
			for i := range d.Length {
				for int(indexAt(e, run)) <= i {
					run++
				}
				require.Equal(t, FormatValue(a, i), FormatValue(v, run), "slot %d", i)
			}
			if d.Length > 0 {
				require.Equal(t, d.Length, indexAt(e, e.Len()-1))
			} else {
				require.Zero(t, e.Len())
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.t.String(), func(t *testing.T) {
			whole := MustFromJSON(tc.t, tc.literal)
			n := whole.Len()
			for i := 0; i <= n; i++ {
				for j := i; j <= n; j++ {
					a := Slice(whole, i, j)
					d := a.Data()
					bits, off := d.ValidityBitmap()
					// Unions and run-end encoded arrays have no bitmap: their
					// nulls are their children's.
					k := tc.t.Kind()
					noBitmap := k == datatype.KindDenseUnion || k == datatype.KindRunEndEncoded
					for k := range d.Length {
						if noBitmap {
							require.False(t, d.IsNull(k))
							continue
						}
						require.Equal(t, a.IsNull(k), d.IsNull(k), "[%d:%d] slot %d", i, j, k)
						require.Equal(t, a.IsValid(k), d.IsValid(k))
						if bits != nil {
							require.Equal(t, a.IsValid(k), bitGet(bits, off+k))
						}
					}
					if d.NullCount == 0 {
						require.Nil(t, bits)
					}
					if tc.check != nil {
						tc.check(t, d, a)
					}
				}
			}
		})
	}
}

func TestCheckedViewValueRefusesBadViews(t *testing.T) {
	good := viewData(datatype.StringView, "", [][]byte{mkView("a long value here", 0, 0)}, "a long value here")
	tests := []struct {
		name string
		view []byte
	}{
		{"negative length", mkViewRaw(-1, 0, 0)},
		{"buffer index past the buffers", mkView("a long value here", 1, 0)},
		{"negative buffer index", mkViewRaw(20, -1, 0)},
		{"offset past the end", mkView("a long value here", 0, 5)},
		{"negative offset", mkViewRaw(20, 0, -3)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ok := CheckedViewValue(tc.view, good.ViewDataBuffers())
			require.False(t, ok)
		})
	}
	v, ok := CheckedViewValue(good.Views(), good.ViewDataBuffers())
	require.True(t, ok)
	require.Equal(t, "a long value here", string(v))
}

func bitGet(b []byte, i int) bool { return b[i>>3]>>(i&7)&1 == 1 }

// mkViewRaw is a long view of n bytes in buffer buf at off.
func mkViewRaw(n, buf, off int32) []byte {
	v := make([]byte, 16)
	putI32 := func(p []byte, x int32) { p[0], p[1], p[2], p[3] = byte(x), byte(x>>8), byte(x>>16), byte(x>>24) }
	putI32(v, n)
	putI32(v[8:], buf)
	putI32(v[12:], off)
	return v
}
