package array

import (
	"bytes"
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/memory"
)

// grown is an array that dictionary deltas extend in place: its buffers
// have spare capacity, every array handed out is a view of a prefix, and
// appending writes only past every prefix handed out. So n deltas cost
// time in proportion to the values they bring, not n times the dictionary
// (as a concatenation per delta does), and batches already returned (read
// on other goroutines, perhaps) never see a byte change.
//
// Every layout grows in place, values that are themselves
// dictionary-encoded too, as long as their dictionary is not replaced
// between deltas (else the caller concatenates). Bit-packed buffers need
// care: the next delta would change the last byte of a bitmap handed out,
// so bitmaps are shiftedBits, and the arrays handed out start at the
// offset (0 to 7) at which their bitmaps end on a byte boundary. The other
// buffers of those layouts keep room for 8 values before the first, so
// that they can start at any such offset without a copy; a struct's
// children, read from the struct's offset, are handed out with up to 7
// values before their first instead. Only the validity bitmaps of
// fixed-size list values, and of structs with a child that cannot lead
// (a union, a run-end encoded or fixed-size list child), are still
// copied, n/8 bytes per delta, once a value is null.
type grown struct {
	typ       datatype.DataType // as handed out: an extension type stays one
	storage   datatype.DataType
	kind      datatype.Kind // of storage
	width     int           // bytes per fixed-width value, offset or run end
	n, nulls  int
	shiftable bool         // handed out at the offset where valid and bits end on a byte
	leadable  bool         // can be handed out with up to 7 values before its first (a struct's child)
	head      int          // bytes before the first value of values, offs, sizes: 8*width when shiftable
	valid     *shiftedBits // validity, once a value is null
	bits      *shiftedBits // bool values
	values    []byte       // fixed-width values, views, union type ids, dictionary indices
	data      []byte       // binary values, view types' out-of-line values
	offs      []byte       // offsets (n+1 of them for binary and lists), list-view and dense union offsets, run ends
	sizes     []byte       // list-view sizes
	children  []*grown
	runs      int // run-end encoded: runs
	// dictionary-encoded values: their dictionary (the newest, which
	// extends every earlier one of the same generation) and generation
	gen   func(*Data) uint64
	dict  *Data
	epoch uint64
}

// Extendable is an array that later arrays of its type extend in place,
// as IPC dictionary deltas extend a dictionary: [Extendable.Append] adds
// an array's slots and [Extendable.Data] hands out the whole so far. Every
// Data handed out stays as it was (no byte of it is ever written again,
// so it may be read on other goroutines while the array grows), and n
// appends cost time in proportion to the slots they bring, not n times
// the array as a concatenation per append would. See grown for how.
//
// It is the in-place counterpart of [Growable], which builds one array
// and finishes; bit-packed buffers are what make the difference (see
// shiftedBits).
type Extendable struct{ g *grown }

// NewExtendable starts an array that extends d, or returns nil when d's
// type does not grow in place (then concatenate) or d is not as its type
// says. gen tells the generation of the dictionary of dictionary-encoded
// values (which changes when that dictionary is replaced, not when it
// grows); with a nil gen such values do not grow.
func NewExtendable(d *Data, gen func(*Data) uint64) *Extendable {
	g := newGrownDict(d, gen)
	if g == nil {
		return nil
	}
	return &Extendable{g}
}

// Append adds the slots of d, of the array's type. On false (d is not as
// its type says, offsets would overflow, or a dictionary of its values
// was replaced) the Extendable must be dropped; what it handed out is
// unaffected.
func (e *Extendable) Append(d *Data) bool { return e.g.append(d) }

// Data returns the array so far; later appends never change it.
func (e *Extendable) Data() *Data { return e.g.snapshot() }

// newGrownDict starts growing d, or returns nil when d is of a type that
// does not grow or is not as its type says. gen tells the generation of
// the dictionary of dictionary-encoded values (which changes when that
// dictionary is replaced, not when it grows); nil refuses such values.
func newGrownDict(d *Data, gen func(*Data) uint64) *grown {
	g := emptyGrown(d, gen)
	if g == nil || !g.append(d) {
		return nil
	}
	return g
}

