package dataset

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestBudget: up to least units start at once, estimating nothing;
// others wait until their bytes are free, or until ctx is done.
func TestBudget(t *testing.T) {
	b := newBudget(10, 2)
	ctx := context.Background()
	asked := 0
	size := func(n int64) func() int64 { return func() int64 { asked++; return n } }
	took, ok := b.take(ctx, size(100))
	require.True(t, ok)
	require.Zero(t, took)
	took, ok = b.take(ctx, size(100))
	require.True(t, ok)
	require.Zero(t, took)
	require.Zero(t, asked, "the least units estimated their size")

	took, ok = b.take(ctx, size(4))
	require.True(t, ok)
	require.Equal(t, int64(4), took)
	took, ok = b.take(ctx, size(6))
	require.True(t, ok)
	require.Equal(t, int64(6), took)
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	_, ok = b.take(short, size(1))
	require.False(t, ok, "a unit started with the budget spent")

	done := make(chan int64)
	go func() {
		took, _ := b.take(ctx, size(5))
		done <- took
	}()
	time.Sleep(10 * time.Millisecond)
	b.give(4) // 4 free: not enough
	select {
	case <-done:
		t.Fatal("a unit of 5 bytes started with 4 free")
	case <-time.After(20 * time.Millisecond):
	}
	b.give(6)
	require.Equal(t, int64(5), <-done)
	b.give(5)
	b.give(0)
	b.give(0)
	require.Equal(t, int64(10), b.free)
	require.Equal(t, 0, b.units)
}
