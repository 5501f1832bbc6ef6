package ipc

import (
	"fmt"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	fb "github.com/alkaid-go/alkaid/internal/flatbuf"
	"github.com/alkaid-go/alkaid/memory"
)

// EventKind says what a [Decoder] produced.
type EventKind uint8

// The decoder events.
const (
	EventSchema     EventKind = iota + 1 // the stream's schema
	EventDictionary                      // a dictionary batch was applied
	EventRecord                          // a record batch
	EventEnd                             // the end-of-stream marker
)

// Event is one step of decoding.
type Event struct {
	Kind   EventKind
	Schema *alkaid.Schema    // EventSchema
	Record *alkaid.Record    // EventRecord
	DictID int64             // EventDictionary
	Delta  bool              // EventDictionary: the batch extended the dictionary
	Meta   map[string]string // the message's custom metadata, if any
}

// Decoder turns IPC messages into schemas, dictionaries and records. It
// does no I/O: feed it bytes with [Decoder.Write] and pull events with
// [Decoder.Next], or hand it whole messages with [Decoder.DecodeMessage]
// (the stream and file readers do). Next tells apart "need more bytes"
// ([ErrNeedMore]), corrupt input ([ErrInvalid]), unsupported input
// ([ErrNotSupported]) and the end of the stream ([EventEnd]). A Decoder is
// not safe for concurrent use.
type Decoder struct {
	cfg     readerConfig
	pending []byte // bytes fed and not yet consumed
	// the message at the head of pending, once its metadata is verified:
	// the bytes it needs, and where its metadata and body start
	need, metaAt, bodyAt int
	info                 *schemaInfo
	dicts                map[int64]*array.Data
	grown                map[int64]*array.Growable // dictionaries that deltas extend in place
	// replaced counts the replacements of each dictionary: the
	// generation of a nested dictionary, for the dictionaries that hold
	// indices into it
	replaced map[int64]uint64
	batches  int
	ended    bool
	spent    ratioSpent // what the stream expanded to so far
	// file is set by the file reader: dictionary replacement is refused.
	file      bool
	bigEndian bool
	proj      *projection // the columns read (see WithColumns); nil: all
}

// NewDecoder returns a decoder expecting a schema message first. It takes
// the reader options; any other option is an error.
func NewDecoder(opts ...Option) (*Decoder, error) {
	cfg, err := newReaderConfig(opts)
	if err != nil {
		return nil, err
	}
	return newDecoder(cfg), nil
}

func newDecoder(cfg readerConfig) *Decoder {
	return &Decoder{cfg: cfg, dicts: map[int64]*array.Data{}}
}

// newFileDecoder returns the decoder of the file reader, which refuses
// to replace a dictionary.
func newFileDecoder(cfg readerConfig) *Decoder {
	d := newDecoder(cfg)
	d.file = true
	return d
}

// Schema is the decoded schema, or nil before the schema message.
func (d *Decoder) Schema() *alkaid.Schema {
	if d.info == nil {
		return nil
	}
	if d.proj != nil {
		return d.proj.schema
	}
	return d.info.schema
}

// Write feeds bytes to the decoder; it keeps a copy. It never fails.
func (d *Decoder) Write(p []byte) (int, error) {
	d.pending = append(d.pending, p...)
	return len(p), nil
}

// Buffered is the number of fed bytes not yet decoded.
func (d *Decoder) Buffered() int { return len(d.pending) }

