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
// for concurrent use.
type RecordWriter struct {
	s          DataSender
	ms         msgSender // s, when its codec takes outData
	enc        *ipc.MessageEncoder
	optErr     error // an invalid option, returned by the first write
	desc       *FlightDescriptor
	schemaSent bool
	maxMsg     int // the largest FlightData sent, in bytes
	records    int // records written, to name one in errors
}

// NewRecordWriter returns a writer of records of schema to s. Options are
// the ipc writer's (compression, alignment, dictionary deltas, Arrow
// compatibility). Nothing is sent before the first write. Messages are
// kept to [DefaultMaxSendSize] bytes, or to the size set on the server
// ([WithServerMaxSendSize]) or the client ([WithMaxSendSize]) whose
// stream s is; see [RecordWriter.SetMaxMessageSize]. An invalid option
// is returned by the first write.
func NewRecordWriter(s DataSender, schema *alkaid.Schema, opts ...ipc.Option) *RecordWriter {
	enc, err := ipc.NewMessageEncoder(schema, opts...)
	w := &RecordWriter{s: s, enc: enc, optErr: err, maxMsg: DefaultMaxSendSize}
	if cs, ok := s.(interface{ Context() context.Context }); ok {
		if n := sendLimit(cs.Context()); n > 0 {
			w.maxMsg = n
		}
	}
	if ms, ok := s.(msgSender); ok && hasOurCodec(ms.Context()) {
		w.ms = ms
	}
	return w
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
	if w.optErr != nil {
		return fmt.Errorf("flight: %w", w.optErr)
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
// read by the gRPC receive limit ([WithMaxMessageSize]). It is not safe
// for concurrent use.
type RecordReader struct {
	r      DataReceiver
	dec    *ipc.Decoder
	limits ipc.Limits
	desc   *FlightDescriptor
	rec    *alkaid.Record
	app    []byte
	err    error
	n      int // messages read
	// a metadata-only message read before the schema, handed out first
	early [][]byte
}

// NewRecordReader reads from r until the schema message (app metadata of
// messages before it is kept and returned first by Next). Options are the
// ipc reader's: validation level, limits.
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
			rr.early = append(rr.early, app)
		}
	}
	return rr, nil
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

// Next reads up to the next record batch, or the next message that
// carries app metadata and no data (then Record is nil). It returns false
// at the end of the stream or on error (see Err).
func (rr *RecordReader) Next() bool {
	rr.rec, rr.app = nil, nil
	if len(rr.early) > 0 {
		rr.app, rr.early = rr.early[0], rr.early[1:]
		return true
	}
	if rr.err != nil {
		return false
	}
	for {
		ev, app, err := rr.next()
		if err != nil {
			if err != io.EOF {
				rr.err = err
			}
			return false
		}
		switch {
		case ev.Kind == ipc.EventRecord:
			rr.rec, rr.app = ev.Record, app
			return true
		case ev.Kind == ipc.EventSchema:
			rr.err = fmt.Errorf("flight: message %d: a second schema: %w", rr.n, ipc.ErrInvalid)
			return false
		case ev.Kind == 0 && app != nil:
			rr.app = app
			return true
		}
	}
}

// Record is the record read by the last Next, or nil.
func (rr *RecordReader) Record() *alkaid.Record { return rr.rec }

// AppMetadata is the app metadata of the message read by the last Next.
func (rr *RecordReader) AppMetadata() []byte { return rr.app }

// Err is the error that stopped Next, or nil at a clean end.
func (rr *RecordReader) Err() error { return rr.err }

// Records iterates over the records (messages without data are skipped),
// with the same shape as the ipc readers' Records: an error that ends the
// stream is yielded once, with a nil record, and ends the iteration.
func (rr *RecordReader) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		for rr.Next() {
			if rr.rec != nil && !yield(rr.rec, nil) {
				return
			}
		}
		if rr.err != nil {
			yield(nil, rr.err)
		}
	}
}

// ReadAll reads every remaining record.
func (rr *RecordReader) ReadAll() ([]*alkaid.Record, error) {
	var out []*alkaid.Record
	for rec, err := range rr.Records() {
		if err != nil {
			return out, err
		}
		out = append(out, rec)
	}
	return out, nil
}
