package ipc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"sync"
	"sync/atomic"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/alkaid-go/alkaid/alkaid"
	fb "github.com/alkaid-go/alkaid/internal/flatbuf"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/memory"
)

// File magics. A file starts with its magic padded with zeros to 8 bytes
// and ends with the magic alone.
const (
	Magic      = "ALKAID1"
	ArrowMagic = "ARROW1"
)

// FileWriter writes the file format (.ipc): the magic, the stream of
// messages, and on Close a footer that indexes every dictionary and record
// batch for random access. It is not safe for concurrent use.
type FileWriter struct {
	enc    *encoder
	magic  string
	meta   map[string]string
	closed bool
}

// NewFileWriter writes the magic and schema to w. With [WithArrowCompat]
// the file carries Apache Arrow's ARROW1 magic. A w with a Grow(int)
// method is told each message's size first, as with [NewStreamWriter].
func NewFileWriter(w io.Writer, schema *alkaid.Schema, opts ...Option) (*FileWriter, error) {
	cfg, err := newWriterConfig(opts)
	if err != nil {
		return nil, err
	}
	if err := checkCost(footerCost(schema, 0, nil), "footer"); err != nil {
		return nil, err
	}
	fw := &FileWriter{enc: newEncoder(w, schema, cfg, true), magic: Magic}
	if cfg.arrowCompat {
		fw.magic = ArrowMagic
	}
	meta, err := fw.enc.schemaMessage()
	if err != nil {
		return nil, err
	}
	var head [8]byte
	copy(head[:], fw.magic)
	if err := fw.enc.write(head[:]); err != nil {
		return nil, err
	}
	if _, err := fw.enc.message(meta, nil, 0); err != nil {
		return nil, err
	}
	return fw, nil
}

// Write writes one record batch (and the dictionaries it needs first).
// Dictionaries may grow from batch to batch (written as deltas) but not
// change otherwise: the file format allows no replacement.
func (w *FileWriter) Write(rec *alkaid.Record) error { return w.WriteWithMetadata(rec, nil) }

// WriteWithMetadata writes a record batch with message-level metadata.
func (w *FileWriter) WriteWithMetadata(rec *alkaid.Record, meta map[string]string) error {
	if w.closed {
		return invalidf("write to a closed file writer")
	}
	// The footer indexes every batch: refuse the one it could not hold.
	blocks := len(w.enc.recBlocks) + len(w.enc.dictBlocks) + 1 + len(w.enc.dicts)
	if err := w.checkFooter(blocks); err != nil {
		return err
	}
	return w.enc.writeRecord(rec, meta)
}

// checkFooter refuses a footer of blocks blocks that default readers
// would refuse: the schema as written at the start, 24 bytes per block,
// the footer's metadata.
func (w *FileWriter) checkFooter(blocks int) error {
	c := footerCost(w.enc.schema, blocks, w.meta)
	if err := checkCost(c, "footer"); err != nil {
		return err
	}
	size := int64(w.enc.schemaLen) + 24*int64(blocks) + mapCost(w.meta).bytes + costMessage
	if size > int64(DefaultLimits.MaxMetadataSize) {
		return limitf("the footer of %d batches would take about %d bytes; readers accept %d (Limits.MaxMetadataSize)",
			blocks, size, DefaultLimits.MaxMetadataSize)
	}
	return nil
}

// SetFooterMetadata sets custom metadata for the footer, written on Close.
func (w *FileWriter) SetFooterMetadata(meta map[string]string) { w.meta = meta }

