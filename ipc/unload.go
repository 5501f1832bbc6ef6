package ipc

import (
	"unsafe"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// unloaded is a record batch laid out for the wire: one node per array in
// depth-first order, the buffers in order, and the variadic counts of view
// arrays. Buffers are views of the arrays' memory where the slice lines
// up, fresh copies where it does not (bit offsets, rebased offsets).
type unloaded struct {
	length   int
	nodes    [][2]int64 // length, null count
	buffers  [][]byte
	variadic []int64
	// dictionaries found, in the order of the schema's dictionary ids
	dicts []*array.Data
}

func unloadColumns(cols []*array.Data, length int) *unloaded {
	u := &unloaded{length: length}
	for _, c := range cols {
		u.data(c)
	}
	return u
}

// node records d's field node. A union's null count carries no meaning
// (unions have no validity bitmap; their nulls are their children's):
// it is written as 0 whatever the Data holds.
func (u *unloaded) node(d *array.Data) {
	nulls := int64(d.NullCount)
	if isUnion(datatype.StorageOf(d.Type).Kind()) {
		nulls = 0
	}
	u.nodes = append(u.nodes, [2]int64{int64(d.Length), nulls})
}

func isUnion(k datatype.Kind) bool {
	return k == datatype.KindSparseUnion || k == datatype.KindDenseUnion
}

// bitmap appends bits [off, off+n) of b as a buffer starting at bit 0.
func (u *unloaded) bitmap(b []byte, off, n int) {
	if off%8 == 0 {
		u.buffers = append(u.buffers, b[off/8:off/8+bitutil.BytesForBits(n)])
		return
	}
	out := make([]byte, bitutil.BytesForBits(n))
	bitutil.CopyBits(out, 0, b, off, n)
	u.buffers = append(u.buffers, out)
}

func (u *unloaded) validity(d *array.Data) {
	bits, off := d.ValidityBitmap()
	if bits == nil {
		u.buffers = append(u.buffers, nil)
		return
	}
	u.bitmap(bits, off, d.Length)
}

// fixed appends the fixed-width values (or dictionary indices) of d.
func (u *unloaded) fixed(d *array.Data) {
	u.buffers = append(u.buffers, d.ValueBytes())
}

func (u *unloaded) data(d *array.Data) {
	t := datatype.StorageOf(d.Type)
	u.node(d)
	switch t.Kind() {
	case datatype.KindNull:
	case datatype.KindBool:
		u.validity(d)
		bits, off := d.BoolBits()
		u.bitmap(bits, off, d.Length)
	case datatype.KindBinary, datatype.KindString:
		u.validity(d)
		start, end := rebase(u, array.Offsets[int32](d))
		u.buffers = append(u.buffers, d.BinaryBytes()[start:end])
	case datatype.KindLargeBinary, datatype.KindLargeString:
		u.validity(d)
		start, end := rebase(u, array.Offsets[int64](d))
		u.buffers = append(u.buffers, d.BinaryBytes()[start:end])
	case datatype.KindBinaryView, datatype.KindStringView:
		u.views(d)
	case datatype.KindList, datatype.KindMap:
		u.validity(d)
		start, end := rebase(u, array.Offsets[int32](d))
		u.data(d.Child(0).Slice(start, end))
	case datatype.KindLargeList:
		u.validity(d)
		start, end := rebase(u, array.Offsets[int64](d))
		u.data(d.Child(0).Slice(start, end))
	case datatype.KindListView:
		listView[int32](u, d)
	case datatype.KindLargeListView:
		listView[int64](u, d)
	case datatype.KindFixedSizeList:
		u.validity(d)
		size := int(t.(*datatype.ListType).Size())
		u.data(d.Children[0].Slice(d.Offset*size, (d.Offset+d.Length)*size))
	case datatype.KindStruct:
		u.validity(d)
		for _, c := range d.Children {
			u.data(c.Slice(d.Offset, d.Offset+d.Length))
		}
	case datatype.KindSparseUnion:
		u.buffers = append(u.buffers, memory.BytesOf(d.TypeCodes()))
		for _, c := range d.Children {
			u.data(c.Slice(d.Offset, d.Offset+d.Length))
		}
	case datatype.KindDenseUnion:
		u.denseUnion(d, t.(*datatype.UnionType))
	case datatype.KindDictionary:
		u.validity(d)
		u.fixed(d)
		u.dicts = append(u.dicts, d.Dictionary)
	case datatype.KindRunEndEncoded:
		ends, values := d.LogicalRuns()
		u.data(ends)
		u.data(values)
	default:
		u.validity(d)
		u.fixed(d)
	}
}

// rebase appends offs (n+1 offsets), shifted to start at zero (a view
// when they already do), and returns the range they cover.
func rebase[O int32 | int64](u *unloaded, offs []O) (int, int) {
	n := len(offs) - 1
	if n == 0 {
		// One zero offset, as the spec's layout asks even when empty.
		u.buffers = append(u.buffers, make([]byte, unsafe.Sizeof(O(0))))
		return 0, 0
	}
	start, end := offs[0], offs[n]
	if start == 0 {
		u.buffers = append(u.buffers, memory.BytesOf(offs))
		return 0, int(end)
	}
	out := make([]O, n+1)
	for i, o := range offs {
		out[i] = o - start
	}
	u.buffers = append(u.buffers, memory.BytesOf(out))
	return int(start), int(end)
}
