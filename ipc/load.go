package ipc

import (
	"encoding/binary"
	"math/bits"
	"unsafe"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	fb "github.com/alkaid-go/alkaid/internal/flatbuf"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/memory"
)

// loader turns one RecordBatch's field nodes and buffers into array data.
// Every count and range read from the message is checked before use.
type loader struct {
	rb      *fb.RecordBatch
	body    *memory.Buffer
	bodyLen int         // of the whole body, of which sparse may hold a part
	sparse  *sparseBody // nil: body is the whole body
	need    []bool      // the buffers to read, by index; nil: all
	codec   Codec
	cfg     *readerConfig
	info    *schemaInfo
	dicts   map[int64]*array.Data
	swap    bool // big-endian data to be byte-swapped
	version fb.MetadataVersion
	where   place // the message, for errors

	node, buf, variadic int
	nodeN, bufN, varN   int
	// bufs holds every buffer of the message by index: views of the body,
	// or decompressed. A node's Data.Buffers is its run of bufs.
	bufs  []*memory.Buffer
	datas []array.Data // made a few at a time, for the nodes to come
	spent *ratioSpent  // what the messages before expanded to, or nil
}

// ratioSpent is what the messages of a stream read so far expanded to
// (the sizes their compressed buffers stated) and their bodies' bytes:
// the compression ratio limit holds for the stream as a whole, not just
// per message, so that many messages cannot each take the allowance.
type ratioSpent struct{ inflated, input int64 }

// newLoader prepares the buffers of message m (its header rb) for
// loading: all of them, or with a projection p only those of the
// columns it keeps.
func newLoader(rb *fb.RecordBatch, m *Message, p *projection, info *schemaInfo, dicts map[int64]*array.Data,
	cfg *readerConfig, swap bool, where place, spent *ratioSpent) (*loader, error) {
	body := m.body
	l := &loader{rb: rb, body: body, bodyLen: body.Len(), sparse: m.sparse, cfg: cfg, info: info, dicts: dicts, swap: swap,
		version: m.msg.Version(), where: where,
		nodeN: rb.NodesLength(), bufN: rb.BuffersLength(), varN: rb.VariadicBufferCountsLength(), spent: spent}
	if l.sparse != nil {
		l.bodyLen = int(l.sparse.length)
	}
	ranges, err := l.checkBufferRanges()
	if err != nil {
		return nil, err
	}
	if l.need, err = l.neededBuffers(p); err != nil {
		return nil, err
	}
	for i := range ranges {
		if l.need != nil && !l.need[i] {
			ranges[i] = [2]int{}
		} else if ranges[i][0], err = l.heldAt(i, ranges[i][0], ranges[i][1]); err != nil {
			return nil, err
		}
	}
	if c := rb.Compression(nil); c != nil {
		switch c.Codec() {
		case fb.CompressionTypeLZ4_FRAME:
			l.codec = LZ4Frame
		case fb.CompressionTypeZSTD:
			l.codec = Zstd
		default:
			return nil, unsupportedf("%s: compression codec %d", where, c.Codec())
		}
		if c.Method() != fb.BodyCompressionMethodBUFFER {
			return nil, unsupportedf("%s: compression method %d", where, c.Method())
		}
		if err := l.decompressAll(); err != nil {
			return nil, err
		}
	} else {
		l.bufs = body.SliceAll(ranges)
		if spent != nil {
			spent.input += int64(l.bodyLen)
		}
	}
	return l, nil
}

// rawBuffer returns buffer i's bytes inside the body, range-checked.
func (l *loader) rawBuffer(i int) ([]byte, int, error) {
	off, n, err := l.bufferRange(i)
	if err != nil {
		return nil, 0, err
	}
	if off, err = l.heldAt(i, off, n); err != nil {
		return nil, 0, err
	}
	return l.body.Bytes()[off : off+n], off, nil
}

// heldAt returns where buffer i, at body offset off and n bytes long,
// lies in l.body.
func (l *loader) heldAt(i, off, n int) (int, error) {
	if l.sparse == nil {
		return off, nil
	}
	at, ok := l.sparse.locate(off, n)
	if !ok {
		return 0, invalidf("%s: buffer %d (body bytes [%d, %d+%d)) was not read", l.where, i, off, off, n)
	}
	return at, nil
}

// needed reports whether buffer i is read.
func (l *loader) needed(i int) bool { return l.need == nil || l.need[i] }