// emptyGrown is an empty array of d's type, with children shaped as d's.
func emptyGrown(d *Data, gen func(*Data) uint64) *grown {
	s := datatype.StorageOf(d.Type)
	g := &grown{typ: d.Type, storage: s, kind: s.Kind(), gen: gen, shiftable: true}
	children := d.Children
	switch k := g.kind; k {
	case datatype.KindBool:
		g.bits = &shiftedBits{}
	case datatype.KindNull, datatype.KindStruct, datatype.KindSparseUnion, datatype.KindFixedSizeList:
		g.shiftable = false
	case datatype.KindDictionary:
		if gen == nil {
			return nil
		}
		g.width = datatype.ByteWidth(s.(*datatype.DictionaryType).Index)
	case datatype.KindBinary, datatype.KindString, datatype.KindList, datatype.KindMap:
		g.width = 4
	case datatype.KindLargeBinary, datatype.KindLargeString, datatype.KindLargeList:
		g.width = 8
	case datatype.KindBinaryView, datatype.KindStringView:
		g.width = 16
	case datatype.KindDenseUnion:
		g.width, g.shiftable = 4, false
	case datatype.KindListView:
		g.width = 4
	case datatype.KindLargeListView:
		g.width = 8
	case datatype.KindRunEndEncoded:
		if len(children) != 2 {
			return nil
		}
		g.width = datatype.ByteWidth(children[0].Type)
		g.shiftable = false
		children = children[1:]
	default:
		if !datatype.IsFixedWidth(s) {
			return nil
		}
		g.width = datatype.ByteWidth(s)
	}
	if g.shiftable {
		g.head = 8 * g.width
		g.values = make([]byte, g.head, 2*g.head+64)
		switch g.kind {
		case datatype.KindBinary, datatype.KindString, datatype.KindList, datatype.KindMap,
			datatype.KindLargeBinary, datatype.KindLargeString, datatype.KindLargeList:
			g.offs = make([]byte, g.head+g.width) // the first offset, 0
		case datatype.KindListView, datatype.KindLargeListView:
			g.offs, g.sizes = make([]byte, g.head), make([]byte, g.head)
		}
	}
	for _, c := range children {
		cg := emptyGrown(c, gen)
		if cg == nil {
			return nil
		}
		g.children = append(g.children, cg)
	}
	// A struct shifts with its children, which then carry the values
	// before the offset too (see arrayLed): it can when each of them can.
	g.leadable = g.shiftable || g.kind == datatype.KindNull
	if g.kind == datatype.KindStruct {
		g.shiftable = true
		for _, c := range g.children {
			g.shiftable = g.shiftable && c.leadable
		}
		g.leadable = g.shiftable
	}
	return g
}

// append adds d's values. On false (d is not as its type says, or
// offsets would overflow) g is left part-way and must be dropped; what
// it handed out is unaffected.
func (g *grown) append(d *Data) bool {
	if d.Length == 0 {
		return true
	}
	if d.NullCount < 0 || len(d.Children) != len(g.children)+btoi(g.kind == datatype.KindRunEndEncoded) {
		return false
	}
	ok := true
	switch g.kind {
	case datatype.KindNull:
		g.n += d.Length
		g.nulls += d.Length
		return true
	case datatype.KindBool:
		bits, off := d.BoolBits()
		g.bits.append(bits, off, d.Length)
	case datatype.KindDictionary:
		if d.Dictionary == nil {
			return false
		}
		e := g.gen(d)
		if g.dict != nil && e != g.epoch {
			return false // its dictionary was replaced: indices mean other values
		}
		g.dict, g.epoch = d.Dictionary, e
		g.values = appendGrowing(g.values, d.ValueBytes())
	case datatype.KindBinary, datatype.KindString:
		ok = appendBinary[int32](g, d)
	case datatype.KindLargeBinary, datatype.KindLargeString:
		ok = appendBinary[int64](g, d)
	case datatype.KindBinaryView, datatype.KindStringView:
		ok = g.appendViews(d)
	case datatype.KindList, datatype.KindMap:
		ok = appendList[int32](g, d)
	case datatype.KindLargeList:
		ok = appendList[int64](g, d)
	case datatype.KindListView:
		ok = appendListView[int32](g, d)
	case datatype.KindLargeListView:
		ok = appendListView[int64](g, d)
	case datatype.KindFixedSizeList:
		size := int(g.storage.(*datatype.ListType).Size())
		ok = g.children[0].appendRange(d.Children[0], d.Offset*size, (d.Offset+d.Length)*size)
	case datatype.KindStruct:
		ok = g.appendChildren(d)
	case datatype.KindSparseUnion, datatype.KindDenseUnion:
		g.values = appendGrowing(g.values, memory.BytesOf(d.TypeCodes()))
		if g.kind == datatype.KindSparseUnion {
			ok = g.appendChildren(d)
		} else {
			ok = g.appendDense(d)
		}
		g.n += d.Length
		return ok
	case datatype.KindRunEndEncoded:
		ok = g.appendRuns(d)
		g.n += d.Length
		return ok
	default:
		g.values = appendGrowing(g.values, d.ValueBytes())
	}
	validity, _ := d.ValidityBitmap()
	if !ok || d.NullCount > 0 && validity == nil {
		return false
	}
	if d.NullCount > 0 && g.valid == nil {
		g.valid = &shiftedBits{}
		g.valid.append(nil, 0, g.n)
	}
	if g.valid != nil {
		g.valid.append(validity, d.Offset, d.Length) // nil: all valid
	}
	g.n += d.Length
	g.nulls += d.NullCount
	return true
}

