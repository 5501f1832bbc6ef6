package csv

import (
	"bytes"
	"fmt"
	"io"
	"iter"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/chunkpipe"
	"github.com/alkaid-go/alkaid/internal/quote"
	"github.com/alkaid-go/alkaid/internal/textval"
)

// Reader reads CSV into record batches. Create it with NewReader, then
// range over Records once.
type Reader struct {
	cfg      readerConfig
	in       io.Reader
	src      *source
	start    int64 // the input's offset at NewReader (WithInferAll)
	schema   *alkaid.Schema
	width    int   // fields per record
	colIdx   []int // for each output field, its column in the file
	names    []string
	byName   map[string]int // names → first index, built by indexOf
	raw      []bool         // for each output field: binary read as raw bytes
	skipped  atomic.Int64
	consumed atomic.Int64
	used     bool
}

// NewReader reads the header (and, without a schema, the inference sample)
// of r and returns a Reader of the rest. Errors name what is wrong: a bad
// option (or a Writer's), a header that does not match the schema, a
// malformed sample.
func NewReader(r io.Reader, opts ...Option) (*Reader, error) {
	cfg, err := readerOptions(opts)
	if err != nil {
		return nil, err
	}
	rd := &Reader{cfg: cfg, in: r}
	if cfg.inferAll {
		sk, ok := r.(io.Seeker)
		if !ok {
			return nil, fmt.Errorf("csv: %w: WithInferAll needs an io.Seeker input", ErrNotSupported)
		}
		pos, err := sk.Seek(0, io.SeekCurrent)
		if err != nil {
			return nil, fmt.Errorf("csv: WithInferAll: seeking the input: %w", err)
		}
		rd.start = pos
	}
	if err := rd.begin(); err != nil {
		return nil, err
	}
	fileFields, err := rd.fileFields()
	if err != nil {
		return nil, err
	}
	if err := rd.project(fileFields); err != nil {
		return nil, err
	}
	return rd, nil
}

// begin skips the skip rows and reads the header.
func (rd *Reader) begin() error {
	rd.src = newSource(rd.in, &rd.cfg)
	if err := rd.src.start(); err != nil {
		return err
	}
	for range rd.cfg.skipRows {
		if _, _, err := rd.src.next(1); err == io.EOF {
			break
		} else if err != nil {
			return err
		}
	}
	sp := rd.splitter()
	if rd.cfg.header {
		chunk, line, err := rd.src.next(1)
		if err == io.EOF {
			return fmt.Errorf("csv: %w: empty input: no header", ErrInvalid)
		}
		if err != nil {
			return err
		}
		// Sized by the delimiters (up to the limit), not grown by doubling.
		f := fields{cells: make([]cell, 0, min(bytes.Count(chunk, []byte{rd.cfg.delim}), rd.cfg.limits.MaxColumns)+1)}
		if err := sp.split(chunk, line, &f); err != nil {
			return err
		}
		if f.rows == 0 {
			return fmt.Errorf("csv: %w: empty input: no header", ErrInvalid)
		}
		rd.names = make([]string, len(f.cells))
		for i := range f.cells {
			c := f.bytes(chunk, i)
			if !utf8.Valid(c) {
				return fmt.Errorf("csv: %w: line %d: header column %d is not valid UTF-8", ErrInvalid, line, i+1)
			}
			rd.names[i] = string(c)
		}
		rd.width = len(rd.names)
		return nil
	}
	// No header: the first record gives the width.
	chunk, _, err := rd.src.peek(1)
	if err != nil {
		return err
	}
	var f fields
	if err := sp.split(chunk, rd.src.line, &f); err != nil {
		return err
	}
	if f.rows == 0 {
		if rd.cfg.schema == nil {
			return fmt.Errorf("csv: %w: empty input", ErrInvalid)
		}
		rd.width = rd.cfg.schema.NumFields()
	} else {
		rd.width = sp.width
	}
	rd.names = make([]string, rd.width)
	for i := range rd.names {
		rd.names[i] = fmt.Sprintf("col_%d", i+1)
	}
	return nil
}

func (rd *Reader) splitter() *splitter {
	return newSplitter(&rd.cfg, rd.src.nl, rd.width)
}

func (rd *Reader) isNull(cell []byte) bool {
	for _, n := range rd.cfg.nulls {
		if string(cell) == n {
			return true
		}
	}
	return false
}