// bufferRange returns where buffer i lies in the body, range-checked.
func (l *loader) bufferRange(i int) (off, n int, err error) {
	var b fb.Buffer
	l.rb.Buffers(&b, i)
	o, ln, size := b.Offset(), b.Length(), int64(l.bodyLen)
	if o < 0 || ln < 0 || o > size || ln > size-o {
		return 0, 0, invalidf("%s: buffer %d requires body bytes [%d, %d+%d) but the body has %d bytes",
			l.where, i, o, o, ln, size)
	}
	return int(o), int(ln), nil
}

// checkBufferRanges checks every buffer against the body and that the
// buffers do not overlap (writers lay them out one after another), and
// returns their ranges in the body.
func (l *loader) checkBufferRanges() ([][2]int, error) {
	end := 0
	ranges := make([][2]int, l.bufN)
	for i := range l.bufN {
		off, n, err := l.bufferRange(i)
		if err != nil {
			return nil, err
		}
		ranges[i] = [2]int{off, n}
		if n == 0 {
			continue
		}
		if off < end {
			return nil, invalidf("%s: buffer %d at body offset %d overlaps the buffer before it (which ends at %d)",
				l.where, i, off, end)
		}
		end = off + n
	}
	return ranges, nil
}

func (l *loader) decompressAll() error {
	if err := l.checkExpansion(); err != nil {
		return err
	}
	l.bufs = make([]*memory.Buffer, l.bufN)
	return parallel(l.bufN, l.cfg.concurrency, func(i int) error {
		if !l.needed(i) {
			return nil
		}
		raw, off, err := l.rawBuffer(i)
		if err != nil {
			return err
		}
		if len(raw) >= 8 && int64(binary.LittleEndian.Uint64(raw)) == uncompressedMarker {
			// Stored as it is: used in place, as part of the body (which
			// may be a file mapping that must outlive it).
			l.bufs[i] = l.body.Slice(off+8, len(raw)-8)
			return nil
		}
		b, err := decompressBuffer(l.codec, raw, l.cfg.limits.MaxDecompressed)
		if err != nil {
			return fmtWrap(err, "%s: buffer %d", l.where, i)
		}
		l.bufs[i] = b
		return nil
	})
}

// checkExpansion bounds what the message's compressed buffers expand to
// together, before any is allocated: each is within MaxDecompressed, but
// without a total a short body of many buffers could claim that much
// memory once per buffer.
func (l *loader) checkExpansion() error {
	var total int64
	for i := range l.bufN {
		if !l.needed(i) {
			continue
		}
		raw, _, err := l.rawBuffer(i)
		if err != nil {
			return err
		}
		if len(raw) < 8 {
			continue
		}
		n := int64(binary.LittleEndian.Uint64(raw))
		if n == uncompressedMarker || n < 0 || n > l.cfg.limits.MaxDecompressed {
			continue // one buffer's own error, which decompressBuffer names
		}
		if total += n; total > l.cfg.limits.MaxDecompressed {
			return limitf("%s: compressed buffers 0 to %d would expand to more than %d bytes together", l.where, i, l.cfg.limits.MaxDecompressed)
		}
	}
	ratio := l.cfg.limits.MaxCompressionRatio
	if total > maxDecompressed(ratio, int64(l.bodyLen)) {
		return limitf("%s: a body of %d bytes states %d uncompressed bytes, more than %d times it plus %d (Limits.MaxCompressionRatio)",
			l.where, l.bodyLen, total, ratio, decompressAllowance)
	}
	if s := l.spent; s != nil {
		inflated, input := s.inflated+total, s.input+int64(l.bodyLen)
		if inflated > maxDecompressed(ratio, input) {
			return limitf("%s: the stream's %d body bytes so far state %d uncompressed bytes, more than %d times them plus %d (Limits.MaxCompressionRatio)",
				l.where, input, inflated, ratio, decompressAllowance)
		}
		s.inflated, s.input = inflated, input
	}
	return nil
}

// decompressAllowance is what a message, and a stream, may decompress to
// beyond the compression ratio limit: a few million constant values
// compress to almost nothing.
const decompressAllowance = 64 << 20

// maxDecompressed is what a body of n bytes may state its compressed
// buffers expand to under the ratio limit.
func maxDecompressed(ratio int, n int64) int64 { return int64(ratio)*n + decompressAllowance }

// nextBuffer returns the next buffer, aligned for elements of width
// bytes (copied when the body places it at a misaligned address).
func (l *loader) nextBuffer(width int) (*memory.Buffer, error) {
	if l.buf >= l.bufN {
		return nil, invalidf("%s: the message has %d buffers; the schema needs more", l.where, l.bufN)
	}
	i := l.buf
	l.buf++
	return alignedFor(l.bufs[i], width), nil
}

