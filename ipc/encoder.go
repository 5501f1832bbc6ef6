package ipc

import (
	"encoding/binary"
	"fmt"
	"io"
	"slices"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	fb "github.com/alkaid-go/alkaid/internal/flatbuf"
)

// dictNode is one dictionary of a schema: its id and the dictionaries
// nested in its value type (reached without passing another dictionary).
type dictNode struct {
	id     int64
	nested []dictNode
}

// collectDicts walks t in the order the schema writer assigns ids.
func collectDicts(t datatype.DataType, next *int64) []dictNode {
	t = datatype.StorageOf(t)
	if dt, ok := t.(*datatype.DictionaryType); ok {
		n := dictNode{id: *next}
		*next++
		for _, c := range datatype.Children(datatype.StorageOf(dt.Value)) {
			n.nested = append(n.nested, collectDicts(c.Type, next)...)
		}
		return []dictNode{n}
	}
	var out []dictNode
	for _, c := range datatype.Children(t) {
		out = append(out, collectDicts(c.Type, next)...)
	}
	return out
}

// encoder writes schema, dictionary and record batch messages to w and
// remembers where each went (for the file footer).
type encoder struct {
	w      io.Writer
	cfg    writerConfig
	schema *alkaid.Schema
	dicts  []dictNode
	pos    int64 // bytes written so far
	sent   map[int64]*array.Data
	// blocks of the messages written, for the file footer
	dictBlocks, recBlocks []block
	file                  bool
	err                   error // a failed write poisons the encoder
	// sink, when set, receives each message unframed instead of w
	// (MessageEncoder).
	sink      func(meta []byte, body [][]byte, bodyLen int64) error
	schemaLen int // bytes of the schema message's metadata
	// what the messages written so far expanded to, as a reader counts
	// it (see withinRatio), and what the message being written adds
	spent, pending ratioSpent
}

type block struct {
	offset  int64
	metaLen int32
	bodyLen int64
}

func newEncoder(w io.Writer, schema *alkaid.Schema, cfg writerConfig, file bool) *encoder {
	e := &encoder{w: w, cfg: cfg, schema: schema, sent: map[int64]*array.Data{}, file: file}
	var next int64
	for _, f := range schema.Fields() {
		e.dicts = append(e.dicts, collectDicts(f.Type, &next)...)
	}
	return e
}

// write writes p, counting bytes and poisoning the encoder on failure.
func (e *encoder) write(p []byte) error {
	if e.err != nil {
		return e.err
	}
	n, err := e.w.Write(p)
	e.pos += int64(n)
	if err == nil && n != len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		e.err = fmt.Errorf("ipc: write: %w", err)
	}
	return e.err
}

// grower is a sink that can make room ahead, as bytes.Buffer and
// strings.Builder can: each message's size is announced before its bytes
// are written, so that a sink holding a whole stream grows once per
// message instead of doubling, and copying, its way up.
type grower interface{ Grow(n int) }

// message writes one framed message: metadata padded so that the body
// starts aligned, then the body buffers with their padding.
func (e *encoder) message(meta []byte, body [][]byte, bodyLen int64) (block, error) {
	if e.sink != nil {
		return block{}, e.sink(meta, body, bodyLen)
	}
	start := e.pos
	var hdr [8]byte
	binary.LittleEndian.PutUint32(hdr[:], continuation)
	total := 8 + len(meta)
	align := e.cfg.alignment
	padded := (int(start)+total+align-1)/align*align - int(start)
	binary.LittleEndian.PutUint32(hdr[4:], uint32(padded-8))
	if g, ok := e.w.(grower); ok && e.err == nil {
		if n := int64(padded) + bodyLen; n == int64(int(n)) {
			g.Grow(int(n))
		}
	}
	if err := e.write(hdr[:]); err != nil {
		return block{}, err
	}
	if err := e.write(meta); err != nil {
		return block{}, err
	}
	if err := e.write(zeros[:padded-total]); err != nil {
		return block{}, err
	}
	if err := e.writeBody(body, bodyLen); err != nil {
		return block{}, err
	}
	if bodyLen > 0 {
		e.spent.inflated += e.pending.inflated
		e.spent.input += e.pending.input
	}
	e.pending = ratioSpent{}
	return block{offset: start, metaLen: int32(padded), bodyLen: bodyLen}, nil
}

