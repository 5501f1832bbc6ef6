package objstore

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sync"

	"github.com/alkaid-go/alkaid/internal/rawmem"
)

// The blocks read whole: the tail (Parquet footer and, usually, page
// index and bloom filters), the head (magic bytes), a file of at most
// both at once, and the readahead of sequential reads.
const (
	tailSize  = 64 << 10
	headSize  = 4 << 10
	wholeSize = tailSize + headSize
	readahead = 2 << 20
)

// block is a range of an object being fetched or fetched: data and err
// are set when done is closed.
type block struct {
	span
	done chan struct{}
	data []byte
	err  error
	// want counts the bytes of a prefetched block not yet read; the
	// block is dropped at zero. Head and tail blocks are kept.
	want int64
}

// objMeta is what an FS keeps of one object across opens: its head and
// tail blocks.
type objMeta struct {
	size int64
	etag string

	mu         sync.Mutex
	head, tail *block
}

// metaFor returns the blocks kept for object key as listed in e.
func (f *FS) metaFor(e Entry) *objMeta {
	f.mu.Lock()
	defer f.mu.Unlock()
	if m := f.meta[e.Key]; m != nil && m.size == e.Size && m.etag == e.ETag {
		return m
	}
	m := &objMeta{size: e.Size, etag: e.ETag}
	if _, ok := f.meta[e.Key]; !ok {
		f.lru = append(f.lru, e.Key)
	}
	f.meta[e.Key] = m
	for len(f.meta) > maxMeta && len(f.lru) > 0 {
		delete(f.meta, f.lru[0])
		f.lru = f.lru[1:]
	}
	return m
}

// File is an open object of an FS: an fs.File and io.ReaderAt, safe for
// concurrent ReadAt calls, that fetches byte ranges with ranged GETs. It
// implements parquet.Prefetcher: ranges announced by Prefetch are
// coalesced and fetched concurrently, then served from memory.
type File struct {
	fs   *FS
	name string
	e    Entry
	meta *objMeta
	ctx  context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup

	mu      sync.Mutex
	blocks  []*block // prefetched and readahead blocks
	lastEnd int64    // where the last read ended, to see sequential reads
	pos     int64    // Read's offset
	closed  bool
}

func (f *FS) openFile(name string, e Entry) *File {
	ctx, stop := context.WithCancel(context.Background())
	return &File{fs: f, name: name, e: e, meta: f.metaFor(e), ctx: ctx, stop: stop}
}

// Stat describes the file.
func (f *File) Stat() (fs.FileInfo, error) { return info{name: path.Base(f.name), e: f.e}, nil }

// Read reads from the file's current offset.
func (f *File) Read(p []byte) (int, error) {
	f.mu.Lock()
	pos := f.pos
	f.mu.Unlock()
	n, err := f.ReadAt(p, pos)
	f.mu.Lock()
	f.pos += int64(n)
	f.mu.Unlock()
	if err == io.EOF && n > 0 {
		err = nil
	}
	return n, err
}

// Close stops the file's fetches in flight, waits for them and frees
// its blocks.
func (f *File) Close() error {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return &fs.PathError{Op: "close", Path: f.name, Err: fs.ErrClosed}
	}
	f.closed = true
	f.blocks = nil
	f.mu.Unlock()
	f.stop()
	f.wg.Wait()
	return nil
}

