package randdata

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/array"
)

func TestAllTypesValid(t *testing.T) {
	s := AllTypes()
	for _, n := range []int{0, 1, 7, 100} {
		rec := New(uint64(n)).Record(s, n)
		for i := range rec.NumCols() {
			require.NoError(t, array.Validate(rec.Column(i).Data(), array.ValidateFull), "column %s, %d rows", s.Field(i).Name, n)
		}
	}
}

func TestDeterministic(t *testing.T) {
	s := AllTypes()
	a, b := New(42).Record(s, 50), New(42).Record(s, 50)
	require.Equal(t, a.String(), b.String())
	require.NotEqual(t, a.String(), New(43).Record(s, 50).String())
}