func finishMessage(b *flatbuffers.Builder, ht fb.MessageHeader, header flatbuffers.UOffsetT, bodyLen int64, meta map[string]string) []byte {
	var md flatbuffers.UOffsetT
	if len(meta) > 0 {
		w := &schemaWriter{b: b}
		md = w.metadata(sortedMetadata(meta))
	}
	fb.MessageStart(b)
	fb.MessageAddVersion(b, fb.MetadataVersionV5)
	fb.MessageAddHeaderType(b, ht)
	fb.MessageAddHeader(b, header)
	fb.MessageAddBodyLength(b, bodyLen)
	if md != 0 {
		fb.MessageAddCustomMetadata(b, md)
	}
	b.Finish(fb.MessageEnd(b))
	return b.FinishedBytes()
}

func sortedMetadata(m map[string]string) datatype.Metadata {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	vals := make([]string, len(keys))
	for i, k := range keys {
		vals[i] = m[k]
	}
	return datatype.NewMetadata(keys, vals)
}

// schemaMessage builds the schema message's metadata, refusing what
// default readers would refuse.
func (e *encoder) schemaMessage() ([]byte, error) {
	if err := checkCost(schemaMessageCost(e.schema), "schema"); err != nil {
		return nil, err
	}
	b := flatbuffers.NewBuilder(1024)
	s, err := writeSchema(b, e.schema, e.cfg.arrowCompat)
	if err != nil {
		return nil, err
	}
	meta := finishMessage(b, fb.MessageHeaderSchema, s, 0, nil)
	if err := checkBuilt(meta, "schema"); err != nil {
		return nil, err
	}
	e.schemaLen = len(meta)
	return meta, nil
}

// writeSchema writes the schema message.
func (e *encoder) writeSchema() error {
	meta, err := e.schemaMessage()
	if err != nil {
		return err
	}
	_, err = e.message(meta, nil, 0)
	return err
}

// body lays out unloaded buffers (compressed if asked) with padding and
// returns the pieces to write, the Buffer entries and the body length.
func (e *encoder) body(u *unloaded) ([][]byte, [][2]int64, int64, error) {
	bufs := u.buffers
	var wire [][][]byte // compressed: each buffer's pieces
	var stated int64
	if e.cfg.codec != Uncompressed {
		var err error
		wire, err = compressBuffers(e.cfg.codec, e.cfg.level, bufs, !e.cfg.compressAll, e.cfg.concurrency)
		if err != nil {
			return nil, nil, 0, err
		}
		stated = withinRatio(wire, bufs, e.spent)
	}
	align := int64(e.cfg.alignment)
	pieces := make([][]byte, 0, 3*len(bufs))
	entries := make([][2]int64, len(bufs))
	var off int64
	for i, b := range bufs {
		start := off
		own := [][]byte{b}
		if wire != nil {
			own = wire[i]
		}
		for _, p := range own {
			if len(p) > 0 {
				pieces = append(pieces, p)
				off += int64(len(p))
			}
		}
		entries[i] = [2]int64{start, off - start}
		if pad := (align - off%align) % align; pad > 0 {
			pieces = append(pieces, zeros[:pad])
			off += pad
		}
	}
	if off > DefaultLimits.MaxBodySize {
		return nil, nil, 0, limitf("a message body of %d bytes; readers accept %d (Limits.MaxBodySize)", off, DefaultLimits.MaxBodySize)
	}
	e.pending = ratioSpent{inflated: stated, input: off}
	return pieces, entries, off, nil
}

// recordBatchTable writes a RecordBatch table.
func (e *encoder) recordBatchTable(b *flatbuffers.Builder, u *unloaded, entries [][2]int64) flatbuffers.UOffsetT {
	var comp flatbuffers.UOffsetT
	if e.cfg.codec != Uncompressed {
		fb.BodyCompressionStart(b)
		if e.cfg.codec == LZ4Frame {
			fb.BodyCompressionAddCodec(b, fb.CompressionTypeLZ4_FRAME)
		} else {
			fb.BodyCompressionAddCodec(b, fb.CompressionTypeZSTD)
		}
		fb.BodyCompressionAddMethod(b, fb.BodyCompressionMethodBUFFER)
		comp = fb.BodyCompressionEnd(b)
	}
	var variadic flatbuffers.UOffsetT
	if len(u.variadic) > 0 {
		fb.RecordBatchStartVariadicBufferCountsVector(b, len(u.variadic))
		for i := len(u.variadic) - 1; i >= 0; i-- {
			b.PrependInt64(u.variadic[i])
		}
		variadic = b.EndVector(len(u.variadic))
	}
	fb.RecordBatchStartBuffersVector(b, len(entries))
	for i := len(entries) - 1; i >= 0; i-- {
		fb.CreateBuffer(b, entries[i][0], entries[i][1])
	}
	bufVec := b.EndVector(len(entries))
	fb.RecordBatchStartNodesVector(b, len(u.nodes))
	for i := len(u.nodes) - 1; i >= 0; i-- {
		fb.CreateFieldNode(b, u.nodes[i][0], u.nodes[i][1])
	}
	nodeVec := b.EndVector(len(u.nodes))
	fb.RecordBatchStart(b)
	fb.RecordBatchAddLength(b, int64(u.length))
	fb.RecordBatchAddNodes(b, nodeVec)
	fb.RecordBatchAddBuffers(b, bufVec)
	if comp != 0 {
		fb.RecordBatchAddCompression(b, comp)
	}
	if variadic != 0 {
		fb.RecordBatchAddVariadicBufferCounts(b, variadic)
	}
	return fb.RecordBatchEnd(b)
}

