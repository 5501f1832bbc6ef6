package ctest

/*
#cgo CFLAGS: -O1 -Wall -Werror
#include <stdlib.h>
#include "consumer.h"
#include "graph.h"
#include "producer.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Sums is what the C consumer read from a stream of records with columns
// a: int64, b: utf8, c: utf8_view.
type Sums struct {
	Batches, Rows, SumA, NullsA, BytesB, NullsB, BytesC, NullsC int64
	// Code is 0, a callback's error code, or -1 for a broken invariant
	// (Msg says which); Msg is get_last_error's message after a failed
	// callback.
	Code int
	Msg  string
}

// ConsumeStream runs the C consumer over the ArrowArrayStream at s, which
// it releases.
func ConsumeStream(s unsafe.Pointer) Sums {
	var r C.struct_consume_result
	C.consume_stream((*C.struct_ArrowArrayStream)(s), &r)
	return Sums{
		Batches: int64(r.batches), Rows: int64(r.rows), SumA: int64(r.sum_a), NullsA: int64(r.nulls_a),
		BytesB: int64(r.bytes_b), NullsB: int64(r.nulls_b), BytesC: int64(r.bytes_c), NullsC: int64(r.nulls_c),
		Code: int(r.code), Msg: C.GoString(&r.msg[0]),
	}
}

// Break names what the producer breaks on purpose.
type Break int

// The breaks of producer.h.
const (
	BreakNone Break = iota
	BreakNBuffers
	BreakNullValues
	BreakNegativeLength
	BreakNullCount
	BreakNChildren
	BreakNegativeOffset
	BreakNoValidity
	BreakFormat
	BreakNullFormat
	BreakShortChild
	BreakOffsets
	BreakBadUTF8
	BreakListNoChild
	BreakCount
)

// String implements fmt.Stringer.
func (b Break) String() string {
	names := [...]string{"none", "n_buffers", "null values buffer", "negative length", "null_count > length",
		"n_children", "negative offset", "nulls without validity", "unknown format", "NULL format",
		"short child", "decreasing offsets", "invalid UTF-8", "list without child"}
	if int(b) < len(names) {
		return names[b]
	}
	return fmt.Sprintf("break(%d)", int(b))
}

// ProduceStruct fills the ArrowArray at a and, when s is not nil, the
// ArrowSchema at s with struct<x: int32, y: utf8> of n rows starting at row
// offset of the children: x = 3i, null when i%5 == 4; y = "s<i>".
func ProduceStruct(a, s unsafe.Pointer, n, offset int, brk Break) {
	C.produce_struct((*C.struct_ArrowArray)(a), (*C.struct_ArrowSchema)(s), C.int64_t(n), C.int64_t(offset), C.int(brk))
}

// ProduceStream fills the ArrowArrayStream at s with batches batches of
// ProduceStruct (batch k: 10+k rows from offset k); get_next fails with
// EIO and the message "producer failed at batch <failAt>" at batch failAt
// (-1: never).
func ProduceStream(s unsafe.Pointer, batches, failAt int) {
	C.produce_stream((*C.struct_ArrowArrayStream)(s), C.int64_t(batches), C.int64_t(failAt))
}

// Released returns how many root arrays, schemas and streams the producer
// has seen released.
func Released() (arrays, schemas, streams int64) {
	return int64(C.released_arrays()), int64(C.released_schemas()), int64(C.released_streams())
}

// SetNoopRelease gives the ArrowSchema at s a release callback that only
// marks it released: a test can then corrupt the struct's tree (whose
// memory leaks) without the real release walking it.
func SetNoopRelease(s unsafe.Pointer) {
	C.set_noop_release_schema((*C.struct_ArrowSchema)(s))
}

// SetNoopArrayRelease is SetNoopRelease for an ArrowArray.
func SetNoopArrayRelease(a unsafe.Pointer) {
	C.set_noop_release_array((*C.struct_ArrowArray)(a))
}

// GraphFormats is how many formats a [Node] may take: its Format is an
// index into "n", "i", "u", "+s", "+l", "+m", "+w:2", "+us:0,1",
// "+ud:0,1", "d:9,2", "tsu:UTC", "vu", "z", "+r", "c", "tdD" (taken
// modulo the count).
const GraphFormats = C.GRAPH_FORMATS

// Node is one node of a graph ProduceGraph makes.
type Node struct {
	Format     int   // see GraphFormats
	Length     int   // array length, 0 to 255
	Children   []int // node indexes: shared, or pointing back, as wished
	Dictionary int   // node index of the dictionary, or -1
	Metadata   bool  // carries the graph's shared metadata blob
}

// ProduceGraph fills the ArrowSchema at s and the ArrowArray at a with
// the graph of nodes (node 0 the root, children by index), whose arrays
// have zeroed buffers and no validity. Releasing both roots frees it;
// every node with Metadata points to one blob of a pair whose value is
// metadataLen bytes (0: no blob).
func ProduceGraph(s, a unsafe.Pointer, nodes []Node, metadataLen int) {
	n := len(nodes)
	format, length, nChildren, dictionary, hasMeta := make([]C.int32_t, n), make([]C.int32_t, n), make([]C.int32_t, n), make([]C.int32_t, n), make([]C.int32_t, n)
	var children []C.int32_t
	for i, nd := range nodes {
		format[i] = C.int32_t(nd.Format % GraphFormats)
		length[i] = C.int32_t(min(max(nd.Length, 0), 255))
		nChildren[i] = C.int32_t(len(nd.Children))
		for _, c := range nd.Children {
			children = append(children, C.int32_t(c))
		}
		dictionary[i] = C.int32_t(nd.Dictionary)
		if nd.Metadata {
			hasMeta[i] = 1
		}
	}
	children = append(children, 0) // never empty: its address is taken
	cs := C.malloc(C.size_t(len(children)) * 4)
	defer C.free(cs)
	copy(unsafe.Slice((*C.int32_t)(cs), len(children)), children)
	C.produce_graph((*C.struct_ArrowSchema)(s), (*C.struct_ArrowArray)(a), C.int64_t(n),
		&format[0], &length[0], &nChildren[0], (*C.int32_t)(cs), &dictionary[0], &hasMeta[0], C.int64_t(metadataLen))
}
