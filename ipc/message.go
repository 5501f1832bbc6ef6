package ipc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	flatbuffers "github.com/google/flatbuffers/go"

	fb "github.com/alkaid-go/alkaid/internal/flatbuf"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/memory"
)

// MessageType is the kind of an encapsulated message.
type MessageType uint8

// The message types of the format.
const (
	MessageNone MessageType = iota
	MessageSchema
	MessageDictionaryBatch
	MessageRecordBatch
	MessageTensor
	MessageSparseTensor
)

// String implements fmt.Stringer: the readable form of the MessageType.
func (t MessageType) String() string {
	switch t {
	case MessageSchema:
		return "schema"
	case MessageDictionaryBatch:
		return "dictionary batch"
	case MessageRecordBatch:
		return "record batch"
	case MessageTensor:
		return "tensor"
	case MessageSparseTensor:
		return "sparse tensor"
	}
	return "none"
}

// continuation marks the start of a message in the current framing.
const continuation = 0xFFFFFFFF

// Message is one encapsulated message: its Flatbuffers metadata (already
// verified) and its body.
type Message struct {
	meta   []byte
	msg    *fb.Message
	body   *memory.Buffer
	sparse *sparseBody // set when body holds only some buffers (see WithColumns)
}

// NewMessage verifies metadata (a Flatbuffers Message) and pairs it with
// body, which must be as long as the metadata says.
func NewMessage(metadata []byte, body *memory.Buffer, limits Limits) (*Message, error) {
	limits = limits.withDefaults()
	if len(metadata) > limits.MaxMetadataSize {
		return nil, limitf("message metadata of %d bytes exceeds %d", len(metadata), limits.MaxMetadataSize)
	}
	// The body is in memory already: MaxBodySize bounds what a reader
	// allocates for bodies it reads, so it is not applied here.
	limits.MaxBodySize = math.MaxInt64
	msg, bodyLen, err := checkMetadata(metadata, limits)
	if err != nil {
		return nil, err
	}
	if bodyLen != int64(body.Len()) {
		return nil, invalidf("message body is %d bytes, metadata says %d", body.Len(), bodyLen)
	}
	return &Message{meta: metadata, msg: msg, body: body}, nil
}

// Type is the message's type.
func (m *Message) Type() MessageType {
	switch m.msg.HeaderType() {
	case fb.MessageHeaderSchema:
		return MessageSchema
	case fb.MessageHeaderDictionaryBatch:
		return MessageDictionaryBatch
	case fb.MessageHeaderRecordBatch:
		return MessageRecordBatch
	case fb.MessageHeaderTensor:
		return MessageTensor
	case fb.MessageHeaderSparseTensor:
		return MessageSparseTensor
	}
	return MessageNone
}

// Metadata is the Flatbuffers metadata.
func (m *Message) Metadata() []byte { return m.meta }

// Body is the message body.
func (m *Message) Body() *memory.Buffer { return m.body }

// Version is the metadata version (1 = V1 … 5 = V5).
func (m *Message) Version() int { return int(m.msg.Version()) + 1 }

// CustomMetadata is the message-level custom metadata.
func (m *Message) CustomMetadata() map[string]string {
	n := m.msg.CustomMetadataLength()
	if n == 0 {
		return nil
	}
	out := make(map[string]string, n)
	var kv fb.KeyValue
	for i := range n {
		m.msg.CustomMetadata(&kv, i)
		out[string(kv.Key())] = string(kv.Value())
	}
	return out
}

func (m *Message) header(t *flatbuffers.Table) bool { return m.msg.Header(t) }

// readPrefix reads the framing before a message's metadata: the
// continuation marker (optional: legacy streams lack it) and the metadata
// size. It returns 0 at an end-of-stream marker and io.EOF at a clean end
// of input.
func readPrefix(r io.Reader, limits Limits) (int, error) {
	var b [8]byte
	if _, err := io.ReadFull(r, b[:4]); err != nil {
		if err == io.EOF {
			return 0, io.EOF
		}
		return 0, invalidf("truncated message prefix: %v", err)
	}
	n := 4
	if binary.LittleEndian.Uint32(b[:]) == continuation {
		if _, err := io.ReadFull(r, b[4:]); err != nil {
			if err == io.EOF {
				return 0, io.EOF // a lone continuation marker: treat as end
			}
			return 0, invalidf("truncated message length: %v", err)
		}
		n = 8
	}
	_, size, err := parsePrefix(b[:n], limits)
	return size, err
}