// ReadAt reads len(p) bytes at off, from the blocks fetched or being
// fetched where they hold the bytes, else with a ranged GET.
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	size := f.e.Size
	f.mu.Lock()
	closed := f.closed
	f.mu.Unlock()
	if closed {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: fs.ErrClosed}
	}
	if off < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: fmt.Errorf("%w: negative offset %d", ErrInvalid, off)}
	}
	if off >= size {
		if len(p) == 0 {
			return 0, nil
		}
		return 0, io.EOF
	}
	var eof error
	if int64(len(p)) > size-off {
		p, eof = p[:size-off], io.EOF
	}
	end := off + int64(len(p))
	n := 0
	for n < len(p) {
		pos := off + int64(n)
		b, next, err := f.find(pos, end)
		if err != nil {
			return n, err
		}
		if b == nil { // a ranged GET of [pos, next)
			if err := f.fetch(f.ctx, f.name, pos, p[n:n+int(next-pos)]); err != nil {
				return n, err
			}
			n += int(next - pos)
			continue
		}
		select {
		case <-b.done:
		case <-f.ctx.Done():
			return n, &fs.PathError{Op: "read", Path: f.name, Err: fs.ErrClosed}
		}
		if b.err != nil {
			return n, b.err
		}
		k := copy(p[n:], b.data[pos-b.off:])
		f.consumed(b, int64(k))
		n += k
	}
	f.mu.Lock()
	f.lastEnd = end
	f.mu.Unlock()
	return n, eof
}

// find returns the block holding the byte at pos, fetching the head or
// tail block when [pos, end) lies within it and a readahead block when
// the read continues the last one; or, when none holds it, where the
// next block starts (at most end).
func (f *File) find(pos, end int64) (*block, int64, error) {
	size := f.e.Size
	switch {
	case size <= wholeSize:
		return f.metaBlock(&f.meta.tail, span{0, size})
	case pos >= size-tailSize:
		return f.metaBlock(&f.meta.tail, span{size - tailSize, size})
	case end <= headSize:
		return f.metaBlock(&f.meta.head, span{0, headSize})
	}
	next := end
	f.meta.mu.Lock()
	for _, b := range []*block{f.meta.head, f.meta.tail} {
		if b != nil && b.err == nil {
			if b.off <= pos && pos < b.end {
				f.meta.mu.Unlock()
				return b, 0, nil
			}
			if b.off > pos {
				next = min(next, b.off)
			}
		}
	}
	f.meta.mu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil, 0, &fs.PathError{Op: "read", Path: f.name, Err: fs.ErrClosed}
	}
	for _, b := range f.blocks {
		if b.off <= pos && pos < b.end {
			return b, 0, nil
		}
		if b.off > pos {
			next = min(next, b.off)
		}
	}
	if pos == f.lastEnd && pos > 0 && next-pos < readahead {
		// A sequential read (CSV, NDJSON, IPC streams): fetch ahead.
		stop := min(size, pos+readahead, f.tailStart())
		for _, b := range f.blocks {
			if b.off > pos {
				stop = min(stop, b.off)
			}
		}
		if stop > next {
			b := f.startLocked(span{pos, stop}, stop-pos)
			return b, 0, nil
		}
	}
	return nil, next, nil
}

// tailStart is where the tail block starts, or the size when none is
// kept.
func (f *File) tailStart() int64 {
	f.meta.mu.Lock()
	defer f.meta.mu.Unlock()
	if t := f.meta.tail; t != nil {
		return t.off
	}
	return f.e.Size
}

// metaBlock returns the head or tail block *slot of range s, fetching it
// (once, however many files ask) when missing.
func (f *File) metaBlock(slot **block, s span) (*block, int64, error) {
	f.meta.mu.Lock()
	b := *slot
	if b != nil && b.err == nil {
		f.meta.mu.Unlock()
		return b, 0, nil
	}
	b = &block{span: s, done: make(chan struct{})}
	*slot = b
	f.meta.mu.Unlock()
	data := rawmem.Aligned(int(s.end - s.off)) // the fetch fills it
	// The block outlives this file: its fetch is not cancelled by Close.
	err := f.fetch(context.Background(), f.name, s.off, data)
	f.meta.mu.Lock()
	b.data, b.err = data, err
	if err != nil && *slot == b {
		*slot = nil
	}
	f.meta.mu.Unlock()
	close(b.done)
	if err != nil {
		return nil, 0, err
	}
	return b, 0, nil
}

