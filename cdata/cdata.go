package cdata

/*
#include "abi.h"
*/
import "C"

import (
	"unsafe"
)

// ArrowSchema is the C Data Interface's struct ArrowSchema. Code with its
// own cgo declaration of the struct converts a pointer to it with
// (*cdata.ArrowSchema)(unsafe.Pointer(p)).
type ArrowSchema = C.struct_ArrowSchema

// ArrowArray is the C Data Interface's struct ArrowArray.
type ArrowArray = C.struct_ArrowArray

// ArrowArrayStream is the C Stream Interface's struct ArrowArrayStream.
type ArrowArrayStream = C.struct_ArrowArrayStream

// NewArrowSchema allocates a zeroed ArrowSchema in C memory, for Go code
// that hands one to a producer or to an Export function. Free it with
// [Free] once it is released (or moved).
func NewArrowSchema() *ArrowSchema {
	return (*ArrowSchema)(C.calloc(1, C.size_t(unsafe.Sizeof(ArrowSchema{}))))
}

// NewArrowArray allocates a zeroed ArrowArray in C memory (see
// [NewArrowSchema]).
func NewArrowArray() *ArrowArray {
	return (*ArrowArray)(C.calloc(1, C.size_t(unsafe.Sizeof(ArrowArray{}))))
}

// NewArrowArrayStream allocates a zeroed ArrowArrayStream in C memory (see
// [NewArrowSchema]).
func NewArrowArrayStream() *ArrowArrayStream {
	return (*ArrowArrayStream)(C.calloc(1, C.size_t(unsafe.Sizeof(ArrowArrayStream{}))))
}

// Free frees a struct allocated by [NewArrowSchema], [NewArrowArray] or
// [NewArrowArrayStream]. It does not call the struct's release callback:
// release (or move) the struct first.
func Free[T ArrowSchema | ArrowArray | ArrowArrayStream](p *T) {
	C.free(unsafe.Pointer(p))
}

// ReleaseSchema calls s's release callback if s is not released yet.
func ReleaseSchema(s *ArrowSchema) {
	if s != nil {
		C.alk_call_schema_release(s)
	}
}

// ReleaseArray calls a's release callback if a is not released yet.
func ReleaseArray(a *ArrowArray) {
	if a != nil {
		C.alk_call_array_release(a)
	}
}

// ReleaseStream calls s's release callback if s is not released yet.
func ReleaseStream(s *ArrowArrayStream) {
	if s != nil {
		C.alk_call_stream_release(s)
	}
}

// SchemaReleased reports whether s is released (its release callback is
// NULL), as the interface marks released and moved structs.
func SchemaReleased(s *ArrowSchema) bool { return s.release == nil }

// ArrayReleased reports whether a is released (see [SchemaReleased]).
func ArrayReleased(a *ArrowArray) bool { return a.release == nil }

// StreamReleased reports whether s is released (see [SchemaReleased]).
func StreamReleased(s *ArrowArrayStream) bool { return s.release == nil }

// cchar is C's char, for tests that build C strings.
type cchar = C.char

// cstring copies s into C memory (NUL-terminated); "" gives an empty
// string, not NULL.
func cstring(s string) *C.char {
	p := (*C.char)(C.malloc(C.size_t(len(s) + 1)))
	b := unsafe.Slice((*byte)(unsafe.Pointer(p)), len(s)+1)
	copy(b, s)
	b[len(s)] = 0
	return p
}

// cbytes copies b into C memory (NULL for empty b).
func cbytes(b []byte) *C.char {
	if len(b) == 0 {
		return nil
	}
	p := C.malloc(C.size_t(len(b)))
	copy(unsafe.Slice((*byte)(p), len(b)), b)
	return (*C.char)(p)
}
