package cdata

/*
#include "abi.h"
*/
import "C"

import (
	"encoding/binary"
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// maxEnd bounds offset+length of an imported array, so that no buffer
// size computed from them overflows.
const maxEnd = 1 << 48

// ImportArray moves a (and s, which describes it) into Go: the field from
// s (released at once) and an array over a's buffers, which the producer
// releases when the garbage collector finds the array unreachable. On
// error both are released too (a at once when nothing was built over it).
func ImportArray(a *ArrowArray, s *ArrowSchema, opts ...Option) (datatype.Field, array.Array, error) {
	if err := checkLiveArray(a); err != nil {
		ReleaseSchema(s)
		return datatype.Field{}, nil, err
	}
	f, err := ImportField(s, opts...)
	if err != nil {
		ReleaseArray(a)
		return datatype.Field{}, nil, err
	}
	arr, err := ImportArrayOf(a, f.Type, opts...)
	return f, arr, err
}

// ImportArrayOf is [ImportArray] for a producer that sent the type apart
// (a stream's batches, say).
func ImportArrayOf(a *ArrowArray, t datatype.DataType, opts ...Option) (array.Array, error) {
	if err := checkLiveArray(a); err != nil {
		return nil, err
	}
	cfg := newConfig(opts)
	c, owner, release := moveArray(a)
	d, err := importData(c, t, owner, nil, 0, &budget{maxNodes: cfg.maxNodes})
	if err == nil {
		var arr array.Array
		if arr, err = makeArray(d, cfg); err == nil {
			return arr, nil
		}
	}
	release()
	return nil, fmt.Errorf("cdata: import array: %w", err)
}

// ImportRecord moves a record batch in: a, a struct array without nulls
// whose children are the columns, and s, its schema (see [ImportSchema]).
func ImportRecord(a *ArrowArray, s *ArrowSchema, opts ...Option) (*alkaid.Record, error) {
	if err := checkLiveArray(a); err != nil {
		ReleaseSchema(s)
		return nil, err
	}
	schema, err := ImportSchema(s, opts...)
	if err != nil {
		ReleaseArray(a)
		return nil, err
	}
	return ImportRecordOf(a, schema, opts...)
}

// ImportRecordOf is [ImportRecord] for a producer that sent the schema
// apart (a stream's batches).
func ImportRecordOf(a *ArrowArray, schema *alkaid.Schema, opts ...Option) (*alkaid.Record, error) {
	arr, err := ImportArrayOf(a, datatype.StructOf(schema.Fields()...), opts...)
	if err != nil {
		return nil, err
	}
	d := arr.Data()
	if d.NullCount != 0 {
		return nil, invalidf("import record: the struct array has %d nulls", d.NullCount)
	}
	cols := make([]array.Array, len(d.Children))
	for i, c := range d.Children {
		// Validated with the struct: each child covers offset+length.
		cols[i] = array.MustMake(c.Slice(d.Offset, d.Offset+d.Length))
	}
	rec, err := alkaid.NewRecord(schema, cols, d.Length)
	if err != nil {
		return nil, fmt.Errorf("cdata: %w: import record: %w", ErrInvalid, err)
	}
	return rec, nil
}

func makeArray(d *array.Data, c config) (array.Array, error) {
	arr, err := array.MakeWith(d, array.ValidationOptions{Level: c.validation})
	if err != nil {
		return nil, fmt.Errorf("cdata: %w: %w", ErrInvalid, err)
	}
	return arr, nil
}

func checkLiveArray(a *ArrowArray) error {
	if a == nil {
		return invalidf("import: nil ArrowArray")
	}
	if a.release == nil {
		return invalidf("import: the ArrowArray is released (release is NULL)")
	}
	return nil
}

// liveImports counts imported arrays not yet released (for tests).
var liveImports atomic.Int64

// moveArray moves a into C memory of our own (a is left released) and
// returns the moved struct, the memory owner of its buffers, whose cleanup releases it, and
// a function that releases it at once (for a failed import: nothing was
// built over it). The release runs exactly once either way.
func moveArray(a *ArrowArray) (*ArrowArray, *memory.Foreign, func()) {
	c := NewArrowArray()
	*c = *a
	a.release = nil
	done := new(atomic.Bool)
	liveImports.Add(1)
	release := func() {
		if done.CompareAndSwap(false, true) {
			C.alk_call_array_release(c)
			Free(c)
			liveImports.Add(-1)
		}
	}
	return c, memory.NewForeign("imported C data array", 0, release), release
}

// importData builds the Data of one array node of type t over a's
// buffers, after checking a's counts, length and offset against t.
func importData(a *ArrowArray, t datatype.DataType, owner *memory.Foreign, path *nodePath, depth int, b *budget) (*array.Data, error) {
	at := func() string {
		if path == nil {
			return "the root array"
		}
		return "array " + path.String()
	}
	if depth > maxDepth {
		return nil, invalidf("%s nests deeper than %d levels", at(), maxDepth)
	}
	if err := b.visit(at); err != nil {
		return nil, err
	}
	length, offset, nulls := int64(a.length), int64(a.offset), int64(a.null_count)
	switch {
	case length < 0:
		return nil, invalidf("%s: length is %d", at(), length)
	case offset < 0:
		return nil, invalidf("%s: offset is %d", at(), offset)
	case length > maxEnd || offset > maxEnd-length:
		return nil, invalidf("%s: offset %d + length %d is out of range", at(), offset, length)
	case nulls < -1 || nulls > length:
		return nil, invalidf("%s: null_count is %d for length %d", at(), nulls, length)
	}
	if length == 0 {
		offset = 0 // no slot is read: an empty array needs no room
	}
	storage := datatype.StorageOf(t)
	kind := storage.Kind()
	layout := datatype.LayoutOf(storage)
	isView := layout.Variadic
	nbuf := int64(a.n_buffers)
	want := int64(len(layout.Buffers))
	switch {
	case isView && nbuf < want+1:
		return nil, invalidf("%s: %s array has %d buffers, want at least %d", at(), t, nbuf, want+1)
	case !isView && nbuf != want:
		return nil, invalidf("%s: %s array has %d buffers, want %d", at(), t, nbuf, want)
	case nbuf > maxChildren:
		return nil, invalidf("%s: n_buffers is %d", at(), nbuf)
	case nbuf > 0 && a.buffers == nil:
		return nil, invalidf("%s: n_buffers is %d but buffers is NULL", at(), nbuf)
	}
	childFields := datatype.Children(storage)
	if n := int64(a.n_children); n != int64(len(childFields)) {
		return nil, invalidf("%s: %s array has %d children, want %d", at(), t, n, len(childFields))
	}
	if len(childFields) > 0 && a.children == nil {
		return nil, invalidf("%s: n_children is %d but children is NULL", at(), len(childFields))
	}
	dt, isDict := storage.(*datatype.DictionaryType)
	switch {
	case isDict && a.dictionary == nil:
		return nil, invalidf("%s: dictionary-encoded array without a dictionary", at())
	case !isDict && a.dictionary != nil:
		return nil, invalidf("%s: %s array has a dictionary", at(), t)
	}

	ptrs := unsafe.Slice((*unsafe.Pointer)(unsafe.Pointer(a.buffers)), nbuf)
	end := offset + length
	bufs := make([]*memory.Buffer, 0, nbuf)
	for i, spec := range layout.Buffers {
		p := ptrs[i]
		var size int64
		switch spec.Kind {
		case datatype.BufferValidity, datatype.BufferBitmap:
			size = (end + 7) / 8
		case datatype.BufferFixedWidth:
			size = end * int64(spec.ByteWidth)
			if isOffsets(kind, i) {
				size = (end + 1) * int64(spec.ByteWidth)
			}
		case datatype.BufferData:
			last, err := lastOffset(bufs[1], int(end), layout.Buffers[1].ByteWidth)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", at(), err)
			}
			size = last
		}
		if p == nil {
			switch {
			case spec.Kind == datatype.BufferValidity:
				if nulls > 0 {
					return nil, invalidf("%s: null_count is %d but the validity buffer is NULL", at(), nulls)
				}
				bufs = append(bufs, nil)
				continue
			case length == 0 || size == 0:
				// An empty array (or buffer) may be NULL; give it zeros
				// where a reader looks (the first offset).
				bufs = append(bufs, memory.NewBuffer(make([]byte, min(size, 8))))
				continue
			default:
				return nil, invalidf("%s: buffer %d is NULL", at(), i)
			}
		}
		bufs = append(bufs, owner.Buffer(p, int(size)))
		owner.Account(size)
	}
	if isView {
		nvar := nbuf - want - 1
		lensPtr := ptrs[nbuf-1]
		if nvar > 0 && lensPtr == nil {
			return nil, invalidf("%s: the variadic buffer lengths buffer is NULL", at())
		}
		var lens []int64
		if nvar > 0 {
			lens = unsafe.Slice((*int64)(lensPtr), nvar)
		}
		for i, n := range lens {
			p := ptrs[int(want)+i]
			switch {
			case n < 0:
				return nil, invalidf("%s: variadic buffer %d has length %d", at(), i, n)
			case p == nil && n > 0:
				return nil, invalidf("%s: variadic buffer %d is NULL", at(), i)
			}
			bufs = append(bufs, owner.Buffer(p, int(n)))
			owner.Account(n)
		}
	}

	var children []*array.Data
	if len(childFields) > 0 {
		cptrs := unsafe.Slice((**ArrowArray)(unsafe.Pointer(a.children)), len(childFields))
		for i, cf := range childFields {
			c := cptrs[i]
			cpath := childPath(path, i, func() string { return cf.Name })
			if c == nil {
				return nil, invalidf("%s: child %d is NULL", at(), i)
			}
			if c.release == nil {
				return nil, invalidf("%s: child %d is released", at(), i)
			}
			cd, err := importData(c, cf.Type, owner, cpath, depth+1, b)
			if err != nil {
				return nil, err
			}
			children = append(children, cd)
		}
	}
	if kind == datatype.KindStruct || kind == datatype.KindSparseUnion {
		unsliceChildren(children, offset, length)
	}
	switch kind {
	case datatype.KindNull:
		nulls = length
	case datatype.KindSparseUnion, datatype.KindDenseUnion, datatype.KindRunEndEncoded:
		nulls = 0
	}
	d := array.NewData(t, int(length), bufs, children, int(nulls), int(offset))
	if isDict {
		if a.dictionary.release == nil {
			return nil, invalidf("%s: dictionary is released", at())
		}
		dict, err := importData(a.dictionary, dt.Value, owner, dictPath(path), depth+1, b)
		if err != nil {
			return nil, err
		}
		d.Dictionary = dict
	}
	return d, nil
}

