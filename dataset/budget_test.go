package dataset

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestBudget: the first least units start whatever their size; others
// wait until their bytes are free, or until ctx is done.
func TestBudget(t *testing.T) {
	b := newBudget(10, 2)
	ctx := context.Background()
	require.True(t, b.take(ctx, 100)) // larger than the budget: one of the least two
	require.True(t, b.take(ctx, 100))
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	require.False(t, b.take(short, 1), "a third unit started with the budget overdrawn")

	took := make(chan bool)
	go func() { took <- b.take(ctx, 5) }()
	b.give(100) // one unit ends: still 2 units' worth, 100 over
	select {
	case <-took:
		// one unit is running, fewer than least: it may start
	case <-time.After(time.Second):
		t.Fatal("a unit waited although fewer than least units ran")
	}
	b.give(100)
	b.give(5)
	require.Equal(t, int64(10), b.free)
	require.Equal(t, 0, b.units)
	require.True(t, b.take(ctx, 4))
	require.True(t, b.take(ctx, 4))
	require.True(t, b.take(ctx, 2), "the budget had 2 bytes free")
	short2, cancel2 := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel2()
	require.False(t, b.take(short2, 1))
}
