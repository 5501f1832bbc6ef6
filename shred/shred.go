package shred

import (
	"slices"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
)

// Column is one leaf of a shredded field: an entry per value, null or
// absence of the leaf, each with its repetition level Rep[k] and
// definition level Def[k], and the values of the entries with
// Def[k] == MaxDef, in order.
type Column struct {
	// Path holds the field names from the top-level field to the leaf
	// (see [Leaf.Path]).
	Path []string
	// MaxRep and MaxDef are the largest levels of the path (see [Leaf]).
	MaxRep, MaxDef int
	// Rep and Def hold the levels of each entry; they have equal length.
	// Shred always fills both; Assemble also takes nil for a level whose
	// maximum is 0 (all zeros).
	Rep, Def []int16
	// Values holds the leaf values of the present entries only (those
	// with Def == MaxDef), without nulls. Dictionary-encoded and run-end
	// encoded leaves give their decoded values.
	Values array.Array
}

// PathString is the column's path joined with dots.
func (c *Column) PathString() string { return PathString(c.Path) }

// Len is the number of entries.
func (c *Column) Len() int { return len(c.Def) }

// Shred shreds the array a as a nullable top-level field of the given
// name: see [ShredField].
func Shred(a array.Array, name string) ([]Column, error) {
	return ShredField(datatype.Field{Name: name, Type: a.DataType(), Nullable: true}, a)
}

// ShredField shreds a, the values of field f (its type must equal f's),
// into one column per leaf of f, in the order of [Leaves]. Every slot of
// a is one record: the first entry of each record has repetition level 0.
//
// A null in a non-nullable field (where its parents are present) is an
// error wrapping [ErrInvalid]; unions, and other types without a Dremel
// representation, fail with [ErrNotSupported]. The array must be valid
// as [array.ValidateFull] checks; list offsets and dictionary indices out
// of range are reported as errors, other faults are not looked for.
func ShredField(f datatype.Field, a array.Array) ([]Column, error) {
	t, err := newTree(f)
	if err != nil {
		return nil, err
	}
	if !datatype.Equal(a.DataType(), f.Type, datatype.IgnoreMetadata()) {
		return nil, errorf(ErrInvalid, []string{f.Name}, "array of type %s for a field of type %s", a.DataType(), f.Type)
	}
	n := a.Len()
	lv := levels{rep: make([]int16, n), def: make([]int16, n), idx: make([]int, n)}
	for i := range lv.idx {
		lv.idx[i] = i
	}
	s := &shredder{cols: make([]Column, len(t.leaves))}
	if err := s.node(t.root, a, lv); err != nil {
		return nil, err
	}
	return s.cols, nil
}

