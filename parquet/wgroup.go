package parquet

// Writing a row group's column chunks in file order as they are encoded.

import (
	"sort"
	"sync"

	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// groupWriter writes the chunks of one row group, encoded at once on
// several goroutines, in file order: the pieces of the first chunk not
// yet written whole (the head) go to the file as they come, those of
// later chunks wait until every chunk before theirs is written. Memory
// then holds the pages of the chunks being encoded ahead of the head,
// not the whole row group's.
type groupWriter struct {
	w  *Writer
	mu sync.Mutex
	// head is the chunk being written; started tells whether a chunk's
	// first byte is placed (at start), done whether it has all its
	// pieces; held are the pieces of chunks not yet written.
	head    int
	started []bool
	start   []int64
	done    []bool
	held    [][][]byte
}

func newGroupWriter(w *Writer, n int) *groupWriter {
	return &groupWriter{w: w, started: make([]bool, n), start: make([]int64, n), done: make([]bool, n),
		held: make([][][]byte, n)}
}

// emit adds pieces to the end of chunk i.
func (gw *groupWriter) emit(i int, pieces ...[]byte) {
	gw.mu.Lock()
	defer gw.mu.Unlock()
	gw.held[i] = append(gw.held[i], pieces...)
	gw.advance()
}

// finish says chunk i has all its pieces.
func (gw *groupWriter) finish(i int) {
	gw.mu.Lock()
	defer gw.mu.Unlock()
	gw.done[i] = true
	gw.advance()
}

// advance writes what the head chunk holds, and moves on to the next
// chunk while the head is done. A write error is the Writer's (w.err)
// and makes the later writes nothing.
func (gw *groupWriter) advance() {
	for gw.head < len(gw.done) {
		h := gw.head
		if !gw.started[h] {
			gw.started[h], gw.start[h] = true, gw.w.pos
		}
		for _, p := range gw.held[h] {
			_ = gw.w.write(p)
		}
		clear(gw.held[h])
		gw.held[h] = gw.held[h][:0]
		if !gw.done[h] {
			return
		}
		gw.held[h] = nil
		gw.head++
	}
}

// Flush writes the buffered rows as a row group. An error leaves the
// Writer failed: part of the row group may be written.
func (w *Writer) Flush() error {
	if w.rows == 0 || w.err != nil {
		return w.err
	}
	if err := w.flush(); err != nil {
		if w.err == nil {
			w.err = err
		}
		return err
	}
	return w.err
}

func (w *Writer) flush() error {
	segments := w.pending
	n := len(w.leaves)
	chunks := make([]format.ColumnChunk, n)
	indexes := make([]*chunkIndex, n)
	blooms := make([][]byte, n)
	gw := newGroupWriter(w, n)
	first := w.pos
	// The biggest chunks start first, so that the last one to finish is
	// small; the others wait in memory only until it becomes the head.
	order := make([]int, n)
	sizes := make([]int, n)
	for i := range order {
		order[i] = i
		for _, s := range segments[i] {
			sizes[i] += s.bytes()
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return sizes[order[a]] > sizes[order[b]] })
	err := parallelDo(n, workers(w.cfg.concurrency), func(k int) error {
		i := order[k]
		emit := func(pieces ...[]byte) { gw.emit(i, pieces...) }
		sealed := w.enc != nil && w.enc.columns[i] != nil
		var pieces [][]byte
		if sealed {
			// Pages are encrypted once the chunk is whole.
			emit = func(ps ...[]byte) { pieces = append(pieces, ps...) }
		}
		var err error
		chunks[i], indexes[i], blooms[i], err = w.encodeChunk(w.leaves[i], segments[i], emit)
		segments[i] = nil
		if err != nil {
			return err
		}
		if sealed {
			indexes[i], blooms[i] = nil, nil
			if pieces, err = w.enc.sealChunk(&chunks[i], pieces, len(w.groups), i); err != nil {
				return err
			}
			gw.emit(i, pieces...)
		}
		if blooms[i] != nil {
			gw.emit(i, blooms[i])
		}
		gw.finish(i)
		return nil
	})
	if err != nil {
		return err
	}
	if w.err != nil {
		return w.err
	}
	rg := format.RowGroup{NumRows: int64(w.rows), FileOffset: ptr(first), Ordinal: ptr(int16(len(w.groups))),
		SortingColumns: w.sorting}
	var compressed int64
	for i, cc := range chunks {
		at := gw.start[i]
		placeChunk(&cc, at)
		if indexes[i] != nil {
			indexes[i].placeIndex(at)
		}
		if blooms[i] != nil {
			cc.MetaData.BloomFilterOffset, cc.MetaData.BloomFilterLength = ptr(at+cc.MetaData.TotalCompressedSize), ptr(int32(len(blooms[i])))
		}
		rg.Columns = append(rg.Columns, cc)
		rg.TotalByteSize += cc.MetaData.TotalUncompressedSize
		compressed += cc.MetaData.TotalCompressedSize
	}
	rg.TotalCompressedSize = &compressed
	w.groups = append(w.groups, rg)
	w.indexes = append(w.indexes, indexes)
	w.total += int64(w.rows)
	w.pending, w.rows, w.bytes = make([][]segment, len(w.leaves)), 0, 0
	return nil
}
