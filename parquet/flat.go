package parquet

import (
	"math/bits"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
	"github.com/alkaid-go/alkaid/shred"
)

// flatLeaf builds the array of a top-level leaf field (no repetition, at
// most one definition level) directly from its levels and values, without
// the general assembly: byte strings keep their data buffer, other values
// are spread to their slots. ok is false for other fields.
func flatLeaf(f datatype.Field, cols []shred.Column) (array.Array, bool) {
	if len(cols) != 1 || cols[0].MaxRep != 0 || cols[0].MaxDef > 1 {
		return nil, false
	}
	c := cols[0]
	vals := c.Values
	if !datatype.Equal(vals.DataType(), f.Type) {
		return nil, false
	}
	if c.MaxDef == 0 {
		return vals, true
	}
	n := len(c.Def)
	valid, present := definedBitmap(c.Def)
	if present != vals.Len() {
		return nil, false
	}
	nulls := n - present
	vbuf := memory.NewBuffer(valid)
	switch v := vals.(type) {
	case *array.Binary[int32]:
		src := v.Offsets()
		offs := make([]int32, n+1)
		k := 0
		for i, d := range c.Def {
			offs[i] = src[k]
			if d == 1 {
				k++
			}
		}
		offs[n] = src[k]
		a, err := array.Make(array.NewData(f.Type, n, []*memory.Buffer{vbuf, memory.FromSlice(offs), memory.NewBuffer(v.ValueBytes())}, nil, nulls, 0))
		return a, err == nil
	case *array.Boolean:
		src, off := v.Data().BoolBits()
		bits := spreadBits(c.Def, src, off)
		a, err := array.Make(array.NewData(f.Type, n, []*memory.Buffer{vbuf, memory.NewBuffer(bits)}, nil, nulls, 0))
		return a, err == nil
	}
	if v, ok := vals.(*array.Dictionary); ok {
		raw, w, ok := array.FixedWidthBytes(v.Indices())
		if !ok {
			return nil, false
		}
		d := array.NewData(f.Type, n, []*memory.Buffer{vbuf, memory.NewBuffer(spreadFixed(c.Def, raw, w))}, nil, nulls, 0)
		d.Dictionary = v.Dictionary().Data()
		a, err := array.Make(d)
		return a, err == nil
	}
	raw, w, ok := array.FixedWidthBytes(vals)
	if !ok {
		return nil, false
	}
	a, err := array.Make(array.NewData(f.Type, n, []*memory.Buffer{vbuf, memory.NewBuffer(spreadFixed(c.Def, raw, w))}, nil, nulls, 0))
	return a, err == nil
}

// spreadFixed places the values of raw (w bytes each) in the slots whose
// definition level is 1, leaving the others zero; runs of defined slots
// are copied at once.
func spreadFixed(def []int16, raw []byte, w int) []byte {
	out := make([]byte, len(def)*w)
	k := 0
	for i := 0; i < len(def); {
		if def[i] != 1 {
			i++
			continue
		}
		j := i + 1
		for j < len(def) && def[j] == 1 {
			j++
		}
		copy(out[i*w:j*w], raw[k*w:(k+j-i)*w])
		k += j - i
		i = j
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
	// offset and an element level at every entry, which the next entry
	// overwrites unless the entry started a row or held an element.
	offs := make([]int32, rows+1)
	listValid := make([]byte, rows/8+1) // r reaches rows
	elemLevels := make([]int16, n)
	e, r := 0, 0
	rep := c.Rep[:n]
	def := c.Def[:n]
	ld, ed := int32(listDef), int32(elemDef)
	for i, rv := range rep {
		d := int32(def[i])
		start := int((uint32(rv) - 1) >> 31)          // rep == 0
		listed := int((uint32(ld-1-d) >> 31)) & start // d >= listDef
		held := int(uint32(ed-1-d) >> 31)             // d >= elemDef
		offs[r] = int32(e)
		listValid[r>>3] |= byte(listed << (r & 7))
		r += start
		// A value has level elemDef+1, a null element elemDef.
		elemLevels[e] = int16(d - ed)
		e += held
	}
	elemLevels = elemLevels[:e]
	listNulls := rows - countSet(listValid, rows)
	offs[rows] = int32(e)
	inner := []shred.Column{{MaxDef: 0, Def: nil, Values: c.Values}}
	if elem.Nullable {
		inner[0].MaxDef, inner[0].Def = 1, elemLevels
	} else if e != c.Values.Len() {
		return nil, false
	}
	child, ok := flatLeaf(elem, inner)
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

// spreadBits places the bits of src (from bit offset on) in the slots
// whose definition level is 1, leaving the others zero; the loop has no
// branch on the values or the levels.
func spreadBits(def []int16, src []byte, offset int) []byte {
	out := make([]byte, (len(def)+7)/8)
	// After the last source bit, slots of level 0 still read a byte: pad.
	src = append(src[:len(src):len(src)], 0)
	k := offset
	for i, d := range def {
		b := src[k>>3] >> (k & 7) & byte(d) & 1
		out[i>>3] |= b << (i & 7)
		k += int(d)
	}
	return out
}
