package cdata

/*
#include "abi.h"
*/
import "C"

import (
	"fmt"
	"io"
	"iter"
	"runtime"

	"github.com/alkaid-go/alkaid/alkaid"
)

// StreamReader reads the record batches of an imported C stream. It is
// not safe for concurrent use. Records it returns stay valid after the
// reader is closed: each owns its batch's buffers.
type StreamReader struct {
	c       *ArrowArrayStream // moved, in C memory
	schema  *alkaid.Schema
	opts    []Option
	err     error
	done    bool
	cleanup runtime.Cleanup
}

// ImportStream moves s in (s is left released) and reads its schema. The
// stream is released by [StreamReader.Close] or, failing that, when the
// reader is unreachable.
func ImportStream(s *ArrowArrayStream, opts ...Option) (*StreamReader, error) {
	if s == nil {
		return nil, invalidf("import stream: nil ArrowArrayStream")
	}
	if s.release == nil {
		return nil, invalidf("import stream: the ArrowArrayStream is released (release is NULL)")
	}
	if C.alk_has_stream_callbacks(s) == 0 {
		C.alk_call_stream_release(s)
		return nil, invalidf("import stream: get_schema or get_next is NULL")
	}
	c := NewArrowArrayStream()
	*c = *s
	s.release = nil
	r := &StreamReader{c: c, opts: opts}
	r.cleanup = runtime.AddCleanup(r, releaseStream, c)
	schema := NewArrowSchema()
	defer Free(schema)
	if code := C.alk_call_get_schema(c, schema); code != 0 {
		err := r.streamErr("get_schema", code)
		r.Close()
		return nil, err
	}
	if schema.release == nil {
		r.Close()
		return nil, invalidf("import stream: get_schema succeeded but left the schema released")
	}
	sch, err := ImportSchema(schema, r.opts...)
	if err != nil {
		r.Close()
		return nil, err
	}
	r.schema = sch
	return r, nil
}

func releaseStream(c *ArrowArrayStream) {
	C.alk_call_stream_release(c)
	Free(c)
}

// streamErr builds the error of a failed callback from the producer's
// get_last_error message.
func (r *StreamReader) streamErr(call string, code C.int) error {
	msg := "no message"
	if p := C.alk_call_get_last_error(r.c); p != nil {
		msg = C.GoString(p)
	}
	return fmt.Errorf("%w: %s returned %d: %s", ErrStream, call, int(code), msg)
}

// Schema is the stream's schema.
func (r *StreamReader) Schema() *alkaid.Schema { return r.schema }

// Read returns the next record batch, or io.EOF at the end of the stream.
// After an error every call returns it again.
func (r *StreamReader) Read() (*alkaid.Record, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.done {
		return nil, io.EOF
	}
	a := NewArrowArray()
	defer Free(a)
	if code := C.alk_call_get_next(r.c, a); code != 0 {
		r.err = r.streamErr("get_next", code)
		return nil, r.err
	}
	if a.release == nil {
		r.done = true
		return nil, io.EOF
	}
	rec, err := ImportRecordOf(a, r.schema, r.opts...)
	if err != nil {
		r.err = err
		return nil, err
	}
	return rec, nil
}

// Records iterates over the remaining record batches; an error is the last
// pair of the iteration.
func (r *StreamReader) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		for {
			rec, err := r.Read()
			if err == io.EOF || !yield(rec, err) || err != nil {
				return
			}
		}
	}
}

// Close releases the producer's stream (records already read stay valid).
// It is safe to call more than once.
func (r *StreamReader) Close() {
	if r.c == nil {
		return
	}
	r.cleanup.Stop()
	releaseStream(r.c)
	r.c = nil
	r.done = true
}
