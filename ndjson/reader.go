package ndjson

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"sync/atomic"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/chunkpipe"
	"github.com/alkaid-go/alkaid/internal/textval"
)

// Reader reads newline-delimited JSON into record batches. Create it with
// NewReader, then range over Records once.
type Reader struct {
	cfg      readerConfig
	in       io.Reader
	src      *lines
	start    int64
	schema   *alkaid.Schema
	consumed atomic.Int64
	used     bool
}

// lines holds bytes read but not yet handed out; chunks are slices of
// buffers never written again.
type lines struct {
	r     io.Reader
	pend  []byte
	eof   bool
	line  int
	block int
}

func (s *lines) fill() error {
	if s.eof {
		return nil
	}
	buf := make([]byte, len(s.pend), len(s.pend)+max(s.block, 2*len(s.pend)))
	copy(buf, s.pend)
	for len(buf) < cap(buf) {
		m, err := s.r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			s.eof = true
			break
		}
		if err != nil {
			return fmt.Errorf("ndjson: reading: %w", err)
		}
	}
	s.pend = buf
	return nil
}

// cut returns the end of the n-th line of pend, and how many it found.
func (s *lines) cut(n int) (int, int) {
	pos, found := 0, 0
	for found < n && pos < len(s.pend) {
		i := bytes.IndexByte(s.pend[pos:], '\n')
		if i < 0 {
			if !s.eof {
				break
			}
			i = len(s.pend) - pos - 1
		}
		pos += i + 1
		found++
	}
	return pos, found
}

// next returns the next n lines (fewer at EOF) and the first's number.
func (s *lines) next(n int, consume bool) ([]byte, int, error) {
	for {
		end, found := s.cut(n)
		if found == n || s.eof {
			if end == 0 {
				return nil, 0, io.EOF
			}
			chunk, line := s.pend[:end:end], s.line
			if consume {
				s.line += found
				s.pend = s.pend[end:]
			}
			return chunk, line, nil
		}
		if err := s.fill(); err != nil {
			return nil, 0, err
		}
	}
}

// eachLine calls f with each non-blank line of chunk and its number.
func eachLine(chunk []byte, line int, f func(b []byte, line int) error) error {
	for len(chunk) > 0 {
		i := bytes.IndexByte(chunk, '\n')
		var b []byte
		if i < 0 {
			b, chunk = chunk, nil
		} else {
			b, chunk = chunk[:i], chunk[i+1:]
		}
		if len(bytes.TrimSpace(b)) > 0 {
			if err := f(b, line); err != nil {
				return err
			}
		}
		line++
	}
	return nil
}

// NewReader reads (without a schema) the inference sample of r and
// returns a Reader of the whole input.
func NewReader(r io.Reader, opts ...ReaderOption) (*Reader, error) {
	cfg := defaultReaderConfig()
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.batchRows <= 0 || cfg.inferRows <= 0 {
		return nil, fmt.Errorf("ndjson: %w: batch size and infer rows must be positive", ErrNotSupported)
	}
	cfg.concurrency = max(cfg.concurrency, 1)
	cfg.blockSize = max(cfg.blockSize, 1)
	rd := &Reader{cfg: cfg, in: r}
	if cfg.inferAll {
		sk, ok := r.(io.Seeker)
		if !ok {
			return nil, fmt.Errorf("ndjson: %w: WithInferAll needs an io.Seeker input", ErrNotSupported)
		}
		pos, err := sk.Seek(0, io.SeekCurrent)
		if err != nil {
			return nil, fmt.Errorf("ndjson: WithInferAll: %w", err)
		}
		rd.start = pos
	}
	rd.reset()
	schema := cfg.schema
	if schema == nil {
		s, err := rd.infer()
		if err != nil {
			return nil, err
		}
		schema = s
	}
	if len(cfg.columns) > 0 {
		var fields []datatype.Field
		var missing []string
		for _, n := range cfg.columns {
			i := schema.FieldIndex(n)
			if i < 0 {
				missing = append(missing, fmt.Sprintf("%q", n))
				continue
			}
			fields = append(fields, schema.Field(i))
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("ndjson: %w: columns not in the schema: %v", ErrInvalid, missing)
		}
		schema = alkaid.NewSchema(fields, schema.Metadata())
	}
	for i := range schema.NumFields() {
		f := schema.Field(i)
		if err := supported(f.Type); err != nil {
			return nil, fmt.Errorf("ndjson: %w: field %q: %v", ErrNotSupported, f.Name, err)
		}
	}
	rd.schema = schema
	return rd, nil
}

func (rd *Reader) reset() {
	rd.src = &lines{r: rd.in, line: 1, block: rd.cfg.blockSize}
}