// writeRecord sends the record's dictionaries where needed, then the batch.
func (e *encoder) writeRecord(rec *alkaid.Record, meta map[string]string) error {
	if e.err != nil {
		return e.err
	}
	if !rec.Schema().Equal(e.schema) {
		return invalidf("record schema differs from the writer's schema")
	}
	cols := make([]*array.Data, rec.NumCols())
	for i := range cols {
		cols[i] = rec.Column(i).Data()
	}
	u := unloadColumns(cols, rec.NumRows())
	if err := e.writeDicts(e.dicts, u.dicts); err != nil {
		return err
	}
	return e.writeBatch(u, meta)
}

func (e *encoder) writeBatch(u *unloaded, meta map[string]string) error {
	if err := checkCost(batchMessageCost(len(u.nodes), len(u.buffers), len(u.variadic), meta), "record batch"); err != nil {
		return err
	}
	pieces, entries, bodyLen, err := e.body(u)
	if err != nil {
		return err
	}
	b := flatbuffers.NewBuilder(256 + 48*len(entries))
	rb := e.recordBatchTable(b, u, entries)
	msg := finishMessage(b, fb.MessageHeaderRecordBatch, rb, bodyLen, meta)
	if err := checkBuilt(msg, "record batch"); err != nil {
		return err
	}
	blk, err := e.message(msg, pieces, bodyLen)
	if err != nil {
		return err
	}
	e.recBlocks = append(e.recBlocks, blk)
	return nil
}

// writeDicts sends each dictionary that differs from what was last sent
// under its id: nothing when unchanged, a delta when it only grew (if
// deltas are on), a replacement otherwise (refused in the file format).
func (e *encoder) writeDicts(nodes []dictNode, dicts []*array.Data) error {
	if len(nodes) != len(dicts) {
		return invalidf("found %d dictionaries where the schema has %d", len(dicts), len(nodes))
	}
	for i, n := range nodes {
		d := dicts[i]
		prev, had := e.sent[n.id]
		if had && prev == d {
			continue
		}
		if err := e.writeDicts(n.nested, nestedDicts(d, nil)); err != nil {
			return err
		}
		send := d
		if had {
			// Equal to the old as far as it goes and as long: unchanged;
			// longer: a delta.
			grew := extends(prev, d)
			switch {
			case grew && d.Length == prev.Length:
				e.sent[n.id] = d
				continue
			case grew && (e.cfg.deltas || e.file):
				send = d.Slice(prev.Length, d.Length)
			case e.file:
				return invalidf("dictionary %d changed; the file format allows only deltas (the new dictionary must extend the old: see array.UnifyDictionaries)", n.id)
			}
		}
		delta := send != d
		u := unloadColumns([]*array.Data{send}, send.Length)
		if err := checkCost(batchMessageCost(len(u.nodes), len(u.buffers), len(u.variadic), nil), "dictionary batch"); err != nil {
			return err
		}
		pieces, entries, bodyLen, err := e.body(u)
		if err != nil {
			return err
		}
		b := flatbuffers.NewBuilder(256)
		rb := e.recordBatchTable(b, u, entries)
		fb.DictionaryBatchStart(b)
		fb.DictionaryBatchAddId(b, n.id)
		fb.DictionaryBatchAddData(b, rb)
		fb.DictionaryBatchAddIsDelta(b, delta)
		db := fb.DictionaryBatchEnd(b)
		msg := finishMessage(b, fb.MessageHeaderDictionaryBatch, db, bodyLen, nil)
		if err := checkBuilt(msg, "dictionary batch"); err != nil {
			return err
		}
		blk, err := e.message(msg, pieces, bodyLen)
		if err != nil {
			return err
		}
		e.dictBlocks = append(e.dictBlocks, blk)
		e.sent[n.id] = d
	}
	return nil
}
