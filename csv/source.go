package csv

import (
	"bytes"
	"fmt"
	"io"

	"github.com/alkaid-go/alkaid/internal/chunkpipe"
)

// source cuts the input into chunks of whole records.
type source struct {
	buf     chunkpipe.Buffer
	line    int // line number of buf.Pend[0]
	quote   byte
	comment byte
	nl      byte   // the byte that ends a record: '\n' or '\r'
	brk     string // the line break found: "\n", "\r\n" or "\r"
}

func newSource(r io.Reader, cfg *readerConfig) *source {
	return &source{
		buf:  chunkpipe.Buffer{R: r, Block: cfg.blockSize, Max: cfg.limits.MaxRecordBytes},
		line: 1, quote: cfg.quote, comment: cfg.comment, nl: '\n', brk: "\n",
	}
}

// fill reads at least one more block (or to EOF).
func (s *source) fill() error {
	if err := s.buf.Fill(); err != nil {
		return fmt.Errorf("csv: reading: %w", err)
	}
	return nil
}

// start drops a UTF-8 byte order mark at the start of the input (as
// spreadsheets write it), which would otherwise be part of the first
// name, and finds the line break.
func (s *source) start() error {
	for len(s.buf.Pend) < 3 && !s.buf.EOF {
		if err := s.fill(); err != nil {
			return err
		}
	}
	s.buf.Pend = bytes.TrimPrefix(s.buf.Pend, []byte("\xef\xbb\xbf"))
	return s.findBreak()
}

// findBreak sets the line break from the first one outside quotes: "\r"
// not followed by "\n" makes '\r' end the records. Without a break in
// the first record's reach (or the limit of a record) it stays "\n".
func (s *source) findBreak() error {
	pos, inQ := 0, false
	comment := s.comment != 0 && len(s.buf.Pend) > 0 && s.buf.Pend[0] == s.comment
	for {
		b := s.buf.Pend
	scan:
		for ; pos < len(b); pos++ {
			switch c := b[pos]; {
			case c == s.quote && !comment:
				inQ = !inQ
			case inQ:
			case c == '\n':
				return nil
			case c == '\r':
				if pos+1 == len(b) && !s.buf.EOF {
					break scan // a "\n" may follow
				}
				if pos+1 == len(b) || b[pos+1] != '\n' {
					s.nl, s.brk = '\r', "\r"
				} else {
					s.brk = "\r\n"
				}
				return nil
			}
		}
		if s.buf.EOF || len(b) > s.buf.Max {
			return nil
		}
		if err := s.fill(); err != nil {
			return err
		}
	}
}

// cutState says how far cut got.
type cutState int

const (
	needMore cutState = iota // the chunk goes on past the bytes read
	complete                 // the chunk ends at end
	tooLong                  // the record at end is longer than the limit
)

// cut finds the end of the n-th record of b (comment lines are not
// records), quotes respected, or of the first record that ends at or
// past stop bytes. It returns the end (just past the line break) and
// the records found; at EOF an unterminated last record counts.
func (s *source) cut(b []byte, n, stop int, atEOF bool) (end, recs int, st cutState) {
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
	for pos < len(b) {
		if recs == n || end >= stop {
			return end, recs, complete
		}
		var lineEnd int
		if i := bytes.IndexByte(b[pos:], s.nl); i >= 0 {
			lineEnd = pos + i + 1
			if s.nl == '\r' {
				if lineEnd == len(b) && !atEOF {
					break // a "\n" may follow, part of the break
				}
				if lineEnd < len(b) && b[lineEnd] == '\n' {
					lineEnd++
				}
			}
		} else if atEOF {
			lineEnd = len(b) // the record ends at EOF
		} else {
			break
		}
		if !inQ && s.comment != 0 && b[pos] == s.comment {
			pos = lineEnd
			end = pos
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
			if pos-end > s.buf.Max {
				return end, recs, tooLong
			}
			recs++
			end = pos
		}
	}
	switch {
	case len(b)-end > s.buf.Max:
		return end, recs, tooLong
	case inQ && atEOF && pos >= len(b):
		// An unterminated quote runs to EOF: hand it all to the parser,
		// which reports it.
		return len(b), recs + 1, complete
	case atEOF || recs == n || end >= stop:
		return end, recs, complete
	}
	return end, recs, needMore
}

// next returns the bytes of the next n records (fewer at EOF, or past
// chunkpipe.ChunkBytes), their first line number, and io.EOF when
// nothing is left.
func (s *source) next(n int) ([]byte, int, error) {
	end, _, err := s.through(n, chunkpipe.ChunkBytes)
	if err != nil {
		return nil, 0, err
	}
	if end == 0 {
		return nil, 0, io.EOF
	}
	line := s.line
	chunk := s.buf.Take(end)
	s.line += bytes.Count(chunk, []byte{s.nl})
	return chunk, line, nil
}

// peek returns the bytes of the next n records (fewer at EOF, or past
// the record limit in bytes) without consuming them, and how many
// records they hold.
func (s *source) peek(n int) ([]byte, int, error) {
	end, recs, err := s.through(n, s.buf.Max)
	if err != nil {
		return nil, 0, err
	}
	return s.buf.Pend[:end:end], recs, nil
}

// through reads until the next n records, or those through stop bytes,
// are in the buffer, and returns their end and count.
func (s *source) through(n, stop int) (int, int, error) {
	// The records found before a fill are not scanned again after it:
	// rescanning from the start made inference, whose first read is
	// small, scan its rows several times.
	done, recs := 0, 0
	for {
		end, r, st := s.cut(s.buf.Pend[done:], n-recs, stop-done, s.buf.EOF)
		end += done
		recs += r
		switch st {
		case complete:
			return end, recs, nil
		case tooLong:
			line := s.line + bytes.Count(s.buf.Pend[:end], []byte{s.nl})
			return 0, 0, fmt.Errorf("csv: %w: line %d: a record longer than %d bytes (an unclosed quote? Limits.MaxRecordBytes raises the limit)",
				ErrLimit, line, s.buf.Max)
		}
		done = end
		if err := s.fill(); err != nil {
			return 0, 0, err
		}
	}
}
