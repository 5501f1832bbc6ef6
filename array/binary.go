package array

import (
	"encoding/binary"
	"unsafe"

	"github.com/alkaid-go/alkaid/memory"
)

// Offset is the type of list and binary offsets: int32, or int64 for the
// large variants.
type Offset interface{ ~int32 | ~int64 }

// Binary is an array of variable-size byte strings with offsets of type
// O; it serves binary, utf8 and their large (int64) variants.
//
//	offsets [0 3 3 3 7]   slot i is data[offsets[i]:offsets[i+1]]
//	data    "joemark"
type Binary[O Offset] struct {
	base
	offsets []O // the Len()+1 offsets of this array's slots
	bytes   []byte
}

// Aliases for the binary arrays of each offset width. String arrays
// (utf8, large_utf8) use the same types, also named String and
// LargeString; [Binary.ValueString] reads a slot as a string.
type (
	BinaryArray      = Binary[int32]
	LargeBinaryArray = Binary[int64]
	String           = Binary[int32]
	LargeString      = Binary[int64]
)

func newBinary[O Offset](d *Data) *Binary[O] {
	a := &Binary[O]{bytes: d.Buffers[2].Bytes()}
	a.init(d)
	a.offsets = offsetsOf[O](d)
	return a
}

// offsetsOf returns the Len()+1 offsets of a binary or list array; an
// empty array may come without any offset (some writers omit it).
func offsetsOf[O Offset](d *Data) []O {
	all := memory.View[O](d.Buffers[1])
	if len(all) == 0 && d.Length == 0 {
		return make([]O, 1)
	}
	return all[d.Offset : d.Offset+d.Length+1]
}

// Value returns slot i's bytes without copying; do not modify them.
func (a *Binary[O]) Value(i int) []byte {
	lo, hi := a.offsets[i], a.offsets[i+1]
	return a.bytes[lo:hi:hi]
}

// ValueString returns slot i as a string without copying. The string
// shares the array's memory, which must then not change (arrays never do).
func (a *Binary[O]) ValueString(i int) string {
	b := a.Value(i)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// ValueLen is the byte length of slot i.
func (a *Binary[O]) ValueLen(i int) int { return int(a.offsets[i+1] - a.offsets[i]) }

// Offsets returns the Len()+1 offsets of the slots (into [Binary.Data]'s
// data buffer, not rebased to zero).
func (a *Binary[O]) Offsets() []O { return a.offsets }

// ValueBytes returns the whole data buffer.
func (a *Binary[O]) ValueBytes() []byte { return a.bytes }

// String prints the values.
func (a *Binary[O]) String() string { return Format(a) }

// ViewInlineMax is the longest value a view stores inline.
const ViewInlineMax = 12

// BinaryView is an array of byte strings stored as 16-byte views: length,
// then either the value inline (≤ 12 bytes) or a 4-byte prefix, a data
// buffer index and an offset. It serves binary_view and utf8_view.
//
//	view  [len:int32][inline data, 12 bytes]                  len ≤ 12
//	view  [len:int32][prefix:4][buffer index:int32][offset:int32]  len > 12
type BinaryView struct {
	base
	views []byte // 16 bytes per slot, from slot 0 of this array
	data  [][]byte
}

func newBinaryView(d *Data) *BinaryView {
	a := &BinaryView{}
	a.init(d)
	a.views = d.Buffers[1].Bytes()[16*d.Offset : 16*(d.Offset+d.Length)]
	a.data = make([][]byte, len(d.Buffers)-2)
	for i, b := range d.Buffers[2:] {
		a.data[i] = b.Bytes()
	}
	return a
}

// Value returns slot i's bytes without copying; do not modify them.
func (a *BinaryView) Value(i int) []byte {
	v := a.views[16*i : 16*i+16]
	n := int(int32(binary.LittleEndian.Uint32(v)))
	if n <= ViewInlineMax {
		return v[4 : 4+n : 4+n]
	}
	buf := binary.LittleEndian.Uint32(v[8:])
	off := int(binary.LittleEndian.Uint32(v[12:]))
	return a.data[buf][off : off+n : off+n]
}

// ValueString returns slot i as a string without copying.
func (a *BinaryView) ValueString(i int) string {
	b := a.Value(i)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// ValueLen is the byte length of slot i.
func (a *BinaryView) ValueLen(i int) int {
	return int(int32(binary.LittleEndian.Uint32(a.views[16*i:])))
}

// NumDataBuffers is the number of variadic data buffers.
func (a *BinaryView) NumDataBuffers() int { return len(a.data) }

// String prints the values.
func (a *BinaryView) String() string { return Format(a) }
