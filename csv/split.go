package csv

import (
	"bytes"
	"fmt"
)

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
	nl                    byte // the byte that ends a record: '\n' or '\r'
	width                 int  // fields per record; 0: set by the first record
	maxCols               int  // the most fields of the first record
	skipBad               bool
	skipped               int
	over                  int       // fields of the current record past width, counted, not kept
	stop                  [256]bool // the bytes that end an unquoted cell: delimiter, line end, quote
}

func newSplitter(cfg *readerConfig, nl byte, width int) *splitter {
	sp := &splitter{delim: cfg.delim, quote: cfg.quote, comment: cfg.comment, nl: nl,
		width: width, maxCols: cfg.limits.MaxColumns, skipBad: cfg.skipBad}
	sp.stop[sp.delim], sp.stop[nl], sp.stop[sp.quote] = true, true, true
	return sp
}

// brk returns the length of the line break at chunk[i], 0 if none. Where
// records end at '\n', a break is "\n" or "\r\n" (and a "\r" at the end);
// where they end at '\r', "\r" or "\r\n". Other "\r" and "\n" are data.
func (sp *splitter) brk(chunk []byte, i int) int {
	if i >= len(chunk) {
		return 0
	}
	switch chunk[i] {
	case '\n':
		if sp.nl == '\n' {
			return 1
		}
	case '\r':
		if i+1 < len(chunk) && chunk[i+1] == '\n' {
			return 2
		}
		if sp.nl == '\r' || i+1 == len(chunk) {
			return 1
		}
	}
	return 0
}

// split indexes chunk, whose first line is line.
func (sp *splitter) split(chunk []byte, line int, f *fields) error {
	if len(chunk) > maxChunk {
		return fmt.Errorf("csv: %w: line %d: a batch of records larger than 4 GiB", ErrInvalid, line)
	}
	pos := 0
	for pos < len(chunk) {
		start := line
		if sp.width != 1 {
			// A blank line is no record (except in a one-column file,
			// where it is an empty cell).
			if k := sp.brk(chunk, pos); k > 0 {
				pos += k
				line++
				continue
			}
		}
		if sp.comment != 0 && chunk[pos] == sp.comment {
			i := bytes.IndexByte(chunk[pos:], sp.nl)
			if i < 0 {
				break
			}
			pos += i
			pos += sp.brk(chunk, pos)
			line++
			continue
		}
		first := len(f.cells)
		var err error
		pos, line, err = sp.record(chunk, pos, line, f)
		if err != nil {
			return err
		}
		n := len(f.cells) - first + sp.over
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

// add appends the next cell of the record whose first cell is
// f.cells[first], unless the record already has limit cells (its width,
// or the column limit while the width is not known).
func (sp *splitter) add(f *fields, first, limit int, c cell, line int) error {
	if len(f.cells)-first < limit {
		f.cells = append(f.cells, c)
		return nil
	}
	return sp.past(line)
}

// past takes a cell past the limit: beyond the width it is only counted;
// the first record, which sets the width, is refused past the column
// limit.
func (sp *splitter) past(line int) error {
	if sp.width == 0 {
		return fmt.Errorf("csv: %w: line %d: more than %d columns (Limits.MaxColumns raises the limit)", ErrLimit, line, sp.maxCols)
	}
	sp.over++
	return nil
}

// limit is the most cells a record keeps.
func (sp *splitter) limit() int {
	if sp.width == 0 {
		return sp.maxCols
	}
	return sp.width
}

// record splits the record at chunk[pos:] into f.cells and returns the
// position and line after it.
func (sp *splitter) record(chunk []byte, pos, line int, f *fields) (int, int, error) {
	first := len(f.cells)
	limit := sp.limit()
	sp.over = 0
	for {
		if pos < len(chunk) && chunk[pos] == sp.quote {
			c, next, nl, err := sp.quotedCell(chunk, pos, line, f)
			if err != nil {
				return 0, 0, err
			}
			if err := sp.add(f, first, limit, c, line); err != nil {
				return 0, 0, err
			}
			line += nl
			pos = next
			if pos >= len(chunk) {
				return pos, line, nil
			}
			if chunk[pos] == sp.delim {
				pos++
				continue
			}
			if k := sp.brk(chunk, pos); k > 0 {
				return pos + k, line + 1, nil
			}
			return 0, 0, fmt.Errorf("csv: %w: line %d, field %d: text after the closing quote", ErrInvalid, line, len(f.cells)-first+sp.over)
		}
		// An unquoted cell ends at the delimiter or the end of the line.
		end := pos
		stop := &sp.stop
		for end < len(chunk) && !stop[chunk[end]] {
			end++
		}
		if end < len(chunk) && chunk[end] == sp.quote {
			return 0, 0, fmt.Errorf("csv: %w: line %d, field %d: quote in an unquoted field", ErrInvalid, line, len(f.cells)-first+sp.over+1)
		}
		if end < len(chunk) && chunk[end] == sp.delim {
			// The common cell, written out here: through add it cost
			// CSV reading about a tenth of its time.
			if len(f.cells)-first < limit {
				f.cells = append(f.cells, cell{start: uint32(pos), end: uint32(end)})
			} else if err := sp.past(line); err != nil {
				return 0, 0, err
			}
			pos = end + 1
			continue
		}
		ce := end
		if sp.nl == '\n' && ce > pos && chunk[ce-1] == '\r' {
			ce--
		}
		if err := sp.add(f, first, limit, cell{start: uint32(pos), end: uint32(ce)}, line); err != nil {
			return 0, 0, err
		}
		if end == len(chunk) {
			return end, line, nil
		}
		if sp.nl == '\n' && chunk[end] == '\n' {
			return end + 1, line + 1, nil
		}
		return end + sp.brk(chunk, end), line + 1, nil
	}
}

// quotedCell reads the quoted cell at chunk[pos] (the opening quote). It
// returns the cell, the position after the closing quote and the line
// breaks inside.
func (sp *splitter) quotedCell(chunk []byte, pos, line int, f *fields) (cell, int, int, error) {
	i := pos + 1
	from := i
	escaped := false
	x0 := len(f.extra)
	for {
		q := bytes.IndexByte(chunk[i:], sp.quote)
		if q < 0 {
			f.extra = f.extra[:x0]
			return cell{}, 0, 0, fmt.Errorf("csv: %w: line %d: quoted field not closed", ErrInvalid, line)
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
				return cell{}, 0, 0, fmt.Errorf("csv: %w: line %d: quoted fields larger than 4 GiB", ErrInvalid, line)
			}
			c = cell{start: uint32(x0), end: uint32(len(f.extra)), quoted: true, inExtra: true}
		}
		return c, i + 1, bytes.Count(chunk[pos:i], []byte{sp.nl}), nil
	}
}