// appendRange appends rows [i, j) of d, false when d is shorter.
func (g *grown) appendRange(d *Data, i, j int) bool {
	return i >= 0 && i <= j && j <= d.Length && g.append(d.Slice(i, j))
}

// appendChildren appends the rows of d's slice of each child.
func (g *grown) appendChildren(d *Data) bool {
	for i, c := range d.Children {
		if !g.children[i].appendRange(c, d.Offset, d.Offset+d.Length) {
			return false
		}
	}
	return true
}

func appendBinary[O int32 | int64](g *grown, d *Data) bool {
	offs := Offsets[O](d)
	data := d.BinaryBytes()
	first, last := offs[0], offs[d.Length]
	if first < 0 || first > last || int64(last) > int64(len(data)) || overflows[O](len(g.data), int(last-first)) {
		return false
	}
	base := O(len(g.data))
	g.data = appendGrowing(g.data, data[first:last])
	g.offs = appendShifted(g.offs, offs[1:], base-first)
	return true
}

func appendList[O int32 | int64](g *grown, d *Data) bool {
	offs := Offsets[O](d)
	first, last := offs[0], offs[d.Length]
	child := g.children[0]
	if overflows[O](child.n, int(last-first)) {
		return false
	}
	base := O(child.n)
	if !child.appendRange(d.Children[0], int(first), int(last)) {
		return false
	}
	g.offs = appendShifted(g.offs, offs[1:], base-first)
	return true
}

// appendListView appends the part of the child that the slots span;
// null and empty slots become (0, 0).
func appendListView[O int32 | int64](g *grown, d *Data) bool {
	offs, sizes := ListViewSpans[O](d)
	src, child := d.Children[0], g.children[0]
	lo, hi := src.Length, 0
	for i, o := range offs {
		s := sizes[i]
		if s == 0 || d.IsNull(i) {
			continue
		}
		if o < 0 || s < 0 || int64(o) > int64(src.Length)-int64(s) {
			return false
		}
		lo, hi = min(lo, int(o)), max(hi, int(o+s))
	}
	if lo >= hi {
		lo, hi = 0, 0
	}
	base := child.n
	if overflows[O](base, hi-lo) || !child.appendRange(src, lo, hi) {
		return false
	}
	newOffs, newSizes := make([]O, len(offs)), make([]O, len(offs))
	for i, o := range offs {
		if s := sizes[i]; s != 0 && d.IsValid(i) {
			newOffs[i], newSizes[i] = O(base)+o-O(lo), s
		}
	}
	g.offs = appendGrowing(g.offs, memory.BytesOf(newOffs))
	g.sizes = appendGrowing(g.sizes, memory.BytesOf(newSizes))
	return true
}