// ReadMessage reads one encapsulated message from r. It returns io.EOF at
// an end-of-stream marker or at a clean end of input (no byte of a next
// message read). Only the bytes the message needs are read.
func ReadMessage(r io.Reader, opts ...Option) (*Message, error) {
	m, _, err := ReadMessageOrEnd(r, opts...)
	return m, err
}

// ReadMessageOrEnd is [ReadMessage] telling apart the two ends of a
// stream: at the end it returns io.EOF with marker true when the input
// held the end-of-stream marker, false when it just ended between two
// messages (which the format allows, but which is also what a stream cut
// short between two messages looks like).
func ReadMessageOrEnd(r io.Reader, opts ...Option) (m *Message, marker bool, err error) {
	c, err := newReaderConfig(opts)
	if err != nil {
		return nil, false, err
	}
	m, err = readMessage(r, c.limits, c.split())
	if err == errEndMarker {
		return nil, true, io.EOF
	}
	return m, false, err
}

// errEndMarker is what readMessage returns at an end-of-stream marker
// (io.EOF at a clean end of input without one).
var errEndMarker = fmt.Errorf("ipc: end-of-stream marker: %w", io.EOF)

func readMessage(r io.Reader, limits Limits, split copySplit) (*Message, error) {
	size, err := readPrefix(r, limits)
	if err != nil {
		return nil, err
	}
	if size == 0 {
		return nil, errEndMarker
	}
	meta := make([]byte, size)
	if _, err := io.ReadFull(r, meta); err != nil {
		return nil, invalidf("truncated message metadata (%d bytes): %v", size, err)
	}
	msg, bodyLen, err := checkMetadata(meta, limits)
	if err != nil {
		return nil, err
	}
	body, err := readBody(r, bodyLen, split)
	if err != nil {
		return nil, err
	}
	return &Message{meta: meta, msg: msg, body: body}, nil
}

// sizer is implemented by readers that know how many bytes remain
// (bytes.Reader, bytes.Buffer, strings.Reader).
type sizer interface{ Len() int }

// readBody reads n bytes into aligned memory. A lying length must not
// make us allocate much more than the input holds, so unless the reader
// can say how much remains, the buffer grows as bytes actually arrive.
// A large body is read with several goroutines (readBodyAt) when the
// reader can also read at an offset.
func readBody(r io.Reader, n int64, split copySplit) (*memory.Buffer, error) {
	if n == 0 {
		return memory.NewBuffer(nil), nil
	}
	if p, ok := r.(*prefixed); ok && len(p.head) == 0 {
		r = p.r
	}
	if pr, ok := r.(positioned); ok && split.ranges(n) > 1 {
		b, err := readBodyAt(pr, n, split)
		if err != nil {
			return nil, err
		}
		if b != nil {
			return memory.NewBuffer(b), nil
		}
	}
	if s, ok := r.(sizer); ok {
		if int64(s.Len()) < n {
			return nil, invalidf("message body of %d bytes but only %d remain", n, s.Len())
		}
		b := rawmem.Fillable(int(n))
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, invalidf("truncated message body: %v", err)
		}
		return memory.NewBuffer(b), nil
	}
	const first = 1 << 20
	b := rawmem.Fillable(int(min(n, first)))
	got := 0
	for {
		k, err := io.ReadFull(r, b[got:])
		got += k
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, invalidf("truncated message body: %d of %d bytes", got, n)
			}
			return nil, fmt.Errorf("ipc: reading message body: %w", err)
		}
		if int64(got) == n {
			return memory.NewBuffer(b), nil
		}
		nb := rawmem.Fillable(int(min(n, 2*int64(len(b)))))
		copy(nb, b)
		b = nb
	}
}

// WriteMessage writes m with the current framing (continuation marker,
// length, metadata padded to 8 bytes, body) and returns the bytes written.
func WriteMessage(w io.Writer, m *Message) (int64, error) {
	n, err := writeFramed(w, m.meta, 8)
	if err != nil {
		return n, err
	}
	k, err := w.Write(m.body.Bytes())
	return n + int64(k), err
}

var zeros [64]byte

// writeFramed writes the prefix and metadata padded so that the body that
// follows starts at a multiple of align (relative to the message start).
func writeFramed(w io.Writer, meta []byte, align int) (int64, error) {
	total := 8 + len(meta)
	padded := (total + align - 1) / align * align
	var hdr [8]byte
	binary.LittleEndian.PutUint32(hdr[:], continuation)
	binary.LittleEndian.PutUint32(hdr[4:], uint32(padded-8))
	var n int64
	for _, part := range [][]byte{hdr[:], meta, zeros[:padded-total]} {
		k, err := w.Write(part)
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// eos is the end-of-stream marker.
var eos = []byte{0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0}
