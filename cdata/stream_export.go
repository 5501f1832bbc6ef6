package cdata

/*
#include <errno.h>
#include "abi.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"iter"
	"runtime/cgo"
	"sync"
	"unsafe"

	"github.com/alkaid-go/alkaid/alkaid"
)

// exportedStream is the Go side of an exported stream.
type exportedStream struct {
	mu      sync.Mutex // a consumer may call from several threads, one at a time
	src     alkaid.RecordReader
	pull    *puller
	err     error   // the error that ended the stream, returned again
	lastErr *C.char // the message get_last_error returns, C memory
}

// ExportStream fills out, a struct the caller allocated, with a stream
// over src, which it takes over: get_schema exports src.Schema(),
// get_next exports the record batches src.Records yields (each alive
// until its own release) and then the end of the stream; an error the
// sequence yields becomes an error code with its message in
// get_last_error, returned again by every later get_next. src is kept
// reachable until the consumer releases the stream, which stops the
// iteration and closes src.
func ExportStream(src alkaid.RecordReader, out *ArrowArrayStream) error {
	if src == nil || out == nil {
		return fmt.Errorf("cdata: %w: export: nil source or ArrowArrayStream", ErrInvalid)
	}
	h := cgo.NewHandle(&exportedStream{src: src, pull: newPuller(src.Records())})
	*out = ArrowArrayStream{}
	C.alk_set_stream_callbacks(out, C.uintptr_t(h))
	return nil
}

func streamOf(h C.uintptr_t) *exportedStream { return cgo.Handle(h).Value().(*exportedStream) }

// fail records err as the last error and returns its errno code.
func (s *exportedStream) fail(err error) C.int {
	if s.lastErr != nil {
		C.free(unsafe.Pointer(s.lastErr))
		s.lastErr = nil
	}
	if err == nil {
		return 0
	}
	s.lastErr = cstring(err.Error())
	switch {
	case errors.Is(err, ErrNotSupported):
		return C.ENOSYS
	case errors.Is(err, ErrInvalid):
		return C.EINVAL
	}
	return C.EIO
}

//export alkStreamGetSchema
func alkStreamGetSchema(h C.uintptr_t, out *ArrowSchema) C.int {
	s := streamOf(h)
	s.mu.Lock()
	defer s.mu.Unlock()
	if out == nil {
		return s.fail(fmt.Errorf("cdata: %w: get_schema: out is NULL", ErrInvalid))
	}
	schema := s.src.Schema()
	if schema == nil {
		return s.fail(fmt.Errorf("cdata: %w: get_schema: the source has no schema", ErrInvalid))
	}
	return s.fail(ExportSchema(schema, out))
}

//export alkStreamGetNext
func alkStreamGetNext(h C.uintptr_t, out *ArrowArray) C.int {
	s := streamOf(h)
	s.mu.Lock()
	defer s.mu.Unlock()
	if out == nil {
		return s.fail(fmt.Errorf("cdata: %w: get_next: out is NULL", ErrInvalid))
	}
	if s.err != nil {
		*out = ArrowArray{}
		return s.fail(s.err)
	}
	rec, err, ok := s.pull.next()
	if !ok {
		*out = ArrowArray{} // release NULL: the end of the stream
		return s.fail(nil)
	}
	if err != nil {
		*out = ArrowArray{}
		s.err = err
		return s.fail(err)
	}
	return s.fail(ExportRecord(rec, out, nil))
}

//export alkStreamLastError
func alkStreamLastError(h C.uintptr_t) *C.char {
	s := streamOf(h)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastErr
}

//export alkStreamRelease
func alkStreamRelease(h C.uintptr_t) {
	hd := cgo.Handle(h)
	s := hd.Value().(*exportedStream)
	s.mu.Lock()
	s.fail(nil)
	s.pull.stop()
	s.src.Close() // nobody is left to hear its error
	s.src = nil
	s.mu.Unlock()
	hd.Delete()
}

// puller hands out the pairs of a sequence one at a time, as iter.Pull2
// does, from a goroutine of its own: get_next runs on whatever thread the
// consumer calls it from, where iter.Pull2's coroutines may not switch.
// The sequence is advanced only when next asks.
type puller struct {
	req      chan struct{} // next asks; closed by stop
	resp     chan pulled   // closed when the sequence has ended
	finished bool
	stopped  bool
}

type pulled struct {
	rec *alkaid.Record
	err error
}

func newPuller(seq iter.Seq2[*alkaid.Record, error]) *puller {
	p := &puller{req: make(chan struct{}), resp: make(chan pulled)}
	go func() {
		defer close(p.resp)
		if _, ok := <-p.req; !ok {
			return
		}
		for rec, err := range seq {
			p.resp <- pulled{rec, err}
			if err != nil {
				return
			}
			if _, ok := <-p.req; !ok {
				return
			}
		}
	}()
	return p
}

// next is the next pair, or ok false after the last.
func (p *puller) next() (rec *alkaid.Record, err error, ok bool) {
	if p.finished || p.stopped {
		return nil, nil, false
	}
	p.req <- struct{}{}
	it, ok := <-p.resp
	if !ok {
		p.finished = true
		return nil, nil, false
	}
	if it.err != nil {
		p.finished = true // the goroutine has returned
	}
	return it.rec, it.err, true
}

// stop ends the sequence early and waits for its goroutine to return, so
// that the source may be closed after it.
func (p *puller) stop() {
	if p.stopped {
		return
	}
	p.stopped = true
	close(p.req)
	for range p.resp { // nothing is sent without a request: this waits for the close
	}
}
