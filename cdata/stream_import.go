package cdata

/*
#include "abi.h"
*/
import "C"

import (
	"fmt"
	"iter"
	"runtime"

	"github.com/alkaid-go/alkaid/alkaid"
)

// StreamReader reads the record batches of an imported C stream. It is an
// [alkaid.RecordReader] that can be iterated once. It is not safe for
// concurrent use. Records it yields stay valid after the reader is
// closed: each owns its batch's buffers.
type StreamReader struct {
	c       *ArrowArrayStream // moved, in C memory
	schema  *alkaid.Schema
	opts    []Option
	used    bool // Records was called
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

// Records yields the stream's record batches in order until the
// producer's end of stream; an error (a failed get_next, wrapping
// [ErrStream], or a batch that does not import) is yielded once, with a
// nil record, and ends the sequence. The stream can be iterated once: a
// second call, or a call after Close, yields an error wrapping
// [ErrInvalid].
func (r *StreamReader) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		switch {
		case r.c == nil:
			yield(nil, invalidf("import stream: records read after Close"))
			return
		case r.used:
			yield(nil, invalidf("import stream: records iterated twice: a stream can be read once"))
			return
		}
		r.used = true
		for r.c != nil {
			rec, err := r.next()
			if rec == nil && err == nil {
				return
			}
			if !yield(rec, err) || err != nil {
				return
			}
		}
	}
}

// next imports the next batch; nil, nil at the end of the stream.
func (r *StreamReader) next() (*alkaid.Record, error) {
	a := NewArrowArray()
	defer Free(a)
	if code := C.alk_call_get_next(r.c, a); code != 0 {
		return nil, r.streamErr("get_next", code)
	}
	if a.release == nil {
		return nil, nil
	}
	return ImportRecordOf(a, r.schema, r.opts...)
}

// Close releases the producer's stream (records already read stay valid).
// It is safe to call more than once; it returns nil.
func (r *StreamReader) Close() error {
	if r.c == nil {
		return nil
	}
	r.cleanup.Stop()
	releaseStream(r.c)
	r.c = nil
	return nil
}
