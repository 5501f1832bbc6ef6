package flight

import (
	"context"
	"fmt"
	"io"
	"iter"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/memory"
)

// DataSender is the sending half of a FlightData stream: a DoGet or
// DoExchange server stream, a DoPut or DoExchange client stream.
type DataSender interface {
	Send(*FlightData) error
}

// DataReceiver is the receiving half of a FlightData stream.
type DataReceiver interface {
	Recv() (*FlightData, error)
}

// RecordWriter writes records to a FlightData stream as IPC messages: the
// schema first, then for each record the dictionaries it needs and the
// record batch. Bodies are gathered from the record's buffers (compressed
// first when an ipc.WithCompression option asks for it). It is not safe
// for concurrent use. It is an [alkaid.RecordWriter].
type RecordWriter struct {
	s          DataSender
	ms         msgSender // s, when its codec takes outData
	enc        *ipc.MessageEncoder
	desc       *FlightDescriptor
	schemaSent bool
	maxMsg     int // the largest FlightData sent, in bytes
	records    int // records written, to name one in errors
}

// NewRecordWriter returns a writer of records of schema to s. Options are
// the ipc writer's (compression, alignment, dictionary deltas, Arrow
// compatibility); an invalid one is an error. Nothing is sent before the
// first write. Messages are kept to [DefaultMaxSendSize] bytes, or to the
// size set ([WithMaxSendSize]) on the server or the client whose stream
// s is; see
// [RecordWriter.SetMaxMessageSize].
func NewRecordWriter(s DataSender, schema *alkaid.Schema, opts ...ipc.Option) (*RecordWriter, error) {
	enc, err := ipc.NewMessageEncoder(schema, opts...)
	if err != nil {
		return nil, fmt.Errorf("flight: %w", err)
	}
	w := &RecordWriter{s: s, enc: enc, maxMsg: DefaultMaxSendSize}
	if cs, ok := s.(interface{ Context() context.Context }); ok {
		if n := sendLimit(cs.Context()); n > 0 {
			w.maxMsg = n
		}
	}
	if ms, ok := s.(msgSender); ok && hasOurCodec(ms.Context()) {
		w.ms = ms
	}
	return w, nil
}

// SetMaxMessageSize bounds each FlightData the writer sends to n bytes
// as encoded on the wire (a value of 0 or less sets
// [DefaultMaxSendSize]). A record batch that would be larger is sent as
// several batches, slices of its rows in order, each within n; a single
// row, or a dictionary, that does not fit is an error wrapping
// ipc.ErrLimit.
func (w *RecordWriter) SetMaxMessageSize(n int) {
	if n <= 0 {
		n = DefaultMaxSendSize
	}
	w.maxMsg = n
}

// msgSender is a gRPC stream.
type msgSender interface {
	SendMsg(any) error
	Context() context.Context
}

// SetDescriptor sets the descriptor sent with the first message (DoPut
// and DoExchange name their flight this way).
func (w *RecordWriter) SetDescriptor(d *FlightDescriptor) { w.desc = d }

func (w *RecordWriter) send(m ipc.OutMessage, app []byte) error {
	if w.ms != nil {
		o := &outData{desc: w.desc, header: m.Metadata, app: app, body: m.Body, bodyN: m.BodyLen}
		w.desc = nil
		if err := w.ms.SendMsg(o); err != nil {
			return fmt.Errorf("flight: send %s: %w", m.Type, err)
		}
		return nil
	}
	fd := &FlightData{DataHeader: m.Metadata, AppMetadata: app}
	if m.BodyLen > 0 {
		fd.DataBody = m.AppendBody(make([]byte, 0, m.BodyLen))
	}
	if w.desc != nil {
		fd.FlightDescriptor, w.desc = w.desc, nil
	}
	if err := w.s.Send(fd); err != nil {
		return fmt.Errorf("flight: send %s: %w", m.Type, err)
	}
	return nil
}

// WriteSchema sends the schema message now (it is otherwise sent with the
// first record). Calling it again does nothing.
func (w *RecordWriter) WriteSchema() error {
	if w.schemaSent {
		return nil
	}
	m, err := w.enc.Schema()
	if err != nil {
		return fmt.Errorf("flight: %w", err)
	}
	if err := w.send(m, nil); err != nil {
		return err
	}
	w.schemaSent = true
	return nil
}

