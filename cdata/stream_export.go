package cdata

/*
#include <errno.h>
#include "abi.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"io"
	"runtime/cgo"
	"sync"
	"unsafe"

	"github.com/alkaid-go/alkaid/alkaid"
)

// RecordSource is what [ExportStream] reads: a schema and record batches,
// io.EOF after the last. ipc.StreamReader and [StreamReader] are ones.
type RecordSource interface {
	Schema() *alkaid.Schema
	Read() (*alkaid.Record, error)
}

// exportedStream is the Go side of an exported stream.
type exportedStream struct {
	mu      sync.Mutex // a consumer may call from several threads, one at a time
	src     RecordSource
	lastErr *C.char // the message get_last_error returns, C memory
}

// ExportStream fills out, a struct the caller allocated, with a stream
// over src: get_schema exports src.Schema(), get_next exports the records
// src.Read returns (each alive until its own release), an error from Read
// becomes an error code with its message in get_last_error, and io.EOF the
// end of the stream. src is kept reachable until the consumer releases
// the stream.
func ExportStream(src RecordSource, out *ArrowArrayStream) error {
	if src == nil || out == nil {
		return fmt.Errorf("cdata: %w: export: nil source or ArrowArrayStream", ErrInvalid)
	}
	h := cgo.NewHandle(&exportedStream{src: src})
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
	rec, err := s.src.Read()
	if err == io.EOF {
		*out = ArrowArray{} // release NULL: the end of the stream
		return s.fail(nil)
	}
	if err != nil {
		*out = ArrowArray{}
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
	s.src = nil
	s.mu.Unlock()
	hd.Delete()
}