// fetch reads p at off with one ranged GET, within the FS's bound on
// reads in flight.
func (f *File) fetch(ctx context.Context, name string, off int64, p []byte) error {
	select {
	case f.fs.sem <- struct{}{}:
	case <-ctx.Done():
		return &fs.PathError{Op: "read", Path: name, Err: ctx.Err()}
	}
	defer func() { <-f.fs.sem }()
	if err := f.fs.store.ReadRange(ctx, f.e.Key, off, p); err != nil {
		return &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return nil
}

// consumed counts k bytes read from b, dropping a prefetched block once
// all its wanted bytes were read.
func (f *File) consumed(b *block, k int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, fb := range f.blocks {
		if fb == b {
			if b.want -= k; b.want <= 0 {
				f.blocks = append(f.blocks[:i], f.blocks[i+1:]...)
			}
			return
		}
	}
}

// Prefetch starts fetching the byte ranges (offset, length) that are
// about to be read: those not already held are coalesced (see the
// package documentation) and fetched concurrently. A range only partly
// in the head or tail block is fetched whole, so that one block holds
// it. It implements parquet.Prefetcher: it returns, for each range, a
// function that waits for the range's bytes and returns them without
// copying when one block holds them all (a block's memory is never
// reused, so the caller may keep them), or reads them with ReadAt when
// they straddle blocks.
func (f *File) Prefetch(ranges [][2]int64) []func() ([]byte, error) {
	var meta []*block
	f.meta.mu.Lock()
	for _, b := range []*block{f.meta.head, f.meta.tail} {
		if b != nil && b.err == nil {
			meta = append(meta, b)
		}
	}
	f.meta.mu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil
	}
	var held []span
	for _, b := range f.blocks {
		held = append(held, b.span)
	}
	var need []span
next:
	for _, r := range ranges {
		s := span{max(r[0], 0), min(r[0]+r[1], f.e.Size)}
		for _, b := range meta {
			if b.off <= s.off && s.end <= b.end {
				continue next
			}
		}
		if s.end > s.off {
			need = append(need, subtract(s, held)...)
		}
	}
	for _, c := range coalesce(need) {
		f.startLocked(c.span, c.useful)
	}
	all := append(meta, f.blocks...)
	out := make([]func() ([]byte, error), len(ranges))
	for i, r := range ranges {
		s := span{r[0], r[0] + r[1]}
		var in *block
		for _, b := range all {
			if b.off <= s.off && s.end <= b.end {
				in = b
				break
			}
		}
		out[i] = func() ([]byte, error) { return f.fetched(in, s) }
	}
	return out
}

// fetched returns the bytes of s: a slice of block b, which holds them,
// once fetched; or, with b nil, a copy read with ReadAt.
func (f *File) fetched(b *block, s span) ([]byte, error) {
	if b == nil || s.off < 0 || s.end > f.e.Size {
		p := make([]byte, max(s.end-s.off, 0))
		n, err := f.ReadAt(p, s.off)
		if err == io.EOF && n == len(p) {
			err = nil
		}
		return p[:n], err
	}
	f.mu.Lock()
	closed := f.closed
	f.mu.Unlock()
	if closed {
		return nil, &fs.PathError{Op: "read", Path: f.name, Err: fs.ErrClosed}
	}
	select {
	case <-b.done:
	case <-f.ctx.Done():
		return nil, &fs.PathError{Op: "read", Path: f.name, Err: fs.ErrClosed}
	}
	if b.err != nil {
		return nil, b.err
	}
	f.consumed(b, s.end-s.off)
	// Capped: appending to the slice must not write over the block.
	return b.data[s.off-b.off : s.end-b.off : s.end-b.off], nil
}

// startLocked starts fetching block s, of which want bytes will be
// read; f.mu is held.
func (f *File) startLocked(s span, want int64) *block {
	b := &block{span: s, done: make(chan struct{}), want: want}
	f.blocks = append(f.blocks, b)
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		// Not cleared first: the fetch fills it (and on an error
		// nothing reads it).
		data := rawmem.Aligned(int(s.end - s.off))
		err := f.fetch(f.ctx, f.name, s.off, data)
		b.data, b.err = data, err
		close(b.done)
	}()
	return b
}
