package ipc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/memory"
)

// StreamWriter writes the stream format (.ipcs): the schema, then for each
// record the dictionaries it needs and the record batch, then an
// end-of-stream marker on Close. It is not safe for concurrent use.
type StreamWriter struct {
	enc    *encoder
	closed bool
}

// NewStreamWriter writes the schema message to w and returns the writer.
// When w has a Grow(int) method, as a *bytes.Buffer has, each message's
// size is passed to Grow before the message is written, so that the
// buffer grows once per message instead of doubling its way up.
func NewStreamWriter(w io.Writer, schema *alkaid.Schema, opts ...Option) (*StreamWriter, error) {
	cfg, err := newWriterConfig(opts)
	if err != nil {
		return nil, err
	}
	enc := newEncoder(w, schema, cfg, false)
	if err := enc.writeSchema(); err != nil {
		return nil, err
	}
	return &StreamWriter{enc: enc}, nil
}

// Write writes one record batch (and any dictionary it needs first).
func (w *StreamWriter) Write(rec *alkaid.Record) error { return w.WriteWithMetadata(rec, nil) }

// WriteWithMetadata writes a record batch with message-level custom
// metadata.
func (w *StreamWriter) WriteWithMetadata(rec *alkaid.Record, meta map[string]string) error {
	if w.closed {
		return invalidf("write to a closed stream writer")
	}
	return w.enc.writeRecord(rec, meta)
}

// Close writes the end-of-stream marker. It does not close the
// underlying writer.
func (w *StreamWriter) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	return w.enc.write(eos)
}

// StreamReader reads the stream format from an io.Reader, one message at
// a time, through a [Decoder]. It is an [alkaid.RecordReader] that can be
// iterated once. It is not safe for concurrent use.
type StreamReader struct {
	next   func() (*Message, error) // the next message, io.EOF at the end
	dec    *Decoder
	meta   map[string]string
	used   bool // Records was called
	closed bool
	marker bool // the stream ended with its end-of-stream marker
	// batches counts the record batches read, for errors
	batches int
}

// NewStreamReader reads the schema message and returns the reader. Input
// that starts with a file magic (ALKAID1 or ARROW1) is read as the stream
// the file holds: that reads a file sequentially without its footer, and
// salvages the complete batches of a file whose writer died before the
// footer. It takes the reader options; any other option is an error.
func NewStreamReader(r io.Reader, opts ...Option) (*StreamReader, error) {
	cfg, err := newReaderConfig(opts)
	if err != nil {
		return nil, err
	}
	r, err = skipFileMagic(r)
	if err != nil {
		return nil, err
	}
	sr := &StreamReader{dec: newDecoder(cfg)}
	split := cfg.split()
	sr.next = func() (*Message, error) { return readMessage(r, cfg.limits, split) }
	return sr.start()
}

// NewStreamReaderBytes reads a stream held in memory without copying it:
// record batches point into data (which must then not change) wherever
// their buffers are aligned; misaligned buffers are copied. Like
// [NewStreamReader] it also reads a file's bytes as a stream.
func NewStreamReaderBytes(data []byte, opts ...Option) (*StreamReader, error) {
	cfg, err := newReaderConfig(opts)
	if err != nil {
		return nil, err
	}
	if len(data) >= 8 && DetectMagic(data) != "" {
		data = data[8:]
	}
	sr := &StreamReader{dec: newDecoder(cfg)}
	src := &bytesSource{data: memory.NewBuffer(data)}
	sr.next = func() (*Message, error) { return src.next(cfg.limits) }
	return sr.start()
}

func (sr *StreamReader) start() (*StreamReader, error) {
	for sr.dec.Schema() == nil {
		m, err := sr.next()
		if errors.Is(err, io.EOF) {
			return nil, invalidf("stream ends before its schema")
		}
		if err != nil {
			return nil, err
		}
		if _, err := sr.dec.DecodeMessage(m); err != nil {
			return nil, err
		}
	}
	return sr, nil
}

// Schema is the stream's schema.
func (r *StreamReader) Schema() *alkaid.Schema { return r.dec.Schema() }

