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

// cut finds the end of the n-th record of b (comment lines are not
// records), quotes respected. It returns the end (just past the newline)
// and the records found; at EOF an unterminated last record counts.
func (s *source) cut(b []byte, n int, atEOF bool) (end, recs int) {
	hasQuote := bytes.IndexByte(b, s.quote) >= 0
	pos, inQ := 0, false
	for recs < n && pos < len(b) {
		nl := bytes.IndexByte(b[pos:], '\n')
		if nl < 0 {
			if !atEOF {
				break
			}
			nl = len(b) - pos - 1 // the record ends at EOF
		}
		line := b[pos : pos+nl+1]
		if !inQ && s.comment != 0 && line[0] == s.comment {
			pos += nl + 1
			end = pos
			continue
		}
		if hasQuote && bytes.Count(line, []byte{s.quote})&1 == 1 {
			inQ = !inQ
		}
		pos += nl + 1
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

// fields is the flat index of a chunk's records: cells row by row, and
// for each row its line number.
type fields struct {
	cells  [][]byte
	quoted []bool
	lines  []int
	rows   int
}

// splitter turns a chunk into fields. Cells point into the chunk, except
// quoted cells with doubled quotes, which are unescaped into a new slice.
type splitter struct {
	delim, quote, comment byte
	width                 int // fields per record; 0: set by the first record
	skipBad               bool
	skipped               int
}

// split indexes chunk, whose first line is line.
func (sp *splitter) split(chunk []byte, line int, f *fields) error {
	pos := 0
	row := make([][]byte, 0, max(sp.width, 8))
	quoted := make([]bool, 0, max(sp.width, 8))
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
		row, quoted = row[:0], quoted[:0]
		var err error
		pos, line, row, quoted, err = sp.record(chunk, pos, line, row, quoted)
		if err != nil {
			return err
		}
		if sp.width == 0 {
			sp.width = len(row)
		}
		if len(row) != sp.width {
			if sp.skipBad {
				sp.skipped++
				continue
			}
			return fmt.Errorf("%w: line %d: %d fields, want %d", ErrInvalid, start, len(row), sp.width)
		}
		f.cells = append(f.cells, row...)
		f.quoted = append(f.quoted, quoted...)
		f.lines = append(f.lines, start)
		f.rows++
	}
	return nil
}

// record splits the record at chunk[pos:] and returns the position after
// it.
func (sp *splitter) record(chunk []byte, pos, line int, row [][]byte, quoted []bool) (int, int, [][]byte, []bool, error) {
	for {
		if pos < len(chunk) && chunk[pos] == sp.quote {
			cell, next, nl, err := sp.quotedCell(chunk, pos, line)
			if err != nil {
				return 0, 0, nil, nil, err
			}
			line += nl
			row, quoted = append(row, cell), append(quoted, true)
			pos = next
			if pos >= len(chunk) {
				return pos, line, row, quoted, nil
			}
			switch chunk[pos] {
			case sp.delim:
				pos++
				continue
			case '\n':
				return pos + 1, line + 1, row, quoted, nil
			case '\r':
				if pos+1 == len(chunk) || chunk[pos+1] == '\n' {
					return min(pos+2, len(chunk)), line + 1, row, quoted, nil
				}
			}
			return 0, 0, nil, nil, fmt.Errorf("%w: line %d, field %d: text after the closing quote", ErrInvalid, line, len(row))
		}
		// An unquoted cell ends at the delimiter or the end of the line.
		end := pos
		for end < len(chunk) {
			c := chunk[end]
			if c == sp.delim || c == '\n' {
				break
			}
			if c == sp.quote {
				return 0, 0, nil, nil, fmt.Errorf("%w: line %d, field %d: quote in an unquoted field", ErrInvalid, line, len(row)+1)
			}
			end++
		}
		cell := chunk[pos:end]
		if end == len(chunk) || chunk[end] == '\n' {
			if n := len(cell); n > 0 && cell[n-1] == '\r' {
				cell = cell[:n-1]
			}
			row, quoted = append(row, cell), append(quoted, false)
			if end == len(chunk) {
				return end, line, row, quoted, nil
			}
			return end + 1, line + 1, row, quoted, nil
		}
		row, quoted = append(row, cell), append(quoted, false)
		pos = end + 1
	}
}

// quotedCell reads the quoted cell at chunk[pos] (the opening quote). It
// returns the unescaped cell, the position after the closing quote and
// the newlines inside.
func (sp *splitter) quotedCell(chunk []byte, pos, line int) ([]byte, int, int, error) {
	i := pos + 1
	var out []byte // nil until a doubled quote needs unescaping
	from := i
	for {
		q := bytes.IndexByte(chunk[i:], sp.quote)
		if q < 0 {
			return nil, 0, 0, fmt.Errorf("%w: line %d: quoted field not closed", ErrInvalid, line)
		}
		i += q
		if i+1 < len(chunk) && chunk[i+1] == sp.quote {
			out = append(out, chunk[from:i+1]...)
			i += 2
			from = i
			continue
		}
		var cell []byte
		if out == nil {
			cell = chunk[from:i]
		} else {
			cell = append(out, chunk[from:i]...)
		}
		return cell, i + 1, bytes.Count(chunk[pos:i], []byte{'\n'}), nil
	}
}