// alignedFor returns b, or an aligned copy of it when its start is
// misaligned for elements of width bytes (8 at most is needed).
func alignedFor(b *memory.Buffer, width int) *memory.Buffer {
	raw := b.Bytes()
	if width <= 1 || len(raw) == 0 || uintptr(unsafe.Pointer(&raw[0]))%uintptr(min(width, 8)) == 0 {
		return b
	}
	cp := rawmem.Fillable(len(raw))
	copy(cp, raw)
	return memory.NewBuffer(cp)
}

func (l *loader) nextNode() (length, nulls int, err error) {
	if l.node >= l.nodeN {
		return 0, 0, invalidf("%s: the message has %d field nodes; the schema needs more", l.where, l.nodeN)
	}
	var n fb.FieldNode
	l.rb.Nodes(&n, l.node)
	l.node++
	ln, nc := n.Length(), n.NullCount()
	if ln < 0 || ln > maxArrayLen || nc < 0 || nc > ln {
		return 0, 0, invalidf("%s: field node %d has length %d and null count %d", l.where, l.node-1, ln, nc)
	}
	if ln > l.cfg.limits.MaxRows {
		return 0, 0, limitf("%s: field node %d has length %d (limit %d rows)", l.where, l.node-1, ln, l.cfg.limits.MaxRows)
	}
	return int(ln), int(nc), nil
}

// maxArrayLen bounds node lengths so that sizes computed from them cannot
// overflow.
const maxArrayLen = 1<<53 - 1

// loadField reads one field's array data.
func (l *loader) loadField(t datatype.DataType, depth int) (*array.Data, error) {
	storage, length, nulls, nbuf, err := l.fieldHead(t, depth)
	if err != nil {
		return nil, err
	}
	d := l.newData()
	*d = array.Data{Type: t, Length: length, NullCount: nulls}
	k := storage.Kind()
	layout := datatype.LayoutOf(storage)
	d.Buffers = l.bufs[l.buf : l.buf+nbuf : l.buf+nbuf]
	for i := range nbuf {
		width := 1
		if i < len(layout.Buffers) {
			width = layout.Buffers[i].ByteWidth
		}
		b, err := l.nextBuffer(width)
		if err != nil {
			return nil, err
		}
		d.Buffers[i] = b
	}
	if k != datatype.KindNull && k != datatype.KindSparseUnion && k != datatype.KindDenseUnion &&
		k != datatype.KindRunEndEncoded && nbuf > 0 && d.Buffers[0].Len() == 0 {
		if nulls != 0 {
			return nil, invalidf("%s: %s has %d nulls but no validity bitmap", l.where, t, nulls)
		}
		d.Buffers[0] = nil
	}
	switch {
	case k == datatype.KindNull:
		d.NullCount = length
	case isUnion(k):
		// A union has no validity bitmap; some writers record the nulls
		// of its children's slots here. The count carries no meaning:
		// any value in [0, length] is accepted and loaded as 0.
		d.NullCount = 0
	}
	if l.swap {
		swapBuffers(storage, d.Buffers)
	}
	if dt, ok := storage.(*datatype.DictionaryType); ok {
		id, ok := l.info.dictID[dt]
		if !ok {
			return nil, invalidf("%s: dictionary field without an id", l.where)
		}
		dict, ok := l.dicts[id]
		if !ok {
			return nil, invalidf("%s: dictionary id %d used before any dictionary batch defined it", l.where, id)
		}
		d.Dictionary = dict
		return d, nil
	}
	if kids := datatype.Children(storage); len(kids) > 0 {
		d.Children = make([]*array.Data, len(kids))
		for i, f := range kids {
			if d.Children[i], err = l.loadField(f.Type, depth+1); err != nil {
				return nil, err
			}
		}
	}
	return d, nil
}

