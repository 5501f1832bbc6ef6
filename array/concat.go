package array

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// Concatenate returns one new array holding the slots of arrs in order.
// The arrays must have the same type (as [Equal] compares types; the
// result has the first one's) and may be slices at any offset. The result
// has offset 0 and fresh buffers, except that binary views keep pointing
// into the inputs' data buffers (appended, with view buffer indexes
// shifted) and a dictionary shared by every input is reused. Inputs with
// different dictionaries get one dictionary: the first input's followed by
// the values of the others it lacks, with indices remapped; it is an error
// when that dictionary has more values than the index type can address.
// It is also an error when offsets or run ends would overflow their type.
//
// The inputs must be valid as [ValidateSafe] checks (arrays from this
// package's builders and from the IPC readers are): Concatenate follows
// their offsets, views, type codes and run ends without checking them
// again, and may panic on data that only passed [Validate].
func Concatenate(arrs ...Array) (Array, error) {
	if len(arrs) == 0 {
		return nil, invalidf("concatenate: no arrays")
	}
	ds := make([]*Data, len(arrs))
	for i, a := range arrs {
		if a == nil {
			return nil, invalidf("concatenate: array %d is nil", i)
		}
		if !datatype.Equal(arrs[0].DataType(), a.DataType(), datatype.IgnoreMetadata()) {
			return nil, invalidf("concatenate: array %d has type %s, want %s", i, a.DataType(), arrs[0].DataType())
		}
		ds[i] = a.Data()
	}
	d, err := concatData(ds)
	if err != nil {
		return nil, err
	}
	return makeArray(d), nil
}

func concatErr(t datatype.DataType, format string, args ...any) error {
	return fmt.Errorf("array: concatenate %s: "+format, append([]any{t}, args...)...)
}

