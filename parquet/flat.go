package parquet

import (
	"math/bits"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
	"github.com/alkaid-go/alkaid/shred"
)

// defBitmap holds the definition levels (all 0 or 1) of a leaf as the
// bitmap of its first n bits.
type defBitmap struct {
	valid []byte
	n     int
}

// levels returns the definition levels the bitmap holds.
func (b *defBitmap) levels() []int16 {
	lv := make([]int16, b.n)
	for i := range lv {
		lv[i] = int16(b.valid[i>>3] >> (i & 7) & 1)
	}
	return lv
}

// flatLeaf builds the array of a top-level leaf field (no repetition, at
// most one definition level) directly from its levels and values, without
// the general assembly (see flatLeafValid). ok is false for other fields.
func flatLeaf(f datatype.Field, cols []shred.Column) (array.Array, bool) {
	if len(cols) != 1 || cols[0].MaxRep != 0 || cols[0].MaxDef > 1 {
		return nil, false
	}
	c := cols[0]
	if c.MaxDef == 0 {
		return c.Values, datatype.Equal(c.Values.DataType(), f.Type)
	}
	valid, _ := definedBitmap(c.Def)
	return flatLeafValid(f, c.Values, valid, len(c.Def))
}

// flatLeafValid builds the array of a leaf field of n slots from its
// validity (the first n bits of valid, which it keeps) and the values of
// the valid slots: byte strings keep their data buffer, other values are
// spread to their slots. ok is false for values of another type or
// count, and for layouts it does not build.
func flatLeafValid(f datatype.Field, vals array.Array, valid []byte, n int) (array.Array, bool) {
	if !datatype.Equal(vals.DataType(), f.Type) {
		return nil, false
	}
	present := bitutil.CountSetBits(valid, 0, n)
	if present != vals.Len() {
		return nil, false
	}
	nulls := n - present
	var vbuf *memory.Buffer
	if nulls > 0 {
		vbuf = memory.NewBuffer(valid[:(n+7)/8])
	}
	var d *array.Data
	switch v := vals.(type) {
	case *array.Binary[int32]:
		offs := spreadOffsets(valid, n, v.Offsets())
		d = array.NewData(f.Type, n, []*memory.Buffer{vbuf, memory.FromSlice(offs), memory.NewBuffer(v.ValueBytes())}, nil, nulls, 0)
	case *array.Boolean:
		src, off := v.Data().BoolBits()
		bits := make([]byte, (n+7)/8)
		for r := range bitutil.Runs(valid, 0, n) {
			if r.Set {
				bitutil.CopyBits(bits, r.Start, src, off, r.Len)
				off += r.Len
			}
		}
		d = array.NewData(f.Type, n, []*memory.Buffer{vbuf, memory.NewBuffer(bits)}, nil, nulls, 0)
	case *array.Dictionary:
		raw, w, ok := array.FixedWidthBytes(v.Indices())
		if !ok {
			return nil, false
		}
		d = array.NewData(f.Type, n, []*memory.Buffer{vbuf, memory.NewBuffer(spreadFixed(valid, n, raw, w))}, nil, nulls, 0)
		d.Dictionary = v.Dictionary().Data()
	default:
		raw, w, ok := array.FixedWidthBytes(vals)
		if !ok {
			return nil, false
		}
		d = array.NewData(f.Type, n, []*memory.Buffer{vbuf, memory.NewBuffer(spreadFixed(valid, n, raw, w))}, nil, nulls, 0)
	}
	a, err := array.Make(d)
	return a, err == nil
}

// spreadOffsets returns the n+1 offsets of n slots, the set bits of valid
// taking the values whose offsets are src in turn, the others empty.
func spreadOffsets(valid []byte, n int, src []int32) []int32 {
	offs := make([]int32, n+1)
	k := 0
	for r := range bitutil.Runs(valid, 0, n) {
		if r.Set {
			copy(offs[r.Start:r.Start+r.Len], src[k:k+r.Len])
			k += r.Len
			continue
		}
		at := src[k]
		for i := r.Start; i < r.Start+r.Len; i++ {
			offs[i] = at
		}
	}
	offs[n] = src[k]
	return offs
}

// spreadFixed places the values of raw (w bytes each) in the slots whose
// bit of valid is set, leaving the others zero; runs of valid slots are
// copied at once. With every slot valid, raw is already so placed: it is
// returned as it is.
func spreadFixed(valid []byte, n int, raw []byte, w int) []byte {
	if len(raw) == n*w {
		return raw
	}
	out := make([]byte, n*w)
	k := 0
	for r := range bitutil.Runs(valid, 0, n) {
		if r.Set {
			copy(out[r.Start*w:(r.Start+r.Len)*w], raw[k:])
			k += r.Len * w
		}
	}
	return out
}

