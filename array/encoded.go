package array

import (
	"sort"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// Union is a sparse or dense union. Each slot has a type code naming the
// child that holds it; a sparse union's children are as long as the union
// and slot i lives at child row i, a dense union adds an int32 offset per
// slot into the child. Unions have no validity bitmap: a slot is null when
// its child's slot is, and the null count carries no meaning (see
// [Union.NullN]).
type Union struct {
	base
	mode     datatype.UnionMode
	codes    []int8  // type code per slot of this array
	offsets  []int32 // dense only, per slot of this array
	children []Array // unsliced
	index    [128]int
}

func newUnion(d *Data) *Union {
	t := datatype.StorageOf(d.Type).(*datatype.UnionType)
	a := &Union{mode: t.Mode(), index: t.ChildIndex(), children: make([]Array, len(d.Children))}
	a.init(d)
	a.codes = memory.View[int8](d.Buffers[0])[d.Offset : d.Offset+d.Length]
	if a.mode == datatype.Dense {
		a.offsets = memory.View[int32](d.Buffers[1])[d.Offset : d.Offset+d.Length]
	}
	for i, c := range d.Children {
		a.children[i] = makeArray(c)
	}
	a.valid = nil
	return a
}

// Mode is sparse or dense.
func (a *Union) Mode() datatype.UnionMode { return a.mode }

// TypeCode returns slot i's type code.
func (a *Union) TypeCode(i int) int8 { return a.codes[i] }

// TypeCodes returns the per-slot type codes.
func (a *Union) TypeCodes() []int8 { return a.codes }

// ChildIndex returns the index of the child holding slot i.
func (a *Union) ChildIndex(i int) int { return a.index[a.codes[i]] }

// ValueOffset returns slot i's row in its child.
func (a *Union) ValueOffset(i int) int {
	if a.mode == datatype.Dense {
		return int(a.offsets[i])
	}
	return a.data.Offset + i
}

// Offsets returns the per-slot child offsets of a dense union (nil when
// sparse).
func (a *Union) Offsets() []int32 { return a.offsets }

// NumChildren is the number of children.
func (a *Union) NumChildren() int { return len(a.children) }

// Child returns child i, whole (not sliced to this array's rows).
func (a *Union) Child(i int) Array { return a.children[i] }

// IsNull reports whether slot i's child value is null.
func (a *Union) IsNull(i int) bool {
	return a.children[a.ChildIndex(i)].IsNull(a.ValueOffset(i))
}

// IsValid reports whether slot i's child value is not null.
func (a *Union) IsValid(i int) bool { return !a.IsNull(i) }

// String prints the values.
func (a *Union) String() string { return Format(a) }

// Dictionary is an array of integer indices into a dictionary of values.
type Dictionary struct {
	base
	indices Array
	dict    Array
}

func newDictionary(d *Data) *Dictionary {
	t := datatype.StorageOf(d.Type).(*datatype.DictionaryType)
	idx := *d
	idx.Type = t.Index
	idx.Dictionary = nil
	a := &Dictionary{indices: makeArray(&idx), dict: makeArray(d.Dictionary)}
	a.init(d)
	return a
}

// Indices is the array of indices (same length, offset and nulls).
func (a *Dictionary) Indices() Array { return a.indices }

// Dictionary is the array of distinct values.
func (a *Dictionary) Dictionary() Array { return a.dict }

// ValueIndex returns slot i's index into the dictionary.
func (a *Dictionary) ValueIndex(i int) int { return indexAt(a.indices, i) }

// String prints the values.
func (a *Dictionary) String() string { return Format(a) }

// indexAt reads slot i of an integer array as an int.
func indexAt(a Array, i int) int {
	switch a := a.(type) {
	case *Int8:
		return int(a.Value(i))
	case *Int16:
		return int(a.Value(i))
	case *Int32:
		return int(a.Value(i))
	case *Int64:
		return int(a.Value(i))
	case *Uint8:
		return int(a.Value(i))
	case *Uint16:
		return int(a.Value(i))
	case *Uint32:
		return int(a.Value(i))
	case *Uint64:
		return int(a.Value(i))
	}
	panic("array: not an integer array: " + a.DataType().String())
}

// RunEndEncoded stores runs of equal values: a child of run ends (int16,
// int32 or int64, strictly increasing, the last ≥ offset+length) and a
// child of one value per run. It has no validity bitmap; a slot is null
// when its run's value is.
//
//	run_ends [3 4 7]  values [1.0 null 2.0]  →  [1 1 1 null 2 2 2]
type RunEndEncoded struct {
	base
	ends   Array
	values Array
}

func newRunEndEncoded(d *Data) *RunEndEncoded {
	a := &RunEndEncoded{ends: makeArray(d.Children[0]), values: makeArray(d.Children[1])}
	a.init(d)
	a.valid = nil
	return a
}

// RunEnds is the whole run-ends child (ends are logical, not relative to
// this array's offset).
func (a *RunEndEncoded) RunEnds() Array { return a.ends }

// Values is the whole values child.
func (a *RunEndEncoded) Values() Array { return a.values }

// PhysicalIndex returns the run (the values row) holding slot i, by
// binary search over the run ends.
func (a *RunEndEncoded) PhysicalIndex(i int) int {
	logical := a.data.Offset + i
	n := a.ends.Len()
	return sort.Search(n, func(j int) bool { return indexAt(a.ends, j) > logical })
}

// IsNull reports whether slot i's run value is null.
func (a *RunEndEncoded) IsNull(i int) bool { return a.values.IsNull(a.PhysicalIndex(i)) }

// IsValid reports whether slot i's run value is not null.
func (a *RunEndEncoded) IsValid(i int) bool { return !a.IsNull(i) }

// String prints the values.
func (a *RunEndEncoded) String() string { return Format(a) }

// Extension is an array of an extension type: its storage array plus the
// type. Packages defining extension types wrap it with typed accessors.
type Extension struct {
	base
	storage Array
}

func newExtension(d *Data, t datatype.ExtensionType) *Extension {
	st := *d
	st.Type = t.StorageType()
	a := &Extension{storage: makeArray(&st)}
	a.init(d)
	return a
}

// NewExtension wraps storage as an array of extension type t; the storage
// type must equal t's.
func NewExtension(t datatype.ExtensionType, storage Array) (*Extension, error) {
	if !datatype.Equal(t.StorageType(), storage.DataType()) {
		return nil, invalidf("extension %s wants storage %s, got %s", t.ExtensionName(), t.StorageType(), storage.DataType())
	}
	d := *storage.Data()
	d.Type = t
	return newExtension(&d, t), nil
}

// Storage is the storage array.
func (a *Extension) Storage() Array { return a.storage }

// extensionArray is an *Extension or a typed array of another package
// that embeds one (and so promotes extensionBase); Equal and Format see
// through such wrappers with it.
type extensionArray interface {
	Array
	extensionBase() *Extension
}

func (a *Extension) extensionBase() *Extension { return a }

// IsNull reports whether storage slot i is null.
func (a *Extension) IsNull(i int) bool { return a.storage.IsNull(i) }

// IsValid reports whether storage slot i is not null.
func (a *Extension) IsValid(i int) bool { return a.storage.IsValid(i) }

// String prints the values.
func (a *Extension) String() string { return Format(a) }
