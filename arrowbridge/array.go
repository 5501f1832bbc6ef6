package arrowbridge

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	amemory "github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// ErrNotSupported is datatype.ErrNotSupported, wrapped by errors about
// types one library has and the other does not.
var ErrNotSupported = datatype.ErrNotSupported

// ToArrow returns an arrow-go array sharing a's buffers: nothing is
// copied, whatever a's size. The caller owns one reference to the result
// (arrow-go's convention: Release it when done); Alkaid's memory stays
// alive while arrow-go holds it, and is the garbage collector's after, so
// Release frees nothing of Alkaid's. An extension type arrow-go does not
// know gives an array of its storage type.
func ToArrow(a array.Array) (arrow.Array, error) {
	d, err := ToArrowData(a.Data())
	if err != nil {
		return nil, err
	}
	defer d.Release()
	return aarray.MakeFromData(d), nil
}

// ToArrowData is [ToArrow] for array data; the caller owns one reference
// to the result.
func ToArrowData(d *array.Data) (arrow.ArrayData, error) {
	t, err := ToArrowType(d.Type)
	if err != nil {
		return nil, err
	}
	return toArrowData(d, t), nil
}

// keeper is the arrow-go allocator of buffers over Alkaid memory that has
// an owner (a mapped file, memory a C producer lent): holding it keeps
// the owner reachable while arrow-go holds the buffer. Free frees nothing
// (the garbage collector does); should arrow-go ever grow such a buffer,
// the new memory is plain Go memory.
type keeper struct{ owner any }

// Allocate implements arrow-go's memory.Allocator with Go memory.
func (keeper) Allocate(n int) []byte { return make([]byte, n) }

// Reallocate implements arrow-go's memory.Allocator: a copy in Go memory.
func (keeper) Reallocate(n int, b []byte) []byte {
	out := make([]byte, n)
	copy(out, b)
	return out
}

// Free implements arrow-go's memory.Allocator; it does nothing.
func (keeper) Free([]byte) {}

func toArrowBuffer(b *memory.Buffer) *amemory.Buffer {
	if b == nil {
		return nil
	}
	if o := b.Owner(); o != nil {
		return amemory.NewBufferWithAllocator(b.Bytes(), keeper{o})
	}
	return amemory.NewBufferBytes(b.Bytes())
}

// toArrowData builds arrow-go data of type t over d's buffers.
func toArrowData(d *array.Data, t arrow.DataType) arrow.ArrayData {
	storage := datatype.StorageOf(d.Type)
	var bufs []*amemory.Buffer
	switch storage.Kind() {
	case datatype.KindNull, datatype.KindRunEndEncoded:
		bufs = []*amemory.Buffer{nil} // arrow-go keeps an absent validity slot
	case datatype.KindSparseUnion, datatype.KindDenseUnion:
		bufs = append(bufs, nil)
	}
	for _, b := range d.Buffers {
		if storage.Kind() == datatype.KindNull || storage.Kind() == datatype.KindRunEndEncoded {
			break
		}
		bufs = append(bufs, toArrowBuffer(b))
	}
	var children []arrow.ArrayData
	if len(d.Children) > 0 {
		fields := arrowChildren(t)
		children = make([]arrow.ArrayData, len(d.Children))
		for i, c := range d.Children {
			children[i] = toArrowData(c, fields[i].Type)
		}
	}
	var out *aarray.Data
	if d.Dictionary != nil {
		dt := storageOfArrow(t).(*arrow.DictionaryType)
		dict := toArrowData(d.Dictionary, dt.ValueType)
		out = aarray.NewDataWithDictionary(t, d.Length, bufs, d.NullCount, d.Offset, dict.(*aarray.Data))
		dict.Release()
	} else {
		out = aarray.NewData(t, d.Length, bufs, children, d.NullCount, d.Offset)
	}
	for _, c := range children {
		c.Release() // NewData took its own references
	}
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	return out
}

func storageOfArrow(t arrow.DataType) arrow.DataType {
	if e, ok := t.(arrow.ExtensionType); ok {
		return e.StorageType()
	}
	return t
}