// Next decodes the next message from the bytes fed so far. It returns
// [ErrNeedMore] (wrapped) when they hold no complete message; feed more and
// call again. After [EventEnd] it keeps returning EventEnd.
func (d *Decoder) Next() (Event, error) {
	if d.ended {
		return Event{Kind: EventEnd}, nil
	}
	p := d.pending
	if d.need == 0 {
		// Else the message's metadata is verified already and only its
		// body is still arriving: do not verify it again for every write.
		hdr, size, err := parsePrefix(p, d.cfg.limits)
		if err != nil {
			return Event{}, err
		}
		if hdr == 0 {
			return Event{}, fmt.Errorf("%w: %d bytes buffered", ErrNeedMore, len(p))
		}
		if size == 0 {
			d.pending = p[hdr:]
			d.ended = true
			return Event{Kind: EventEnd}, nil
		}
		if len(p) < hdr+size {
			return Event{}, fmt.Errorf("%w: metadata needs %d bytes, %d buffered", ErrNeedMore, hdr+size, len(p))
		}
		_, bodyLen, err := checkMetadata(p[hdr:hdr+size], d.cfg.limits)
		if err != nil {
			return Event{}, err
		}
		d.metaAt, d.bodyAt, d.need = hdr, hdr+size, hdr+size+int(bodyLen)
	}
	if len(p) < d.need {
		return Event{}, fmt.Errorf("%w: message needs %d bytes, %d buffered", ErrNeedMore, d.need, len(p))
	}
	// The message keeps the bytes Write copied in, without another copy:
	// later writes append past them, never over them.
	end := d.need
	meta := p[d.metaAt:d.bodyAt:d.bodyAt]
	msg := &Message{meta: meta, msg: fb.GetRootAsMessage(meta, 0), body: memory.NewBuffer(p[d.bodyAt:end:end])}
	d.need = 0
	d.pending = p[end:]
	if len(d.pending) == 0 {
		d.pending = nil
	}
	return d.DecodeMessage(msg)
}

// DecodeMessage interprets one message: the schema first, then
// dictionary and record batches.
func (d *Decoder) DecodeMessage(m *Message) (Event, error) {
	if m.Version() < 4 {
		return Event{}, unsupportedf("metadata version V%d (V4 and V5 are read)", m.Version())
	}
	ev := Event{Meta: m.CustomMetadata()}
	var tbl flatbuffers.Table
	switch m.Type() {
	case MessageSchema:
		if d.info != nil {
			return Event{}, invalidf("a second schema message")
		}
		info, err := messageSchema(m, d.cfg.limits)
		if err != nil {
			return Event{}, err
		}
		if err := d.setSchema(info); err != nil {
			return Event{}, err
		}
		ev.Kind, ev.Schema = EventSchema, info.schema
		return ev, nil
	case MessageDictionaryBatch:
		if d.info == nil {
			return Event{}, invalidf("dictionary batch before the schema")
		}
		if !m.header(&tbl) {
			return Event{}, invalidf("dictionary batch without a header")
		}
		var db fb.DictionaryBatch
		db.Init(tbl.Bytes, tbl.Pos)
		id, delta, err := d.applyDictionary(&db, m)
		if err != nil {
			return Event{}, err
		}
		ev.Kind, ev.DictID, ev.Delta = EventDictionary, id, delta
		return ev, nil
	case MessageRecordBatch:
		if d.info == nil {
			return Event{}, invalidf("record batch before the schema")
		}
		if !m.header(&tbl) {
			return Event{}, invalidf("record batch message without a header")
		}
		var rb fb.RecordBatch
		rb.Init(tbl.Bytes, tbl.Pos)
		rec, err := d.record(&rb, m, place{n: int64(d.batches)}, d.ratioSpent())
		if err != nil {
			return Event{}, err
		}
		d.batches++
		ev.Kind, ev.Record = EventRecord, rec
		return ev, nil
	case MessageTensor, MessageSparseTensor:
		return Event{}, unsupportedf("%s messages", m.Type())
	}
	return Event{}, invalidf("message of unknown type %d", m.msg.HeaderType())
}

// DecodeRecordAt decodes record batch message m as the batch at index i
// (which errors name) of input read in any order, as a file is read
// through its footer. It leaves the decoder as it is, so calls may run
// concurrently with each other, but not with [Decoder.DecodeMessage] or
// [Decoder.Next]. Dictionaries and the schema come from the messages
// decoded before.
func (d *Decoder) DecodeRecordAt(m *Message, i int) (*alkaid.Record, error) {
	if d.info == nil {
		return nil, invalidf("record batch before the schema")
	}
	if m.Type() != MessageRecordBatch {
		return nil, invalidf("record batch %d: a %s message", i, m.Type())
	}
	var tbl flatbuffers.Table
	if !m.header(&tbl) {
		return nil, invalidf("record batch %d: message without a header", i)
	}
	var rb fb.RecordBatch
	rb.Init(tbl.Bytes, tbl.Pos)
	return d.record(&rb, m, place{n: int64(i)}, nil)
}

