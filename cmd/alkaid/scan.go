package main

import (
	"errors"
	"fmt"
	"io"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/alkaid-go/alkaid/internal/flatbuf"
	"github.com/alkaid-go/alkaid/ipc"
)

// msgInfo describes one encapsulated message without decoding its body.
type msgInfo struct {
	index   int
	offset  int64 // byte offset of the message in its file or stream
	typ     ipc.MessageType
	version int
	bodyLen int64
	rows    int64  // record and dictionary batches: the batch length
	codec   string // "" when the body is not compressed
	dictID  int64  // dictionary batches
	delta   bool   // dictionary batches
}

// scanMessages reads the messages of r (whose first byte is at offset base
// of its file) up to the end-of-stream marker or the end of input, calling
// fn for each. The metadata of each message is verified by ipc.ReadMessage
// before it is looked at; bodies are read but not decoded.
func scanMessages(r io.Reader, base int64, fn func(mi msgInfo, m *ipc.Message) error) error {
	cr := &countingReader{r: r}
	for idx := 0; ; idx++ {
		at := base + cr.n
		m, err := ipc.ReadMessage(cr)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("message %d at byte %d: %w", idx, at, err)
		}
		mi := msgInfo{index: idx, offset: at, typ: m.Type(), version: m.Version(), bodyLen: int64(m.Body().Len())}
		msg := flatbuf.GetRootAsMessage(m.Metadata(), 0)
		var tab flatbuffers.Table
		switch m.Type() {
		case ipc.MessageRecordBatch:
			if msg.Header(&tab) {
				var rb flatbuf.RecordBatch
				rb.Init(tab.Bytes, tab.Pos)
				mi.rows, mi.codec = rb.Length(), codecOf(&rb)
			}
		case ipc.MessageDictionaryBatch:
			if msg.Header(&tab) {
				var db flatbuf.DictionaryBatch
				db.Init(tab.Bytes, tab.Pos)
				mi.dictID, mi.delta = db.Id(), db.IsDelta()
				if rb := db.Data(nil); rb != nil {
					mi.rows, mi.codec = rb.Length(), codecOf(rb)
				}
			}
		}
		if err := fn(mi, m); err != nil {
			return err
		}
	}
}

func codecOf(rb *flatbuf.RecordBatch) string {
	c := rb.Compression(nil)
	if c == nil {
		return ""
	}
	switch c.Codec() {
	case flatbuf.CompressionTypeLZ4_FRAME:
		return "lz4"
	case flatbuf.CompressionTypeZSTD:
		return "zstd"
	}
	return fmt.Sprintf("codec %d", c.Codec())
}

// dictField is a dictionary-encoded field of a schema message.
type dictField struct {
	id   int64
	path string // e.g. "list_of_dictionary.item"
}

// schemaDictionaries lists the dictionary-encoded fields of a schema
// message (already verified) in depth-first order, with their ids.
func schemaDictionaries(m *ipc.Message) []dictField {
	msg := flatbuf.GetRootAsMessage(m.Metadata(), 0)
	var tab flatbuffers.Table
	if m.Type() != ipc.MessageSchema || !msg.Header(&tab) {
		return nil
	}
	var s flatbuf.Schema
	s.Init(tab.Bytes, tab.Pos)
	return dictionaryFields(&s)
}

// dictionaryFields lists the dictionary-encoded fields of a verified
// Schema table (of a schema message or a footer) in depth-first order.
func dictionaryFields(s *flatbuf.Schema) []dictField {
	var out []dictField
	var walk func(f *flatbuf.Field, path string, depth int)
	walk = func(f *flatbuf.Field, path string, depth int) {
		if depth > 64 {
			return
		}
		if d := f.Dictionary(nil); d != nil {
			out = append(out, dictField{id: d.Id(), path: path})
		}
		for j := range f.ChildrenLength() {
			var c flatbuf.Field
			if f.Children(&c, j) {
				walk(&c, path+"."+string(c.Name()), depth+1)
			}
		}
	}
	for i := range s.FieldsLength() {
		var f flatbuf.Field
		if s.Fields(&f, i) {
			walk(&f, string(f.Name()), 0)
		}
	}
	return out
}

// schemaFieldCount is the number of top-level fields of a schema message.
func schemaFieldCount(m *ipc.Message) int {
	msg := flatbuf.GetRootAsMessage(m.Metadata(), 0)
	var tab flatbuffers.Table
	if m.Type() != ipc.MessageSchema || !msg.Header(&tab) {
		return 0
	}
	var s flatbuf.Schema
	s.Init(tab.Bytes, tab.Pos)
	return s.FieldsLength()
}
