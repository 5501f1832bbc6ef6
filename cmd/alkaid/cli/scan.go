package cli

import (
	"errors"
	"fmt"
	"io"

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
		if b, ok := m.BatchInfo(); ok || m.Type() == ipc.MessageDictionaryBatch {
			mi.rows, mi.codec = b.Length, codecName(b.Compression)
			mi.dictID, mi.delta = b.DictionaryID, b.IsDelta
		}
		if err := fn(mi, m); err != nil {
			return err
		}
	}
}

// codecName names a body's compression codec ("" when uncompressed).
func codecName(c ipc.Codec) string {
	switch c {
	case ipc.Uncompressed:
		return ""
	case ipc.LZ4Frame, ipc.Zstd:
		return c.String()
	}
	return fmt.Sprintf("codec %d", c-1)
}

// dictField is a dictionary-encoded field of a schema.
type dictField = ipc.DictionaryField
