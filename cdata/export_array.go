package cdata

/*
#include "abi.h"
static const int64_t alk_zeros[16];
static const void* alk_zero_ptr(void) { return alk_zeros; }
*/
import "C"

import (
	"fmt"
	"runtime"
	"runtime/cgo"
	"sync/atomic"
	"unsafe"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// exportedNode keeps one exported array node's Go memory reachable and
// pinned until the consumer releases the node.
type exportedNode struct {
	pins runtime.Pinner
	data *array.Data
}

// liveExports counts exported array nodes not yet released (for tests).
var liveExports atomic.Int64

//export alkReleaseArrayHandle
func alkReleaseArrayHandle(h C.uintptr_t) {
	liveExports.Add(-1)
	hd := cgo.Handle(h)
	n := hd.Value().(*exportedNode)
	n.pins.Unpin()
	n.data = nil
	hd.Delete()
}

// ExportArray fills out with a's data and, when schema is not nil, schema
// with field (whose type must equal a's). Buffers are shared, not copied:
// they stay pinned until the consumer calls out's release. On error both
// structs are left released.
func ExportArray(a array.Array, field datatype.Field, out *ArrowArray, schema *ArrowSchema) error {
	if a == nil || out == nil {
		return fmt.Errorf("cdata: %w: export: nil array or ArrowArray", ErrInvalid)
	}
	if field.Type == nil {
		field.Type = a.DataType()
	}
	if !datatype.Equal(field.Type, a.DataType()) {
		return fmt.Errorf("cdata: %w: export: field %q has type %s but the array %s", ErrInvalid, field.Name, field.Type, a.DataType())
	}
	if schema != nil {
		if err := ExportField(field, schema); err != nil {
			return err
		}
	}
	if err := exportRootArray(a.Data(), out); err != nil {
		ReleaseSchema(schema)
		return err
	}
	return nil
}

// ExportRecord fills out with rec as a struct array without nulls whose
// children are the columns and, when schema is not nil, schema with rec's
// schema (see [ExportSchema]).
func ExportRecord(rec *alkaid.Record, out *ArrowArray, schema *ArrowSchema) error {
	if rec == nil || out == nil {
		return fmt.Errorf("cdata: %w: export: nil record or ArrowArray", ErrInvalid)
	}
	if schema != nil {
		if err := ExportSchema(rec.Schema(), schema); err != nil {
			return err
		}
	}
	if err := exportRootArray(recordData(rec), out); err != nil {
		ReleaseSchema(schema)
		return err
	}
	return nil
}

// recordData is rec as the struct array the interface carries it as.
func recordData(rec *alkaid.Record) *array.Data {
	cols := make([]*array.Data, rec.NumCols())
	for i := range cols {
		cols[i] = rec.Column(i).Data()
	}
	t := datatype.StructOf(rec.Schema().Fields()...)
	return array.NewData(t, rec.NumRows(), []*memory.Buffer{nil}, cols, 0, 0)
}

func exportRootArray(d *array.Data, out *ArrowArray) error {
	if err := exportData(d, out, 0); err != nil {
		C.alk_release_array(out)
		return err
	}
	return nil
}

// exportData fills one array node and, recursively, its children and
// dictionary. The node is made releasable first, so that a failure below
// leaves a tree that alk_release_array frees.
func exportData(d *array.Data, out *ArrowArray, depth int) error {
	node := &exportedNode{data: d}
	*out = ArrowArray{}
	liveExports.Add(1)
	C.alk_set_array_release(out, C.uintptr_t(cgo.NewHandle(node)))
	if depth > maxDepth {
		return fmt.Errorf("cdata: %w: export: array nests deeper than %d", ErrNotSupported, maxDepth)
	}
	out.length = C.int64_t(d.Length)
	out.offset = C.int64_t(d.Offset)
	out.null_count = C.int64_t(d.NullCount)

	bufs := d.Buffers
	storage := datatype.StorageOf(d.Type)
	if k := storage.Kind(); k == datatype.KindNull || k == datatype.KindRunEndEncoded {
		bufs = nil // no buffers in the interface, whatever the data holds
	}
	isView := storage.Kind() == datatype.KindBinaryView || storage.Kind() == datatype.KindStringView
	nbuf, nvar := len(bufs), 0
	if isView {
		if len(bufs) < 2 {
			return fmt.Errorf("cdata: %w: export: view array with %d buffers", ErrInvalid, len(bufs))
		}
		nvar = len(bufs) - 2
		nbuf++ // the variadic buffers' lengths come last
	}
	if nbuf > 0 {
		// One block: the buffer pointers, then the variadic lengths.
		ptrSize := unsafe.Sizeof(uintptr(0))
		block := C.calloc(1, C.size_t(uintptr(nbuf)*ptrSize+uintptr(max(nvar, 1))*8))
		ptrs := unsafe.Slice((*unsafe.Pointer)(block), nbuf)
		out.buffers = (*unsafe.Pointer)(block)
		out.n_buffers = C.int64_t(nbuf)
		for i, b := range bufs {
			p := unsafe.Pointer(unsafe.SliceData(b.Bytes()))
			switch {
			case p != nil:
				node.pins.Pin(p)
			case i > 0 || !hasValidity(storage):
				p = unsafe.Pointer(C.alk_zero_ptr()) // never NULL but for validity
			}
			ptrs[i] = p
		}
		if isView {
			lens := unsafe.Slice((*C.int64_t)(unsafe.Add(block, uintptr(nbuf)*ptrSize)), max(nvar, 1))
			for i, b := range bufs[2:] {
				lens[i] = C.int64_t(b.Len())
			}
			ptrs[nbuf-1] = unsafe.Pointer(&lens[0])
		}
	}
	if len(d.Children) > 0 {
		ptrs, structs := allocChildren[ArrowArray](len(d.Children))
		out.children = (**ArrowArray)(unsafe.Pointer(&ptrs[0]))
		out.n_children = C.int64_t(len(d.Children))
		for i, c := range d.Children {
			ptrs[i] = &structs[i]
			if err := exportData(c, &structs[i], depth+1); err != nil {
				return err
			}
		}
	}
	if d.Dictionary != nil {
		out.dictionary = (*ArrowArray)(C.calloc(1, C.size_t(unsafe.Sizeof(ArrowArray{}))))
		if err := exportData(d.Dictionary, out.dictionary, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// hasValidity reports whether the first buffer of t's layout is a
// validity bitmap (which may be NULL in the interface).
func hasValidity(t datatype.DataType) bool {
	l := datatype.LayoutOf(t)
	return len(l.Buffers) > 0 && l.Buffers[0].Kind == datatype.BufferValidity
}
