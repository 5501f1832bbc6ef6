package array

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// TestExtendableHandsOutStableData appends slices of every layout one by
// one: each Data handed out equals the concatenation so far, and its
// bytes stay as they were while later appends grow the array.
func TestExtendableHandsOutStableData(t *testing.T) {
	for _, tc := range equalCases {
		if tc.t.Kind() == datatype.KindDictionary {
			continue // dictionary-encoded values need a generation (ipc tests them)
		}
		t.Run(tc.t.String(), func(t *testing.T) {
			whole := MustFromJSON(tc.t, tc.literal)
			n := whole.Len()
			pieces := []Array{Slice(whole, 1, 3), Slice(whole, 0, n), Slice(whole, 2, 2), Slice(whole, 3, n)}
			e := NewExtendable(pieces[0].Data(), nil)
			require.NotNil(t, e)
			type handed struct {
				d     *Data
				bytes [][]byte
			}
			var out []handed
			for k, p := range pieces {
				if k > 0 {
					require.True(t, e.Append(p.Data()), "piece %d", k)
				}
				d := e.Data()
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

func TestExtendableRefuses(t *testing.T) {
	require.Nil(t, NewExtendable(MustFromJSON(tDictStr, `["a"]`).Data(), nil), "dictionary values without a generation")
	e := NewExtendable(MustFromJSON(datatype.Int32, `[1]`).Data(), nil)
	require.NotNil(t, e)
	bad := &Data{Type: datatype.Int32, Length: 2, NullCount: 1, Buffers: []*memory.Buffer{nil, memory.FromSlice([]int32{1, 2})}}
	require.False(t, e.Append(bad), "nulls without a bitmap")
}