// Close writes the end-of-stream marker, the footer and the closing magic.
// It does not close the underlying writer.
func (w *FileWriter) Close() error {
	if w.closed {
		return w.enc.err
	}
	w.closed = true
	if err := w.checkFooter(len(w.enc.recBlocks) + len(w.enc.dictBlocks)); err != nil {
		w.enc.err = err
		return err
	}
	b := flatbuffers.NewBuilder(1024)
	s, err := writeSchema(b, w.enc.schema, w.enc.cfg.arrowCompat)
	if err != nil {
		return err
	}
	blocks := func(start func(*flatbuffers.Builder, int) flatbuffers.UOffsetT, bl []block) flatbuffers.UOffsetT {
		start(b, len(bl))
		for i := len(bl) - 1; i >= 0; i-- {
			fb.CreateBlock(b, bl[i].offset, bl[i].metaLen, bl[i].bodyLen)
		}
		return b.EndVector(len(bl))
	}
	dicts := blocks(fb.FooterStartDictionariesVector, w.enc.dictBlocks)
	recs := blocks(fb.FooterStartRecordBatchesVector, w.enc.recBlocks)
	var md flatbuffers.UOffsetT
	if len(w.meta) > 0 {
		md = (&schemaWriter{b: b}).metadata(sortedMetadata(w.meta))
	}
	fb.FooterStart(b)
	fb.FooterAddVersion(b, fb.MetadataVersionV5)
	fb.FooterAddSchema(b, s)
	fb.FooterAddDictionaries(b, dicts)
	fb.FooterAddRecordBatches(b, recs)
	if md != 0 {
		fb.FooterAddCustomMetadata(b, md)
	}
	b.Finish(fb.FooterEnd(b))
	footer := b.FinishedBytes()
	if err := checkBuilt(footer, "footer"); err != nil {
		w.enc.err = err
		return err
	}
	var size [4]byte
	binary.LittleEndian.PutUint32(size[:], uint32(len(footer)))
	for _, p := range [][]byte{eos, footer, size[:], []byte(w.magic)} {
		if err := w.enc.write(p); err != nil {
			return err
		}
	}
	return nil
}

// FileReader reads the file format with random access to its record
// batches. After construction it is safe for concurrent use: Record may be
// called from several goroutines.
type FileReader struct {
	src    io.ReaderAt
	size   int64
	region *memory.Region // set by OpenFile: bodies point into the mapping
	dec    *Decoder
	cfg    readerConfig // the options, as the decoder has them
	magic  string
	// the verified footer; record batch blocks are read from it on use,
	// so opening costs the same whatever the number of batches
	index       *fb.Footer
	footerStart int64
	dicts       []block
	footer      map[string]string
	warnings    []error   // see Warnings
	leadOnce    sync.Once // checks the leading message for Warnings when open did not
	closed      atomic.Bool
	meta        map[string]string // of the batch Records yielded last
}

// NewFileReader reads the footer and dictionaries of the file of size
// bytes in r. Bodies are read with ReadAt into fresh memory.
func NewFileReader(r io.ReaderAt, size int64, opts ...Option) (*FileReader, error) {
	cfg, err := newReaderConfig(opts)
	if err != nil {
		return nil, err
	}
	fr := &FileReader{src: r, size: size, dec: newFileDecoder(cfg), cfg: cfg}
	if err := fr.open(); err != nil {
		return nil, err
	}
	return fr, nil
}

// OpenFile memory-maps the file at path and reads its footer. Record
// batches are built over the mapping without copying (when uncompressed
// and aligned) and stay valid after Close; the mapping is released once no
// array refers to it. The file must not be truncated or rewritten while
// arrays over it are in use (see [memory.MapFile]); for a file that may
// change, use [NewFileReader] with an *os.File, which reads bodies into
// memory.
func OpenFile(path string, opts ...Option) (*FileReader, error) {
	cfg, err := newReaderConfig(opts)
	if err != nil {
		return nil, err
	}
	region, err := memory.MapFile(path)
	if err != nil {
		return nil, err
	}
	// No MADV_RANDOM: on Linux it also turns off fault-around, so every
	// page the footer, metadata and values touch would fault on its own.
	fr := &FileReader{src: bytes.NewReader(region.Bytes()), size: int64(region.Len()), region: region, dec: newFileDecoder(cfg), cfg: cfg}
	if err := fr.open(); err != nil {
		return nil, fmtWrap(err, "%s", path)
	}
	return fr, nil
}

// DetectMagic reports the file magic at the start of head (Magic or
// ArrowMagic), or "" when head does not start a file (it may be a stream).
func DetectMagic(head []byte) string {
	for _, m := range []string{Magic, ArrowMagic} {
		if len(head) >= 8 && string(head[:len(m)]) == m {
			return m
		}
	}
	return ""
}