// concatData concatenates structurally valid data of one type.
func concatData(ds []*Data) (*Data, error) {
	total := 0
	for _, d := range ds {
		if d.Length > maxLen-total {
			return nil, concatErr(ds[0].Type, "total length overflows")
		}
		total += d.Length
	}
	out := &Data{Type: ds[0].Type, Length: total}
	t := datatype.StorageOf(out.Type)
	k := t.Kind()
	if k == datatype.KindNull {
		out.NullCount = total
		return out, nil
	}
	if k == datatype.KindRunEndEncoded {
		return out, concatRunEnds(out, ds, t.(*datatype.RunEndEncodedType))
	}
	if k.IsUnion() {
		return out, concatUnion(out, ds, t.(*datatype.UnionType))
	}
	validity, nulls := concatValidity(ds, total)
	out.NullCount = nulls
	out.Buffers = []*memory.Buffer{validity}
	var err error
	switch {
	case k == datatype.KindBool:
		buf := memory.Allocate(nil, bitutil.BytesForBits(total))
		pos := 0
		for _, d := range ds {
			bitutil.CopyBits(buf.Bytes(), pos, d.Buffers[1].Bytes(), d.Offset, d.Length)
			pos += d.Length
		}
		out.Buffers = append(out.Buffers, buf)
	case k == datatype.KindDictionary:
		err = concatDictionary(out, ds, t.(*datatype.DictionaryType))
	case datatype.IsFixedWidth(t):
		out.Buffers = append(out.Buffers, concatFixed(ds, datatype.ByteWidth(t), total))
	case k == datatype.KindBinary || k == datatype.KindString:
		err = concatBinary[int32](out, ds)
	case k == datatype.KindLargeBinary || k == datatype.KindLargeString:
		err = concatBinary[int64](out, ds)
	case k == datatype.KindBinaryView || k == datatype.KindStringView:
		concatViews(out, ds)
	case k == datatype.KindList || k == datatype.KindMap:
		err = concatList[int32](out, ds)
	case k == datatype.KindLargeList:
		err = concatList[int64](out, ds)
	case k == datatype.KindListView:
		err = concatListView[int32](out, ds)
	case k == datatype.KindLargeListView:
		err = concatListView[int64](out, ds)
	case k == datatype.KindFixedSizeList:
		size := int(t.(*datatype.ListType).Size())
		var child *Data
		child, err = concatSlices(ds, 0, func(d *Data) (int, int) { return d.Offset * size, (d.Offset + d.Length) * size })
		out.Children = []*Data{child}
	case k == datatype.KindStruct:
		out.Children = make([]*Data, len(datatype.Children(t)))
		for f := range out.Children {
			out.Children[f], err = concatSlices(ds, f, func(d *Data) (int, int) { return d.Offset, d.Offset + d.Length })
			if err != nil {
				break
			}
		}
	default:
		err = concatErr(out.Type, "unsupported type")
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// concatSlices concatenates child i of every input, each cut to the range
// span gives.
func concatSlices(ds []*Data, i int, span func(*Data) (int, int)) (*Data, error) {
	parts := make([]*Data, len(ds))
	for j, d := range ds {
		lo, hi := span(d)
		parts[j] = d.Children[i].Slice(lo, hi)
	}
	return concatData(parts)
}

// concatValidity returns the joined validity bitmap (nil when no slot is
// null) and the null count.
func concatValidity(ds []*Data, total int) (*memory.Buffer, int) {
	has := false
	for _, d := range ds {
		has = has || d.NullCount > 0
	}
	if !has {
		return nil, 0
	}
	buf := memory.Allocate(nil, bitutil.BytesForBits(total))
	b := buf.Bytes()
	pos := 0
	for _, d := range ds {
		if v := d.validity(); v != nil {
			bitutil.CopyBits(b, pos, v, d.Offset, d.Length)
		} else {
			bitutil.SetBitsTo(b, pos, d.Length, true)
		}
		pos += d.Length
	}
	return buf, total - bitutil.CountSetBits(b, 0, total)
}

func concatFixed(ds []*Data, w, total int) *memory.Buffer {
	buf := memory.Allocate(nil, total*w)
	b := buf.Bytes()
	pos := 0
	for _, d := range ds {
		pos += copy(b[pos:], d.Buffers[1].Bytes()[d.Offset*w:(d.Offset+d.Length)*w])
	}
	return buf
}

func maxOffset[O Offset]() int64 {
	if sizeOf[O]() == 4 {
		return math.MaxInt32
	}
	return math.MaxInt64
}

// concatOffsets joins the offsets of binary or list inputs, rebased to
// run on from one another, and returns each input's used range [lo, hi)
// of its data buffer or child.
func concatOffsets[O Offset](out *Data, ds []*Data) ([][2]int, error) {
	ranges := make([][2]int, len(ds))
	var size int64
	for j, d := range ds {
		if offs := offsetsView[O](d); offs != nil {
			ranges[j] = [2]int{int(offs[0]), int(offs[d.Length])}
			size += int64(offs[d.Length] - offs[0])
		}
	}
	if size > maxOffset[O]() {
		return nil, concatErr(out.Type, "%d values overflow the offsets", size)
	}
	buf := memory.Allocate(nil, (out.Length+1)*int(sizeOf[O]()))
	ov := memory.View[O](buf)
	pos, base := 0, O(0)
	for _, d := range ds {
		offs := offsetsView[O](d)
		if offs == nil {
			continue
		}
		shift := base - offs[0]
		for j, o := range offs[:d.Length] {
			ov[pos+j] = o + shift
		}
		pos += d.Length
		base += offs[d.Length] - offs[0]
	}
	ov[out.Length] = base
	out.Buffers = append(out.Buffers, buf)
	return ranges, nil
}

func concatBinary[O Offset](out *Data, ds []*Data) error {
	ranges, err := concatOffsets[O](out, ds)
	if err != nil {
		return err
	}
	size := 0
	for _, r := range ranges {
		size += r[1] - r[0]
	}
	buf := memory.Allocate(nil, size)
	pos := 0
	for j, d := range ds {
		pos += copy(buf.Bytes()[pos:], d.Buffers[2].Bytes()[ranges[j][0]:ranges[j][1]])
	}
	out.Buffers = append(out.Buffers, buf)
	return nil
}

func concatList[O Offset](out *Data, ds []*Data) error {
	ranges, err := concatOffsets[O](out, ds)
	if err != nil {
		return err
	}
	parts := make([]*Data, len(ds))
	for j, d := range ds {
		parts[j] = d.Children[0].Slice(ranges[j][0], ranges[j][1])
	}
	child, err := concatData(parts)
	out.Children = []*Data{child}
	return err
}

// concatListView cuts each input's child to the range its non-empty lists
// use and shifts the offsets to where that range lands; empty lists get
// the offset of their input's range.
func concatListView[O Offset](out *Data, ds []*Data) error {
	offBuf := memory.Allocate(nil, out.Length*int(sizeOf[O]()))
	sizeBuf := memory.Allocate(nil, out.Length*int(sizeOf[O]()))
	ov, sv := memory.View[O](offBuf), memory.View[O](sizeBuf)
	parts := make([]*Data, len(ds))
	pos := 0
	var base int64
	for j, d := range ds {
		offs := memory.View[O](d.Buffers[1])[d.Offset : d.Offset+d.Length]
		sizes := memory.View[O](d.Buffers[2])[d.Offset : d.Offset+d.Length]
		lo, hi := int64(math.MaxInt64), int64(0)
		for i, s := range sizes {
			if s > 0 {
				lo = min(lo, int64(offs[i]))
				hi = max(hi, int64(offs[i])+int64(s))
			}
		}
		if hi == 0 {
			lo = 0
		}
		if base+hi-lo > maxOffset[O]() {
			return concatErr(out.Type, "child values overflow the offsets")
		}
		for i, s := range sizes {
			sv[pos+i] = s
			ov[pos+i] = O(base)
			if s > 0 {
				ov[pos+i] = O(int64(offs[i]) - lo + base)
			}
		}
		parts[j] = d.Children[0].Slice(int(lo), int(hi))
		pos += d.Length
		base += hi - lo
	}
	child, err := concatData(parts)
	out.Buffers = append(out.Buffers, offBuf, sizeBuf)
	out.Children = []*Data{child}
	return err
}

// concatViews copies the views and appends every input's data buffers,
// shifting the buffer index of long views past the buffers before them.
func concatViews(out *Data, ds []*Data) {
	buf := memory.Allocate(nil, 16*out.Length)
	b := buf.Bytes()
	var data []*memory.Buffer
	pos := 0
	for _, d := range ds {
		shift := uint32(len(data))
		src := d.Buffers[1].Bytes()[16*d.Offset : 16*(d.Offset+d.Length)]
		copy(b[pos:], src)
		if shift > 0 {
			for v := pos; v < pos+len(src); v += 16 {
				if int32(binary.LittleEndian.Uint32(b[v:])) > ViewInlineMax {
					binary.LittleEndian.PutUint32(b[v+8:], binary.LittleEndian.Uint32(b[v+8:])+shift)
				}
			}
		}
		pos += len(src)
		data = append(data, d.Buffers[2:]...)
	}
	out.Buffers = append(out.Buffers, buf)
	out.Buffers = append(out.Buffers, data...)
}

func concatUnion(out *Data, ds []*Data, t *datatype.UnionType) error {
	codes := memory.Allocate(nil, out.Length)
	pos := 0
	for _, d := range ds {
		pos += copy(codes.Bytes()[pos:], d.Buffers[0].Bytes()[d.Offset:d.Offset+d.Length])
	}
	out.Buffers = []*memory.Buffer{codes}
	out.Children = make([]*Data, t.NumFields())
	if t.Mode() == datatype.Sparse {
		for f := range out.Children {
			var err error
			out.Children[f], err = concatSlices(ds, f, func(d *Data) (int, int) { return d.Offset, d.Offset + d.Length })
			if err != nil {
				return err
			}
		}
		return nil
	}
	// Dense: cut each child of each input to the range its offsets use,
	// and shift the offsets to where that range lands.
	index := t.ChildIndex()
	offBuf := memory.Allocate(nil, 4*out.Length)
	ov := memory.View[int32](offBuf)
	parts := make([][]*Data, t.NumFields())
	base := make([]int64, t.NumFields())
	pos = 0
	for _, d := range ds {
		dc := memory.View[int8](d.Buffers[0])[d.Offset : d.Offset+d.Length]
		offs := memory.View[int32](d.Buffers[1])[d.Offset : d.Offset+d.Length]
		lo := make([]int32, t.NumFields())
		hi := make([]int32, t.NumFields()) // one past the last used, 0 when unused
		for f := range lo {
			lo[f] = math.MaxInt32
		}
		for i, c := range dc {
			f := index[c]
			lo[f] = min(lo[f], offs[i])
			hi[f] = max(hi[f], offs[i]+1)
		}
		for i, c := range dc {
			f := index[c]
			ov[pos+i] = int32(int64(offs[i]-lo[f]) + base[f])
		}
		for f := range lo {
			if hi[f] == 0 {
				continue
			}
			parts[f] = append(parts[f], d.Children[f].Slice(int(lo[f]), int(hi[f])))
			base[f] += int64(hi[f] - lo[f])
			if base[f] > math.MaxInt32 {
				return concatErr(out.Type, "child %d overflows the offsets", f)
			}
		}
		pos += d.Length
	}
	out.Buffers = append(out.Buffers, offBuf)
	for f := range out.Children {
		if len(parts[f]) == 0 {
			parts[f] = []*Data{ds[0].Children[f].Slice(0, 0)}
		}
		var err error
		if out.Children[f], err = concatData(parts[f]); err != nil {
			return err
		}
	}
	return nil
}

func concatRunEnds(out *Data, ds []*Data, t *datatype.RunEndEncodedType) error {
	switch t.RunEnds().Type.Kind() {
	case datatype.KindInt16:
		return concatRuns[int16](out, ds, math.MaxInt16)
	case datatype.KindInt32:
		return concatRuns[int32](out, ds, math.MaxInt32)
	default:
		return concatRuns[int64](out, ds, math.MaxInt64)
	}
}

// concatRuns keeps, of each input, the runs that cover its slots, with
// run ends cut to its length and moved past the inputs before it.
func concatRuns[T ~int16 | ~int32 | ~int64](out *Data, ds []*Data, maxEnd int64) error {
	if int64(out.Length) > maxEnd {
		return concatErr(out.Type, "length %d overflows the run ends", out.Length)
	}
	var ends []T
	parts := make([]*Data, 0, len(ds))
	base := 0
	for _, d := range ds {
		if d.Length == 0 {
			continue
		}
		ed := d.Children[0]
		e := memory.View[T](ed.Buffers[1])[ed.Offset : ed.Offset+ed.Length]
		first := searchEnds(e, d.Offset)
		last := searchEnds(e, d.Offset+d.Length-1)
		for p := first; p <= last; p++ {
			ends = append(ends, T(min(int(e[p])-d.Offset, d.Length)+base))
		}
		parts = append(parts, d.Children[1].Slice(first, last+1))
		base += d.Length
	}
	if len(parts) == 0 {
		parts = append(parts, ds[0].Children[1].Slice(0, 0))
	}
	values, err := concatData(parts)
	if err != nil {
		return err
	}
	rt := ds[0].Children[0].Type
	endsData := &Data{Type: rt, Length: len(ends), Buffers: []*memory.Buffer{nil, memory.FromSlice(ends)}}
	if len(ends) == 0 {
		endsData.Buffers[1] = memory.Allocate(nil, 0)
	}
	out.Children = []*Data{endsData, values}
	return nil
}

// searchEnds returns the first run whose end is beyond logical slot i.
func searchEnds[T ~int16 | ~int32 | ~int64](e []T, i int) int {
	lo, hi := 0, len(e)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int64(e[m]) > int64(i) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

func concatDictionary(out *Data, ds []*Data, t *datatype.DictionaryType) error {
	w := datatype.ByteWidth(t.Index)
	first := ds[0].Dictionary
	same := true
	var firstArr Array
	for _, d := range ds[1:] {
		if d.Dictionary == first {
			continue
		}
		if firstArr == nil {
			firstArr = makeArray(first)
		}
		if !Equal(firstArr, makeArray(d.Dictionary)) {
			same = false
			break
		}
	}
	if same {
		out.Buffers = append(out.Buffers, concatFixed(ds, w, out.Length))
		out.Dictionary = first
		return nil
	}
	// Unify: the first dictionary whole, then each later dictionary's
	// values that are not there yet, found by a key that encodes a value
	// exactly.
	seen := map[string]int{}
	var key []byte
	size := first.Length
	remap := make([][]int, len(ds))
	parts := []*Data{first}
	for j, d := range ds {
		dict := makeArray(d.Dictionary)
		m := make([]int, d.Dictionary.Length)
		run := -1 // start of a run of new values to append
		for v := range m {
			key = appendKey(key[:0], dict, v)
			idx, ok := seen[string(key)]
			switch {
			case ok:
			case j == 0:
				idx = v
				seen[string(key)] = idx
			default:
				idx = size
				size++
				seen[string(key)] = idx
			}
			m[v] = idx
			isNew := j > 0 && !ok
			if isNew && run < 0 {
				run = v
			}
			if !isNew && run >= 0 {
				parts = append(parts, d.Dictionary.Slice(run, v))
				run = -1
			}
		}
		if run >= 0 {
			parts = append(parts, d.Dictionary.Slice(run, len(m)))
		}
		remap[j] = m
	}
	if max := maxIndex(t.Index.Kind()); uint64(size) > max+1 {
		return concatErr(out.Type, "%d dictionary values do not fit index type %s", size, t.Index)
	}
	dict, err := concatData(parts)
	if err != nil {
		return err
	}
	buf := memory.Allocate(nil, out.Length*w)
	switch t.Index.Kind() {
	case datatype.KindInt8:
		remapIndices[int8](buf, ds, remap)
	case datatype.KindInt16:
		remapIndices[int16](buf, ds, remap)
	case datatype.KindInt32:
		remapIndices[int32](buf, ds, remap)
	case datatype.KindInt64:
		remapIndices[int64](buf, ds, remap)
	case datatype.KindUint8:
		remapIndices[uint8](buf, ds, remap)
	case datatype.KindUint16:
		remapIndices[uint16](buf, ds, remap)
	case datatype.KindUint32:
		remapIndices[uint32](buf, ds, remap)
	default:
		remapIndices[uint64](buf, ds, remap)
	}
	out.Buffers = append(out.Buffers, buf)
	out.Dictionary = dict
	return nil
}

func maxIndex(k datatype.Kind) uint64 {
	switch k {
	case datatype.KindInt8:
		return math.MaxInt8
	case datatype.KindInt16:
		return math.MaxInt16
	case datatype.KindInt32:
		return math.MaxInt32
	case datatype.KindUint8:
		return math.MaxUint8
	case datatype.KindUint16:
		return math.MaxUint16
	case datatype.KindUint32:
		return math.MaxUint32
	}
	return math.MaxInt64
}

// remapIndices writes each input's indices through its remap table; null
// slots get index 0.
func remapIndices[T integer](buf *memory.Buffer, ds []*Data, remap [][]int) {
	out := memory.View[T](buf)
	pos := 0
	for j, d := range ds {
		idx := memory.View[T](d.Buffers[1])[d.Offset : d.Offset+d.Length]
		valid := d.validity()
		for i, x := range idx {
			if valid == nil || bitutil.GetBit(valid, d.Offset+i) {
				out[pos+i] = T(remap[j][x])
			}
		}
		pos += d.Length
	}
}

// appendKey appends an encoding of slot i of a such that two slots with
// the same encoding hold equal values (nulls included). Floats are
// encoded by their bits, so 0 and -0 (or NaNs with different payloads)
// get different keys.
func appendKey(dst []byte, a Array, i int) []byte {
	if a.IsNull(i) {
		return append(dst, 0)
	}
	dst = append(dst, 1)
	switch a := a.(type) {
	case *Boolean:
		if a.Value(i) {
			return append(dst, 1)
		}
		return append(dst, 0)
	case *Binary[int32]:
		return appendBytesKey(dst, a.Value(i))
	case *Binary[int64]:
		return appendBytesKey(dst, a.Value(i))
	case *BinaryView:
		return appendBytesKey(dst, a.Value(i))
	case *FixedSizeBinary:
		return append(dst, a.Value(i)...)
	case ListLike:
		s, e := a.ValueOffsets(i)
		dst = binary.AppendUvarint(dst, uint64(e-s))
		for j := s; j < e; j++ {
			dst = appendKey(dst, a.ListValues(), j)
		}
		return dst
	case *Struct:
		for f := range a.fields {
			dst = appendKey(dst, a.fields[f], i)
		}
		return dst
	case *Union:
		c := a.codes[i]
		return appendKey(append(dst, byte(c)), a.children[a.index[c]], a.ValueOffset(i))
	case *Dictionary:
		// By value: a slot whose dictionary value is null is null.
		return appendKey(dst[:len(dst)-1], a.dict, a.ValueIndex(i))
	case *RunEndEncoded:
		return appendKey(dst[:len(dst)-1], a.values, a.PhysicalIndex(i))
	case *Extension:
		return appendKey(dst[:len(dst)-1], a.storage, i)
	}
	d := a.Data()
	w := datatype.ByteWidth(datatype.StorageOf(d.Type))
	return append(dst, d.Buffers[1].Bytes()[(d.Offset+i)*w:(d.Offset+i+1)*w]...)
}

func appendBytesKey(dst, v []byte) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(v))), v...)
}
