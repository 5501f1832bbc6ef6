package array

import (
	"bytes"
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
