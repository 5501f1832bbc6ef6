package parquet

import (
	"hash/crc32"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/parquet/internal/compress"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

// pageQueue compresses the pages of a column chunk as they are encoded,
// on goroutines that share the writer's slots (so a chunk much bigger
// than the others does not leave the other cores idle at its end), and
// lays them out in order as soon as each page and those before it are
// compressed: emit is given each page's pieces (header, v2 levels, body)
// then, and the page's memory is let go.
type pageQueue struct {
	codec format.Codec
	level int
	crc   bool
	slots chan struct{} // nil: each page is compressed on the spot
	wg    sync.WaitGroup
	pages []*queuedPage // added and not yet laid out
	// onPage is told where each page starts in the chunk (at) and its
	// size as it is laid out; emit takes its pieces.
	onPage func(p *queuedPage, at int64, size int)
	emit   func(pieces ...[]byte)
	// at, uncompressed and compressed count the pages laid out.
	at, uncompressed, compressed int64
}

// queuedPage is a page waiting to be laid out: its header, its v2 levels
// (never compressed) and its compressed body; for a data page, what its
// page index entry needs.
type queuedPage struct {
	h      *format.PageHeader
	levels []byte
	body   []byte // compressed, or as it is for a v2 page it does not shrink
	raw    int    // uncompressed body bytes
	crc    uint32
	err    error
	ready  atomic.Bool // compressed (body, raw, crc and err are set)
	data   bool
	row    int64
	vals   *values
	nulls  int64
}

// add queues page p, whose uncompressed body is body (owned by the queue
// from now on).
func (q *pageQueue) add(p *queuedPage, body []byte) error {
	q.pages = append(q.pages, p)
	if q.slots == nil {
		q.compress(p, body)
	} else {
		q.slots <- struct{}{} // at most as many bodies in flight as slots
		q.wg.Add(1)
		go func() {
			defer func() { <-q.slots; q.wg.Done() }()
			q.compress(p, body)
		}()
	}
	return q.layout(false)
}

func (q *pageQueue) compress(p *queuedPage, body []byte) {
	defer p.ready.Store(true)
	v2 := p.h.DataPageHeaderV2
	if v2 != nil {
		v2.IsCompressed = ptr(false)
	}
	c, kept := body, true
	if q.codec != format.Uncompressed {
		out, err := compress.CompressLevel(q.codec, q.level, pageBuffer(len(body)+len(body)/8+64), body)
		if err != nil {
			p.err = err
			return
		}
		if v2 == nil || len(out) < len(body) {
			// Kept at its exact size (a page may wait in memory for
			// those before it, or for the chunks before its own); a v2
			// page whose values the codec does not make smaller keeps
			// them uncompressed.
			if v2 != nil {
				v2.IsCompressed = ptr(true)
			}
			c, kept = make([]byte, len(out)), false
			copy(c, out)
			putPageBuffer(body)
		}
		putPageBuffer(out)
	}
	if kept && cap(body) > len(body)+len(body)/4 {
		// A body kept as it is need not hold its buffer's spare room.
		c = append([]byte(nil), body...)
		putPageBuffer(body)
	}
	p.body, p.raw = c, len(body)
	if q.crc {
		p.crc = crc32.Update(crc32.ChecksumIEEE(p.levels), crc32.IEEETable, c)
	}
}

// pageBuffers holds uncompressed page buffers, compression scratch and
// the column chunks a reader reads, for reuse, by size class: from 4 KiB
// to 128 MiB, eight classes between two powers of two (a class is a
// multiple of an eighth of the power of two below it), so that a new
// buffer is at most 1/8 larger than asked for (an 8 MiB row group's
// chunks of 260 KiB take 288 KiB each, not 512); one given back serves
// the class under its capacity. A chunk's pages are compressed as soon
// as they are encoded, so few are alive at once.
var pageBuffers [(maxPageClass - minPageClass + 1) * classSteps]sync.Pool

const (
	minPageClass = 12 // the least buffer is 1<<minPageClass bytes
	maxPageClass = 27 // buffers over 1<<maxPageClass are not kept
	classSteps   = 8  // classes in (1<<(c-1), 1<<c]
)

// pageClass is the smallest size class of at least n bytes, as the index
// of its pool and its size; ok is false for n over every class.
func pageClass(n int) (i, size int, ok bool) {
	n = max(n, 1<<minPageClass)
	c := bits.Len(uint(n - 1)) // 1<<(c-1) < n <= 1<<c
	if c > maxPageClass {
		return 0, 0, false
	}
	shift := c - 4                   // a step is 1<<(c-1) / classSteps
	k := (n + 1<<shift - 1) >> shift // 9..16 steps
	return (c-minPageClass)*classSteps + k - classSteps - 1, k << shift, true
}

// pageClassBelow is the largest size class of at most n bytes (the class
// a buffer of capacity n serves); ok is false for n under every class or
// over the largest.
func pageClassBelow(n int) (i int, ok bool) {
	if n < 1<<minPageClass {
		return 0, false
	}
	c := bits.Len(uint(n)) // 1<<(c-1) <= n < 1<<c
	shift := c - 4
	k := n >> shift // 8..15 steps of 1<<shift
	if k == classSteps {
		c, k = c-1, 2*classSteps // 1<<(c-1) exactly: the top class of c-1
	}
	if c > maxPageClass {
		return 0, false // too big to keep
	}
	return (c-minPageClass)*classSteps + k - classSteps - 1, true
}

// pageBuffer returns an empty buffer of at least n bytes' capacity. Its
// memory beyond the length is not cleared (a buffer given back holds what
// it held): users append to it, or fill it, before reading.
func pageBuffer(n int) []byte {
	i, size, ok := pageClass(n)
	if !ok {
		return rawmem.Fillable(n)[:0] // too big to keep: no rounding up
	}
	if b, ok := pageBuffers[i].Get().(*[]byte); ok {
		return (*b)[:0]
	}
	return rawmem.Fillable(size)[:0]
}

// putPageBuffer gives b back for reuse by requests it can serve. Nothing
// may use b afterwards (tests spoil it so that a reader that does shows).
func putPageBuffer(b []byte) {
	i, ok := pageClassBelow(cap(b))
	if !ok {
		return
	}
	b = b[:0]
	rawmem.Spoil(b[:cap(b)])
	pageBuffers[i].Put(&b)
}

// layout lays out the pages compressed so far in order, up to the first
// that is not; with all, it waits for every page. The first error of a
// page ends the chunk.
func (q *pageQueue) layout(all bool) error {
	if all {
		q.wg.Wait()
	}
	k := 0
	for ; k < len(q.pages); k++ {
		p := q.pages[k]
		if !p.ready.Load() {
			break
		}
		if p.err != nil {
			return p.err
		}
		n := len(p.levels) + len(p.body)
		p.h.UncompressedPageSize, p.h.CompressedPageSize = int32(len(p.levels)+p.raw), int32(n)
		if q.crc {
			p.h.CRC = ptr(int32(p.crc))
		}
		hb := thrift.Marshal(nil, p.h)
		size := len(hb) + n
		q.onPage(p, q.at, size)
		if len(p.levels) > 0 {
			q.emit(hb, p.levels, p.body)
		} else {
			q.emit(hb, p.body)
		}
		q.uncompressed += int64(len(hb) + len(p.levels) + p.raw)
		q.compressed += int64(size)
		q.at += int64(size)
		q.pages[k] = nil
	}
	q.pages = q.pages[k:]
	return nil
}
