package array

import (
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// List is an array of variable-size lists with offsets of type O, over one
// child array; it serves list and large_list.
//
//	offsets [0 3 3 7]   slot i is child[offsets[i]:offsets[i+1]]
type List[O Offset] struct {
	base
	offsets []O
	values  Array
}

// Aliases for the list arrays of each offset width.
type (
	ListArray      = List[int32]
	LargeListArray = List[int64]
)

func newList[O Offset](d *Data) *List[O] {
	a := &List[O]{values: makeArray(d.Children[0])}
	a.init(d)
	a.offsets = offsetsOf[O](d)
	return a
}

// ValueOffsets returns the start and end of slot i in the child.
func (a *List[O]) ValueOffsets(i int) (start, end int) {
	return int(a.offsets[i]), int(a.offsets[i+1])
}

// Offsets returns the Len()+1 offsets (into the child, not rebased).
func (a *List[O]) Offsets() []O { return a.offsets }

// ListValues is the whole child array.
func (a *List[O]) ListValues() Array { return a.values }

// Value returns slot i as a slice of the child array.
func (a *List[O]) Value(i int) Array {
	s, e := a.ValueOffsets(i)
	return Slice(a.values, s, e)
}

// String prints the values.
func (a *List[O]) String() string { return Format(a) }

// Map is a list of key–value entries: a list<entries: struct<key, value>>.
type Map struct {
	*List[int32]
	keys, items Array
}

func newMap(d *Data) *Map {
	l := newList[int32](d)
	entries := l.values.(*Struct)
	return &Map{List: l, keys: entries.Field(0), items: entries.Field(1)}
}

// Keys is the whole keys child (all entries).
func (a *Map) Keys() Array { return a.keys }

// Items is the whole values child (all entries).
func (a *Map) Items() Array { return a.items }

// String prints the values.
func (a *Map) String() string { return Format(a) }

// ListView is an array of lists given by an offset and a size per slot,
// in any order, possibly overlapping; it serves list_view and
// large_list_view.
//
//	offsets [4 7 0 0]  sizes [3 0 4 0]   slot i is child[offsets[i]:offsets[i]+sizes[i]]
type ListView[O Offset] struct {
	base
	offsets, sizes []O
	values         Array
}

// Aliases for the list-view arrays of each offset width.
type (
	ListViewArray      = ListView[int32]
	LargeListViewArray = ListView[int64]
)

func newListView[O Offset](d *Data) *ListView[O] {
	a := &ListView[O]{values: makeArray(d.Children[0])}
	a.init(d)
	a.offsets = memory.View[O](d.Buffers[1])[d.Offset : d.Offset+d.Length]
	a.sizes = memory.View[O](d.Buffers[2])[d.Offset : d.Offset+d.Length]
	return a
}

// ValueOffsets returns the start and end of slot i in the child.
func (a *ListView[O]) ValueOffsets(i int) (start, end int) {
	return int(a.offsets[i]), int(a.offsets[i] + a.sizes[i])
}

// Offsets returns the per-slot offsets.
func (a *ListView[O]) Offsets() []O { return a.offsets }

// Sizes returns the per-slot sizes.
func (a *ListView[O]) Sizes() []O { return a.sizes }

// ListValues is the whole child array.
func (a *ListView[O]) ListValues() Array { return a.values }

// Value returns slot i as a slice of the child array.
func (a *ListView[O]) Value(i int) Array {
	s, e := a.ValueOffsets(i)
	return Slice(a.values, s, e)
}

// String prints the values.
func (a *ListView[O]) String() string { return Format(a) }

// FixedSizeList is an array of lists of exactly Size() child values each.
type FixedSizeList struct {
	base
	size   int
	values Array
}

func newFixedSizeList(d *Data) *FixedSizeList {
	t := datatype.StorageOf(d.Type).(*datatype.ListType)
	a := &FixedSizeList{size: int(t.Size()), values: makeArray(d.Children[0])}
	a.init(d)
	return a
}

// Size is the number of child values per slot.
func (a *FixedSizeList) Size() int { return a.size }

// ValueOffsets returns the start and end of slot i in the child.
func (a *FixedSizeList) ValueOffsets(i int) (start, end int) {
	s := (a.data.Offset + i) * a.size
	return s, s + a.size
}

// ListValues is the whole child array.
func (a *FixedSizeList) ListValues() Array { return a.values }

// Value returns slot i as a slice of the child array.
func (a *FixedSizeList) Value(i int) Array {
	s, e := a.ValueOffsets(i)
	return Slice(a.values, s, e)
}

// String prints the values.
func (a *FixedSizeList) String() string { return Format(a) }

// ListLike is implemented by every list array (list, large list, list
// view, fixed-size list, map).
type ListLike interface {
	Array
	ValueOffsets(i int) (start, end int)
	ListValues() Array
}

// Struct is an array of records with one child array per field; a null
// struct slot may hold anything in its children.
type Struct struct {
	base
	fields []Array // children sliced to this array's rows
}

func newStruct(d *Data) *Struct {
	a := &Struct{fields: make([]Array, len(d.Children))}
	a.init(d)
	for i, c := range d.Children {
		a.fields[i] = makeArray(c.Slice(d.Offset, d.Offset+d.Length))
	}
	return a
}

// NumField is the number of children.
func (a *Struct) NumField() int { return len(a.fields) }

// Field returns child i, aligned with this array's rows (slot j of the
// struct is slot j of each child).
func (a *Struct) Field(i int) Array { return a.fields[i] }

// String prints the values.
func (a *Struct) String() string { return Format(a) }
