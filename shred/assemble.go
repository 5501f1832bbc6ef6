package shred

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// Assemble rebuilds the array of field f from its columns, in the order
// of [Leaves] (as [ShredField] returns them). Each entry with repetition
// level 0 starts a record, that is, a slot of the result.
//
// Nulls at every level, empty lists and lists of nulls come back as they
// were shredded; what a null or absent parent hides is filled with nulls
// (nullable fields) or empty values (the others), as are the elements a
// fixed-size list keeps under a null slot. Dictionary-encoded leaves are
// encoded afresh (one dictionary entry per distinct value) and run-end
// encoded leaves get one run per stretch of equal values, so the result
// is [array.Equal] to the shredded array, not identical in layout.
//
// The columns are checked against the schema (paths, maximum levels,
// value types and counts, levels in range and consistent with the
// previous entry) and against each other (every field gets the same
// number of slots from each column below it); faults are errors wrapping
// [ErrInvalid] that name the column.
func Assemble(f datatype.Field, cols []Column) (array.Array, error) {
	t, err := newTree(f)
	if err != nil {
		return nil, err
	}
	cols, err = checkColumns(t, cols)
	if err != nil {
		return nil, err
	}
	rows := 0
	for _, r := range cols[0].Rep {
		if r == 0 {
			rows++
		}
	}
	d, err := assembleNode(t.root, cols, rows)
	if err != nil {
		return nil, err
	}
	a, err := array.Make(d)
	if err != nil {
		return nil, errorf(ErrInvalid, t.root.path, "%v", err)
	}
	return a, nil
}

// AssembleRecord rebuilds a record of the schema from the columns of all
// its fields, field after field (as [ShredRecord] returns them).
func AssembleRecord(s *alkaid.Schema, cols []Column) (*alkaid.Record, error) {
	arrays := make([]array.Array, s.NumFields())
	for i, f := range s.Fields() {
		ls, err := Leaves(f)
		if err != nil {
			return nil, err
		}
		if len(cols) < len(ls) {
			return nil, errorf(ErrInvalid, []string{f.Name}, "%d columns left for %d leaves", len(cols), len(ls))
		}
		if arrays[i], err = Assemble(f, cols[:len(ls)]); err != nil {
			return nil, err
		}
		cols = cols[len(ls):]
	}
	if len(cols) > 0 {
		return nil, errorf(ErrInvalid, cols[0].Path, "%d columns beyond the schema's leaves", len(cols))
	}
	rows := 0
	if len(arrays) > 0 {
		rows = arrays[0].Len()
	}
	rec, err := alkaid.NewRecord(s, arrays, rows)
	if err != nil {
		return nil, errorf(ErrInvalid, nil, "%v", err)
	}
	return rec, nil
}

