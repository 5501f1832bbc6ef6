package dataset

import (
	"context"
	"sync"
)

// budget is the readahead of a scan: bytes that the units started and
// not yet consumed may hold. One taker (the scan's dispatcher) waits for
// room; the units give their bytes back as they finish. Up to least
// units at once start without taking any, whatever their size, so that
// a scan of row groups larger than the readahead still reads them in
// parallel (and a scan of few units estimates none).
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

// take starts a unit: at once, taking nothing, while fewer than least
// run; else once the size it estimates (asked for once) is free, taking
// that. It returns what it took, to give back; ok is false once ctx is
// done.
func (b *budget) take(ctx context.Context, size func() int64) (took int64, ok bool) {
	n := int64(-1)
	for {
		b.mu.Lock()
		if b.units < b.least {
			b.units++
			b.mu.Unlock()
			return 0, true
		}
		if n < 0 {
			b.mu.Unlock()
			n = size()
			continue
		}
		if b.free >= n {
			b.free -= n
			b.units++
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
	b.mu.Lock()
	b.free += n
	b.units--
	close(b.freed)
	b.freed = make(chan struct{})
	b.mu.Unlock()
}