func (fr *FileReader) readAt(off int64, n int) ([]byte, error) {
	if off < 0 || n < 0 || off > fr.size || int64(n) > fr.size-off {
		return nil, invalidf("range [%d, %d) beyond the %d-byte file", off, off+int64(n), fr.size)
	}
	if fr.region != nil {
		return fr.region.Bytes()[off : off+int64(n)], nil
	}
	b := make([]byte, n)
	if n == 0 {
		return b, nil // an io.ReaderAt may say EOF at the end even for no bytes
	}
	if k, err := fr.src.ReadAt(b, off); k < n {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, invalidf("the file ends before byte %d (its stated size is %d)", off+int64(n), fr.size)
		}
		return nil, fmt.Errorf("ipc: read at %d: %w", off, err)
	}
	return b, nil
}

func (fr *FileReader) open() error {
	head, err := fr.readAt(0, int(min(fr.size, 8)))
	if err != nil {
		return err
	}
	fr.magic = DetectMagic(head)
	if fr.magic == "" {
		return invalidf("not an Alkaid/Arrow IPC file: starts with %s, not the %s or %s magic", quoteHead(head), Magic, ArrowMagic)
	}
	tailLen := int64(len(fr.magic) + 4)
	if fr.size < 8+tailLen {
		return invalidf("file of %d bytes is too short for a footer", fr.size)
	}
	tail, err := fr.readAt(fr.size-tailLen, int(tailLen))
	if err != nil {
		return err
	}
	if string(tail[4:]) != fr.magic {
		return invalidf("file does not end with the %s magic (truncated? read it as a stream to salvage it)", fr.magic)
	}
	footerLen := int64(int32(binary.LittleEndian.Uint32(tail)))
	if footerLen <= 0 || footerLen > fr.size-8-tailLen {
		return invalidf("footer length %d out of range for a %d-byte file", footerLen, fr.size)
	}
	if footerLen > int64(fr.dec.Limits().MaxMetadataSize) {
		return limitf("footer of %d bytes exceeds %d", footerLen, fr.dec.Limits().MaxMetadataSize)
	}
	footerStart := fr.size - tailLen - footerLen
	buf, err := fr.readAt(footerStart, int(footerLen))
	if err != nil {
		return err
	}
	if err := verifyRoot(buf, tFooter, fr.dec.Limits()); err != nil {
		return fmt.Errorf("%w (in the footer)", err)
	}
	footer := fb.GetRootAsFooter(buf, 0)
	s := footer.Schema(nil)
	if s == nil {
		return invalidf("footer without a schema")
	}
	info, err := readSchema(s, fr.dec.Limits())
	if err != nil {
		return err
	}
	wire := *info // as written: setSchema makes a big-endian schema native
	if err := fr.dec.setSchema(info); err != nil {
		return err
	}
	fr.index, fr.footerStart = footer, footerStart
	fr.dicts = make([]block, footer.DictionariesLength())
	for i := range fr.dicts {
		if fr.dicts[i], err = fr.footerBlock(dictionaryBlocks, i); err != nil {
			return err
		}
		if i > 0 {
			if err := inOrder(fr.dicts[i-1], fr.dicts[i], i, dictionaryBlocks); err != nil {
				return err
			}
		}
	}
	fr.footer = readMetadataMap(footer.CustomMetadataLength(), footer.CustomMetadata)
	if fr.cfg.full() || fr.cfg.strictLead {
		// Otherwise the check waits for Warnings, so that opening a file
		// costs no more than reading its footer.
		fr.leadOnce.Do(func() {})
		if err := fr.checkLeadingMessage(&wire); err != nil {
			return err
		}
	}
	for i, blk := range fr.dicts {
		if skip, err := fr.skipsDictionary(blk); skip || err != nil {
			if err != nil {
				return fmtWrap(err, "dictionary block %d", i)
			}
			continue
		}
		m, err := fr.message(blk)
		if err != nil {
			return fmtWrap(err, "dictionary block %d", i)
		}
		if m.Type() != MessageDictionaryBatch {
			return invalidf("dictionary block %d holds a %s message", i, m.Type())
		}
		if _, err := fr.dec.DecodeMessage(m); err != nil {
			return fmtWrap(err, "dictionary block %d", i)
		}
	}
	return nil
}

// The footer's two lists of blocks.
const (
	dictionaryBlocks  = "dictionary"
	recordBatchBlocks = "record batch"
)

