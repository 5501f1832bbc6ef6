package texttest

import (
	"bytes"
	"io"
	"runtime"
)

// Stream is an io.Reader of generated input: Head, then Body repeated
// for N bytes (the last repetition cut short if need be; N < 0: without
// end), then Tail. It holds its pattern only, so a test can feed readers
// gigabytes.
type Stream struct {
	Head, Body, Tail []byte
	N                int64

	pos  int64  // bytes produced
	body []byte // Body repeated to at least 64 KiB
}

// Read produces the next bytes.
func (s *Stream) Read(p []byte) (int, error) {
	if s.body == nil && len(s.Body) > 0 {
		s.body = bytes.Repeat(s.Body, (64<<10)/len(s.Body)+1)
	}
	n := 0
	for n < len(p) {
		h := int64(len(s.Head))
		switch {
		case s.pos < h:
			n += s.copy(p[n:], s.Head[s.pos:])
		case s.N < 0 || s.pos < h+s.N:
			if len(s.Body) == 0 {
				s.N = max(s.N, 0)
				s.pos = h + s.N
				continue
			}
			off := s.pos - h
			q := p[n:]
			if s.N >= 0 {
				q = q[:min(int64(len(q)), s.N-off)]
			}
			n += s.copy(q, s.body[off%int64(len(s.Body)):])
		case s.pos < h+s.N+int64(len(s.Tail)):
			n += s.copy(p[n:], s.Tail[s.pos-h-s.N:])
		default:
			if n == 0 {
				return 0, io.EOF
			}
			return n, nil
		}
	}
	return n, nil
}

func (s *Stream) copy(dst, src []byte) int {
	c := copy(dst, src)
	s.pos += int64(c)
	return c
}

// Allocated returns the bytes allocated on the heap while f ran, by any
// goroutine (runtime.MemStats.TotalAlloc): an upper bound of the heap
// growth f caused, so a bound on it bounds f's peak memory.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
