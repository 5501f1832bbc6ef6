package parquet

import (
	"hash/crc32"
	"math/bits"
	"sync"

	"github.com/alkaid-go/alkaid/parquet/internal/compress"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

// pageQueue compresses the pages of a column chunk as they are encoded,
// on goroutines that share the writer's slots (so a chunk much bigger
// than the others does not leave the other cores idle at its end), and
// lays them out in order once all are done.
type pageQueue struct {
	codec format.Codec
	level int
	crc   bool
	slots chan struct{} // nil: each page is compressed on the spot
	wg    sync.WaitGroup
	pages []*queuedPage
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
	data   bool
	row    int64
	vals   *values
	nulls  int64
}

// add queues page p, whose uncompressed body is body (owned by the queue
// from now on).
func (q *pageQueue) add(p *queuedPage, body []byte) {
	q.pages = append(q.pages, p)
	if q.slots == nil {
		q.compress(p, body)
		return
	}
	q.slots <- struct{}{} // at most as many bodies in flight as slots
	q.wg.Add(1)
	go func() {
		defer func() { <-q.slots; q.wg.Done() }()
		q.compress(p, body)
	}()
}

func (q *pageQueue) compress(p *queuedPage, body []byte) {
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
			// Kept at its exact size (the pages of a row group wait in
			// memory until it is written); a v2 page whose values the
			// codec does not make smaller keeps them uncompressed.
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

// pageBuffers holds uncompressed page buffers and compression scratch
// for reuse, by power-of-two capacity class: a chunk's pages are
// compressed as soon as they are encoded, so few are alive at once.
var pageBuffers [28]sync.Pool

// pageBuffer returns an empty buffer of at least n bytes' capacity.
func pageBuffer(n int) []byte {
	c := bits.Len(uint(max(n, 4096) - 1)) // 1<<c >= n
	if c < len(pageBuffers) {
		if b, ok := pageBuffers[c].Get().(*[]byte); ok {
			return (*b)[:0]
		}
	}
	return make([]byte, 0, 1<<c)
}

// putPageBuffer gives b back for reuse by requests it can serve.
func putPageBuffer(b []byte) {
	c := bits.Len(uint(cap(b))) - 1 // 1<<c <= cap(b)
	if c < 12 || c >= len(pageBuffers) {
		return
	}
	b = b[:0]
	pageBuffers[c].Put(&b)
}

// layout waits for every page and returns the pieces of the chunk to
// write in order (each page's header, levels and body); onPage is told
// where each page starts in the chunk (at) and its size.
func (q *pageQueue) layout(onPage func(p *queuedPage, at int64, size int)) (pieces [][]byte, uncompressed, compressed int64, err error) {
	q.wg.Wait()
	for _, p := range q.pages {
		if p.err != nil {
			return nil, 0, 0, p.err
		}
	}
	at := int64(0)
	for _, p := range q.pages {
		n := len(p.levels) + len(p.body)
		p.h.UncompressedPageSize, p.h.CompressedPageSize = int32(len(p.levels)+p.raw), int32(n)
		if q.crc {
			p.h.CRC = ptr(int32(p.crc))
		}
		hb := thrift.Marshal(nil, p.h)
		size := len(hb) + n
		onPage(p, at, size)
		pieces = append(pieces, hb)
		if len(p.levels) > 0 {
			pieces = append(pieces, p.levels)
		}
		pieces = append(pieces, p.body)
		uncompressed += int64(len(hb) + len(p.levels) + p.raw)
		compressed += int64(size)
		at += int64(size)
	}
	return pieces, uncompressed, compressed, nil
}
