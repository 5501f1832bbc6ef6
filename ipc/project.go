package ipc

// Reading a subset of the columns (WithColumns): the buffers of the
// other columns are not decompressed, validated nor, by a file reader on
// an io.ReaderAt, even read; the dictionaries only they use are not
// decoded.

import (
	"cmp"
	"slices"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	fb "github.com/alkaid-go/alkaid/internal/flatbuf"
	"github.com/alkaid-go/alkaid/memory"
)

// WithColumns makes a reader read only the top-level columns of these
// names, in schema order (a name given twice is read once; a name
// several fields share reads them all); its Schema is then the schema of
// those columns. No names reads no column: records then carry only their
// row counts. The buffers of the other columns are neither decompressed
// nor validated, the dictionaries only they use are not decoded, and the
// file reader on an io.ReaderAt (NewFileReader) reads only the byte
// ranges of the selected columns' buffers (nearby ranges merged into one
// read). The message structure (field nodes, buffer ranges) is still
// checked whole. A name that is no column of the schema makes the reader
// fail with an error wrapping [ErrInvalid] naming it, when the schema is
// read.
func WithColumns(names ...string) Option {
	return func(s *settings) {
		s.readerOption("WithColumns")
		s.r.columns, s.r.projected = append([]string{}, names...), true
	}
}

// projection is what a reader with WithColumns reads of its schema.
type projection struct {
	schema *alkaid.Schema // of the columns read
	keep   []bool         // by top-level field of the whole schema
	dicts  map[int64]bool // the dictionary ids the columns read use
}

// newProjection resolves cfg's columns against info's schema; nil when
// every column is read.
func newProjection(info *schemaInfo, cfg *readerConfig) (*projection, error) {
	if !cfg.projected {
		return nil, nil
	}
	s := info.schema
	p := &projection{keep: make([]bool, s.NumFields()), dicts: map[int64]bool{}}
	for _, name := range cfg.columns {
		idx := s.FieldIndices(name)
		if len(idx) == 0 {
			return nil, invalidf("WithColumns: no column %q in the schema", name)
		}
		for _, i := range idx {
			p.keep[i] = true
		}
	}
	var fields []datatype.Field
	for i, f := range s.Fields() {
		if p.keep[i] {
			fields = append(fields, f)
			p.useDicts(info, f.Type)
		}
	}
	p.schema = alkaid.NewSchema(fields, s.Metadata()).WithEndianness(s.Endianness())
	return p, nil
}

// useDicts adds the dictionary ids type t uses, at any depth.
func (p *projection) useDicts(info *schemaInfo, t datatype.DataType) {
	storage := datatype.StorageOf(t)
	if dt, ok := storage.(*datatype.DictionaryType); ok {
		if id, ok := info.dictID[dt]; ok && !p.dicts[id] {
			p.dicts[id] = true
			p.useDicts(info, dt.Value)
		}
		return
	}
	for _, f := range datatype.Children(storage) {
		p.useDicts(info, f.Type)
	}
}

// wantsDict reports whether dictionary id is decoded.
func (p *projection) wantsDict(id int64) bool { return p == nil || p.dicts[id] }

// columnBuffers returns where each top-level column's buffers start in
// the message, and where the last one's end (the walk loadField makes,
// without loading anything), checking the field nodes and buffer
// counts on the way.
func (l *loader) columnBuffers() ([]int, error) {
	s := l.info.schema
	starts := make([]int, s.NumFields()+1)
	for i := range s.NumFields() {
		starts[i] = l.buf
		if err := l.skipField(s.Field(i).Type, 1); err != nil {
			return nil, err
		}
	}
	starts[s.NumFields()] = l.buf
	l.node, l.buf, l.variadic = 0, 0, 0
	return starts, nil
}

// neededBuffers marks the buffers of the columns p keeps; nil when p is
// nil (every buffer is needed).
func (l *loader) neededBuffers(p *projection) ([]bool, error) {
	if p == nil {
		return nil, nil
	}
	starts, err := l.columnBuffers()
	if err != nil {
		return nil, err
	}
	need := make([]bool, l.bufN)
	for i, keep := range p.keep {
		for j := starts[i]; keep && j < starts[i+1]; j++ {
			need[j] = true
		}
	}
	return need, nil
}

