package parquet

import "github.com/alkaid-go/alkaid/parquet/internal/format"

// Prefetcher is an optional interface of the io.ReaderAt a File reads
// from. Before reading a row group, the File passes Prefetch the byte
// ranges of the column chunks it is about to read, each an offset and a
// length, so that a reader over a network (an object store) can fetch
// them in few requests, concurrently, instead of one ReadAt at a time.
// Prefetch must not block on the fetches; the ReadAt calls that follow
// read the same ranges.
type Prefetcher interface {
	Prefetch(ranges [][2]int64)
}

// prefetch announces the column chunks of row group g that plans read
// when f's reader is a Prefetcher.
func (f *File) prefetch(g int, rg *format.RowGroup, plans []*fieldPlan) {
	p, ok := f.r.(Prefetcher)
	if !ok || f.data != nil {
		return
	}
	var ranges [][2]int64
	for _, fp := range plans {
		for _, lp := range fp.leaves {
			cc := &rg.Columns[lp.leaf.column]
			if cc.MetaData == nil || cc.MetaData.NumValues <= 0 || (f.dec != nil && f.dec.locked[g][lp.leaf.column] != nil) {
				continue
			}
			if start, n, err := f.chunkRange(cc, ""); err == nil {
				ranges = append(ranges, [2]int64{start, n})
			}
		}
	}
	if len(ranges) > 0 {
		p.Prefetch(ranges)
	}
}