// footerBlock reads and checks block i of one of the footer's lists
// (dictionaryBlocks or recordBatchBlocks): aligned, inside the file
// before the footer, its parts not overlapping.
func (fr *FileReader) footerBlock(what string, i int) (block, error) {
	var b fb.Block
	if what == dictionaryBlocks {
		fr.index.Dictionaries(&b, i)
	} else {
		fr.index.RecordBatches(&b, i)
	}
	blk := block{offset: b.Offset(), metaLen: b.MetaDataLength(), bodyLen: b.BodyLength()}
	end := fr.footerStart
	if blk.offset < 8 || blk.offset%8 != 0 || blk.metaLen < 8 || blk.bodyLen < 0 ||
		blk.offset > end || int64(blk.metaLen) > end-blk.offset ||
		blk.bodyLen > end-blk.offset-int64(blk.metaLen) {
		return block{}, invalidf("footer %s block %d (offset %d, metadata %d, body %d) out of range or misaligned",
			what, i, blk.offset, blk.metaLen, blk.bodyLen)
	}
	return blk, nil
}

// inOrder requires block i of a footer list to start after block i-1
// ends, as writers lay messages out. Without it a footer could name one
// message many times: a delta dictionary would then be applied once per
// entry, growing without bound, and reading every batch would decode one
// message as often as a short footer repeats it.
func inOrder(prev, cur block, i int, what string) error {
	if cur.offset < prev.offset+int64(prev.metaLen)+prev.bodyLen {
		return invalidf("footer %s block %d (offset %d) does not follow block %d (offset %d, %d bytes)",
			what, i, cur.offset, i-1, prev.offset, int64(prev.metaLen)+prev.bodyLen)
	}
	return nil
}

