package ipc

import (
	"errors"
	"fmt"
	"io"

	"github.com/alkaid-go/alkaid/internal/rawmem"
)

// A large message body is copied in ranges by several goroutines, with the
// concurrency option readers and writers already take: one core does not
// reach the machine's memory bandwidth (measurements: bench/notes.md).
const splitCopyMin = 4 << 20 // bytes below which one goroutine copies

// copySplit says how a copy is split: among up to workers goroutines,
// for copies of min bytes or more (splitCopyMin but in tests), in ranges
// of at least min/2 bytes.
type copySplit struct {
	workers int
	min     int64
}

// ranges is how many ranges a copy of n bytes is split into.
func (s copySplit) ranges(n int64) int {
	if s.workers <= 1 || n < s.min {
		return 1
	}
	return int(min(int64(s.workers), n/max(s.min/2, 1)))
}

// rangeOf is the k-th of parts ranges of [0, n): cache-line aligned,
// consecutive, together covering it.
func rangeOf(k, parts, n int) (lo, hi int) {
	step := ((n+parts-1)/parts + 63) &^ 63
	return min(k*step, n), min((k+1)*step, n)
}

// gather copies pieces one after the other into dst, which is exactly as
// long as they are together.
func gather(dst []byte, pieces [][]byte, split copySplit) {
	parts := split.ranges(int64(len(dst)))
	_ = parallel(parts, split.workers, func(k int) error {
		lo, hi := rangeOf(k, parts, len(dst))
		off := 0
		for _, p := range pieces {
			end := off + len(p)
			if a, b := max(lo, off), min(hi, end); a < b {
				copy(dst[a:b], p[a-off:b-off])
			}
			off = end
		}
		return nil
	})
}

// lender is a sink that lends its spare room, as bytes.Buffer and
// bufio.Writer do: bytes copied into AvailableBuffer and then passed to
// Write are already in place, so Write does not copy them again.
type lender interface{ AvailableBuffer() []byte }

// writeBody writes the body's pieces, n bytes together. A large body
// going to a sink with room for it is copied into that room by several
// goroutines, then written.
func (e *encoder) writeBody(body [][]byte, n int64) error {
	split := copySplit{e.cfg.concurrency, e.cfg.splitMin}
	if l, ok := e.w.(lender); ok && e.err == nil && split.ranges(n) > 1 {
		if room := l.AvailableBuffer(); int64(cap(room)) >= n {
			dst := room[:n]
			gather(dst, body, split)
			return e.write(dst)
		}
	}
	for _, b := range body {
		if err := e.write(b); err != nil {
			return err
		}
	}
	return nil
}

// positioned is a reader that can also read at an offset (bytes.Reader,
// strings.Reader, os.File, io.SectionReader): a large body is read from
// it in ranges by several goroutines, then the position is moved past it.
type positioned interface {
	io.ReaderAt
	io.Seeker
}

// readBodyAt reads n bytes from r's current position, in ranges read by
// several goroutines at once, and moves the position past them. It
// returns nil and no error, having read nothing, when r cannot tell its
// position or size or holds fewer than n more bytes; the caller then reads
// sequentially, which reports a short input.
func readBodyAt(r positioned, n int64, split copySplit) ([]byte, error) {
	pos, err := r.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, nil
	}
	end, err := r.Seek(0, io.SeekEnd)
	if _, err := r.Seek(pos, io.SeekStart); err != nil {
		return nil, fmt.Errorf("ipc: restoring the input position: %w", err)
	}
	if err != nil || end-pos < n {
		return nil, nil
	}
	dst := rawmem.Fillable(int(n))
	if err := readAtRanges(r, dst, pos, split); err != nil {
		return nil, err
	}
	if _, err := r.Seek(pos+n, io.SeekStart); err != nil {
		return nil, fmt.Errorf("ipc: moving past the message body: %w", err)
	}
	return dst, nil
}

// readAtRanges fills dst from r at off, in ranges read by several
// goroutines at once when dst is large.
func readAtRanges(r io.ReaderAt, dst []byte, off int64, split copySplit) error {
	parts := split.ranges(int64(len(dst)))
	err := parallel(parts, split.workers, func(k int) error {
		lo, hi := rangeOf(k, parts, len(dst))
		got, err := r.ReadAt(dst[lo:hi], off+int64(lo))
		if got == hi-lo {
			return nil // io.EOF may come with the last byte
		}
		if err == nil || errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return err
	})
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return invalidf("truncated message body at %d: %v", off, err)
	}
	if err != nil {
		return fmt.Errorf("ipc: reading message body at %d: %w", off, err)
	}
	return nil
}