// fileFields returns a field for each column of the file (nil for columns
// a given schema does not have).
func (rd *Reader) fileFields() ([]*datatype.Field, error) {
	out := make([]*datatype.Field, rd.width)
	s := rd.cfg.schema
	if s == nil {
		return rd.infer()
	}
	if rd.cfg.positional || !rd.cfg.header {
		if s.NumFields() != rd.width {
			return nil, fmt.Errorf("csv: %w: the schema has %d fields, the input %d columns", ErrInvalid, s.NumFields(), rd.width)
		}
		for i := range out {
			f := s.Field(i)
			out[i] = &f
		}
		rd.names, rd.byName = make([]string, rd.width), nil
		for i := range rd.names {
			rd.names[i] = s.Field(i).Name
		}
		return out, nil
	}
	var missing, unexpected []string
	for i := range s.NumFields() {
		f := s.Field(i)
		j := rd.indexOf(f.Name)
		if j < 0 {
			missing = append(missing, f.Name)
			continue
		}
		out[j] = &f
	}
	if len(rd.cfg.columns) == 0 {
		for i, n := range rd.names {
			if out[i] == nil {
				unexpected = append(unexpected, n)
			}
		}
	}
	if len(missing) > 0 || len(unexpected) > 0 {
		var parts []string
		if len(missing) > 0 {
			parts = append(parts, fmt.Sprintf("schema fields missing from the header: %s", quoteList(missing)))
		}
		if len(unexpected) > 0 {
			parts = append(parts, fmt.Sprintf("header columns not in the schema: %s", quoteList(unexpected)))
		}
		return nil, fmt.Errorf("csv: %w: %s", ErrInvalid, strings.Join(parts, "; "))
	}
	return out, nil
}

// indexOf returns the index of the first column named n, -1 if none;
// the map is built on first use (a wide header is looked up field by
// field).
func (rd *Reader) indexOf(n string) int {
	if rd.byName == nil {
		rd.byName = make(map[string]int, len(rd.names))
		for i, s := range rd.names {
			if _, dup := rd.byName[s]; !dup {
				rd.byName[s] = i
			}
		}
	}
	if i, ok := rd.byName[n]; ok {
		return i
	}
	return -1
}

// quoteList quotes the first listNames names (each cut at quote.Max
// bytes) and says how many there are in all past that.
func quoteList(names []string) string {
	q := make([]string, 0, min(len(names), listNames)+1)
	for _, n := range names[:min(len(names), listNames)] {
		q = append(q, quote.String(n))
	}
	if len(names) > listNames {
		q = append(q, fmt.Sprintf("… (%d in all)", len(names)))
	}
	return strings.Join(q, ", ")
}

// listNames is the most names an error lists.
const listNames = 10

// project builds the output schema: the named columns, else the schema's
// order (by name), else the file's.
func (rd *Reader) project(file []*datatype.Field) error {
	idx := make([]int, 0, len(file))
	switch {
	case len(rd.cfg.columns) > 0:
		var missing []string
		for _, n := range rd.cfg.columns {
			j := rd.indexOf(n)
			if j < 0 {
				missing = append(missing, n)
				continue
			}
			if file[j] == nil {
				return fmt.Errorf("csv: %w: column %s is not in the schema", ErrInvalid, quote.String(n))
			}
			idx = append(idx, j)
		}
		if len(missing) > 0 {
			return fmt.Errorf("csv: %w: columns not in the header: %s", ErrInvalid, quoteList(missing))
		}
	case rd.cfg.schema != nil && rd.cfg.header && !rd.cfg.positional:
		for i := range rd.cfg.schema.NumFields() {
			idx = append(idx, rd.indexOf(rd.cfg.schema.Field(i).Name))
		}
	default:
		for i := range file {
			idx = append(idx, i)
		}
	}
	fields := make([]datatype.Field, len(idx))
	rd.raw = make([]bool, len(idx))
	for k, j := range idx {
		fields[k] = *file[j]
		if err := cellSupported(fields[k].Type); err != nil {
			return fmt.Errorf("csv: %w: column %s: %v", ErrNotSupported, quote.String(fields[k].Name), err)
		}
		rd.raw[k] = rd.cfg.utf8Binary && rd.cfg.schema == nil && fields[k].Type.Kind() == datatype.KindBinary
	}
	rd.colIdx = idx
	var md datatype.Metadata
	if rd.cfg.schema != nil {
		md = rd.cfg.schema.Metadata()
	}
	rd.schema = alkaid.NewSchema(fields, md)
	return nil
}