// Records yields the stream's record batches in order, until the
// end-of-stream marker or a clean end of input between two messages; an
// error is yielded once, with a nil record, and ends the sequence. The
// stream can be iterated once: a second call, or a call after Close,
// yields an error wrapping [ErrInvalid].
func (r *StreamReader) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		switch {
		case r.closed:
			yield(nil, invalidf("stream reader used after Close"))
			return
		case r.used:
			yield(nil, invalidf("stream records iterated twice: a stream can be read once"))
			return
		}
		r.used = true
		for {
			rec, err := r.read()
			if err == io.EOF {
				return
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(rec, nil) {
				return
			}
		}
	}
}

// read decodes messages up to the next record batch; io.EOF at the end.
func (r *StreamReader) read() (*alkaid.Record, error) {
	r.meta = nil
	for {
		m, err := r.next()
		if errors.Is(err, io.EOF) {
			r.marker = err == errEndMarker
			return nil, io.EOF
		}
		if err != nil {
			return nil, fmtWrap(err, "after %d record batches", r.batches)
		}
		ev, err := r.dec.DecodeMessage(m)
		if err != nil {
			return nil, err
		}
		if ev.Kind == EventRecord {
			r.batches++
			r.meta = ev.Meta
			return ev.Record, nil
		}
	}
}

// Metadata is the custom metadata of the message of the record batch
// [StreamReader.Records] yielded last (nil when it had none).
func (r *StreamReader) Metadata() map[string]string { return r.meta }

// EndMarker reports whether the stream ended with its end-of-stream
// marker: false before the end, after an error, and when the input just
// ended between two messages. The format allows a stream without the
// marker, but a writer always writes it on Close, so its absence may
// mean that the stream was cut short.
func (r *StreamReader) EndMarker() bool { return r.marker }

// Close ends the reader's use: Records yields an error afterwards. It
// does not close the io.Reader the reader was made with, and batches
// already yielded stay valid.
func (r *StreamReader) Close() error {
	r.closed = true
	return nil
}

// skipFileMagic consumes a leading file magic, or puts back what it read.
func skipFileMagic(r io.Reader) (io.Reader, error) {
	var head [8]byte
	n, err := io.ReadFull(r, head[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, fmt.Errorf("ipc: reading stream start: %w", err)
	}
	if n == 8 && DetectMagic(head[:]) != "" {
		return r, nil
	}
	if s, ok := r.(sizer); ok {
		// Keep the remaining-size hint visible to readBody.
		return &prefixed{head: head[:n], r: r, s: s}, nil
	}
	return io.MultiReader(bytes.NewReader(head[:n]), r), nil
}

// prefixed replays bytes already read before the rest of r, and still
// tells how much remains.
type prefixed struct {
	head []byte
	r    io.Reader
	s    sizer
}

func (p *prefixed) Read(b []byte) (int, error) {
	if len(p.head) > 0 {
		n := copy(b, p.head)
		p.head = p.head[n:]
		return n, nil
	}
	return p.r.Read(b)
}

func (p *prefixed) Len() int { return len(p.head) + p.s.Len() }

// bytesSource cuts messages out of a stream held in memory.
type bytesSource struct {
	data *memory.Buffer
	pos  int
}

func (s *bytesSource) next(limits Limits) (*Message, error) {
	rest := s.data.Bytes()[s.pos:]
	hdr, size, err := parsePrefix(rest, limits)
	if err != nil {
		return nil, err
	}
	switch {
	case hdr == 0 && len(rest) == 0, hdr == 0 && len(rest) == 4:
		return nil, io.EOF // the end, or a lone continuation marker
	case hdr == 0 && len(rest) < 4:
		return nil, invalidf("truncated message prefix: %v", io.ErrUnexpectedEOF)
	case hdr == 0:
		return nil, invalidf("truncated message length: %v", io.ErrUnexpectedEOF)
	case size == 0:
		return nil, errEndMarker
	}
	if size > len(rest)-hdr {
		return nil, invalidf("truncated message metadata (%d bytes, %d remain)", size, len(rest)-hdr)
	}
	meta := rest[hdr : hdr+size]
	msg, bodyLen, err := checkMetadata(meta, limits)
	if err != nil {
		return nil, err
	}
	avail := len(rest) - hdr - size
	if bodyLen > int64(avail) {
		return nil, invalidf("message body of %d bytes but only %d remain", bodyLen, avail)
	}
	bodyStart := s.pos + hdr + size
	s.pos = bodyStart + int(bodyLen)
	// Verified above, and the body is as long as the metadata says.
	return &Message{meta: meta, msg: msg, body: s.data.Slice(bodyStart, int(bodyLen))}, nil
}