// checkColumns checks the columns against the tree's leaves and returns
// them with absent level slices (allowed when the maximum level is 0)
// filled with zeros.
func checkColumns(t *tree, cols []Column) ([]Column, error) {
	if len(cols) != len(t.leaves) {
		return nil, errorf(ErrInvalid, t.root.path, "%d columns for %d leaves", len(cols), len(t.leaves))
	}
	out := make([]Column, len(cols))
	for i, c := range cols {
		l := t.leaves[i]
		if !slices.Equal(c.Path, l.path) {
			return nil, errorf(ErrInvalid, c.Path, "column %d, want path %s", i, PathString(l.path))
		}
		if c.MaxRep != len(l.listDefs) || c.MaxDef != int(l.def) {
			return nil, errorf(ErrInvalid, c.Path, "maximum levels r=%d d=%d, the schema says r=%d d=%d", c.MaxRep, c.MaxDef, len(l.listDefs), l.def)
		}
		if c.Values == nil {
			return nil, errorf(ErrInvalid, c.Path, "no values")
		}
		if !datatype.Equal(c.Values.DataType(), l.valueType, datatype.IgnoreMetadata()) {
			return nil, errorf(ErrInvalid, c.Path, "values of type %s, want %s", c.Values.DataType(), l.valueType)
		}
		if c.Values.NullN() > 0 && c.Values.Len() > 0 {
			return nil, errorf(ErrInvalid, c.Path, "values hold %d nulls (nulls are levels, not values)", c.Values.NullN())
		}
		n := max(len(c.Rep), len(c.Def))
		if c.Rep == nil && c.Def == nil {
			n = c.Values.Len()
		}
		if c.Rep == nil && c.MaxRep == 0 {
			c.Rep = make([]int16, n)
		}
		if c.Def == nil && c.MaxDef == 0 {
			c.Def = make([]int16, n)
		}
		if len(c.Rep) != len(c.Def) {
			return nil, errorf(ErrInvalid, c.Path, "%d repetition levels and %d definition levels", len(c.Rep), len(c.Def))
		}
		if err := checkLevels(l, &c); err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// checkLevels checks that every level is in range, that the first entry
// starts a record and that a repetition at level r continues a list that
// the previous entry reached the elements of and that the entry itself
// reaches. It also counts the values.
func checkLevels(l *node, c *Column) error {
	maxRep, maxDef := int16(c.MaxRep), int16(c.MaxDef)
	present := 0
	var prev int16
	for k, r := range c.Rep {
		d := c.Def[k]
		if r < 0 || r > maxRep || d < 0 || d > maxDef {
			return errorf(ErrInvalid, c.Path, "entry %d: levels r=%d d=%d out of range (max r=%d d=%d)", k, r, d, maxRep, maxDef)
		}
		if r > 0 {
			need := l.listDefs[r-1]
			if k == 0 {
				return errorf(ErrInvalid, c.Path, "entry 0 has repetition level %d, want 0", r)
			}
			if d < need || prev < need {
				return errorf(ErrInvalid, c.Path, "entry %d repeats at level %d but d=%d (previous d=%d) does not reach that list's elements (d ≥ %d)", k, r, d, prev, need)
			}
		}
		if d == maxDef {
			present++
		}
		prev = d
	}
	if present != c.Values.Len() {
		return errorf(ErrInvalid, c.Path, "%d entries with d=%d but %d values", present, maxDef, c.Values.Len())
	}
	return nil
}

// bitmap is a validity bitmap that grows slot by slot.
type bitmap struct {
	bits  []byte
	n     int
	nulls int
}

func (b *bitmap) appendN(valid bool, m int) {
	if m == 1 && b.n&7 != 0 {
		// The common case: one slot in the current byte.
		if valid {
			b.bits[b.n>>3] |= 1 << (b.n & 7)
		} else {
			b.nulls++
		}
		b.n++
		return
	}
	if m <= 0 {
		return
	}
	need := bitutil.BytesForBits(b.n + m)
	if need > len(b.bits) {
		if need > cap(b.bits) {
			nb := make([]byte, need, max(2*cap(b.bits), need, 64))
			copy(nb, b.bits)
			b.bits = nb
		}
		b.bits = b.bits[:need]
	}
	if valid {
		bitutil.SetBitsTo(b.bits, b.n, m, true)
	} else {
		b.nulls += m
	}
	b.n += m
}

func (b *bitmap) buffer() *memory.Buffer {
	if b.nulls == 0 {
		return nil
	}
	out := alloc(len(b.bits))
	copy(out, b.bits)
	return memory.NewBuffer(out)
}

// scan walks the column below n that represents it and returns n's
// validity and, for lists, the number of elements of each slot.
func scan(n *node, c *Column) (bitmap, []int) {
	var valid bitmap
	var lens []int
	list := n.kind == listNode
	// A slot that is not there (under a null parent, or an element that a
	// fixed-size list keeps under a null) is null when n is nullable and
	// an empty value otherwise; empty lists but for fixed-size ones.
	hidden := max(n.size, 0)
	for k, r := range c.Rep {
		d := c.Def[k]
		if r > n.slotRep {
			if list && r == n.rep {
				lens[len(lens)-1]++
			}
			continue
		}
		if d < n.slotDef {
			m := n.ph[d]
			valid.appendN(!n.nullable, m)
			if list {
				for range m {
					lens = append(lens, hidden)
				}
			}
			continue
		}
		present := d >= n.def
		valid.appendN(present || !n.nullable, 1)
		if list {
			switch {
			case d >= n.elemDef:
				lens = append(lens, 1)
			case present:
				lens = append(lens, 0)
			default:
				lens = append(lens, hidden)
			}
		}
	}
	return valid, lens
}

func assembleNode(n *node, cols []Column, want int) (*array.Data, error) {
	c := &cols[n.leaf]
	if n.kind == leafNode {
		return assembleLeaf(n, c, want)
	}
	valid, lens := scan(n, c)
	if valid.n != want {
		return nil, errorf(ErrInvalid, c.Path, "column gives %s %d slots, other columns %d", PathString(n.path), valid.n, want)
	}
	// Every column below n repeats n's slots in its levels; they must
	// agree, or values would silently move to other slots.
	for j, end := n.leaf+1, leafEnd(n); j < end; j++ {
		if sameSlotLevels(n, c, &cols[j]) {
			continue
		}
		if err := agreeOnSlots(n, c, valid, lens, &cols[j]); err != nil {
			return nil, err
		}
	}
	d := &array.Data{Type: n.field.Type, Length: valid.n, NullCount: valid.nulls}
	if n.kind == structNode {
		d.Buffers = []*memory.Buffer{valid.buffer()}
		for _, ch := range n.children {
			cd, err := assembleNode(ch, cols, valid.n)
			if err != nil {
				return nil, err
			}
			d.Children = append(d.Children, cd)
		}
		return d, nil
	}
	total := 0
	for i, l := range lens {
		if n.size >= 0 && l != n.size {
			return nil, errorf(ErrInvalid, c.Path, "slot %d of fixed-size list %s has %d values, want %d", i, PathString(n.path), l, n.size)
		}
		total += l
	}
	cd, err := assembleNode(n.children[0], cols, total)
	if err != nil {
		return nil, err
	}
	d.Children = []*array.Data{cd}
	switch n.typ.Kind() {
	case datatype.KindFixedSizeList:
		d.Buffers = []*memory.Buffer{valid.buffer()}
	case datatype.KindList, datatype.KindMap:
		if total > math.MaxInt32 {
			return nil, errorf(ErrInvalid, c.Path, "%d values overflow the 32-bit offsets of %s", total, PathString(n.path))
		}
		d.Buffers = []*memory.Buffer{valid.buffer(), offsets[int32](lens, false)}
	case datatype.KindLargeList:
		d.Buffers = []*memory.Buffer{valid.buffer(), offsets[int64](lens, false)}
	case datatype.KindListView:
		if total > math.MaxInt32 {
			return nil, errorf(ErrInvalid, c.Path, "%d values overflow the 32-bit offsets of %s", total, PathString(n.path))
		}
		d.Buffers = []*memory.Buffer{valid.buffer(), offsets[int32](lens, true), sizes[int32](lens)}
	case datatype.KindLargeListView:
		d.Buffers = []*memory.Buffer{valid.buffer(), offsets[int64](lens, true), sizes[int64](lens)}
	}
	return d, nil
}

// leafEnd is one past the index of the last leaf column under n.
func leafEnd(n *node) int {
	for n.kind != leafNode {
		n = n.children[len(n.children)-1]
	}
	return n.leaf + 1
}

// sameSlotLevels is agreeOnSlots' fast path, with no scan: scan reads an
// entry only when its repetition level reaches n's slots (or, for a list,
// its elements) and compares its definition level with thresholds no
// higher than n's element (list) or own (struct) level, so columns whose
// entries agree on those repetition levels and on the definition levels
// capped there give n the same slots. The converse need not hold: false
// sends the caller to the slot-by-slot comparison.
func sameSlotLevels(n *node, a, b *Column) bool {
	list := n.kind == listNode
	top := n.def
	if list {
		top = n.elemDef
	}
	kept := func(r int16) bool { return r <= n.slotRep || list && r == n.rep }
	i, j := 0, 0
	for {
		for i < len(a.Rep) && !kept(a.Rep[i]) {
			i++
		}
		for j < len(b.Rep) && !kept(b.Rep[j]) {
			j++
		}
		if i == len(a.Rep) || j == len(b.Rep) {
			return i == len(a.Rep) && j == len(b.Rep)
		}
		if a.Rep[i] != b.Rep[j] || min(a.Def[i], top) != min(b.Def[j], top) {
			return false
		}
		i++
		j++
	}
}

// agreeOnSlots checks that column o describes n's slots (their validity and
// list lengths) as column c does, where c gave valid and lens.
func agreeOnSlots(n *node, c *Column, valid bitmap, lens []int, o *Column) error {
	ov, olens := scan(n, o)
	if ov.n != valid.n {
		return errorf(ErrInvalid, o.Path, "column gives %s %d slots, column %s %d", PathString(n.path), ov.n, c.PathString(), valid.n)
	}
	// Both bitmaps are built the same way from their slots, so agreeing
	// columns give equal bytes; only a disagreement is looked at slot by
	// slot, to name the slot.
	if ov.nulls == valid.nulls && bytes.Equal(ov.bits, valid.bits) && slices.Equal(olens, lens) {
		return nil
	}
	for i := range valid.n {
		isValid := func(b bitmap) bool { return b.nulls == 0 || bitutil.GetBit(b.bits, i) }
		if a, b := isValid(valid), isValid(ov); a != b {
			return errorf(ErrInvalid, o.Path, "%s is %s here but %s in column %s", slotName(n, i), nullWord(b), nullWord(a), c.PathString())
		}
		if lens != nil && lens[i] != olens[i] {
			return errorf(ErrInvalid, o.Path, "%s has %d elements here but %d in column %s", slotName(n, i), olens[i], lens[i], c.PathString())
		}
	}
	return nil
}

// slotName names slot i of n in errors; a list's elements share its path.
func slotName(n *node, i int) string {
	if n.elem {
		return fmt.Sprintf("element %d of %s", i, PathString(n.path))
	}
	return fmt.Sprintf("slot %d of %s", i, PathString(n.path))
}

func nullWord(valid bool) string {
	if valid {
		return "valid"
	}
	return "null"
}

// offsets returns the running sums of lens: len(lens)+1 of them for a
// list, the start of each slot for a list view.
func offsets[O int32 | int64](lens []int, view bool) *memory.Buffer {
	m := len(lens) + 1
	if view {
		m = len(lens)
	}
	var zero O
	w := 4
	if _, ok := any(zero).(int64); ok {
		w = 8
	}
	out := memory.ViewBytes[O](alloc(m * w))[:m]
	pos := 0
	for i, l := range lens {
		out[i] = O(pos)
		pos += l
	}
	if !view {
		out[len(lens)] = O(pos)
	}
	return memory.NewBuffer(memory.BytesOf(out))
}

func sizes[O int32 | int64](lens []int) *memory.Buffer {
	var zero O
	w := 4
	if _, ok := any(zero).(int64); ok {
		w = 8
	}
	out := memory.ViewBytes[O](alloc(len(lens) * w))[:len(lens)]
	for i, l := range lens {
		out[i] = O(l)
	}
	return memory.NewBuffer(memory.BytesOf(out))
}

func assembleLeaf(n *node, c *Column, want int) (*array.Data, error) {
	hidden := emptySlot
	if n.nullable {
		hidden = nullSlot
	}
	idx := make([]int, 0, want)
	next := 0
	for k, r := range c.Rep {
		if r > n.slotRep {
			continue // cannot happen for a leaf: r ≤ MaxRep = slotRep
		}
		d := c.Def[k]
		switch {
		case d < n.slotDef:
			for range n.ph[d] {
				idx = append(idx, hidden)
			}
		case d >= n.def:
			idx = append(idx, next)
			next++
		default:
			idx = append(idx, hidden)
		}
	}
	if len(idx) != want {
		return nil, errorf(ErrInvalid, c.Path, "column gives %d slots, other columns %d", len(idx), want)
	}
	plain, err := gather(c.Values, idx, c.Path)
	if err != nil {
		return nil, err
	}
	a, err := encode(n.typ, plain, n.path)
	if err != nil {
		return nil, err
	}
	return a.Data(), nil
}

// encode turns a plain leaf array into one of type t: a dictionary, a
// run-end encoding or an extension of it.
func encode(t datatype.DataType, plain array.Array, path []string) (array.Array, error) {
	if datatype.Equal(t, plain.DataType(), datatype.IgnoreMetadata()) {
		return plain, nil
	}
	switch tt := t.(type) {
	case datatype.ExtensionType:
		s, err := encode(tt.StorageType(), plain, path)
		if err != nil {
			return nil, err
		}
		d := *s.Data()
		d.Type = t
		return array.Make(&d)
	case *datatype.DictionaryType:
		b, err := array.TryNewBuilder(t)
		if err != nil {
			return nil, errorf(ErrNotSupported, path, "%v", err)
		}
		ab, ok := b.(interface{ AppendArray(array.Array) error })
		if !ok {
			return nil, errorf(ErrNotSupported, path, "no dictionary builder for %s", t)
		}
		if err := ab.AppendArray(plain); err != nil {
			if errors.Is(err, array.ErrDictionaryFull) {
				return nil, errorf(ErrLimit, path, "%v", err)
			}
			return nil, errorf(ErrInvalid, path, "%v", err)
		}
		return b.NewArray(), nil
	case *datatype.RunEndEncodedType:
		return runEncode(tt, plain, path)
	}
	return nil, errorf(ErrInvalid, path, "cannot make %s from %s values", t, plain.DataType())
}

func runEncode(t *datatype.RunEndEncodedType, plain array.Array, path []string) (array.Array, error) {
	d := plain.Data()
	n := plain.Len()
	limit := math.MaxInt64
	switch t.RunEnds().Type.Kind() {
	case datatype.KindInt16:
		limit = math.MaxInt16
	case datatype.KindInt32:
		limit = math.MaxInt32
	}
	if n > limit {
		return nil, errorf(ErrInvalid, path, "%d slots overflow run ends of %s", n, t.RunEnds().Type)
	}
	var starts, ends []int
	for i := range n {
		if i == 0 || !sameSlots(d, i-1, i) {
			if i > 0 {
				ends = append(ends, i)
			}
			s := i
			if !slotValid(d, i) {
				s = nullSlot
			}
			starts = append(starts, s)
		}
	}
	if n > 0 {
		ends = append(ends, n)
	}
	values, err := gather(plain, starts, path)
	if err != nil {
		return nil, err
	}
	rt := t.RunEnds().Type
	w := datatype.ByteWidth(rt)
	raw := alloc(len(ends) * w)
	for i, e := range ends {
		switch w {
		case 2:
			memory.ViewBytes[int16](raw)[i] = int16(e)
		case 4:
			memory.ViewBytes[int32](raw)[i] = int32(e)
		default:
			memory.ViewBytes[int64](raw)[i] = int64(e)
		}
	}
	endsData := array.NewData(rt, len(ends), []*memory.Buffer{nil, memory.NewBuffer(raw[:len(ends)*w])}, nil, 0, 0)
	out := &array.Data{Type: t, Length: n, Children: []*array.Data{endsData, values.Data()}}
	a, err := array.Make(out)
	if err != nil {
		return nil, errorf(ErrInvalid, path, "%v", err)
	}
	return a, nil
}
