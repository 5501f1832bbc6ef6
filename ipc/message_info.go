package ipc

import (
	flatbuffers "github.com/google/flatbuffers/go"

	fb "github.com/alkaid-go/alkaid/internal/flatbuf"
)

// BatchInfo is what the header of a record batch or dictionary batch
// message says, read from its (verified) metadata without decoding the
// body.
type BatchInfo struct {
	// Length is the batch's number of rows (of dictionary values for a
	// dictionary batch).
	Length int64
	// Nodes and Buffers are the numbers of field nodes and buffers the
	// header lists.
	Nodes, Buffers int
	// Compression is the codec of the body's buffers, Uncompressed when
	// they are not compressed. A codec this package does not know is
	// Codec(n+1) for the format's value n.
	Compression Codec
	// DictionaryID and IsDelta are set for a dictionary batch.
	DictionaryID int64
	IsDelta      bool
}

// BatchInfo reads the header of a record batch or dictionary batch
// message; ok is false for other messages (and for a dictionary batch
// without data).
func (m *Message) BatchInfo() (info BatchInfo, ok bool) {
	var tab flatbuffers.Table
	if !m.header(&tab) {
		return BatchInfo{}, false
	}
	var rb *fb.RecordBatch
	switch m.Type() {
	case MessageRecordBatch:
		rb = new(fb.RecordBatch)
		rb.Init(tab.Bytes, tab.Pos)
	case MessageDictionaryBatch:
		var db fb.DictionaryBatch
		db.Init(tab.Bytes, tab.Pos)
		info.DictionaryID, info.IsDelta = db.Id(), db.IsDelta()
		if rb = db.Data(nil); rb == nil {
			return info, false
		}
	default:
		return BatchInfo{}, false
	}
	info.Length, info.Nodes, info.Buffers = rb.Length(), rb.NodesLength(), rb.BuffersLength()
	if c := rb.Compression(nil); c != nil {
		info.Compression = Codec(c.Codec()) + 1
	}
	return info, true
}

// DictionaryField is a dictionary-encoded field of a schema.
type DictionaryField struct {
	// ID is the dictionary id of the field.
	ID int64
	// Path is the field's name and those of the fields it is nested in,
	// outermost first, joined by dots ("tags.item").
	Path string
}

// maxSchemaWalkDepth bounds how deep dictionaryFields follows children of
// a verified schema (the reader's own limits apply on decoding).
const maxSchemaWalkDepth = 64

// schemaOf returns the Schema table of a schema message.
func (m *Message) schemaOf() (*fb.Schema, bool) {
	var tab flatbuffers.Table
	if m.Type() != MessageSchema || !m.header(&tab) {
		return nil, false
	}
	var s fb.Schema
	s.Init(tab.Bytes, tab.Pos)
	return &s, true
}

// NumSchemaFields is the number of top-level fields of a schema message
// (0 for other messages).
func (m *Message) NumSchemaFields() int {
	s, ok := m.schemaOf()
	if !ok {
		return 0
	}
	return s.FieldsLength()
}

// DictionaryFields lists the dictionary-encoded fields of a schema
// message in depth-first order (nil for other messages).
func (m *Message) DictionaryFields() []DictionaryField {
	s, ok := m.schemaOf()
	if !ok {
		return nil
	}
	return dictionaryFields(s)
}

// dictionaryFields lists the dictionary-encoded fields of a verified
// Schema table in depth-first order.
func dictionaryFields(s *fb.Schema) []DictionaryField {
	var out []DictionaryField
	var walk func(f *fb.Field, path string, depth int)
	walk = func(f *fb.Field, path string, depth int) {
		if depth > maxSchemaWalkDepth {
			return
		}
		if d := f.Dictionary(nil); d != nil {
			out = append(out, DictionaryField{ID: d.Id(), Path: path})
		}
		for j := range f.ChildrenLength() {
			var c fb.Field
			if f.Children(&c, j) {
				walk(&c, path+"."+string(c.Name()), depth+1)
			}
		}
	}
	for i := range s.FieldsLength() {
		var f fb.Field
		if s.Fields(&f, i) {
			walk(&f, string(f.Name()), 0)
		}
	}
	return out
}

// Version is the metadata version the file's footer states (1 = V1 …
// 5 = V5).
func (fr *FileReader) Version() int { return int(fr.index.Version()) + 1 }

// DictionaryFields lists the dictionary-encoded fields of the footer's
// schema in depth-first order.
func (fr *FileReader) DictionaryFields() []DictionaryField {
	s := fr.index.Schema(nil)
	if s == nil {
		return nil
	}
	return dictionaryFields(s)
}

// FooterOffset is the offset of the footer in the file: the messages of
// the file end before it.
func (fr *FileReader) FooterOffset() int64 { return fr.footerStart }

// DataOffset is the offset of the first message the footer indexes (a
// dictionary or record batch), or FooterOffset when it indexes none:
// where the messages of the file start, whatever precedes them.
func (fr *FileReader) DataOffset() int64 {
	first := fr.footerStart
	var b fb.Block
	for i := range fr.index.DictionariesLength() {
		if fr.index.Dictionaries(&b, i) {
			first = min(first, b.Offset())
		}
	}
	for i := range fr.index.RecordBatchesLength() {
		if fr.index.RecordBatches(&b, i) {
			first = min(first, b.Offset())
		}
	}
	return first
}
