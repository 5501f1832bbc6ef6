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
	cfg       readerConfig
	in        io.Reader
	src       *lines
	start     int64
	schema    *alkaid.Schema
	chunkRows int // the most lines of a chunk
	cells     int // the values of a row: fields, nested ones included
	consumed  atomic.Int64
	used      bool
}

// lines cuts the input into chunks of whole lines.
type lines struct {
	buf  chunkpipe.Buffer
	line int // the number of buf.Pend's first line
}

// through reads until the next n lines, or those through stop bytes,
// are in the buffer, and returns their end and count. A line longer than
// the limit is an error naming it.
func (s *lines) through(n, stop int) (int, int, error) {
	for {
		b := s.buf.Pend
		pos, found := 0, 0
		for found < n && pos < stop && pos < len(b) {
			i := bytes.IndexByte(b[pos:], '\n')
			if i < 0 {
				if !s.buf.EOF {
					break
				}
				i = len(b) - pos - 1
			}
			if i+1 > s.buf.Max {
				return 0, 0, s.tooLong(found)
			}
			pos += i + 1
			found++
		}
		if found == n || pos >= stop || s.buf.EOF {
			return pos, found, nil
		}
		if len(b)-pos > s.buf.Max {
			return 0, 0, s.tooLong(found)
		}
		if err := s.buf.Fill(); err != nil {
			return 0, 0, fmt.Errorf("ndjson: reading: %w", err)
		}
	}
}

func (s *lines) tooLong(k int) error {
	return fmt.Errorf("ndjson: %w: line %d: longer than %d bytes (Limits.MaxLineBytes raises the limit)", ErrLimit, s.line+k, s.buf.Max)
}

// next returns the next n lines (fewer at EOF, or past
// chunkpipe.ChunkBytes) and the first's number.
func (s *lines) next(n int) ([]byte, int, error) {
	end, found, err := s.through(n, chunkpipe.ChunkBytes)
	if err != nil {
		return nil, 0, err
	}
	if end == 0 {
		return nil, 0, io.EOF
	}
	line := s.line
	s.line += found
	return s.buf.Take(end), line, nil
}