// messageSchema reads the schema a schema message carries.
func messageSchema(m *Message, limits Limits) (*schemaInfo, error) {
	var tbl flatbuffers.Table
	if !m.header(&tbl) {
		return nil, invalidf("schema message without a header")
	}
	var s fb.Schema
	s.Init(tbl.Bytes, tbl.Pos)
	return readSchema(&s, limits)
}

// setSchema adopts a decoded schema. Big-endian data is swapped to native
// order as it is read, so the schema handed out says little-endian (it
// describes the arrays returned); the data's own order is kept apart.
func (d *Decoder) setSchema(info *schemaInfo) error {
	if info.schema.Endianness() == alkaid.BigEndian {
		if d.cfg.refuseSwap {
			return unsupportedf("big-endian data (byte swapping was turned off)")
		}
		d.bigEndian = true
		info.schema = info.schema.WithEndianness(alkaid.LittleEndian)
	}
	proj, err := newProjection(info, &d.cfg)
	if err != nil {
		return err
	}
	d.info, d.proj = info, proj
	return nil
}

// ratioSpent is where a stream counts what it expanded to; nil for the
// file reader, whose batches are read in any order, on any goroutine
// (each message is still bounded by the ratio on its own).
func (d *Decoder) ratioSpent() *ratioSpent {
	if d.file {
		return nil
	}
	return &d.spent
}

// SourceBigEndian reports whether the data was big-endian on the wire
// (and is swapped to native order as it is read).
func (d *Decoder) SourceBigEndian() bool { return d.bigEndian }

func (d *Decoder) swap() bool { return d.bigEndian }

// record decodes a record batch; spent is where the stream counts what it
// expanded to (nil: the message is bounded by the ratio on its own).
func (d *Decoder) record(rb *fb.RecordBatch, m *Message, where place, spent *ratioSpent) (*alkaid.Record, error) {
	l, err := newLoader(rb, m, d.proj, d.info, d.dicts, &d.cfg, d.swap(), where, spent)
	if err != nil {
		return nil, err
	}
	n := rb.Length()
	if n < 0 || n > maxArrayLen {
		return nil, invalidf("%s: length %d", where, n)
	}
	if n > d.cfg.limits.MaxRows {
		return nil, limitf("%s: length %d (limit %d rows)", where, n, d.cfg.limits.MaxRows)
	}
	s := d.info.schema
	cols := make([]array.Array, 0, s.NumFields())
	for i := range s.NumFields() {
		f := s.Field(i)
		if d.proj != nil && !d.proj.keep[i] {
			if err := l.skipField(f.Type, 1); err != nil {
				return nil, err
			}
			continue
		}
		data, err := l.loadField(f.Type, 1)
		if err != nil {
			return nil, err
		}
		if data.Length != int(n) {
			return nil, invalidf("%s: column %d (%s) has %d rows, the batch %d", where, i, f.Name, data.Length, n)
		}
		a, err := d.check(data, where, i, f.Name)
		if err != nil {
			return nil, err
		}
		cols = append(cols, a)
	}
	if err := l.done(); err != nil {
		return nil, err
	}
	if d.proj != nil {
		s = d.proj.schema
	}
	rec, err := alkaid.NewRecord(s, cols, int(n))
	if err != nil {
		return nil, invalidf("%s: %v", where, err)
	}
	return rec, nil
}

// place names the message being decoded in errors. It is formatted only
// when an error is reported, so that decoding builds no strings.
type place struct {
	dict bool  // a dictionary batch (n is its id), else a record batch (n is its index)
	n    int64 // the batch's index or dictionary id
}

func (p place) String() string {
	if p.dict {
		return fmt.Sprintf("dictionary batch (id %d)", p.n)
	}
	return fmt.Sprintf("record batch %d", p.n)
}