// skipField passes over one field's nodes and buffers.
func (l *loader) skipField(t datatype.DataType, depth int) error {
	storage, _, _, nbuf, err := l.fieldHead(t, depth)
	if err != nil {
		return err
	}
	l.buf += nbuf
	if _, ok := storage.(*datatype.DictionaryType); ok {
		return nil
	}
	for _, f := range datatype.Children(storage) {
		if err := l.skipField(f.Type, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// sparseBody is the part of a message body a projected file read holds:
// the byte ranges of the buffers needed, packed one after another.
type sparseBody struct {
	length int64      // of the whole body
	parts  []bodyPart // by offset
}

// bodyPart is the range [off, off+n) of the body, held at byte at.
type bodyPart struct{ off, at, n int }

// locate returns where body bytes [off, off+n) are held, false when they
// were not read.
func (s *sparseBody) locate(off, n int) (int, bool) {
	i, _ := slices.BinarySearchFunc(s.parts, off, func(p bodyPart, off int) int {
		return cmp.Compare(p.off+p.n, off+1)
	})
	if n == 0 {
		return 0, true
	}
	if i == len(s.parts) || off < s.parts[i].off || off+n > s.parts[i].off+s.parts[i].n {
		return 0, false
	}
	p := s.parts[i]
	return p.at + off - p.off, true
}

// mergeGap is how far apart two needed byte ranges of a body may be and
// still be read as one: a read costs more than a few KiB more bytes.
const mergeGap = 4 << 10

// projectedMessage reads the record batch message of blk (batch i, which
// its errors name) holding only the buffers of the columns the
// projection keeps: its metadata first, then those buffers' byte
// ranges, nearby ones merged into one read.
func (fr *FileReader) projectedMessage(blk block, i int) (*Message, error) {
	m, err := fr.metaMessage(blk)
	if err != nil {
		return nil, fmtWrap(err, "record batch %d", i)
	}
	var tbl flatbuffers.Table
	if m.Type() != MessageRecordBatch {
		m.body = memory.NewBuffer(nil) // the caller names the type
		return m, nil
	}
	if !m.header(&tbl) {
		return nil, invalidf("record batch %d: message without a header", i)
	}
	var rb fb.RecordBatch
	rb.Init(tbl.Bytes, tbl.Pos)
	l := &loader{rb: &rb, cfg: &fr.dec.cfg, info: fr.dec.info, version: m.msg.Version(), where: place{n: int64(i)},
		nodeN: rb.NodesLength(), bufN: rb.BuffersLength(), varN: rb.VariadicBufferCountsLength()}
	need, err := l.neededBuffers(fr.dec.proj)
	if err != nil {
		return nil, err
	}
	var ranges [][2]int
	for j := range l.bufN {
		var b fb.Buffer
		rb.Buffers(&b, j)
		off, n := b.Offset(), b.Length()
		if off < 0 || n < 0 || off > blk.bodyLen || n > blk.bodyLen-off {
			return nil, invalidf("%s: buffer %d requires body bytes [%d, %d+%d) but the body has %d bytes", l.where, j, off, off, n, blk.bodyLen)
		}
		if need[j] && n > 0 {
			ranges = append(ranges, [2]int{int(off), int(off + n)})
		}
	}
	slices.SortFunc(ranges, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	body := &sparseBody{length: blk.bodyLen}
	at := 0
	for _, r := range ranges {
		if k := len(body.parts) - 1; k >= 0 && r[0] <= body.parts[k].off+body.parts[k].n+mergeGap {
			p := &body.parts[k]
			if end := max(p.off+p.n, r[1]); end > p.off+p.n {
				at += end - (p.off + p.n)
				p.n = end - p.off
			}
			continue
		}
		at = (at+7)&^7 + r[0]%8 // as aligned as in the whole body
		body.parts = append(body.parts, bodyPart{off: r[0], at: at, n: r[1] - r[0]})
		at += r[1] - r[0]
	}
	buf := make([]byte, at)
	bodyOff := blk.offset + int64(blk.metaLen)
	err = parallel(len(body.parts), fr.cfg.concurrency, func(k int) error {
		p := body.parts[k]
		return readAtRanges(fr.src, buf[p.at:p.at+p.n], bodyOff+int64(p.off), copySplit{workers: 1})
	})
	if err != nil {
		return nil, fmtWrap(err, "record batch %d", i)
	}
	m.body, m.sparse = memory.NewBuffer(buf), body
	return m, nil
}

// skipsDictionary reports whether the dictionary batch of blk is left
// out: it defines a dictionary of the schema that only columns not read
// use. Only its metadata is read.
func (fr *FileReader) skipsDictionary(blk block) (bool, error) {
	p := fr.dec.proj
	if p == nil {
		return false, nil
	}
	m, err := fr.metaMessage(blk)
	if err != nil {
		return false, err
	}
	var tbl flatbuffers.Table
	if m.Type() != MessageDictionaryBatch || !m.header(&tbl) {
		return false, nil // read whole, to be named by the decoder
	}
	var db fb.DictionaryBatch
	db.Init(tbl.Bytes, tbl.Pos)
	_, known := fr.dec.info.dictType[db.Id()]
	return known && !p.wantsDict(db.Id()), nil
}
