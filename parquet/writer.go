package parquet

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/parquet/internal/compress"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
	"github.com/alkaid-go/alkaid/shred"
)

// Writer writes records to a Parquet file: rows are buffered until a row
// group is full, then written; Close writes the footer.
type Writer struct {
	w      io.Writer
	pos    int64
	cfg    writerConfig
	schema *alkaid.Schema
	elems  []format.SchemaElement
	leaves []*wleaf
	// pending holds the shredded rows of the row group being built, by
	// leaf: rows of them, bytes in all; rowBytes is the bytes a row took
	// in the last record shredded.
	pending  [][]segment
	rows     int
	bytes    int64
	rowBytes int64
	groups   []format.RowGroup
	// indexes[g][c] is the page index of chunk c of row group g, written
	// by Close (nil entries when the page index is off).
	indexes [][]*chunkIndex
	total   int64
	sorting []format.SortingColumn // recorded in every row group
	// firstLeaf[i] is the index in leaves of field i's first leaf.
	firstLeaf []int
	closed    bool
	err       error
	// slots bounds the pages being compressed at once across the
	// writer's chunks (nil without parallelism: see pageQueue).
	slots chan struct{}
	// enc encrypts the file (WithEncryption).
	enc *fileEncryptor
}

// NewWriter starts a Parquet file of records of schema s on w; an
// option of a reader, or an invalid option value, is an error naming it.
func NewWriter(w io.Writer, s *alkaid.Schema, opts ...Option) (*Writer, error) {
	o, err := apply(options{write: defaultWriterConfig()}, opts, forWrite)
	if err != nil {
		return nil, err
	}
	cfg := o.write
	if s == nil {
		return nil, invalidf("NewWriter: no schema")
	}
	if s.NumFields() > cfg.maxColumns {
		return nil, limitf("schema of %d fields (limit %d columns)", s.NumFields(), cfg.maxColumns)
	}
	b := &schemaBuilder{elems: []format.SchemaElement{{Name: "schema", NumChildren: ptr(int32(s.NumFields()))}}, maxLeaves: cfg.maxColumns}
	for _, f := range s.Fields() {
		if err := b.add(f, repOf(f.Nullable), nil); err != nil {
			return nil, err
		}
	}
	if cfg.level != 0 {
		for p, c := range cfg.colCodec {
			if lo, hi, ok := compress.Levels(format.Codec(c)); ok && (cfg.level < lo || cfg.level > hi) {
				return nil, invalidf("WithColumnCodec(%q, %s): the level %d of WithCompression does not suit %s", p, c, cfg.level, c)
			}
		}
	}
	sorting, err := sortingColumns(cfg.sorting, b.leaves)
	if err != nil {
		return nil, err
	}
	pw := &Writer{w: w, cfg: cfg, schema: s, elems: b.elems, leaves: b.leaves, sorting: sorting}
	if n := workers(cfg.concurrency); n > 1 {
		pw.slots = make(chan struct{}, n)
	}
	head := magic
	if cfg.encrypt != nil {
		if pw.enc, err = newFileEncryptor(cfg.encrypt, b.leaves); err != nil {
			return nil, err
		}
		for i, l := range b.leaves {
			if pw.enc.columns[i] != nil && cfg.bloom[pathString(l.path)] {
				return nil, unsupportedf("column %q: a bloom filter of an encrypted column", pathString(l.path))
			}
		}
		head = pw.enc.magic()
	}
	if err := pw.write(head); err != nil {
		return nil, err
	}
	return pw, nil
}

func (w *Writer) write(p []byte) error {
	if w.err != nil {
		return w.err
	}
	n, err := w.w.Write(p)
	w.pos += int64(n)
	if err != nil {
		w.err = fmt.Errorf("parquet: writing: %w", err)
	}
	return w.err
}

