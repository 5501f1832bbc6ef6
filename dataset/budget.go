package dataset

import (
	"context"
	"sync"
)

// budget is the readahead of a scan: bytes that the units started and
// not yet consumed may hold. One taker (the scan's dispatcher) waits for
// room; the units give their bytes back as they finish. The first units,
// up to least at once, start whatever their size, so that a scan of row
// groups larger than the readahead still reads them in parallel.
type budget struct {
	mu    sync.Mutex
	free  int64 // below zero while units larger than it run
	units int   // taken and not given back
	least int
	freed chan struct{} // closed, and replaced, whenever bytes come back
}

func newBudget(total int64, least int) *budget {
	return &budget{free: total, least: least, freed: make(chan struct{})}
}

// take waits until n bytes are free, or fewer than least units hold
// some, and takes them. ok is false once ctx is done.
func (b *budget) take(ctx context.Context, n int64) (ok bool) {
	for {
		b.mu.Lock()
		if b.free >= n || b.units < b.least {
			b.free -= n
			b.units++
			b.mu.Unlock()
			return true
		}
		freed := b.freed
		b.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			return false
		}
	}
}

// give returns n bytes that take took.
func (b *budget) give(n int64) {
	b.mu.Lock()
	b.free += n
	b.units--
	close(b.freed)
	b.freed = make(chan struct{})
	b.mu.Unlock()
}
