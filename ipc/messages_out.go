package ipc

import (
	"encoding/binary"

	"github.com/alkaid-go/alkaid/alkaid"
	fb "github.com/alkaid-go/alkaid/internal/flatbuf"
)

// OutMessage is one encoded IPC message, not framed: its Flatbuffers
// metadata and its body as pieces that, written one after the other, make
// BodyLen bytes. Uncompressed pieces are the record's own buffers (and
// shared zero padding): they must be treated as read-only.
type OutMessage struct {
	Type     MessageType
	Metadata []byte
	Body     [][]byte
	BodyLen  int64
}

// AppendBody appends the body's bytes to dst and returns the result.
func (m OutMessage) AppendBody(dst []byte) []byte {
	for _, p := range m.Body {
		dst = append(dst, p...)
	}
	return dst
}

// MessageEncoder encodes a schema and record batches into IPC messages
// without framing them, for transports that carry messages one by one
// (Arrow Flight carries each in a protobuf FlightData). It applies the
// same writer options as [StreamWriter] (compression, alignment,
// dictionary deltas, Arrow compatibility) and sends each dictionary a
// record needs before the record, as the stream writer does. It is not
// safe for concurrent use.
type MessageEncoder struct {
	enc *encoder
	out []OutMessage
}

// NewMessageEncoder returns an encoder for records of schema. It takes
// the writer options; any other option is an error.
func NewMessageEncoder(schema *alkaid.Schema, opts ...Option) (*MessageEncoder, error) {
	cfg, err := newWriterConfig(opts)
	if err != nil {
		return nil, err
	}
	m := &MessageEncoder{}
	m.enc = newEncoder(nil, schema, cfg, false)
	m.enc.sink = m.collect
	return m, nil
}

func (m *MessageEncoder) collect(meta []byte, body [][]byte, bodyLen int64) error {
	msg := Message{meta: meta, msg: fb.GetRootAsMessage(meta, 0)}
	m.out = append(m.out, OutMessage{Type: msg.Type(), Metadata: meta, Body: body, BodyLen: bodyLen})
	return nil
}

func (m *MessageEncoder) take() []OutMessage {
	out := m.out
	m.out = nil
	return out
}

// Schema encodes the schema message.
func (m *MessageEncoder) Schema() (OutMessage, error) {
	if err := m.enc.writeSchema(); err != nil {
		m.out = nil
		return OutMessage{}, err
	}
	out := m.take()
	if len(out) != 1 {
		return OutMessage{}, invalidf("schema encoded as %d messages", len(out))
	}
	return out[0], nil
}

// Record encodes rec, with message-level custom metadata meta (may be
// nil): first the dictionary batches it needs that were not sent before
// (each message of which must reach the peer), then the record batch,
// last in the returned slice.
func (m *MessageEncoder) Record(rec *alkaid.Record, meta map[string]string) ([]OutMessage, error) {
	if err := m.enc.writeRecord(rec, meta); err != nil {
		m.out = nil
		return nil, err
	}
	return m.take(), nil
}

// FrameSchema returns the encapsulated form of a schema message
// (continuation marker, padded length, metadata), as Flight's
// SchemaResult and FlightInfo carry it.
func FrameSchema(meta []byte) []byte {
	padded := (len(meta) + 7) &^ 7
	out := make([]byte, 8+padded)
	binary.LittleEndian.PutUint32(out, continuation)
	binary.LittleEndian.PutUint32(out[4:], uint32(padded))
	copy(out[8:], meta)
	return out
}