// Close sends the schema if no record was written, so that the peer reads
// an empty stream. It does not close s: the end of a server's stream is
// the return of its handler, a client's is [PutStream.Close] or
// [ExchangeStream.Close].
func (w *RecordWriter) Close() error { return w.WriteSchema() }

// Write sends rec.
func (w *RecordWriter) Write(rec *alkaid.Record) error { return w.WriteWithAppMetadata(rec, nil) }

// WriteWithAppMetadata sends rec with app metadata on its record batch
// message.
func (w *RecordWriter) WriteWithAppMetadata(rec *alkaid.Record, app []byte) error {
	if err := w.WriteSchema(); err != nil {
		return err
	}
	w.records++
	return w.writeRows(rec, 0, app)
}

// WriteAppMetadata sends a message with app metadata and no data.
func (w *RecordWriter) WriteAppMetadata(app []byte) error {
	fd := &FlightData{AppMetadata: app}
	if w.desc != nil {
		fd.FlightDescriptor, w.desc = w.desc, nil
	}
	if err := w.s.Send(fd); err != nil {
		return fmt.Errorf("flight: send app metadata: %w", err)
	}
	return nil
}

// RecordReader reads records from a FlightData stream. Every message is
// verified and decoded as the ipc stream reader does it, with its
// validation level and limits (those of an [ipc.WithLimits] option: the
// sizes of a message's metadata and body, nesting depth, rows,
// decompressed bytes); the size of one message is bounded before it is
// read by the gRPC receive limit ([WithMaxMessageSize]). It is an
// [alkaid.RecordReader] that can be iterated once. It is not safe for
// concurrent use.
//
// Flight lets a peer send app metadata with a record batch and in
// messages of their own, without data. [RecordReader.AppMetadata] gives
// the first, of the batch yielded last; [RecordReader.MetadataMessages]
// the second, those that came before that batch, so that a loop over
// Records sees every message in the order it was sent.
type RecordReader struct {
	r      DataReceiver
	dec    *ipc.Decoder
	limits ipc.Limits
	desc   *FlightDescriptor
	app    []byte
	n      int // messages read
	// the app metadata of messages without data read since the last
	// batch (before the schema too), with their total size
	pending  [][]byte
	pendingN int64
	// the messages without data that came before the batch yielded last
	before [][]byte
	used   bool
	closed bool
	cancel func() // ends the call the reader opened itself (Client.Get)
}

// NewRecordReader reads from r until the schema message (app metadata of
// messages before it is kept and returned by MetadataMessages with the
// first batch). Options are the ipc reader's: validation level, limits.
// Close does not close r.
func NewRecordReader(r DataReceiver, opts ...ipc.Option) (*RecordReader, error) {
	dec, err := ipc.NewDecoder(opts...)
	if err != nil {
		return nil, fmt.Errorf("flight: %w", err)
	}
	rr := &RecordReader{r: r, dec: dec}
	rr.limits = rr.dec.Limits()
	for rr.dec.Schema() == nil {
		ev, app, err := rr.next()
		if err == io.EOF {
			return nil, fmt.Errorf("flight: stream ended before its schema: %w", ipc.ErrInvalid)
		}
		if err != nil {
			return nil, err
		}
		if ev.Kind == 0 && app != nil {
			if err := rr.hold(app); err != nil {
				return nil, err
			}
		}
	}
	return rr, nil
}

// hold keeps the app metadata of a message without data for
// MetadataMessages. They are held until the next batch, so their total
// size is bounded by the limit of one message body: a peer cannot make
// the reader hold without end.
func (rr *RecordReader) hold(app []byte) error {
	rr.pendingN += int64(len(app))
	if rr.pendingN > rr.limits.MaxBodySize {
		return fmt.Errorf("flight: message %d: %d messages without data hold %d bytes of app metadata, more than the body limit of %d: %w",
			rr.n, len(rr.pending)+1, rr.pendingN, rr.limits.MaxBodySize, ipc.ErrLimit)
	}
	rr.pending = append(rr.pending, app)
	return nil
}

