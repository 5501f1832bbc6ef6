package parquet

import (
	"sync"

	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// Prefetcher is an optional interface of the io.ReaderAt a File reads
// from. Before reading a row group, the File passes Prefetch the byte
// ranges of the column chunks it is about to read, each an offset and a
// length, so that a reader over a network (an object store) can fetch
// them in few requests, concurrently, instead of one ReadAt at a time.
// Prefetch must not block on the fetches.
//
// Prefetch returns either nil, and the File then reads the ranges with
// ReadAt, or one function per range that waits for the range's fetch and
// returns its bytes, so that they are decoded where they were fetched
// to, not copied first. The File calls each function at most once and
// never writes to the bytes returned; the Prefetcher must never change
// them or reuse their memory afterwards (they are the File's to read
// until it drops them).
type Prefetcher interface {
	Prefetch(ranges [][2]int64) []func() ([]byte, error)
}

// fetches are the fetches of a File's column chunks, by leaf column.
type fetches = map[int]func() ([]byte, error)

// early holds the fetches Prefetch started and no read has taken yet,
// by row group, for a File and the Files Select makes of it.
type early struct {
	mu sync.Mutex
	m  map[int]fetches
}

// take removes and returns the fetches started for row group g.
func (e *early) take(g int) fetches {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.m[g]
	delete(e.m, g)
	return out
}

// put keeps the fetches of row group g for a later read.
func (e *early) put(g int, fs fetches) {
	if len(fs) == 0 {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.m == nil {
		e.m = map[int]fetches{}
	}
	e.m[g] = fs
}

// Prefetch starts fetching the column chunks Records reads of row group
// g when the File's reader is a Prefetcher, so that they arrive while
// other work runs: the next read of g by the File, or by a File that
// Select made of it, takes them instead of announcing its own. It
// returns a function that waits until they have arrived (or failed: the
// read reports it), so that a caller can wait before taking a scarce
// resource, such as a decoding slot. It does nothing for a row group
// the File's options do not read (see WithRowGroups and WithPredicates),
// and for another reader; the function returned then returns at once.
func (f *File) Prefetch(g int) (wait func()) {
	wait = func() {}
	if _, ok := f.r.(Prefetcher); !ok || f.data != nil || f.early == nil {
		return wait
	}
	p, err := f.planned()
	if err != nil {
		return wait // the read reports it
	}
	for _, gp := range p.groups {
		if gp.index != g {
			continue
		}
		fs := f.prefetch(g, &f.meta.RowGroups[g], p.fields)
		for c, fetch := range fs {
			fs[c] = fetchOnce(fetch)
		}
		f.early.put(g, fs)
		return func() {
			for _, fetch := range fs {
				fetch()
			}
		}
	}
	return wait
}

// fetchOnce calls fetch once, the first time it is called, and returns
// its result every time.
func fetchOnce(fetch func() ([]byte, error)) func() ([]byte, error) {
	var once sync.Once
	var b []byte
	var err error
	return func() ([]byte, error) {
		once.Do(func() { b, err = fetch() })
		return b, err
	}
}

// prefetch announces the column chunks of row group g that plans read
// when f's reader is a Prefetcher, but for those Prefetch has started.
// It returns all their fetches, by leaf column, or nil.
func (f *File) prefetch(g int, rg *format.RowGroup, plans []*fieldPlan) fetches {
	p, ok := f.r.(Prefetcher)
	if !ok || f.data != nil {
		return nil
	}
	var started fetches
	if f.early != nil {
		started = f.early.take(g)
	}
	var ranges [][2]int64
	var cols []int
	for _, fp := range plans {
		for _, lp := range fp.leaves {
			cc := &rg.Columns[lp.leaf.column]
			if cc.MetaData == nil || cc.MetaData.NumValues <= 0 || (f.dec != nil && f.dec.locked[g][lp.leaf.column] != nil) {
				continue
			}
			if _, ok := started[lp.leaf.column]; ok {
				continue
			}
			if start, n, err := f.chunkRange(cc, ""); err == nil {
				ranges = append(ranges, [2]int64{start, n})
				cols = append(cols, lp.leaf.column)
			}
		}
	}
	out := started
	if len(ranges) == 0 {
		return out
	}
	got := p.Prefetch(ranges)
	if len(got) != len(ranges) {
		return out // none given back (or not one per range): ReadAt
	}
	if out == nil {
		out = make(fetches, len(cols))
	}
	for i, c := range cols {
		if _, dup := out[c]; !dup && got[i] != nil {
			out[c] = got[i]
		}
	}
	return out
}
