package compute

import (
	"math/rand/v2"
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/stretchr/testify/require"
)

// testRows is the length of the random arrays of the reference tests:
// long enough to cross several 64-bit words and SIMD blocks, short enough
// for a shared machine.
const testRows = 157

// variants returns a random array of t in the shapes the tests run:
// without nulls, with nulls, and sliced (non-zero offset) with nulls.
func variants(t *testing.T, seed uint64, dt datatype.DataType, n int) map[string]array.Array {
	t.Helper()
	g := randdata.New(seed)
	g.NullFraction = 0.2
	plain := g.Array(dt, n, false)
	nulls := g.Array(dt, n+12, true)
	return map[string]array.Array{
		"plain":  plain,
		"nulls":  array.Slice(nulls, 0, n),
		"offset": array.Slice(nulls, 9, n+9),
	}
}

// nullOf returns a one-slot null array of t.
func nullOf(t *testing.T, dt datatype.DataType) array.Array {
	t.Helper()
	b := array.NewBuilder(dt)
	b.AppendNull()
	return b.NewArray()
}

// refTake is the reference Take: the concatenation of one-slot slices
// (or one-slot nulls for the index -1).
func refTake(t *testing.T, a array.Array, idx []int) array.Array {
	t.Helper()
	if len(idx) == 0 {
		return array.Slice(a, 0, 0)
	}
	parts := make([]array.Array, len(idx))
	for i, j := range idx {
		if j < 0 {
			parts[i] = nullOf(t, a.DataType())
		} else {
			parts[i] = array.Slice(a, j, j+1)
		}
	}
	out, err := array.Concatenate(parts...)
	require.NoError(t, err)
	return out
}

// randomMask returns a Boolean array of n slots (true with probability
// p, null with probability 0.15 when nullable), sliced to a random offset.
func randomMask(r *rand.Rand, n int, p float64, nullable bool) *array.Boolean {
	b := array.NewBooleanBuilder(datatype.Bool)
	skip := r.IntN(11)
	for range n + skip {
		if nullable && r.Float64() < 0.15 {
			b.AppendNull()
		} else {
			b.Append(r.Float64() < p)
		}
	}
	return array.Slice(b.NewArray(), skip, skip+n).(*array.Boolean)
}

// maskIndices returns the reference selection of a mask.
func maskIndices(m *array.Boolean) []int {
	var idx []int
	for i := range m.Len() {
		if m.IsValid(i) && m.Value(i) {
			idx = append(idx, i)
		}
	}
	return idx
}

// requireSame checks got against want with array.Equal and full
// validation.
func requireSame(t *testing.T, want, got array.Array, msg string) {
	t.Helper()
	require.NoError(t, array.Validate(got.Data(), array.ValidateFull), msg)
	if !array.Equal(want, got) {
		i, desc, _ := array.FirstDifference(want, got)
		t.Fatalf("%s: differs at %d: %s\nwant %v\ngot  %v", msg, i, desc, want, got)
	}
}
