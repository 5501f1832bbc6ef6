package csv

import (
	"bytes"
	"fmt"
	"io"
)

// source holds the bytes read but not yet cut into chunks. Chunks are
// slices of buffers that are never written again, so parsing goroutines
// can read them while the next buffer fills.
type source struct {
	r         io.Reader
	pend      []byte
	eof       bool
	line      int // line number of pend[0]
	block     int
	quote     byte
	comment   byte
	bytesRead int64
}

// fill reads at least one more block (or to EOF).
func (s *source) fill() error {
	if s.eof {
		return nil
	}
	n := max(s.block, 2*len(s.pend))
	buf := make([]byte, len(s.pend), len(s.pend)+n)
	copy(buf, s.pend)
	for len(buf) < cap(buf) {
		m, err := s.r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		s.bytesRead += int64(m)
		if err == io.EOF {
			s.eof = true
			break
		}
		if err != nil {
			return fmt.Errorf("csv: reading: %w", err)
		}
	}
	s.pend = buf
	return nil
}

// skipBOM drops a UTF-8 byte order mark at the start of the input (as
// spreadsheets write it), which would otherwise be part of the first name.
func (s *source) skipBOM() error {
	for len(s.pend) < 3 && !s.eof {
		if err := s.fill(); err != nil {
			return err
		}
	}
	s.pend = bytes.TrimPrefix(s.pend, []byte("\xef\xbb\xbf"))
	return nil
}

// cut finds the end of the n-th record of b (comment lines are not
// records), quotes respected. It returns the end (just past the newline)
// and the records found; at EOF an unterminated last record counts.
func (s *source) cut(b []byte, n int, atEOF bool) (end, recs int) {
	// nextQ is the position of the next quote at or after pos (len(b):
	// none); lines before it change no quote state, so most lines cost
	// one IndexByte.
	nextQ := -1
	findQ := func(from int) int {
		if i := bytes.IndexByte(b[from:], s.quote); i >= 0 {
			return from + i
		}
		return len(b)
	}
	pos, inQ := 0, false
	for recs < n && pos < len(b) {
		nl := bytes.IndexByte(b[pos:], '\n')
		if nl < 0 {
			if !atEOF {
				break
			}
			nl = len(b) - pos - 1 // the record ends at EOF
		}
		lineEnd := pos + nl + 1
		if !inQ && s.comment != 0 && b[pos] == s.comment {
			pos = lineEnd
			end = pos
			if nextQ >= 0 && nextQ < pos {
				nextQ = -1
			}
			continue
		}
		if nextQ < pos {
			nextQ = findQ(pos)
		}
		for nextQ < lineEnd {
			inQ = !inQ
			nextQ = findQ(nextQ + 1)
		}
		pos = lineEnd
		if !inQ {
			recs++
			end = pos
		}
	}
	if inQ && atEOF && pos >= len(b) {
		// An unterminated quote runs to EOF: hand it all to the parser,
		// which reports it.
		return len(b), recs + 1
	}
	return end, recs
}

// next returns the bytes of the next n records (fewer at EOF), their
// first line number, and io.EOF when nothing is left.
func (s *source) next(n int) ([]byte, int, error) {
	for {
		end, recs := s.cut(s.pend, n, s.eof)
		if recs == n || s.eof {
			if end == 0 {
				return nil, 0, io.EOF
			}
			chunk, line := s.pend[:end:end], s.line
			s.line += bytes.Count(chunk, []byte{'\n'})
			s.pend = s.pend[end:]
			return chunk, line, nil
		}
		if err := s.fill(); err != nil {
			return nil, 0, err
		}
	}
}

// cell locates one field of a chunk: bytes [start, end) of the chunk,
// or of fields.extra when inExtra (quoted cells with doubled quotes,
// unescaped).
type cell struct {
	start, end uint32
	quoted     bool
	inExtra    bool
}

// fields is the flat index of a chunk's records: cells row by row, and
// for each row its line number.
type fields struct {
	cells []cell
	lines []int
	extra []byte
	rows  int
}

func (f *fields) reset() {
	f.cells, f.lines, f.extra, f.rows = f.cells[:0], f.lines[:0], f.extra[:0], 0
}

// bytes returns cell k's bytes.
func (f *fields) bytes(chunk []byte, k int) []byte {
	c := f.cells[k]
	if c.inExtra {
		return f.extra[c.start:c.end]
	}
	return chunk[c.start:c.end]
}

// maxChunk is the largest chunk the 32-bit cell offsets address.
const maxChunk = 1<<32 - 1

// splitter turns a chunk into fields.
type splitter struct {
	delim, quote, comment byte
	width                 int // fields per record; 0: set by the first record
	skipBad               bool
	skipped               int
	stop                  [256]bool // the bytes that end an unquoted cell: delimiter, newline, quote
}

