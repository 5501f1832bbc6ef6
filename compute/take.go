package compute

import (
	"math"
	"sort"
	"unsafe"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// Take returns the slots of a at the given indices, in order: slot i of
// the result is slot indices[i] of a, or null when indices[i] is null.
// indices is an array of any integer type; every non-null index must lie
// in [0, a.Len()), or the error wraps [ErrIndexOutOfBounds]. Indices may
// repeat and come in any order.
//
// Every type is supported, nested ones included: lists gather their
// child ranges, list views and dense unions share their children and
// gather offsets, structs and sparse unions take every child, dictionary
// arrays take their indices and keep the dictionary, run-end encoded
// arrays come out re-encoded (equal neighbours merged into runs),
// extension arrays take their storage. Binary views share their data
// buffers. The result is a new array at offset 0 (nested children may
// share memory with a).
//
// The input must be valid as [array.ValidateSafe] checks (arrays from
// this library's builders and IPC readers are).
func Take(a array.Array, indices array.Array) (array.Array, error) {
	idx, nullIdx, err := indexList(indices, a.Len())
	if err != nil {
		return nil, err
	}
	return takeArray(a, idx, nullIdx)
}

// TakeRecord takes the rows of r at indices (see [Take]) from every
// column.
func TakeRecord(r *alkaid.Record, indices array.Array) (*alkaid.Record, error) {
	idx, nullIdx, err := indexList(indices, r.NumRows())
	if err != nil {
		return nil, err
	}
	cols := make([]array.Array, r.NumCols())
	for i := range cols {
		if cols[i], err = takeArray(r.Column(i), idx, nullIdx); err != nil {
			return nil, err
		}
	}
	return newRecord(r.Schema(), cols, len(idx))
}

// TakeChunked takes the rows of c at indices, numbered across chunks
// (see [Take]). A column of several chunks is concatenated first, so the
// result has one chunk.
func TakeChunked(c *alkaid.Chunked, indices array.Array) (*alkaid.Chunked, error) {
	idx, nullIdx, err := indexList(indices, c.Len())
	if err != nil {
		return nil, err
	}
	return takeChunked(c, idx, nullIdx)
}

// TakeTable takes the rows of t at indices from every column (see
// [TakeChunked]).
func TakeTable(t *alkaid.Table, indices array.Array) (*alkaid.Table, error) {
	idx, nullIdx, err := indexList(indices, t.NumRows())
	if err != nil {
		return nil, err
	}
	cols := make([]*alkaid.Chunked, t.NumCols())
	for i := range cols {
		if cols[i], err = takeChunked(t.Column(i), idx, nullIdx); err != nil {
			return nil, err
		}
	}
	return alkaid.NewTable(t.Schema(), cols)
}

// newRecord builds the result record; null indices that put nulls into
// a non-nullable field make it an error.
func newRecord(s *alkaid.Schema, cols []array.Array, n int) (*alkaid.Record, error) {
	r, err := alkaid.NewRecord(s, cols, n)
	if err != nil {
		return nil, errf(ErrInvalid, "%v", err)
	}
	return r, nil
}

func takeChunked(c *alkaid.Chunked, idx []int, nullIdx bool) (*alkaid.Chunked, error) {
	chunks := c.Chunks()
	var whole array.Array
	switch len(chunks) {
	case 0:
		b, err := array.TryNewBuilder(c.DataType())
		if err != nil {
			return nil, errf(ErrNotSupported, "take %s: %v", c.DataType(), err)
		}
		whole = b.NewArray()
	case 1:
		whole = chunks[0]
	default:
		var err error
		if whole, err = array.Concatenate(chunks...); err != nil {
			return nil, errf(ErrInvalid, "take: %v", err)
		}
	}
	out, err := takeArray(whole, idx, nullIdx)
	if err != nil {
		return nil, err
	}
	return alkaid.NewChunked(c.DataType(), []array.Array{out})
}

func takeArray(a array.Array, idx []int, nullIdx bool) (array.Array, error) {
	d, err := takeData(a.Data(), idx, nullIdx)
	if err != nil {
		return nil, err
	}
	out, err := array.Make(d)
	if err != nil {
		return nil, errf(ErrInvalid, "take %s: %v", a.DataType(), err)
	}
	return out, nil
}

// indexList converts an integer index array into positions, -1 for a
// null index, checking every other index against n. The slice may share
// memory with indices (it is never written).
func indexList(indices array.Array, n int) (idx []int, nullIdx bool, err error) {
	valid, off := bitmapOf(indices.Data())
	switch x := indices.(type) {
	case *array.Int8:
		return toIndices(x.Values(), valid, off, n)
	case *array.Int16:
		return toIndices(x.Values(), valid, off, n)
	case *array.Int32:
		return toIndices(x.Values(), valid, off, n)
	case *array.Int64:
		return toIndices(x.Values(), valid, off, n)
	case *array.Uint8:
		return toIndices(x.Values(), valid, off, n)
	case *array.Uint16:
		return toIndices(x.Values(), valid, off, n)
	case *array.Uint32:
		return toIndices(x.Values(), valid, off, n)
	case *array.Uint64:
		return toIndices(x.Values(), valid, off, n)
	}
	return nil, false, errf(ErrInvalid, "take: indices of type %s, want an integer type", indices.DataType())
}

func toIndices[T Integer](v []T, valid []byte, off, n int) ([]int, bool, error) {
	var zero T
	bad := func(i int) error {
		return errf(ErrIndexOutOfBounds, "take: index %v (slot %d) outside [0, %d)", v[i], i, n)
	}
	if valid == nil && unsafe.Sizeof(zero) == 8 && unsafe.Sizeof(int(0)) == 8 && zero-1 < 0 {
		// int64 indices without nulls serve as they are.
		for i, x := range v {
			if uint64(x) >= uint64(n) {
				return nil, false, bad(i)
			}
		}
		return castSlice[int](v), false, nil
	}
	out := make([]int, len(v))
	nullIdx := false
	for i, x := range v {
		if valid != nil && !bitutil.GetBit(valid, off+i) {
			out[i], nullIdx = -1, true
			continue
		}
		if uint64(x) >= uint64(n) || (zero-1 < 0 && x < 0) {
			return nil, false, bad(i)
		}
		out[i] = int(x)
	}
	return out, nullIdx, nil
}

// takeData gathers the slots idx of d (positions relative to d's first
// slot, -1 for a null slot; nullIdx says whether there is any -1).
func takeData(d *array.Data, idx []int, nullIdx bool) (*array.Data, error) {
	if ext, ok := d.Type.(datatype.ExtensionType); ok {
		s := *d
		s.Type = ext.StorageType()
		out, err := takeData(&s, idx, nullIdx)
		if err != nil {
			return nil, err
		}
		out.Type = d.Type
		return out, nil
	}
	n := len(idx)
	t := d.Type
	switch t.Kind() {
	case datatype.KindNull:
		return array.NewData(t, n, nil, nil, n, 0), nil
	case datatype.KindBool:
		valid, nulls := takeValidity(d, idx, nullIdx)
		vals := memory.Allocate(nil, bitutil.BytesForBits(n))
		src, out := d.Buffers[1].Bytes(), vals.Bytes()
		for i, j := range idx {
			if j >= 0 && bitutil.GetBit(src, d.Offset+j) {
				out[i>>3] |= 1 << (i & 7)
			}
		}
		return array.NewData(t, n, []*memory.Buffer{valid, vals}, nil, nulls, 0), nil
	case datatype.KindBinary, datatype.KindString:
		return takeBinary[int32](d, idx, nullIdx)
	case datatype.KindLargeBinary, datatype.KindLargeString:
		return takeBinary[int64](d, idx, nullIdx)
	case datatype.KindBinaryView, datatype.KindStringView:
		valid, nulls := takeValidity(d, idx, nullIdx)
		bufs := append([]*memory.Buffer{valid, gatherFixed(d.Buffers[1], d.Offset, 16, idx)}, d.Buffers[2:]...)
		return array.NewData(t, n, bufs, nil, nulls, 0), nil
	case datatype.KindList, datatype.KindMap:
		return takeList[int32](d, idx, nullIdx)
	case datatype.KindLargeList:
		return takeList[int64](d, idx, nullIdx)
	case datatype.KindListView:
		return takeListView[int32](d, idx, nullIdx), nil
	case datatype.KindLargeListView:
		return takeListView[int64](d, idx, nullIdx), nil
	case datatype.KindFixedSizeList:
		size := int(t.(*datatype.ListType).Size())
		cidx := make([]int, n*size)
		for i, j := range idx {
			for k := range size {
				if j < 0 {
					cidx[i*size+k] = -1
				} else {
					cidx[i*size+k] = (d.Offset+j)*size + k
				}
			}
		}
		child, err := takeData(d.Children[0], cidx, nullIdx)
		if err != nil {
			return nil, err
		}
		valid, nulls := takeValidity(d, idx, nullIdx)
		return array.NewData(t, n, []*memory.Buffer{valid}, []*array.Data{child}, nulls, 0), nil
	case datatype.KindStruct:
		shifted := shift(idx, d.Offset)
		children := make([]*array.Data, len(d.Children))
		for i, c := range d.Children {
			var err error
			if children[i], err = takeData(c, shifted, nullIdx); err != nil {
				return nil, err
			}
		}
		valid, nulls := takeValidity(d, idx, nullIdx)
		return array.NewData(t, n, []*memory.Buffer{valid}, children, nulls, 0), nil
	case datatype.KindSparseUnion, datatype.KindDenseUnion:
		return takeUnion(d, idx, nullIdx)
	case datatype.KindDictionary:
		ind := *d
		ind.Type = t.(*datatype.DictionaryType).Index
		ind.Dictionary = nil
		out, err := takeData(&ind, idx, nullIdx)
		if err != nil {
			return nil, err
		}
		out.Type, out.Dictionary = t, d.Dictionary
		return out, nil
	case datatype.KindRunEndEncoded:
		return takeRunEnds(d, idx, nullIdx)
	}
	if !datatype.IsFixedWidth(t) {
		return nil, errf(ErrNotSupported, "take %s", t)
	}
	valid, nulls := takeValidity(d, idx, nullIdx)
	vals := gatherFixed(d.Buffers[1], d.Offset, datatype.ByteWidth(t), idx)
	return array.NewData(t, n, []*memory.Buffer{valid, vals}, nil, nulls, 0), nil
}

// shift returns idx with off added to every non-negative entry.
func shift(idx []int, off int) []int {
	if off == 0 {
		return idx
	}
	out := make([]int, len(idx))
	for i, j := range idx {
		out[i] = j
		if j >= 0 {
			out[i] = j + off
		}
	}
	return out
}

// takeValidity returns the validity of the taken slots: valid when the
// index is not null and the slot it selects is valid.
func takeValidity(d *array.Data, idx []int, nullIdx bool) (*memory.Buffer, int) {
	src, off := bitmapOf(d)
	if src == nil && !nullIdx {
		return nil, 0
	}
	n := len(idx)
	buf := memory.Allocate(nil, bitutil.BytesForBits(n))
	out := buf.Bytes()
	nulls := 0
	for i, j := range idx {
		if j >= 0 && (src == nil || bitutil.GetBit(src, off+j)) {
			out[i>>3] |= 1 << (i & 7)
		} else {
			nulls++
		}
	}
	if nulls == 0 {
		return nil, 0
	}
	return buf, nulls
}

// gatherFixed gathers slots of width bytes from buf (slot 0 at off);
// slots of null indices are zero.
func gatherFixed(buf *memory.Buffer, off, width int, idx []int) *memory.Buffer {
	n := len(idx)
	out := memory.Allocate(nil, n*width)
	src := buf.Bytes()[off*width:]
	dst := out.Bytes()
	switch width {
	case 0:
	case 1:
		gather(dst, src, idx)
	case 2:
		gather(memory.ViewBytes[uint16](dst), memory.ViewBytes[uint16](src), idx)
	case 4:
		gather(memory.ViewBytes[uint32](dst), memory.ViewBytes[uint32](src), idx)
	case 8:
		gather(memory.ViewBytes[uint64](dst), memory.ViewBytes[uint64](src), idx)
	case 16:
		gather(memory.ViewBytes[[2]uint64](dst), memory.ViewBytes[[2]uint64](src), idx)
	case 32:
		gather(memory.ViewBytes[[4]uint64](dst), memory.ViewBytes[[4]uint64](src), idx)
	default:
		for i, j := range idx {
			if j >= 0 {
				copy(dst[i*width:(i+1)*width], src[j*width:(j+1)*width])
			}
		}
	}
	return out
}

func gather[T any](dst, src []T, idx []int) {
	dst = dst[:len(idx)]
	for i, j := range idx {
		if j >= 0 {
			dst[i] = src[j]
		}
	}
}

// offsetsView returns the Length+1 offsets of a binary or list data.
func offsetsView[O array.Offset](d *array.Data) []O {
	all := memory.View[O](d.Buffers[1])
	if len(all) == 0 && d.Length == 0 {
		return make([]O, 1)
	}
	return all[d.Offset : d.Offset+d.Length+1]
}

func maxOffset[O array.Offset]() int64 {
	var o O
	if unsafe.Sizeof(o) == 4 {
		return math.MaxInt32
	}
	return math.MaxInt64
}

func takeBinary[O array.Offset](d *array.Data, idx []int, nullIdx bool) (*array.Data, error) {
	n := len(idx)
	offs := offsetsView[O](d)
	obuf, newOffs := newValues[O](n + 1)
	newOffs[0] = 0
	var total int64
	for i, j := range idx {
		if j >= 0 {
			total += int64(offs[j+1] - offs[j])
		}
		if total > maxOffset[O]() {
			return nil, errf(ErrOverflow, "take %s: %d bytes overflow the offsets", d.Type, total)
		}
		newOffs[i+1] = O(total)
	}
	data := memory.Allocate(nil, int(total))
	src, dst := d.Buffers[2].Bytes(), data.Bytes()
	for i, j := range idx {
		if j >= 0 {
			copy(dst[newOffs[i]:newOffs[i+1]], src[offs[j]:offs[j+1]])
		}
	}
	valid, nulls := takeValidity(d, idx, nullIdx)
	return array.NewData(d.Type, n, []*memory.Buffer{valid, obuf, data}, nil, nulls, 0), nil
}

func takeList[O array.Offset](d *array.Data, idx []int, nullIdx bool) (*array.Data, error) {
	n := len(idx)
	offs := offsetsView[O](d)
	obuf, newOffs := newValues[O](n + 1)
	newOffs[0] = 0
	var total int64
	for i, j := range idx {
		if j >= 0 {
			total += int64(offs[j+1] - offs[j])
		}
		if total > maxOffset[O]() {
			return nil, errf(ErrOverflow, "take %s: %d child values overflow the offsets", d.Type, total)
		}
		newOffs[i+1] = O(total)
	}
	cidx := make([]int, 0, total)
	for _, j := range idx {
		if j >= 0 {
			for k := offs[j]; k < offs[j+1]; k++ {
				cidx = append(cidx, int(k))
			}
		}
	}
	child, err := takeData(d.Children[0], cidx, false)
	if err != nil {
		return nil, err
	}
	valid, nulls := takeValidity(d, idx, nullIdx)
	return array.NewData(d.Type, n, []*memory.Buffer{valid, obuf}, []*array.Data{child}, nulls, 0), nil
}

// takeListView gathers offsets and sizes; the child is shared.
func takeListView[O array.Offset](d *array.Data, idx []int, nullIdx bool) *array.Data {
	n := len(idx)
	var zero O
	w := int(unsafe.Sizeof(zero))
	offs := gatherFixed(d.Buffers[1], d.Offset, w, idx)
	sizes := gatherFixed(d.Buffers[2], d.Offset, w, idx)
	valid, nulls := takeValidity(d, idx, nullIdx)
	return array.NewData(d.Type, n, []*memory.Buffer{valid, offs, sizes}, d.Children, nulls, 0)
}

func takeUnion(d *array.Data, idx []int, nullIdx bool) (*array.Data, error) {
	n := len(idx)
	ut := d.Type.(*datatype.UnionType)
	codes := gatherFixed(d.Buffers[0], d.Offset, 1, idx)
	if nullIdx && ut.NumFields() == 0 {
		return nil, errf(ErrNotSupported, "take: null index into a union without children")
	}
	var first int8
	if ut.NumFields() > 0 {
		first = ut.TypeCodes()[0]
	}
	cs := memory.ViewBytes[int8](codes.Bytes())
	if nullIdx {
		for i, j := range idx {
			if j < 0 {
				cs[i] = first
			}
		}
	}
	if ut.Mode() == datatype.Sparse {
		shifted := shift(idx, d.Offset)
		children := make([]*array.Data, len(d.Children))
		for i, c := range d.Children {
			var err error
			if children[i], err = takeData(c, shifted, nullIdx); err != nil {
				return nil, err
			}
		}
		return array.NewData(d.Type, n, []*memory.Buffer{codes}, children, 0, 0), nil
	}
	offs := gatherFixed(d.Buffers[1], d.Offset, 4, idx)
	children := d.Children
	if nullIdx {
		// A null slot needs a null child value: append one to the first child.
		c := d.Children[0]
		all := make([]int, c.Length+1)
		for k := range c.Length {
			all[k] = k
		}
		all[c.Length] = -1
		nc, err := takeData(c, all, true)
		if err != nil {
			return nil, err
		}
		children = append([]*array.Data{nc}, d.Children[1:]...)
		os := memory.ViewBytes[int32](offs.Bytes())
		for i, j := range idx {
			if j < 0 {
				os[i] = int32(c.Length)
			}
		}
	}
	return array.NewData(d.Type, n, []*memory.Buffer{codes, offs}, children, 0, 0), nil
}

// runEndsOf reads the run ends of a run-end encoded data as int64.
func runEndsOf(e *array.Data) []int64 {
	out := make([]int64, e.Length)
	b := e.Buffers[1].Bytes()
	switch e.Type.Kind() {
	case datatype.KindInt16:
		for i, v := range memory.ViewBytes[int16](b)[e.Offset : e.Offset+e.Length] {
			out[i] = int64(v)
		}
	case datatype.KindInt32:
		for i, v := range memory.ViewBytes[int32](b)[e.Offset : e.Offset+e.Length] {
			out[i] = int64(v)
		}
	default:
		copy(out, memory.ViewBytes[int64](b)[e.Offset:e.Offset+e.Length])
	}
	return out
}

// takeRunEnds finds the run of every taken slot and re-encodes: taken
// neighbours from the same run (or both null indices) share a run.
func takeRunEnds(d *array.Data, idx []int, nullIdx bool) (*array.Data, error) {
	n := len(idx)
	ends := runEndsOf(d.Children[0])
	et := d.Children[0].Type
	var limit int64 = math.MaxInt64
	switch et.Kind() {
	case datatype.KindInt16:
		limit = math.MaxInt16
	case datatype.KindInt32:
		limit = math.MaxInt32
	}
	if int64(n) > limit {
		return nil, errf(ErrOverflow, "take: %d slots do not fit run ends of %s", n, et)
	}
	var runEnds []int64
	var runPhys []int
	prev := -2
	for i, j := range idx {
		p := -1
		if j >= 0 {
			logical := int64(d.Offset + j)
			if prev >= 0 && ends[prev] > logical && (prev == 0 || ends[prev-1] <= logical) {
				p = prev
			} else {
				p = sort.Search(len(ends), func(k int) bool { return ends[k] > logical })
			}
		}
		if p == prev && len(runEnds) > 0 {
			runEnds[len(runEnds)-1] = int64(i + 1)
		} else {
			runEnds = append(runEnds, int64(i+1))
			runPhys = append(runPhys, p)
		}
		prev = p
	}
	values, err := takeData(d.Children[1], runPhys, nullIdx)
	if err != nil {
		return nil, err
	}
	w := datatype.ByteWidth(et)
	eb := memory.Allocate(nil, len(runEnds)*w)
	for i, e := range runEnds {
		switch w {
		case 2:
			memory.ViewBytes[int16](eb.Bytes())[i] = int16(e)
		case 4:
			memory.ViewBytes[int32](eb.Bytes())[i] = int32(e)
		default:
			memory.ViewBytes[int64](eb.Bytes())[i] = e
		}
	}
	endsData := array.NewData(et, len(runEnds), []*memory.Buffer{nil, eb}, nil, 0, 0)
	return array.NewData(d.Type, n, nil, []*array.Data{endsData, values}, 0, 0), nil
}