func (rd *Reader) infer() (*alkaid.Schema, error) {
	root := newInode("", &textval.Inferrer{Layouts: rd.cfg.layouts, TrimSpace: rd.cfg.trimSpace})
	if len(rd.cfg.columns) > 0 {
		root.keep = func(key string) bool {
			for _, c := range rd.cfg.columns {
				if c == key {
					return true
				}
			}
			return false
		}
	}
	var lx lexer
	observe := func(chunk []byte, first int) error {
		return eachLine(chunk, first, func(b []byte, line int) error {
			lx.b, lx.pos = b, 0
			if lx.peek() != '{' {
				return fmt.Errorf("ndjson: %w: line %d: want a JSON object", ErrInvalid, line)
			}
			if err := root.observe(&lx, line, 0); err != nil {
				return fmt.Errorf("ndjson: %w: line %d: %v", ErrInvalid, line, err)
			}
			if lx.peek() != 0 {
				return fmt.Errorf("ndjson: %w: line %d: %v", ErrInvalid, line, lx.errf("text after the object"))
			}
			return nil
		})
	}
	if rd.cfg.inferAll {
		for {
			chunk, line, err := rd.src.next(rd.cfg.batchRows, true)
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			if err := observe(chunk, line); err != nil {
				return nil, err
			}
		}
		if _, err := rd.in.(io.Seeker).Seek(rd.start, io.SeekStart); err != nil {
			return nil, fmt.Errorf("ndjson: WithInferAll: %w", err)
		}
		rd.reset()
	} else {
		chunk, line, err := rd.src.next(rd.cfg.inferRows, false)
		if err != nil && err != io.EOF {
			return nil, err
		}
		if err := observe(chunk, line); err != nil {
			return nil, err
		}
	}
	t, err := root.typ()
	if err != nil {
		return nil, err
	}
	st, ok := t.(*datatype.StructType)
	if !ok {
		return alkaid.NewSchema(nil, datatype.Metadata{}), nil
	}
	return alkaid.NewSchema(st.Fields(), datatype.Metadata{}), nil
}

// Schema is the schema of the records.
func (rd *Reader) Schema() *alkaid.Schema { return rd.schema }

// Offset is how many bytes of the input were handed to parsing so far.
func (rd *Reader) Offset() int64 { return rd.consumed.Load() }

// parse turns a chunk of lines into a record.
func (rd *Reader) parse(chunk []byte, first int) (*alkaid.Record, error) {
	opts := &textval.Options{Layouts: rd.cfg.layouts, TrimSpace: rd.cfg.trimSpace}
	n := rd.schema.NumFields()
	root := &col{path: "", names: make([]string, n), kids: make([]*col, n)}
	builders := make([]array.Builder, n)
	for i := range n {
		f := rd.schema.Field(i)
		b, err := array.TryNewBuilder(f.Type)
		if err != nil {
			return nil, fmt.Errorf("ndjson: %w: field %q: %v", ErrNotSupported, f.Name, err)
		}
		b.Reserve(rd.cfg.batchRows)
		c, err := newCol(b, f.Name, f.Nullable, opts)
		if err != nil {
			return nil, err
		}
		builders[i], root.kids[i], root.names[i] = b, c, f.Name
	}
	rows := 0
	var lx lexer
	err := eachLine(chunk, first, func(b []byte, line int) error {
		lx.b, lx.pos = b, 0
		if lx.peek() != '{' {
			return fmt.Errorf("ndjson: %w: line %d: want a JSON object", ErrInvalid, line)
		}
		if err := root.object(&lx, 0, len(rd.cfg.columns) > 0); err != nil {
			return fmt.Errorf("ndjson: %w: line %d: %w", ErrInvalid, line, err)
		}
		if lx.peek() != 0 {
			return fmt.Errorf("ndjson: %w: line %d: %v", ErrInvalid, line, lx.errf("text after the object"))
		}
		rows++
		return nil
	})
	if err != nil {
		return nil, err
	}
	cols := make([]array.Array, n)
	for i, b := range builders {
		cols[i] = b.NewArray()
	}
	rec, err := alkaid.NewRecord(rd.schema, cols, rows)
	if err != nil {
		return nil, fmt.Errorf("ndjson: %w", err)
	}
	return rec, nil
}

// Records yields the record batches in input order; an error is yielded
// once, last. Records can be ranged over once.
func (rd *Reader) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		if rd.used {
			yield(nil, errors.New("ndjson: Records was already ranged over"))
			return
		}
		rd.used = true
		pipe := chunkpipe.Pipeline[*alkaid.Record]{
			Workers: rd.cfg.concurrency,
			Next:    func() ([]byte, int, error) { return rd.src.next(rd.cfg.batchRows, true) },
			Parse:   rd.parse,
			Skip:    func(rec *alkaid.Record) bool { return rec.NumRows() == 0 },
			Cut:     func(n int) { rd.consumed.Add(int64(n)) },
		}
		pipe.Run()(yield)
	}
}
