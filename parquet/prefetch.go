package parquet

import "github.com/alkaid-go/alkaid/parquet/internal/format"

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

// prefetch announces the column chunks of row group g that plans read
// when f's reader is a Prefetcher. It returns the fetches the Prefetcher
// gave back, by leaf column, or nil.
func (f *File) prefetch(g int, rg *format.RowGroup, plans []*fieldPlan) map[int]func() ([]byte, error) {
	p, ok := f.r.(Prefetcher)
	if !ok || f.data != nil {
		return nil
	}
	var ranges [][2]int64
	var cols []int
	for _, fp := range plans {
		for _, lp := range fp.leaves {
			cc := &rg.Columns[lp.leaf.column]
			if cc.MetaData == nil || cc.MetaData.NumValues <= 0 || (f.dec != nil && f.dec.locked[g][lp.leaf.column] != nil) {
				continue
			}
			if start, n, err := f.chunkRange(cc, ""); err == nil {
				ranges = append(ranges, [2]int64{start, n})
				cols = append(cols, lp.leaf.column)
			}
		}
	}
	if len(ranges) == 0 {
		return nil
	}
	fetches := p.Prefetch(ranges)
	if len(fetches) != len(ranges) {
		return nil // none given back (or not one per range): ReadAt
	}
	out := make(map[int]func() ([]byte, error), len(cols))
	for i, c := range cols {
		if _, dup := out[c]; !dup && fetches[i] != nil {
			out[c] = fetches[i]
		}
	}
	return out
}