// fieldHead reads a field's node and says how many buffers its layout
// takes (with its variadic count), having passed over the validity
// buffer unions had before V5.
func (l *loader) fieldHead(t datatype.DataType, depth int) (storage datatype.DataType, length, nulls, nbuf int, err error) {
	if depth > l.cfg.limits.MaxDepth {
		return nil, 0, 0, 0, limitf("%s: nesting deeper than %d", l.where, l.cfg.limits.MaxDepth)
	}
	storage = datatype.StorageOf(t)
	if length, nulls, err = l.nextNode(); err != nil {
		return nil, 0, 0, 0, err
	}
	k := storage.Kind()
	if (k == datatype.KindSparseUnion || k == datatype.KindDenseUnion) && l.version < fb.MetadataVersionV5 {
		// Before V5, unions had a validity bitmap; it is skipped.
		if l.buf >= l.bufN {
			return nil, 0, 0, 0, invalidf("%s: the message has %d buffers; the schema needs more", l.where, l.bufN)
		}
		l.buf++
	}
	layout := datatype.LayoutOf(storage)
	nbuf = len(layout.Buffers)
	if layout.Variadic {
		if l.variadic >= l.varN {
			return nil, 0, 0, 0, invalidf("%s: %s needs a variadic buffer count; the message has %d", l.where, storage, l.varN)
		}
		c := l.rb.VariadicBufferCounts(l.variadic)
		l.variadic++
		if c < 0 || c > int64(l.bufN) {
			return nil, 0, 0, 0, invalidf("%s: variadic buffer count %d out of range", l.where, c)
		}
		nbuf += int(c)
	}
	if nbuf > l.bufN-l.buf {
		return nil, 0, 0, 0, invalidf("%s: the message has %d buffers; the schema needs more", l.where, l.bufN)
	}
	return storage, length, nulls, nbuf, nil
}

// newData returns zeroed room for the Data of the node just read; nodes
// get it a few at a time rather than one allocation each.
func (l *loader) newData() *array.Data {
	if len(l.datas) == 0 {
		l.datas = make([]array.Data, min(l.nodeN-l.node+1, 32))
	}
	d := &l.datas[0]
	l.datas = l.datas[1:]
	return d
}

// done checks that the message held no more nodes and buffers than the
// schema used.
func (l *loader) done() error {
	if l.node != l.nodeN || l.buf != l.bufN || l.variadic != l.varN {
		return invalidf("%s: the message has %d field nodes, %d buffers and %d variadic counts; the schema uses %d, %d and %d",
			l.where, l.nodeN, l.bufN, l.varN, l.node, l.buf, l.variadic)
	}
	return nil
}

// swapBuffers converts big-endian buffers to native order in place. The
// buffers are fresh copies or lie in memory this reader owns.
func swapBuffers(t datatype.DataType, bufs []*memory.Buffer) {
	layout := datatype.LayoutOf(t)
	for i, spec := range layout.Buffers {
		if spec.Kind != datatype.BufferFixedWidth || bufs[i] == nil {
			continue
		}
		b := ownedCopy(bufs, i)
		switch {
		case t.Kind() == datatype.KindBinaryView || t.Kind() == datatype.KindStringView:
			for j := 0; j+16 <= len(b); j += 16 {
				swap32(b[j : j+4])
				if int32(binary.LittleEndian.Uint32(b[j:])) > 12 {
					swap32(b[j+8 : j+16])
				}
			}
		case t.Kind() == datatype.KindDayTimeInterval:
			swap32(b)
		case t.Kind() == datatype.KindMonthDayNanoInterval:
			for j := 0; j+16 <= len(b); j += 16 {
				swap32(b[j : j+8])
				swap64(b[j+8 : j+16])
			}
		case t.Kind() == datatype.KindDecimal128 || t.Kind() == datatype.KindDecimal256:
			w := spec.ByteWidth
			for j := 0; j+w <= len(b); j += w {
				v := b[j : j+w]
				for x, y := 0, w-1; x < y; x, y = x+1, y-1 {
					v[x], v[y] = v[y], v[x]
				}
			}
		case spec.ByteWidth == 2:
			for j := 0; j+2 <= len(b); j += 2 {
				b[j], b[j+1] = b[j+1], b[j]
			}
		case spec.ByteWidth == 4:
			swap32(b)
		case spec.ByteWidth == 8:
			swap64(b)
		}
	}
}

func ownedCopy(bufs []*memory.Buffer, i int) []byte {
	cp := memory.DefaultAllocator.Allocate(bufs[i].Len())
	copy(cp, bufs[i].Bytes())
	bufs[i] = memory.NewBuffer(cp)
	return cp
}

func swap32(b []byte) {
	for j := 0; j+4 <= len(b); j += 4 {
		binary.LittleEndian.PutUint32(b[j:], bits.ReverseBytes32(binary.LittleEndian.Uint32(b[j:])))
	}
}

func swap64(b []byte) {
	for j := 0; j+8 <= len(b); j += 8 {
		binary.LittleEndian.PutUint64(b[j:], bits.ReverseBytes64(binary.LittleEndian.Uint64(b[j:])))
	}
}