func newSplitter(delim, quote, comment byte, width int, skipBad bool) *splitter {
	sp := &splitter{delim: delim, quote: quote, comment: comment, width: width, skipBad: skipBad}
	sp.stop[delim], sp.stop['\n'], sp.stop[quote] = true, true, true
	return sp
}

// split indexes chunk, whose first line is line.
func (sp *splitter) split(chunk []byte, line int, f *fields) error {
	if len(chunk) > maxChunk {
		return fmt.Errorf("csv: %w: line %d: a batch of records larger than 4 GiB", ErrInvalid, line)
	}
	pos := 0
	for pos < len(chunk) {
		start := line
		if sp.width != 1 && (chunk[pos] == '\n' || (chunk[pos] == '\r' && pos+1 < len(chunk) && chunk[pos+1] == '\n')) {
			// A blank line is no record (except in a one-column file,
			// where it is an empty cell).
			if chunk[pos] == '\r' {
				pos++
			}
			pos++
			line++
			continue
		}
		if sp.comment != 0 && chunk[pos] == sp.comment {
			nl := bytes.IndexByte(chunk[pos:], '\n')
			if nl < 0 {
				break
			}
			pos += nl + 1
			line++
			continue
		}
		first := len(f.cells)
		var err error
		pos, line, err = sp.record(chunk, pos, line, f)
		if err != nil {
			return err
		}
		n := len(f.cells) - first
		if sp.width == 0 {
			sp.width = n
		}
		if n != sp.width {
			if sp.skipBad {
				sp.skipped++
				f.cells = f.cells[:first]
				continue
			}
			return fmt.Errorf("csv: %w: line %d: %d fields, want %d", ErrInvalid, start, n, sp.width)
		}
		f.lines = append(f.lines, start)
		f.rows++
	}
	return nil
}

// record splits the record at chunk[pos:] into f.cells and returns the
// position and line after it.
func (sp *splitter) record(chunk []byte, pos, line int, f *fields) (int, int, error) {
	first := len(f.cells)
	for {
		if pos < len(chunk) && chunk[pos] == sp.quote {
			next, nl, err := sp.quotedCell(chunk, pos, line, f)
			if err != nil {
				return 0, 0, err
			}
			line += nl
			pos = next
			if pos >= len(chunk) {
				return pos, line, nil
			}
			switch chunk[pos] {
			case sp.delim:
				pos++
				continue
			case '\n':
				return pos + 1, line + 1, nil
			case '\r':
				if pos+1 == len(chunk) || chunk[pos+1] == '\n' {
					return min(pos+2, len(chunk)), line + 1, nil
				}
			}
			return 0, 0, fmt.Errorf("csv: %w: line %d, field %d: text after the closing quote", ErrInvalid, line, len(f.cells)-first)
		}
		// An unquoted cell ends at the delimiter or the end of the line.
		end := pos
		stop := &sp.stop
		for end < len(chunk) && !stop[chunk[end]] {
			end++
		}
		if end < len(chunk) && chunk[end] == sp.quote {
			return 0, 0, fmt.Errorf("csv: %w: line %d, field %d: quote in an unquoted field", ErrInvalid, line, len(f.cells)-first+1)
		}
		if end == len(chunk) || chunk[end] == '\n' {
			ce := end
			if ce > pos && chunk[ce-1] == '\r' {
				ce--
			}
			f.cells = append(f.cells, cell{start: uint32(pos), end: uint32(ce)})
			if end == len(chunk) {
				return end, line, nil
			}
			return end + 1, line + 1, nil
		}
		f.cells = append(f.cells, cell{start: uint32(pos), end: uint32(end)})
		pos = end + 1
	}
}

// quotedCell reads the quoted cell at chunk[pos] (the opening quote) into
// f.cells. It returns the position after the closing quote and the
// newlines inside.
func (sp *splitter) quotedCell(chunk []byte, pos, line int, f *fields) (int, int, error) {
	i := pos + 1
	from := i
	escaped := false
	x0 := len(f.extra)
	for {
		q := bytes.IndexByte(chunk[i:], sp.quote)
		if q < 0 {
			f.extra = f.extra[:x0]
			return 0, 0, fmt.Errorf("csv: %w: line %d: quoted field not closed", ErrInvalid, line)
		}
		i += q
		if i+1 < len(chunk) && chunk[i+1] == sp.quote {
			f.extra = append(f.extra, chunk[from:i+1]...)
			escaped = true
			i += 2
			from = i
			continue
		}
		c := cell{start: uint32(from), end: uint32(i), quoted: true}
		if escaped {
			f.extra = append(f.extra, chunk[from:i]...)
			if len(f.extra) > maxChunk {
				return 0, 0, fmt.Errorf("csv: %w: line %d: quoted fields larger than 4 GiB", ErrInvalid, line)
			}
			c = cell{start: uint32(x0), end: uint32(len(f.extra)), quoted: true, inExtra: true}
		}
		f.cells = append(f.cells, c)
		return i + 1, bytes.Count(chunk[pos:i], []byte{'\n'}), nil
	}
}