// definedBitmap returns the validity bitmap of slots whose definition
// level is 1 and how many there are.
func definedBitmap(def []int16) ([]byte, int) {
	valid := make([]byte, (len(def)+7)/8)
	present := 0
	i := 0
	for ; i+8 <= len(def); i += 8 {
		d := def[i : i+8 : i+8]
		b := byte(d[0]&1) | byte(d[1]&1)<<1 | byte(d[2]&1)<<2 | byte(d[3]&1)<<3 |
			byte(d[4]&1)<<4 | byte(d[5]&1)<<5 | byte(d[6]&1)<<6 | byte(d[7]&1)<<7
		valid[i>>3] = b
		present += bits.OnesCount8(b)
	}
	for ; i < len(def); i++ {
		if def[i] == 1 {
			valid[i>>3] |= 1 << (i & 7)
			present++
		}
	}
	return valid, present
}

// flatList builds a top-level list<leaf> field (one repetition level,
// an optional or required list of optional or required leaves) straight
// from its levels; ok is false for any other shape.
func flatList(f datatype.Field, cols []shred.Column) (array.Array, bool) {
	lt, isList := f.Type.(*datatype.ListType)
	if len(cols) != 1 || !isList || lt.Kind() != datatype.KindList {
		return nil, false
	}
	c := cols[0]
	elem := lt.Elem()
	if !datatype.Equal(c.Values.DataType(), elem.Type) || elem.Type.Kind().IsListLike() || elem.Type.Kind() == datatype.KindStruct || elem.Type.Kind() == datatype.KindExtension {
		return nil, false
	}
	listDef := 0
	if f.Nullable {
		listDef = 1
	}
	elemDef := listDef + 1 // an element exists from here
	if c.MaxRep != 1 || (elem.Nullable && c.MaxDef != elemDef+1) || (!elem.Nullable && c.MaxDef != elemDef) {
		return nil, false
	}
	n := len(c.Def)
	if len(c.Rep) != n {
		return nil, false
	}
	rows := countLevel(c.Rep, 0)
	// Every entry starts a row (rep 0) or not, and holds an element
	// (def >= elemDef) or not. List lengths follow no pattern a branch
	// predictor learns, so the loop has no branch on them: it writes an
	// offset at every entry, which the next entry overwrites unless this
	// one started a row, and ORs in validity bits that are zero unless
	// the entry holds what they stand for.
	offs := make([]int32, rows+1)
	listValid := make([]byte, rows/8+1) // r reaches rows
	elemValid := make([]byte, n/8+1)    // e reaches n
	e, r := 0, 0
	rep := c.Rep[:n]
	def := c.Def[:n]
	ld, ed := int32(listDef), int32(elemDef)
	// An entry that continues a list (rep 1) must hold an element, as
	// must the entry before it; bad collects the entries that do not,
	// which the general assembly then reports.
	bad, prevHeld := 0, 0 // the first entry must start a row
	for i, rv := range rep {
		d := int32(def[i])
		start := int((uint32(rv) - 1) >> 31)          // rep == 0
		listed := int((uint32(ld-1-d) >> 31)) & start // d >= listDef
		held := int(uint32(ed-1-d) >> 31)             // d >= elemDef
		bad |= (1 - start) & (1 - held&prevHeld)
		prevHeld = held
		offs[r] = int32(e)
		listValid[r>>3] |= byte(listed << (r & 7))
		r += start
		// A value has level elemDef+1, a null element elemDef.
		elemValid[e>>3] |= byte((held & int(d-ed)) << (e & 7))
		e += held
	}
	if bad != 0 {
		return nil, false
	}
	listNulls := rows - countSet(listValid, rows)
	offs[rows] = int32(e)
	var child array.Array
	var ok bool
	if elem.Nullable {
		child, ok = flatLeafValid(elem, c.Values, elemValid, e)
	} else {
		child, ok = c.Values, datatype.Equal(c.Values.DataType(), elem.Type)
	}
	if !ok || child.Len() != e {
		return nil, false
	}
	var vbuf *memory.Buffer
	if f.Nullable {
		vbuf = memory.NewBuffer(listValid)
	}
	a, err := array.Make(array.NewData(f.Type, rows, []*memory.Buffer{vbuf, memory.FromSlice(offs)}, []*array.Data{child.Data()}, listNulls, 0))
	return a, err == nil
}

// countSet returns how many of the first n bits of bitmap are set.
func countSet(bitmap []byte, n int) int {
	c := 0
	for _, b := range bitmap[:n/8] {
		c += bits.OnesCount8(b)
	}
	if n%8 != 0 {
		c += bits.OnesCount8(bitmap[n/8] & (1<<(n%8) - 1))
	}
	return c
}