// appendViews appends views, copying out-of-line values into g.data (so
// that every view handed out has one data buffer); null slots become
// empty views.
func (g *grown) appendViews(d *Data) bool {
	views := d.Views()
	add := make([]byte, len(views))
	for i := 0; i < len(views); i += 16 {
		if d.IsNull(i / 16) {
			continue
		}
		v := add[i : i+16]
		copy(v, views[i:i+16])
		if int32(binary.LittleEndian.Uint32(v)) <= ViewInlineMax {
			continue
		}
		src, ok := CheckedViewValue(v, d.ViewDataBuffers())
		if !ok || overflows[int32](len(g.data), len(src)) {
			return false
		}
		binary.LittleEndian.PutUint32(v[8:], 0)
		binary.LittleEndian.PutUint32(v[12:], uint32(len(g.data)))
		g.data = appendGrowing(g.data, src)
	}
	g.values = appendGrowing(g.values, add)
	return true
}

// appendDense appends each child whole and the offsets shifted past the
// rows the children had.
func (g *grown) appendDense(d *Data) bool {
	codes := d.TypeCodes()
	offs := d.UnionOffsets()
	index := g.storage.(*datatype.UnionType).ChildIndex()
	add := make([]int32, len(offs))
	for i, code := range codes {
		c := -1
		if int8(code) >= 0 {
			c = index[code]
		}
		if c < 0 || c >= len(g.children) || offs[i] < 0 || int(offs[i]) >= d.Children[c].Length ||
			overflows[int32](g.children[c].n, int(offs[i])+1) {
			return false
		}
		add[i] = int32(g.children[c].n) + offs[i]
	}
	for c, ch := range d.Children {
		if !g.children[c].append(ch) {
			return false
		}
	}
	g.offs = appendGrowing(g.offs, memory.BytesOf(add))
	return true
}

// appendRuns appends the runs of d's logical slice, their ends shifted
// past the rows before.
func (g *grown) appendRuns(d *Data) bool {
	ends, values := d.Children[0], d.Children[1]
	if values.Length < ends.Length || ends.Length == 0 || d.RunEndAt(ends.Length-1) < int64(d.Offset+d.Length) {
		return false
	}
	ends, values = d.LogicalRuns()
	last := int64(g.n + d.Length)
	if g.width == 2 && last > math.MaxInt16 || g.width == 4 && last > math.MaxInt32 {
		return false
	}
	a := MustMake(ends)
	add := make([]byte, a.Len()*g.width)
	for i := range a.Len() {
		e := uint64(int64(g.n) + int64(indexAt(a, i)))
		switch g.width {
		case 2:
			binary.LittleEndian.PutUint16(add[2*i:], uint16(e))
		case 4:
			binary.LittleEndian.PutUint32(add[4*i:], uint32(e))
		default:
			binary.LittleEndian.PutUint64(add[8*i:], e)
		}
	}
	if !g.children[0].append(values) {
		return false
	}
	g.offs = appendGrowing(g.offs, add)
	g.runs += a.Len()
	return true
}

// snapshot is the array so far, sharing g's buffers but the bit-packed ones.
func (g *grown) snapshot() *Data { return g.arrayLed(-1) }