// check validates data (column col, named name, of the batch at where; col
// -1 for a dictionary's values) at the configured level and makes the array.
func (d *Decoder) check(data *array.Data, where place, col int, name string) (array.Array, error) {
	// Dictionaries were checked at this level when they arrived (their
	// values by applyDictionary); a batch checks only its indices into
	// them, so that n batches over a dictionary do not check it n times.
	a, err := array.MakeWith(data, array.ValidationOptions{Level: d.cfg.validation, DictionariesValidated: true, Skip: d.cfg.skipChecks})
	if err != nil {
		// Wrap both: the caller may branch on ipc.ErrInvalid or on the
		// array's *ValidationError.
		if col >= 0 {
			return nil, fmt.Errorf("ipc: %w: %s: column %d (%s): %w", ErrInvalid, where, col, name, err)
		}
		return nil, fmt.Errorf("ipc: %w: %s: %w", ErrInvalid, where, err)
	}
	return a, nil
}

func (d *Decoder) applyDictionary(db *fb.DictionaryBatch, m *Message) (int64, bool, error) {
	id := db.Id()
	where := place{dict: true, n: id}
	dt, ok := d.info.dictType[id]
	if !ok {
		return 0, false, invalidf("%s: no field of the schema uses this id", where)
	}
	if !d.proj.wantsDict(id) {
		return id, db.IsDelta(), nil // only columns not read use it
	}
	rb := db.Data(nil)
	if rb == nil {
		return 0, false, invalidf("%s: no data", where)
	}
	l, err := newLoader(rb, m, nil, d.info, d.dicts, &d.cfg, d.swap(), where, d.ratioSpent())
	if err != nil {
		return 0, false, err
	}
	values, err := l.loadField(dt.Value, 1)
	if err != nil {
		return 0, false, err
	}
	if err := l.done(); err != nil {
		return 0, false, err
	}
	if int64(values.Length) != rb.Length() {
		return 0, false, invalidf("%s: %d values, the batch says %d", where, values.Length, rb.Length())
	}
	if _, err := d.check(values, where, -1, ""); err != nil {
		return 0, false, err
	}
	old, had := d.dicts[id]
	switch {
	case db.IsDelta() && had:
		if grown, ok := d.growDictionary(id, old, values); ok {
			values = grown
			break
		}
		delete(d.grown, id)
		merged, err := array.Concatenate(array.MustMake(old), array.MustMake(values))
		if err != nil {
			return 0, false, invalidf("%s: delta: %v", where, err)
		}
		values = merged.Data()
	case db.IsDelta():
		return 0, false, invalidf("%s: a delta for a dictionary that was never defined", where)
	case had && d.file:
		return 0, false, invalidf("%s: the file format does not allow replacing a dictionary", where)
	default:
		delete(d.grown, id)
		if had {
			if d.replaced == nil {
				d.replaced = map[int64]uint64{}
			}
			d.replaced[id]++
		}
	}
	d.dicts[id] = values
	return id, db.IsDelta(), nil
}

// growDictionary appends a delta to the dictionary id in place (see
// array.GrowFrom), false when it does not grow that way (then the caller
// concatenates).
func (d *Decoder) growDictionary(id int64, old, delta *array.Data) (*array.Data, bool) {
	g := d.grown[id]
	if g == nil {
		var err error
		if g, err = array.GrowFrom(old, d.generation); err != nil {
			return nil, false
		}
	}
	if g.Append(delta) != nil {
		return nil, false
	}
	grown, err := g.Finish()
	if err != nil {
		return nil, false
	}
	if d.grown == nil {
		d.grown = map[int64]*array.Growable{}
	}
	d.grown[id] = g
	return grown, true
}

// generation is the number of times the dictionary that the indices of
// dictionary-encoded values a refer to was replaced.
func (d *Decoder) generation(a *array.Data) uint64 {
	dt, _ := a.Type.(*datatype.DictionaryType)
	id, ok := d.info.dictID[dt]
	if !ok {
		return ^uint64(0) // not of this schema: never equal to a real one twice
	}
	return d.replaced[id]
}