// peek returns the next n lines (fewer at EOF, or past the line limit in
// bytes) without consuming them.
func (s *lines) peek(n int) ([]byte, int, error) {
	end, _, err := s.through(n, s.buf.Max)
	if err != nil {
		return nil, 0, err
	}
	return s.buf.Pend[:end:end], s.line, nil
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
// returns a Reader of the whole input. A bad option (or a Writer's) is an
// error naming it.
func NewReader(r io.Reader, opts ...Option) (*Reader, error) {
	cfg, err := readerOptions(opts)
	if err != nil {
		return nil, err
	}
	rd := &Reader{cfg: cfg, in: r}
	if cfg.inferAll {
		sk, ok := r.(io.Seeker)
		if !ok {
			return nil, fmt.Errorf("ndjson: %w: WithInferAll needs an io.Seeker input", ErrNotSupported)
		}
		pos, err := sk.Seek(0, io.SeekCurrent)
		if err != nil {
			return nil, fmt.Errorf("ndjson: WithInferAll: seeking the input: %w", err)
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
	rd.cells = max(1, countFields(schema.Fields()))
	rd.chunkRows = min(cfg.batchRows, max(1, maxCells/rd.cells))
	return rd, nil
}

// maxCells bounds the values of a batch (rows × fields), so that lines
// of a few bytes cannot make a wide schema's batch big: each row holds a
// value or a null for every field.
const maxCells = 1 << 22

// countFields counts fs and the fields nested in them.
func countFields(fs []datatype.Field) int {
	n := len(fs)
	for _, f := range fs {
		switch t := f.Type.(type) {
		case *datatype.StructType:
			n += countFields(t.Fields())
		case *datatype.ListType:
			n += countFields([]datatype.Field{t.Elem()})
		}
	}
	return n
}

func (rd *Reader) reset() {
	rd.src = &lines{buf: chunkpipe.Buffer{R: rd.in, Block: rd.cfg.blockSize, Max: rd.cfg.limits.MaxLineBytes}, line: 1}
}

func (rd *Reader) infer() (*alkaid.Schema, error) {
	root := newInode("", &textval.Inferrer{Layouts: rd.cfg.layouts, TrimSpace: rd.cfg.trimSpace}, &fieldCount{max: rd.cfg.limits.MaxFields})
	if len(rd.cfg.columns) > 0 {
		keep := make(map[string]bool, len(rd.cfg.columns))
		for _, c := range rd.cfg.columns {
			keep[c] = true
		}
		root.keep = func(key string) bool { return keep[key] }
	}
	var lx lexer
	observe := func(chunk []byte, first int) error {
		return eachLine(chunk, first, func(b []byte, line int) error {
			lx.b, lx.pos = b, 0
			if lx.peek() != '{' {
				return fmt.Errorf("ndjson: %w: line %d: want a JSON object", ErrInvalid, line)
			}
			if err := root.observe(&lx, line, 0); err != nil {
				kind := ErrInvalid
				if errors.As(err, new(fieldLimitError)) {
					kind = ErrLimit
				}
				return fmt.Errorf("ndjson: %w: line %d: %v", kind, line, err)
			}
			if lx.peek() != 0 {
				return fmt.Errorf("ndjson: %w: line %d: %v", ErrInvalid, line, lx.errf("text after the object"))
			}
			return nil
		})
	}
	if rd.cfg.inferAll {
		for {
			chunk, line, err := rd.src.next(rd.cfg.batchRows)
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
			return nil, fmt.Errorf("ndjson: WithInferAll: seeking the input: %w", err)
		}
		rd.reset()
	} else {
		chunk, line, err := rd.src.peek(rd.cfg.inferRows)
		if err != nil {
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
	// Reserve for the lines there are, not the batch size: a short input
	// with many keys must not reserve batch-size rows for each. A chunk
	// of at least a byte per value of a full batch needs no counting.
	rows := rd.chunkRows
	if len(chunk) < rows*rd.cells {
		rows = min(rows, bytes.Count(chunk, []byte{'\n'})+1)
	}
	for i := range n {
		f := rd.schema.Field(i)
		b, err := array.TryNewBuilder(f.Type)
		if err != nil {
			return nil, fmt.Errorf("ndjson: %w: field %q: %v", ErrNotSupported, f.Name, err)
		}
		b.Reserve(rows)
		c, err := newCol(b, f.Name, f.Nullable, opts)
		if err != nil {
			return nil, err
		}
		builders[i], root.kids[i], root.names[i] = b, c, f.Name
	}
	root.indexNames()
	rows = 0
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
// once, last: the one a serial read would meet first, whatever the
// concurrency. Records can be ranged over once; breaking out of the loop
// stops the goroutines.
func (rd *Reader) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		if rd.used {
			yield(nil, fmt.Errorf("ndjson: %w: Records was already ranged over (a Reader reads its input once)", ErrInvalid))
			return
		}
		rd.used = true
		pipe := chunkpipe.Pipeline[*alkaid.Record]{
			Workers: rd.cfg.concurrency,
			Next:    func() ([]byte, int, error) { return rd.src.next(rd.chunkRows) },
			Parse:   rd.parse,
			Skip:    func(rec *alkaid.Record) bool { return rec.NumRows() == 0 },
			Cut:     func(n int) { rd.consumed.Add(int64(n)) },
		}
		pipe.Run()(yield)
	}
}

// Close releases the Reader. It does not close the io.Reader given to
// NewReader (the parsing goroutines end with the loop over Records), so
// it has nothing to do and returns nil; it is there so that a Reader is
// an alkaid.RecordReader.
func (rd *Reader) Close() error { return nil }
