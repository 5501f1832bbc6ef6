package flight

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBufferPool: Get gives the length asked for, from the smallest tier
// that holds it; Put keeps only buffers of a tier's capacity; requests
// above the largest tier are allocated to size.
func TestBufferPool(t *testing.T) {
	p := &bufferPool{}
	for _, tc := range []struct{ n, cap int }{
		{0, 256}, {1, 256}, {256, 256}, {257, 512}, {16 << 10, 16 << 10}, {16<<10 + 9, 32 << 10},
		{1 << 20, 1 << 20}, {1<<20 + 1, 1<<20 + 1},
	} {
		b := p.Get(tc.n)
		require.Len(t, *b, tc.n)
		require.Equal(t, tc.cap, cap(*b), "Get(%d)", tc.n)
		p.Put(b)
	}
	odd := make([]byte, 300)
	p.Put(&odd) // not a tier's capacity: dropped, never handed out
	for range 10 {
		b := p.Get(300)
		require.Equal(t, 512, cap(*b))
		p.Put(b)
	}
}