// Schema is the schema of the records.
func (rd *Reader) Schema() *alkaid.Schema { return rd.schema }

// LineBreak is the line break of the input: "\n", "\r\n" or "\r", the
// first found outside quotes ("\n" when there is none). A "\r" file ends
// its records at "\r" or "\r\n", any other at "\n" or "\r\n"; other
// line breaks are data (inside quotes always).
func (rd *Reader) LineBreak() string { return rd.src.brk }

// Skipped is the number of records skipped for a wrong number of fields
// (WithSkipBadRows) so far.
func (rd *Reader) Skipped() int { return int(rd.skipped.Load()) }

// Offset is how many bytes of the input were handed to parsing so far
// (for progress reports).
func (rd *Reader) Offset() int64 { return rd.consumed.Load() }

// parse turns one chunk into a record.
func (rd *Reader) parse(chunk []byte, line int) (*alkaid.Record, error) {
	sp := rd.splitter()
	f := fieldsPool.Get().(*fields)
	defer func() { f.reset(); fieldsPool.Put(f) }()
	f.reset()
	err := sp.split(chunk, line, f)
	rd.skipped.Add(int64(sp.skipped))
	if err != nil {
		return nil, err
	}
	known := utf8.Valid(chunk)
	cols := make([]array.Array, len(rd.colIdx))
	defaultNull := len(rd.cfg.nulls) == 1 && rd.cfg.nulls[0] == ""
	// The columns share two option sets (one per column was an allocation
	// per column and chunk).
	opts := [2]textval.Options{
		{True: rd.cfg.trues, False: rd.cfg.falses, KnownUTF8: known, Layouts: rd.cfg.layouts, TrimSpace: rd.cfg.trimSpace},
		{True: rd.cfg.trues, False: rd.cfg.falses, KnownUTF8: known, Layouts: rd.cfg.layouts, TrimSpace: rd.cfg.trimSpace, RawBinary: true},
	}
	for k, j := range rd.colIdx {
		field := rd.schema.Field(k)
		o := &opts[0]
		if rd.raw[k] {
			o = &opts[1]
		}
		ap, err := newCellAppender(field.Type, o)
		if err != nil {
			return nil, fmt.Errorf("csv: %w: column %s: %v", ErrNotSupported, quote.String(field.Name), err)
		}
		ap.Reserve(f.rows)
		if textval.IsString(field.Type) || field.Type.Kind() == datatype.KindBinary || field.Type.Kind() == datatype.KindLargeBinary {
			total := 0
			for row := range f.rows {
				c := f.cells[row*rd.width+j]
				total += int(c.end - c.start)
			}
			ap.ReserveBytes(total)
		}
		for row := range f.rows {
			at := row*rd.width + j
			cell := f.bytes(chunk, at)
			if !f.cells[at].quoted && ((defaultNull && len(cell) == 0) || (!defaultNull && rd.isNull(cell))) {
				if !field.Nullable {
					return nil, fmt.Errorf("csv: %w: line %d, column %d (%s): null in a non-nullable field", ErrInvalid, f.lines[row], j+1, quote.String(field.Name))
				}
				ap.AppendNull()
				continue
			}
			if err := ap.Append(cell); err != nil {
				return nil, fmt.Errorf("csv: %w: line %d, column %d (%s): %w", ErrInvalid, f.lines[row], j+1, quote.String(field.Name), err)
			}
		}
		cols[k] = ap.NewArray()
	}
	rec, err := alkaid.NewRecord(rd.schema, cols, f.rows)
	if err != nil {
		return nil, fmt.Errorf("csv: %w", err)
	}
	return rec, nil
}

// fieldsPool recycles the field indexes of chunks.
var fieldsPool = sync.Pool{New: func() any { return new(fields) }}

// Records yields the record batches in input order, then stops; an error
// is yielded once, last: the one a serial read would meet first, whatever
// the concurrency. Chunks are parsed on the configured number of
// goroutines, a few batches ahead of the consumer. Records can be ranged
// over once; breaking out of the loop stops the goroutines.
func (rd *Reader) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		if rd.used {
			yield(nil, fmt.Errorf("csv: %w: Records was already ranged over (a Reader reads its input once)", ErrInvalid))
			return
		}
		rd.used = true
		pipe := chunkpipe.Pipeline[*alkaid.Record]{
			Workers: rd.cfg.concurrency,
			Next:    func() ([]byte, int, error) { return rd.src.next(rd.cfg.batchRows) },
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