// next reads and decodes one message. A message without a data header
// gives a zero Event and its app metadata.
func (rr *RecordReader) next() (ipc.Event, []byte, error) {
	fd, err := rr.r.Recv()
	if err == io.EOF {
		return ipc.Event{}, nil, io.EOF
	}
	if err != nil {
		return ipc.Event{}, nil, fmt.Errorf("flight: receive: %w", err)
	}
	rr.n++
	if fd.FlightDescriptor != nil && rr.desc == nil {
		rr.desc = fd.FlightDescriptor
	}
	if len(fd.DataHeader) == 0 {
		if len(fd.DataBody) > 0 {
			return ipc.Event{}, nil, fmt.Errorf("flight: message %d: a body of %d bytes without a data header: %w", rr.n, len(fd.DataBody), ipc.ErrInvalid)
		}
		if fd.AppMetadata == nil {
			fd.AppMetadata = []byte{}
		}
		return ipc.Event{}, fd.AppMetadata, nil
	}
	if int64(len(fd.DataBody)) > rr.limits.MaxBodySize {
		return ipc.Event{}, nil, fmt.Errorf("flight: message %d: a body of %d bytes exceeds the limit of %d: %w", rr.n, len(fd.DataBody), rr.limits.MaxBodySize, ipc.ErrLimit)
	}
	msg, err := ipc.NewMessage(fd.DataHeader, memory.NewBuffer(fd.DataBody), rr.limits)
	if err != nil {
		return ipc.Event{}, nil, fmt.Errorf("flight: message %d: %w", rr.n, err)
	}
	ev, err := rr.dec.DecodeMessage(msg)
	if err != nil {
		return ipc.Event{}, nil, fmt.Errorf("flight: message %d (%s): %w", rr.n, msg.Type(), err)
	}
	return ev, fd.AppMetadata, nil
}

// Schema is the stream's schema.
func (rr *RecordReader) Schema() *alkaid.Schema { return rr.dec.Schema() }

// Descriptor is the descriptor the peer sent with its first message, or
// nil.
func (rr *RecordReader) Descriptor() *FlightDescriptor { return rr.desc }

// Records yields the stream's record batches in order. An error that
// ends the stream is yielded once, with a nil record; a second call
// yields an error, as the stream can be read once.
func (rr *RecordReader) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		switch {
		case rr.closed:
			yield(nil, fmt.Errorf("flight: record reader used after Close: %w", ipc.ErrInvalid))
			return
		case rr.used:
			yield(nil, fmt.Errorf("flight: records iterated twice: a stream can be read once: %w", ipc.ErrInvalid))
			return
		}
		rr.used = true
		for {
			rec, err := rr.read()
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

// read reads up to the next record batch; io.EOF at the end of the
// stream, when the messages without data after the last batch become
// MetadataMessages.
func (rr *RecordReader) read() (*alkaid.Record, error) {
	rr.app, rr.before = nil, nil
	for {
		ev, app, err := rr.next()
		switch {
		case err == io.EOF:
			rr.before, rr.pending, rr.pendingN = rr.pending, nil, 0
			return nil, io.EOF
		case err != nil:
			return nil, err
		case ev.Kind == ipc.EventRecord:
			rr.app = app
			rr.before, rr.pending, rr.pendingN = rr.pending, nil, 0
			return ev.Record, nil
		case ev.Kind == ipc.EventSchema:
			return nil, fmt.Errorf("flight: message %d: a second schema: %w", rr.n, ipc.ErrInvalid)
		case ev.Kind == 0 && app != nil:
			if err := rr.hold(app); err != nil {
				return nil, err
			}
		}
	}
}

// AppMetadata is the app metadata sent with the record batch Records
// yielded last, or nil.
func (rr *RecordReader) AppMetadata() []byte { return rr.app }

// MetadataMessages is the app metadata of the messages without data that
// came before the record batch Records yielded last (after the batch
// before it), in order; once Records has ended, those that came after
// the last batch.
func (rr *RecordReader) MetadataMessages() [][]byte { return rr.before }

// Close ends the call when the reader opened it itself ([Client.Get]):
// a transfer not read to its end is cancelled. It never closes a
// DataReceiver passed to [NewRecordReader]. Batches already yielded stay
// valid.
func (rr *RecordReader) Close() error {
	rr.closed = true
	if rr.cancel != nil {
		rr.cancel()
		rr.cancel = nil
	}
	return nil
}