// recordBlocks returns every record batch block (checked).
func (fr *FileReader) recordBlocks() ([]block, error) {
	out := make([]block, fr.NumRecords())
	for i := range out {
		var err error
		if out[i], err = fr.footerBlock(recordBatchBlocks, i); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func readMetadataMap(n int, get func(*fb.KeyValue, int) bool) map[string]string {
	md := readMetadata(n, get)
	if md.Len() == 0 {
		return nil
	}
	out := make(map[string]string, md.Len())
	for k, v := range md.All() {
		out[k] = v
	}
	return out
}

// message reads the message a footer block points at and checks that it
// agrees with the block.
func (fr *FileReader) message(blk block) (*Message, error) {
	meta, err := fr.metadataAt(blk)
	if err != nil {
		return nil, err
	}
	if fr.region != nil {
		meta = append([]byte(nil), meta...) // keep metadata apart from the mapping
	}
	bodyOff := blk.offset + int64(blk.metaLen)
	var body *memory.Buffer
	if fr.region != nil {
		if bodyOff+blk.bodyLen > fr.size {
			return nil, invalidf("message body at %d beyond the file", bodyOff)
		}
		body = fr.region.Buffer(int(bodyOff), int(blk.bodyLen))
	} else {
		if blk.bodyLen > fr.size-bodyOff {
			return nil, invalidf("message body at %d beyond the file", bodyOff)
		}
		b := rawmem.Fillable(int(blk.bodyLen))
		if err := readAtRanges(fr.src, b, bodyOff, fr.cfg.split()); err != nil {
			return nil, err
		}
		body = memory.NewBuffer(b)
	}
	return NewMessage(meta, body, fr.dec.Limits())
}

// metadataAt reads the metadata of the message a footer block points at.
func (fr *FileReader) metadataAt(blk block) ([]byte, error) {
	pre, err := fr.readAt(blk.offset, 8)
	if err != nil {
		return nil, err
	}
	skip, size, err := parsePrefix(pre, fr.dec.Limits())
	if err != nil {
		return nil, fmtWrap(err, "message at %d", blk.offset)
	}
	if size == 0 || skip+size > int(blk.metaLen) {
		return nil, invalidf("message at %d: metadata length %d disagrees with the footer's %d", blk.offset, size, blk.metaLen)
	}
	return fr.readAt(blk.offset+int64(skip), size)
}

// recordBlock returns the footer block of record batch i, checked to
// follow the one before it.
func (fr *FileReader) recordBlock(i int) (block, error) {
	if fr.closed.Load() {
		return block{}, invalidf("read from a closed file reader")
	}
	if i < 0 || i >= fr.NumRecords() {
		return block{}, invalidf("no record batch %d: the file holds %d", i, fr.NumRecords())
	}
	blk, err := fr.footerBlock(recordBatchBlocks, i)
	if err != nil {
		return block{}, err
	}
	if i > 0 {
		// Checked against the block before only, so that a read costs the
		// same whatever the number of batches; a pass over every batch
		// checks every pair.
		prev, err := fr.footerBlock(recordBatchBlocks, i-1)
		if err != nil {
			return block{}, err
		}
		if err := inOrder(prev, blk, i, recordBatchBlocks); err != nil {
			return block{}, err
		}
	}
	return blk, nil
}

// metaMessage reads the metadata of the message a footer block points
// at, checked to agree with the block, without its body.
func (fr *FileReader) metaMessage(blk block) (*Message, error) {
	meta, err := fr.metadataAt(blk)
	if err != nil {
		return nil, err
	}
	limits := fr.dec.Limits().withDefaults()
	limits.MaxBodySize = math.MaxInt64 // as for a body read (see NewMessage)
	msg, bodyLen, err := checkMetadata(meta, limits)
	if err != nil {
		return nil, err
	}
	if bodyLen != blk.bodyLen {
		return nil, invalidf("message body is %d bytes, metadata says %d", blk.bodyLen, bodyLen)
	}
	return &Message{meta: meta, msg: msg}, nil
}

// NumRows is the row count of record batch i, read from its message's
// metadata (a few hundred bytes) without reading or decoding its body.
// It is safe for concurrent use.
func (fr *FileReader) NumRows(i int) (int64, error) {
	blk, err := fr.recordBlock(i)
	if err != nil {
		return 0, err
	}
	m, err := fr.metaMessage(blk)
	if err != nil {
		return 0, fmtWrap(err, "record batch %d", i)
	}
	info, ok := m.BatchInfo()
	if m.Type() != MessageRecordBatch || !ok {
		return 0, invalidf("record batch block %d holds a %s message", i, m.Type())
	}
	if info.Length < 0 {
		return 0, invalidf("record batch %d of %d rows", i, info.Length)
	}
	return info.Length, nil
}

// Schema is the file's schema.
func (fr *FileReader) Schema() *alkaid.Schema { return fr.dec.Schema() }

// Magic is the file's magic: [Magic] or [ArrowMagic].
func (fr *FileReader) Magic() string { return fr.magic }

// NumRecords is the number of record batches.
func (fr *FileReader) NumRecords() int { return fr.index.RecordBatchesLength() }

// FooterMetadata is the footer's custom metadata.
func (fr *FileReader) FooterMetadata() map[string]string { return fr.footer }

// Record reads record batch i. It is safe for concurrent use.
func (fr *FileReader) Record(i int) (*alkaid.Record, error) {
	rec, _, err := fr.RecordWithMetadata(i)
	return rec, err
}

// RecordWithMetadata reads record batch i and its message's custom
// metadata.
func (fr *FileReader) RecordWithMetadata(i int) (*alkaid.Record, map[string]string, error) {
	blk, err := fr.recordBlock(i)
	if err != nil {
		return nil, nil, err
	}
	var m *Message
	if fr.dec.proj != nil && fr.region == nil {
		m, err = fr.projectedMessage(blk, i) // errors name the batch
	} else if m, err = fr.message(blk); err != nil {
		err = fmtWrap(err, "record batch %d", i)
	}
	if err != nil {
		return nil, nil, err
	}
	if m.Type() != MessageRecordBatch {
		return nil, nil, invalidf("record batch block %d holds a %s message", i, m.Type())
	}
	rec, err := fr.dec.DecodeRecordAt(m, i)
	return rec, m.CustomMetadata(), err
}

// Records iterates over every record batch in order, stopping at the
// first error, which it yields with a nil record.
func (fr *FileReader) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		for i := range fr.NumRecords() {
			rec, meta, err := fr.RecordWithMetadata(i)
			fr.meta = meta
			if !yield(rec, err) || err != nil {
				return
			}
		}
	}
}

// Metadata is the custom metadata of the message of the record batch
// [FileReader.Records] yielded last (nil when it had none), as
// [StreamReader.Metadata] is for a stream. It is for one loop over
// Records at a time; [FileReader.RecordWithMetadata] serves random and
// concurrent access.
func (fr *FileReader) Metadata() map[string]string { return fr.meta }

// Close releases the reader. Arrays already read stay valid: a mapping is
// unmapped only when no array refers to it any more.
func (fr *FileReader) Close() error {
	fr.closed.Store(true)
	return nil
}