// Write adds the rows of rec, whose schema must equal the writer's. The
// rows are shredded into the writer's own buffers at once (rec is not
// kept); a row group is written when it reaches the row count or the
// byte target (see WithRowGroupRows and WithRowGroupBytes).
func (w *Writer) Write(rec *alkaid.Record) error {
	if w.closed {
		return invalidf("Write after Close")
	}
	if !rec.Schema().Equal(w.schema) {
		return invalidf("record schema %s differs from the writer's %s", rec.Schema(), w.schema)
	}
	if w.rowBytes == 0 && rec.NumRows() > firstRows {
		if err := w.measure(rec.Slice(0, firstRows)); err != nil {
			return err
		}
	}
	for off := 0; off < rec.NumRows(); {
		n := min(rec.NumRows()-off, w.cfg.rowGroupRows-w.rows)
		if w.rowBytes > 0 {
			// As many rows as the bytes left should hold, judging by
			// the rows shredded last.
			n = min(n, max(1, int((int64(w.cfg.rowGroupBytes)-w.bytes)/w.rowBytes)))
		}
		if err := w.shred(rec.Slice(off, off+n)); err != nil {
			return err
		}
		off += n
		if w.rows >= w.cfg.rowGroupRows || w.bytes >= int64(w.cfg.rowGroupBytes) {
			if err := w.Flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// firstRows are the rows of the first piece of a writer's first record,
// shredded to measure the bytes of a row (see measure).
const firstRows = 4096

// measure shreds rec to learn the bytes of a row, then drops what it
// shredded: the first record is then shredded in as few pieces as the
// row group's byte target allows (a chunk of one piece keeps a
// dictionary array's dictionary, and its values need no second copy).
func (w *Writer) measure(rec *alkaid.Record) error {
	var lens []int
	for _, segs := range w.pending {
		lens = append(lens, len(segs))
	}
	rows, size := w.rows, w.bytes
	if err := w.shred(rec); err != nil {
		return err
	}
	if lens == nil {
		lens = make([]int, len(w.pending)) // made by the shred
	}
	for i := range w.pending {
		clear(w.pending[i][lens[i]:])
		w.pending[i] = w.pending[i][:lens[i]]
	}
	w.rows, w.bytes = rows, size
	return nil
}

// shred adds the segments of rec's leaves to the row group being built.
func (w *Writer) shred(rec *alkaid.Record) error {
	if w.firstLeaf == nil {
		first := 0
		for _, f := range w.schema.Fields() {
			w.firstLeaf = append(w.firstLeaf, first)
			leaves, err := shred.Leaves(f)
			if err != nil {
				return wrapKind(ErrNotSupported, err, "field %q", f.Name)
			}
			first += len(leaves)
		}
		w.pending = make([][]segment, len(w.leaves))
	}
	// Fields are shredded in parallel.
	fields := rec.Schema().Fields()
	perField := make([][]segment, len(fields))
	err := parallelDo(len(fields), workers(w.cfg.concurrency), func(fi int) error {
		segs, err := w.segments(fields[fi], rec.Column(fi), w.firstLeaf[fi])
		perField[fi] = segs
		return err
	})
	if err != nil {
		return err
	}
	leaf := 0
	var size int64
	for _, segs := range perField {
		for _, s := range segs {
			if leaf >= len(w.leaves) {
				return invalidf("more shredded columns than the %d leaves", len(w.leaves))
			}
			w.pending[leaf] = append(w.pending[leaf], s)
			size += int64(s.bytes())
			leaf++
		}
	}
	if leaf != len(w.leaves) {
		return invalidf("%d shredded columns for %d leaves", leaf, len(w.leaves))
	}
	w.rows += rec.NumRows()
	w.bytes += size
	if rec.NumRows() > 0 {
		w.rowBytes = max(1, size/int64(rec.NumRows()))
	}
	return nil
}

// Close flushes the last row group and writes the footer; it does not
// close the underlying writer.
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	w.closed = true
	if err := w.writePageIndex(); err != nil {
		return err
	}
	md := format.FileMetaData{Version: 2, Schema: w.elems, NumRows: w.total, RowGroups: w.groups,
		CreatedBy: ptr("alkaid-go parquet"), KeyValueMetadata: w.cfg.kv}
	if md.RowGroups == nil {
		md.RowGroups = []format.RowGroup{}
	}
	for k, v := range w.schema.Metadata().All() {
		md.KeyValueMetadata = append(md.KeyValueMetadata, format.KeyValue{Key: k, Value: ptr(v)})
	}
	if !w.cfg.noSchema {
		s, err := storedSchema(w.schema)
		if err != nil {
			return err
		}
		md.KeyValueMetadata = append(md.KeyValueMetadata, format.KeyValue{Key: "ARROW:schema", Value: ptr(s)})
	}
	if w.enc != nil {
		w.enc.sealColumns(md.RowGroups)
		return w.write(w.enc.tail(&md))
	}
	footer := thrift.Marshal(nil, &md)
	footer = binary.LittleEndian.AppendUint32(footer, uint32(len(footer)))
	footer = append(footer, magic...)
	return w.write(footer)
}

// storedSchema is the base64 IPC schema message of the ARROW:schema key,
// in Arrow's namespace so that other Arrow readers understand it.
func storedSchema(s *alkaid.Schema) (string, error) {
	var buf bytes.Buffer
	sw, err := ipc.NewStreamWriter(&buf, s, ipc.WithArrowCompat())
	if err != nil {
		return "", wrapKind(ErrNotSupported, err, "ARROW:schema")
	}
	if err := sw.Close(); err != nil {
		return "", wrapKind(ErrNotSupported, err, "ARROW:schema")
	}
	msg := buf.Bytes()
	// Drop the end-of-stream marker: the key holds the schema message only.
	if len(msg) >= 8 && bytes.Equal(msg[len(msg)-8:], []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0}) {
		msg = msg[:len(msg)-8]
	}
	return base64.StdEncoding.EncodeToString(msg), nil
}
