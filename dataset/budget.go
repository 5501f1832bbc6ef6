package dataset

import (
	"context"
	"sync"
)

// budget is the readahead of a scan: bytes that the units started and
// not yet consumed may hold. One taker (the scan's dispatcher) waits for
// room; the units give their bytes back as they finish.
type budget struct {
	mu    sync.Mutex
	total int64
	free  int64
	freed chan struct{} // closed, and replaced, whenever bytes come back
}

func newBudget(total int64) *budget {
	return &budget{total: total, free: total, freed: make(chan struct{})}
}

// take waits until n bytes are free and takes them, and returns what it
// took: n, or the whole budget for a larger n (such a unit runs alone).
// ok is false once ctx is done.
func (b *budget) take(ctx context.Context, n int64) (took int64, ok bool) {
	n = min(max(n, 0), b.total)
	for {
		b.mu.Lock()
		if b.free >= n {
			b.free -= n
			b.mu.Unlock()
			return n, true
		}
		freed := b.freed
		b.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			return 0, false
		}
	}
}

// give returns n bytes that take took.
func (b *budget) give(n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.free += n
	close(b.freed)
	b.freed = make(chan struct{})
	b.mu.Unlock()
}