// arrayLed is snapshot, or with lead >= 0 the array with lead values (null,
// zero or empty) before its first, at offset 0: the child of a struct
// handed out at offset lead (a struct's children are read from the
// struct's offset). The struct's length is the child's, so the child's
// bitmaps end on a byte boundary at the same offset.
func (g *grown) arrayLed(lead int) *Data {
	// The offset at which the bitmaps end on a byte boundary, and the
	// other buffers seen from there.
	off := 0
	switch {
	case lead >= 0:
		off = lead
	case g.kind == datatype.KindBool:
		off = g.bits.shift()
	case g.shiftable && g.nulls > 0 && g.valid != nil:
		off = g.valid.shift()
	}
	kids := make([]*Data, 0, len(g.children)+1)
	for _, c := range g.children {
		if g.kind == datatype.KindStruct && g.shiftable && (off > 0 || lead >= 0) {
			kids = append(kids, c.arrayLed(off))
		} else {
			kids = append(kids, c.snapshot())
		}
	}
	from := func(b []byte) *memory.Buffer { return shared(b[g.head-off*g.width:]) }
	var valid *memory.Buffer
	switch {
	case g.valid == nil || g.nulls == 0: // none, or a null array's
	case g.shiftable:
		valid = memory.NewBuffer(g.valid.view())
	default:
		valid = memory.NewBuffer(bytes.Clone(g.valid.copies[0]))
	}
	var bufs []*memory.Buffer
	var dict *Data
	switch g.kind {
	case datatype.KindNull:
	case datatype.KindBool:
		bufs = []*memory.Buffer{valid, memory.NewBuffer(g.bits.view())}
	case datatype.KindBinary, datatype.KindString, datatype.KindLargeBinary, datatype.KindLargeString:
		bufs = []*memory.Buffer{valid, from(g.offs), shared(g.data)}
	case datatype.KindBinaryView, datatype.KindStringView:
		bufs = []*memory.Buffer{valid, from(g.values), shared(g.data)}
	case datatype.KindList, datatype.KindLargeList, datatype.KindMap:
		bufs = []*memory.Buffer{valid, from(g.offs)}
	case datatype.KindListView, datatype.KindLargeListView:
		bufs = []*memory.Buffer{valid, from(g.offs), from(g.sizes)}
	case datatype.KindDictionary:
		bufs, dict = []*memory.Buffer{valid, from(g.values)}, g.dict
	case datatype.KindFixedSizeList, datatype.KindStruct:
		bufs = []*memory.Buffer{valid}
	case datatype.KindSparseUnion:
		bufs = []*memory.Buffer{shared(g.values)}
	case datatype.KindDenseUnion:
		bufs = []*memory.Buffer{shared(g.values), shared(g.offs)}
	case datatype.KindRunEndEncoded:
		ends := NewData(g.storage.(*datatype.RunEndEncodedType).RunEnds().Type, g.runs, []*memory.Buffer{nil, shared(g.offs)}, nil, 0, 0)
		kids = append([]*Data{ends}, kids...)
	default:
		bufs = []*memory.Buffer{valid, from(g.values)}
	}
	n, nulls := g.n, g.nulls
	if lead >= 0 {
		n, off = n+lead, 0
		if valid != nil || g.kind == datatype.KindNull {
			nulls += lead // unset bits before the first value (copy lead has them)
		}
	}
	a := NewData(g.typ, n, bufs, kids, nulls, off)
	a.Dictionary = dict
	return a
}

// shared hands out b without its spare capacity, which later appends fill.
func shared(b []byte) *memory.Buffer { return memory.NewBuffer(b[:len(b):len(b)]) }

// appendBits sets bits [n, n+length) of dst (which holds n bits) from
// bits [off, off+length) of src, or to 1 when src is nil.
func appendBits(dst []byte, n int, src []byte, off, length int) []byte {
	if need := bitutil.BytesForBits(n + length); need > len(dst) {
		dst = append(dst, make([]byte, need-len(dst))...) // amortized, zeroed
	}
	if src == nil {
		bitutil.SetBitsTo(dst, n, length, true)
	} else {
		bitutil.CopyBits(dst, n, src, off, length)
	}
	return dst
}

// appendShifted appends offs, each plus shift.
func appendShifted[O int32 | int64](dst []byte, offs []O, shift O) []byte {
	add := make([]O, len(offs))
	for i, o := range offs {
		add[i] = o + shift
	}
	return appendGrowing(dst, memory.BytesOf(add))
}

// overflows reports whether base+n values do not fit offsets of type O.
func overflows[O int32 | int64](base, n int) bool {
	return n < 0 || unsafe.Sizeof(O(0)) == 4 && int64(base)+int64(n) > math.MaxInt32
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// appendGrowing appends add to b, doubling the capacity when it runs
// out; the bytes of b itself are never written.
func appendGrowing(b, add []byte) []byte {
	n := len(b) + len(add)
	if n > cap(b) {
		nb := rawmem.Aligned(max(2*cap(b), n, 64))
		copy(nb, b)
		b = nb[:len(b)]
	}
	b = b[:n]
	copy(b[n-len(add):], add)
	return b
}