// ShredRecord shreds every column of rec, field after field. The record
// is Dremel's top-level message: required, so its columns' paths start at
// their field names and count no level for the record itself.
func ShredRecord(rec *alkaid.Record) ([]Column, error) {
	var out []Column
	for i := range rec.NumCols() {
		cs, err := ShredField(rec.Schema().Field(i), rec.Column(i))
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return out, nil
}

// levels are the entries of every leaf below a node, as far as they are
// known at the node: idx[k] is the node's slot that entry k is in, or -1
// when the entry stopped above the node (at a null or an empty list).
type levels struct {
	rep, def []int16
	idx      []int
}

type shredder struct {
	cols []Column
}

func (s *shredder) node(n *node, a array.Array, lv levels) error {
	if n.kind == leafNode {
		return s.leaf(n, a, lv)
	}
	for {
		e, ok := a.(*array.Extension)
		if !ok {
			break
		}
		a = e.Storage()
	}
	lv, err := s.nulls(n, a, lv)
	if err != nil {
		return err
	}
	switch n.kind {
	case structNode:
		st := a.(*array.Struct)
		for i, c := range n.children {
			if err := s.node(c, st.Field(i), lv); err != nil {
				return err
			}
		}
		return nil
	default:
		next, values, err := s.expand(n, a.(array.ListLike), lv)
		if err != nil {
			return err
		}
		return s.node(n.children[0], values, next)
	}
}

// nulls stops the entries at null slots of a and counts the definition
// level of the present ones when n is nullable.
func (s *shredder) nulls(n *node, a array.Array, lv levels) (levels, error) {
	if a.NullN() == 0 && !n.nullable {
		return lv, nil
	}
	out := levels{rep: lv.rep, def: make([]int16, len(lv.def)), idx: lv.idx}
	copied := false
	valid, off := validity(a)
	for k, i := range lv.idx {
		d := lv.def[k]
		if i >= 0 {
			if valid != nil && !bitutil.GetBit(valid, off+i) {
				if !n.nullable {
					return levels{}, errorf(ErrInvalid, n.path, "null in a non-nullable field (slot %d)", i)
				}
				if !copied {
					out.idx = slices.Clone(lv.idx)
					copied = true
				}
				out.idx[k] = -1
			} else if n.nullable {
				d++
			}
		}
		out.def[k] = d
	}
	return out, nil
}

// expand replaces each entry in a present list slot by one entry per
// element (the first keeping the entry's repetition level, the others
// repeating at the list's level) and stops entries at empty lists.
func (s *shredder) expand(n *node, l array.ListLike, lv levels) (levels, array.Array, error) {
	values := l.ListValues()
	var b bounds
	switch x := l.(type) {
	case *array.List[int32]:
		b = bounds{mode: list32, offs32: x.Offsets()}
	case *array.Map:
		b = bounds{mode: list32, offs32: x.Offsets()}
	case *array.List[int64]:
		b = bounds{mode: list64, offs64: x.Offsets()}
	case *array.ListView[int32]:
		b = bounds{mode: view32, offs32: x.Offsets(), sizes32: x.Sizes()}
	case *array.ListView[int64]:
		b = bounds{mode: view64, offs64: x.Offsets(), sizes64: x.Sizes()}
	default:
		fl := l.(*array.FixedSizeList)
		b = bounds{mode: fixed, offset: fl.Data().Offset, size: fl.Size()}
	}
	vlen := values.Len()
	total := 0
	for _, i := range lv.idx {
		if i < 0 {
			total++
			continue
		}
		st, en := b.at(i)
		if st < 0 || en < st || en > vlen {
			return levels{}, nil, errorf(ErrInvalid, n.path, "list slot %d spans [%d, %d) of %d values", i, st, en, vlen)
		}
		total += max(1, en-st)
	}
	out := levels{rep: make([]int16, total), def: make([]int16, total), idx: make([]int, total)}
	p := 0
	for k, i := range lv.idx {
		r, d := lv.rep[k], lv.def[k]
		if i < 0 {
			out.rep[p], out.def[p], out.idx[p] = r, d, -1
			p++
			continue
		}
		st, en := b.at(i)
		if st == en {
			out.rep[p], out.def[p], out.idx[p] = r, d, -1
			p++
			continue
		}
		for j := st; j < en; j++ {
			out.rep[p], out.def[p], out.idx[p] = r, d+1, j
			r = n.rep
			p++
		}
	}
	return out, values, nil
}

type boundsMode uint8

const (
	fixed boundsMode = iota
	list32
	list64
	view32
	view64
)

// bounds reads the child range of a list slot from the offsets (and
// sizes) of a list or list view, or computes it for a fixed-size list,
// without an interface call per slot.
type bounds struct {
	mode            boundsMode
	offs32, sizes32 []int32
	offs64, sizes64 []int64
	offset, size    int // fixed-size lists
}

// at returns the child range of slot i.
func (b *bounds) at(i int) (int, int) {
	switch b.mode {
	case list32:
		return int(b.offs32[i]), int(b.offs32[i+1])
	case list64:
		return int(b.offs64[i]), int(b.offs64[i+1])
	case view32:
		return int(b.offs32[i]), int(b.offs32[i]) + int(b.sizes32[i])
	case view64:
		return int(b.offs64[i]), int(b.offs64[i]) + int(b.sizes64[i])
	}
	st := (b.offset + i) * b.size
	return st, st + b.size
}

// validity returns the validity bitmap of a nested or plain array and the
// bit of its slot 0, or nil when no slot is null.
func validity(a array.Array) ([]byte, int) {
	return a.Data().ValidityBitmap()
}

func (s *shredder) leaf(n *node, a array.Array, lv levels) error {
	src, slots, err := resolve(a, lv.idx, n.path)
	if err != nil {
		return err
	}
	def := make([]int16, len(lv.def))
	take := make([]int, 0, len(slots))
	inc := int16(0)
	if n.nullable {
		inc = 1
	}
	for k, i := range slots {
		d := lv.def[k]
		if i >= 0 {
			d += inc
			take = append(take, i)
		} else if lv.idx[k] >= 0 && !n.nullable {
			return errorf(ErrInvalid, n.path, "null in a non-nullable field (slot %d)", lv.idx[k])
		}
		def[k] = d
	}
	values, err := gather(src, take, n.path)
	if err != nil {
		return err
	}
	s.cols[n.leaf] = Column{
		Path:   append([]string(nil), n.path...),
		MaxRep: len(n.listDefs),
		MaxDef: int(n.def),
		Rep:    slices.Clone(lv.rep),
		Def:    def,
		Values: values,
	}
	return nil
}

// resolve maps the slots idx of a leaf array to slots of the plain array
// that holds their values, -1 for null slots (and for idx -1): through
// the indices of a dictionary and the runs of a run-end encoding.
func resolve(a array.Array, idx []int, path []string) (array.Array, []int, error) {
	switch x := a.(type) {
	case *array.Extension:
		if valueTypeIsSelf(a.DataType()) {
			return plainSlots(a, idx, path)
		}
		return resolve(x.Storage(), idx, path)
	case *array.Dictionary:
		dict := x.Dictionary()
		out := make([]int, len(idx))
		for k, i := range idx {
			out[k] = -1
			if i >= 0 && x.IsValid(i) {
				j := x.ValueIndex(i)
				if j < 0 || j >= dict.Len() {
					return nil, nil, errorf(ErrInvalid, path, "dictionary index %d at slot %d out of range [0, %d)", j, i, dict.Len())
				}
				out[k] = j
			}
		}
		return resolve(dict, out, path)
	case *array.RunEndEncoded:
		out := make([]int, len(idx))
		nv := x.Values().Len()
		for k, i := range idx {
			out[k] = -1
			if i >= 0 {
				p := x.PhysicalIndex(i)
				if p >= nv {
					return nil, nil, errorf(ErrInvalid, path, "slot %d beyond the last run", i)
				}
				out[k] = p
			}
		}
		return resolve(x.Values(), out, path)
	}
	return plainSlots(a, idx, path)
}

func valueTypeIsSelf(t datatype.DataType) bool {
	k := datatype.StorageOf(t).Kind()
	return k != datatype.KindDictionary && k != datatype.KindRunEndEncoded
}

func plainSlots(a array.Array, idx []int, path []string) (array.Array, []int, error) {
	n := a.Len()
	allNull := datatype.StorageOf(a.DataType()).Kind() == datatype.KindNull
	valid, off := validity(a)
	var out []int
	for k, i := range idx {
		if i >= n {
			return nil, nil, errorf(ErrInvalid, path, "slot %d of %d", i, n)
		}
		if i >= 0 && (allNull || valid != nil && !bitutil.GetBit(valid, off+i)) {
			if out == nil {
				out = slices.Clone(idx)
			}
			out[k] = -1
		}
	}
	if out == nil {
		out = idx
	}
	return a, out, nil
}