// arrowChildren returns the child fields of an arrow-go type in layout
// order (map: the entries struct).
func arrowChildren(t arrow.DataType) []arrow.Field {
	switch t := storageOfArrow(t).(type) {
	case *arrow.MapType:
		return []arrow.Field{t.ElemField()}
	case *arrow.RunEndEncodedType:
		return []arrow.Field{{Name: "run_ends", Type: t.RunEnds()}, {Name: "values", Type: t.Encoded()}}
	case arrow.NestedType:
		return t.Fields()
	}
	return nil
}

// FromArrow returns an Alkaid array sharing a's buffers: nothing is
// copied, whatever a's size. It takes its own reference to a (Retain),
// given back (Release) when the garbage collector finds the returned array
// and every array sharing its buffers unreachable; the caller keeps, and
// releases as usual, its own. Only the structure is checked (O(1) per
// array node, see array.Validate): arrow-go arrays built in this process
// are trusted; call array.ValidateFull on arrays of doubtful origin.
func FromArrow(a arrow.Array) (array.Array, error) {
	t, err := FromArrowType(a.DataType())
	if err != nil {
		return nil, err
	}
	return FromArrowOf(a, t)
}

// FromArrowOf is [FromArrow] with the Alkaid type given (from a field that
// names an extension type, say); t's storage must match a's layout.
func FromArrowOf(a arrow.Array, t datatype.DataType) (array.Array, error) {
	d := a.Data()
	owner := retain(d)
	ad, err := fromArrowData(d, t, owner, 0)
	if err != nil {
		return nil, err
	}
	arr, err := array.Make(ad)
	if err != nil {
		return nil, fmt.Errorf("arrowbridge: %w", err)
	}
	return arr, nil
}

// refCounted is what arrow-go counts references of (arrays, data,
// records).
type refCounted interface {
	Retain()
	Release()
}

// retain takes a reference to d, released once nothing of Alkaid's refers
// to the returned owner.
func retain(d refCounted) *memory.Foreign {
	d.Retain()
	return memory.NewForeign("arrow-go array", 0, d.Release)
}

// maxDepth bounds the nesting followed.
const maxDepth = 64

func fromArrowData(d arrow.ArrayData, t datatype.DataType, owner any, depth int) (*array.Data, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("arrowbridge: %w: arrays nest deeper than %d", ErrNotSupported, maxDepth)
	}
	storage := datatype.StorageOf(t)
	src := d.Buffers()
	switch storage.Kind() {
	case datatype.KindNull, datatype.KindRunEndEncoded:
		src = nil
	case datatype.KindSparseUnion, datatype.KindDenseUnion:
		if len(src) > 0 {
			src = src[1:] // arrow-go's absent validity slot
		}
	}
	bufs := make([]*memory.Buffer, len(src))
	for i, b := range src {
		if b != nil {
			bufs[i] = memory.NewBufferOwned(b.Bytes(), owner)
		}
	}
	fields := datatype.Children(storage)
	kids := d.Children()
	if len(kids) != len(fields) {
		return nil, fmt.Errorf("arrowbridge: %s array with %d children, want %d", t, len(kids), len(fields))
	}
	var children []*array.Data
	for i, c := range kids {
		cd, err := fromArrowData(c, fields[i].Type, owner, depth+1)
		if err != nil {
			return nil, err
		}
		children = append(children, cd)
	}
	nulls := d.NullN()
	switch storage.Kind() {
	case datatype.KindNull:
		nulls = d.Len()
	case datatype.KindSparseUnion, datatype.KindDenseUnion, datatype.KindRunEndEncoded:
		nulls = 0
	}
	out := array.NewData(t, d.Len(), bufs, children, nulls, d.Offset())
	if dt, ok := storage.(*datatype.DictionaryType); ok {
		dict := d.Dictionary()
		if dict == nil {
			return nil, fmt.Errorf("arrowbridge: dictionary array without a dictionary")
		}
		dd, err := fromArrowData(dict, dt.Value, owner, depth+1)
		if err != nil {
			return nil, err
		}
		out.Dictionary = dd
	}
	return out, nil
}
