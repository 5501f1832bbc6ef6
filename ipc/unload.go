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
	if d.NullCount == 0 || d.Buffers[0] == nil {
		u.buffers = append(u.buffers, nil)
		return
	}
	u.bitmap(d.Buffers[0].Bytes(), d.Offset, d.Length)
}

func (u *unloaded) fixed(b *memory.Buffer, width, off, n int) {
	u.buffers = append(u.buffers, b.Bytes()[off*width:(off+n)*width])
}

func (u *unloaded) data(d *array.Data) {
	t := datatype.StorageOf(d.Type)
	u.node(d)
	switch t.Kind() {
	case datatype.KindNull:
	case datatype.KindBool:
		u.validity(d)
		u.bitmap(d.Buffers[1].Bytes(), d.Offset, d.Length)
	case datatype.KindBinary, datatype.KindString:
		u.validity(d)
		start, end := rebase[int32](u, d.Buffers[1], d.Offset, d.Length)
		u.buffers = append(u.buffers, d.Buffers[2].Bytes()[start:end])
	case datatype.KindLargeBinary, datatype.KindLargeString:
		u.validity(d)
		start, end := rebase[int64](u, d.Buffers[1], d.Offset, d.Length)
		u.buffers = append(u.buffers, d.Buffers[2].Bytes()[start:end])
	case datatype.KindBinaryView, datatype.KindStringView:
		u.views(d)
	case datatype.KindList, datatype.KindMap:
		u.validity(d)
		start, end := rebase[int32](u, d.Buffers[1], d.Offset, d.Length)
		u.data(d.Children[0].Slice(start, end))
	case datatype.KindLargeList:
		u.validity(d)
		start, end := rebase[int64](u, d.Buffers[1], d.Offset, d.Length)
		u.data(d.Children[0].Slice(start, end))
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
		u.fixed(d.Buffers[0], 1, d.Offset, d.Length)
		for _, c := range d.Children {
			u.data(c.Slice(d.Offset, d.Offset+d.Length))
		}
	case datatype.KindDenseUnion:
		u.denseUnion(d, t.(*datatype.UnionType))
	case datatype.KindDictionary:
		u.validity(d)
		u.fixed(d.Buffers[1], datatype.ByteWidth(t), d.Offset, d.Length)
		u.dicts = append(u.dicts, d.Dictionary)
	case datatype.KindRunEndEncoded:
		ends, values := sliceRuns(d)
		u.data(ends)
		u.data(values)
	default:
		u.validity(d)
		u.fixed(d.Buffers[1], datatype.ByteWidth(t), d.Offset, d.Length)
	}
}

// rebase appends the n+1 offsets from off, shifted to start at zero (a
// view when they already do), and returns the range they cover.
func rebase[O int32 | int64](u *unloaded, b *memory.Buffer, off, n int) (int, int) {
	offs := memory.View[O](b)
	if n == 0 {
		// One zero offset, as the spec's layout asks even when empty.
		u.buffers = append(u.buffers, make([]byte, unsafe.Sizeof(O(0))))
		return 0, 0
	}
	offs = offs[off : off+n+1]
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

// sliceRuns returns the run ends and values of a run-end encoded array's
// logical range [offset, offset+length), rebased to start at zero.
func sliceRuns(d *array.Data) (*array.Data, *array.Data) {
	ends, values := d.Children[0], d.Children[1]
	if d.Offset == 0 && (d.Length == 0 && ends.Length == 0 || d.Length > 0 && lastEnd(ends) == d.Length) {
		return ends, values
	}
	a := array.MustMake(ends)
	n := a.Len()
	at := func(i int) int64 { return endAt(a, i) }
	lo, hi := int64(d.Offset), int64(d.Offset+d.Length)
	first := 0
	for first < n && at(first) <= lo {
		first++
	}
	last := first
	for last < n && at(last) < hi {
		last++
	}
	if d.Length == 0 {
		return ends.Slice(0, 0), values.Slice(0, 0)
	}
	runs := last - first + 1
	width := datatype.ByteWidth(ends.Type)
	buf := memory.DefaultAllocator.Allocate(runs * width)
	for i := range runs {
		e := min(at(first+i), hi) - lo
		switch width {
		case 2:
			memory.ViewBytes[int16](buf)[i] = int16(e)
		case 4:
			memory.ViewBytes[int32](buf)[i] = int32(e)
		default:
			memory.ViewBytes[int64](buf)[i] = e
		}
	}
	newEnds := array.NewData(ends.Type, runs, []*memory.Buffer{nil, memory.NewBuffer(buf)}, nil, 0, 0)
	return newEnds, values.Slice(first, first+runs)
}

func lastEnd(ends *array.Data) int {
	a := array.MustMake(ends)
	if a.Len() == 0 {
		return 0
	}
	return int(endAt(a, a.Len()-1))
}

func endAt(a array.Array, i int) int64 {
	switch a := a.(type) {
	case *array.Int16:
		return int64(a.Value(i))
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Int64:
		return a.Value(i)
	}
	return 0
}
