package parquet

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPageBufferClasses: a new pooled buffer is at most 1/8 larger than
// asked for (a column chunk of 260 KiB took 512 KiB when buffers were
// rounded up to a power of two), and a buffer given back serves the
// requests of the class under its capacity.
func TestPageBufferClasses(t *testing.T) {
	for _, tc := range []struct {
		n, want int
	}{
		{0, 4096},
		{1, 4096},
		{4096, 4096},
		{4097, 4608},
		{260 << 10, 288 << 10},
		{1 << 20, 1 << 20},
		{1<<20 + 1, 1<<20 + 128<<10},
		{7<<20 + 1, 7<<20 + 512<<10},
		{1 << 27, 1 << 27},
	} {
		i, size, ok := pageClass(tc.n)
		require.True(t, ok)
		require.Equal(t, tc.want, size, "pageClass(%d)", tc.n)
		b := pageBuffer(tc.n)
		require.Zero(t, len(b))
		require.GreaterOrEqual(t, cap(b), tc.want, "pageBuffer(%d)", tc.n)
		j, ok := pageClassBelow(cap(b))
		require.True(t, ok)
		require.Equal(t, i, j, "pageBuffer(%d) has a capacity of its class: %d", tc.n, cap(b))
		putPageBuffer(b)
	}
	_, _, ok := pageClass(1<<27 + 1)
	require.False(t, ok, "too big to keep")
	b := pageBuffer(1<<27 + 1)
	require.Equal(t, 1<<27+64, cap(b), "too big to keep: aligned, not rounded up")
	for n := 1 << 12; n <= 1<<27; n += n/7 + 1 {
		i, size, ok := pageClass(n)
		require.True(t, ok)
		require.GreaterOrEqual(t, size, n)
		require.LessOrEqual(t, size, max(4096, n+n/8), "pageClass(%d)", n)
		j, ok := pageClassBelow(size)
		require.True(t, ok)
		require.Equal(t, i, j, "a buffer of %d bytes serves its class", size)
		if size > 4096 {
			j, _ = pageClassBelow(size - 1)
			require.Less(t, j, i, "a buffer of %d bytes serves a smaller class", size-1)
		}
	}
	_, ok = pageClassBelow(4095)
	require.False(t, ok)
	_, ok = pageClassBelow(1<<28 - 1)
	require.False(t, ok)
}