// isOffsets reports whether buffer i of kind k holds offsets, one more
// than there are slots.
func isOffsets(k datatype.Kind, i int) bool {
	switch k {
	case datatype.KindBinary, datatype.KindString, datatype.KindLargeBinary, datatype.KindLargeString,
		datatype.KindList, datatype.KindLargeList, datatype.KindMap:
		return i == 1
	}
	return false
}

// lastOffset reads offsets[end], the size of a binary array's data.
func lastOffset(offsets *memory.Buffer, end, width int) (int64, error) {
	b := offsets.Bytes()
	if len(b) < (end+1)*width {
		return 0, nil // an empty array without offsets: no data either
	}
	var v int64
	if width == 4 {
		v = int64(int32(binary.LittleEndian.Uint32(b[end*4:])))
	} else {
		v = int64(binary.LittleEndian.Uint64(b[end*8:]))
	}
	if v < 0 || v > maxEnd {
		return 0, invalidf("last offset %d is out of range", v)
	}
	return v, nil
}

// unsliceChildren undoes a producer's slicing of struct and sparse union
// children by their parent's offset. The interface applies a parent's
// offset to its children too, so they must cover offset+length slots;
// arrow-go (v18.8.0) exports a sliced struct or sparse union with its
// children already sliced by the parent's offset as well, which leaves
// them too short. A child too short for the parent, whose own offset
// includes the parent's, is read as such a slice: the same memory, seen
// from offset slots earlier.
func unsliceChildren(children []*array.Data, offset, length int64) {
	if offset == 0 {
		return
	}
	for i, c := range children {
		if int64(c.Length) < offset+length && int64(c.Length) >= length && int64(c.Offset) >= offset {
			u := array.NewData(c.Type, c.Length+int(offset), c.Buffers, c.Children, array.UnknownNullCount, c.Offset-int(offset))
			u.Dictionary = c.Dictionary
			children[i] = u
		}
	}
}
