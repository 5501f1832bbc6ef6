package array

import (
	"fmt"
	"unsafe"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// growOffsets reallocates an offsets allocation to hold c+extra values of
// type O, keeping its contents.
func growOffsets[O Offset](cfg *builderConfig, raw []byte, c, extra int) ([]byte, []O) {
	var zero O
	nr := cfg.bytesWith((c+extra)*int(unsafe.Sizeof(zero)), raw, nil)
	return nr, memory.ViewBytes[O](nr)
}

// toOffset converts a child position to O, panicking when it does not fit
// (more than 2³¹-1 child values under 32-bit offsets).
func toOffset[O Offset](n int) O {
	o := O(n)
	if int(o) != n {
		panic(fmt.Sprintf("array: offset %d overflows %T", n, o))
	}
	return o
}

// ListBuilder builds a [List] array with offsets of type O (list with
// int32, large_list with int64). Append(true) starts a list; the values
// appended to ValueBuilder until the next Append belong to it.
//
//	b := array.NewBuilder(datatype.ListOf(datatype.Int8)).(*array.ListBuilder[int32])
//	vb := b.ValueBuilder().(*array.Int8Builder)
//	b.Append(true); vb.Append(1); vb.Append(2) // [1 2]
//	b.AppendNull()                             // null
//	b.Append(true)                             // []
type ListBuilder[O Offset] struct {
	builderBase
	rawOff  []byte
	offsets []O // offsets[i] is the start of slot i; len == capacity+1
	child   builder
}

// Aliases for the list builders of each offset width.
type (
	ListBuilder32 = ListBuilder[int32]
	ListBuilder64 = ListBuilder[int64]
)

// NewListBuilder returns a builder of arrays of t, a list (O = int32) or
// large list (O = int64) type; the child builder is chosen by [NewBuilder].
func NewListBuilder[O Offset](t *datatype.ListType, opts ...BuilderOption) *ListBuilder[O] {
	cfg := newConfig(opts)
	c, err := newBuilder(t.Elem().Type, cfg, 1)
	if err != nil {
		panic(err)
	}
	return newListBuilder[O](t, c, cfg)
}

func newListBuilder[O Offset](t datatype.DataType, child builder, cfg *builderConfig) *ListBuilder[O] {
	b := &ListBuilder[O]{child: child}
	b.init(t, cfg)
	return b
}

func (b *ListBuilder[O]) grow(n int) {
	need := b.length + n
	if need <= b.capacity && b.offsets != nil {
		return
	}
	c := growCap(b.capacity, need)
	b.rawOff, b.offsets = growOffsets[O](b.cfg, b.rawOff, c, 1)
	b.setCapacity(c)
}

// ValueBuilder is the builder of the list elements.
func (b *ListBuilder[O]) ValueBuilder() Builder { return b.child }

// Reserve makes room for n more lists (not for their elements).
func (b *ListBuilder[O]) Reserve(n int) { b.grow(n) }

// Append starts a list, null when valid is false (a null list may still
// be given elements; they are hidden).
func (b *ListBuilder[O]) Append(valid bool) {
	n := b.length
	if n >= b.capacity || b.offsets == nil {
		b.grow(1)
	}
	b.offsets[n] = toOffset[O](b.child.Len())
	if !valid {
		b.markNull(1)
	}
	b.length = n + 1
}

// AppendNull appends a null (empty) list.
func (b *ListBuilder[O]) AppendNull() { b.AppendNulls(1) }

// AppendNulls appends n null lists.
func (b *ListBuilder[O]) AppendNulls(n int) {
	b.appendStarts(n)
	b.markNull(n)
	b.length += n
}

// AppendEmptyValue appends an empty list.
func (b *ListBuilder[O]) AppendEmptyValue() { b.AppendEmptyValues(1) }

// AppendEmptyValues appends n empty lists.
func (b *ListBuilder[O]) AppendEmptyValues(n int) {
	b.appendStarts(n)
	b.length += n
}

func (b *ListBuilder[O]) appendStarts(n int) {
	b.grow(n)
	start := toOffset[O](b.child.Len())
	for i := range n {
		b.offsets[b.length+i] = start
	}
}

// end returns the end of slot i in the child.
func (b *ListBuilder[O]) end(i int) int {
	if i+1 < b.length {
		return int(b.offsets[i+1])
	}
	return b.child.Len()
}

func (b *ListBuilder[O]) slotsEqual(i, j int) bool {
	if same, done := b.nullsEqual(i, j); !same || done {
		return same
	}
	return rangesEqual(b.child, int(b.offsets[i]), b.end(i), int(b.offsets[j]), b.end(j))
}

// rangesEqual compares child slots [si, ei) with [sj, ej).
func rangesEqual(c builder, si, ei, sj, ej int) bool {
	if ei-si != ej-sj {
		return false
	}
	for k := range ei - si {
		if !c.slotsEqual(si+k, sj+k) {
			return false
		}
	}
	return true
}

func (b *ListBuilder[O]) truncate(n int) {
	if n < b.length {
		b.child.truncate(int(b.offsets[n]))
		clear(b.offsets[n : b.length+1])
		b.truncateBase(n)
	}
}

func (b *ListBuilder[O]) finishData() *Data {
	if b.offsets == nil {
		b.grow(0)
	}
	b.offsets[b.length] = toOffset[O](b.child.Len())
	var zero O
	child := b.child.NewArray().Data()
	d := b.makeData([]*memory.Buffer{b.validityBuffer(), b.cfg.buffer(b.rawOff, (b.length+1)*int(unsafe.Sizeof(zero)))},
		[]*Data{child})
	b.resetBase()
	b.rawOff, b.offsets = nil, nil
	return d
}

// Finish returns the array built so far and resets the builder.
func (b *ListBuilder[O]) Finish() *List[O] { return newList[O](b.finishData()) }

// NewArray returns the array built so far and resets the builder.
func (b *ListBuilder[O]) NewArray() Array { return b.Finish() }

// ListViewBuilder builds a [ListView] array with offsets and sizes of
// type O (list_view with int32, large_list_view with int64). Append
// starts a list at the end of the child, as [ListBuilder.Append] does;
// AppendView adds a slot with an explicit offset and size into values
// appended to ValueBuilder in any order, so lists can share elements.
type ListViewBuilder[O Offset] struct {
	builderBase
	rawOff, rawSize []byte
	offsets, sizes  []O
	open            bool // the last slot's size is still to be computed
	child           builder
}

// NewListViewBuilder returns a builder of arrays of t, a list_view (O =
// int32) or large_list_view (O = int64) type.
func NewListViewBuilder[O Offset](t *datatype.ListType, opts ...BuilderOption) *ListViewBuilder[O] {
	cfg := newConfig(opts)
	c, err := newBuilder(t.Elem().Type, cfg, 1)
	if err != nil {
		panic(err)
	}
	return newListViewBuilder[O](t, c, cfg)
}

func newListViewBuilder[O Offset](t datatype.DataType, child builder, cfg *builderConfig) *ListViewBuilder[O] {
	b := &ListViewBuilder[O]{child: child}
	b.init(t, cfg)
	return b
}

func (b *ListViewBuilder[O]) grow(n int) {
	need := b.length + n
	if need <= b.capacity && b.offsets != nil {
		return
	}
	c := growCap(b.capacity, need)
	b.rawOff, b.offsets = growOffsets[O](b.cfg, b.rawOff, c, 0)
	b.rawSize, b.sizes = growOffsets[O](b.cfg, b.rawSize, c, 0)
	b.setCapacity(c)
}

// close computes the size of an open last slot.
func (b *ListViewBuilder[O]) close() {
	if b.open {
		i := b.length - 1
		b.sizes[i] = toOffset[O](b.child.Len() - int(b.offsets[i]))
		b.open = false
	}
}

// ValueBuilder is the builder of the list elements.
func (b *ListViewBuilder[O]) ValueBuilder() Builder { return b.child }

// Reserve makes room for n more lists (not for their elements).
func (b *ListViewBuilder[O]) Reserve(n int) { b.grow(n) }

// Append starts a list at the end of the child; the values appended to
// ValueBuilder until the next append belong to it.
func (b *ListViewBuilder[O]) Append(valid bool) {
	b.close()
	b.grow(1)
	b.offsets[b.length] = toOffset[O](b.child.Len())
	b.mark(valid)
	b.open = true
}

// AppendView appends a slot of size values starting at offset in the
// child; the child must hold them by the time the array is finished.
func (b *ListViewBuilder[O]) AppendView(valid bool, offset, size int) {
	if offset < 0 || size < 0 {
		panic(fmt.Sprintf("array: list view offset %d size %d", offset, size))
	}
	b.close()
	b.grow(1)
	b.offsets[b.length] = toOffset[O](offset)
	b.sizes[b.length] = toOffset[O](size)
	b.mark(valid)
}

func (b *ListViewBuilder[O]) mark(valid bool) {
	if !valid {
		b.markNull(1)
	}
	b.length++
}

// AppendNull appends a null list (offset at the end of the child, size 0).
func (b *ListViewBuilder[O]) AppendNull() { b.AppendNulls(1) }

// AppendNulls appends n null lists.
func (b *ListViewBuilder[O]) AppendNulls(n int) {
	for range n {
		b.AppendView(false, b.child.Len(), 0)
	}
}

// AppendEmptyValue appends an empty list.
func (b *ListViewBuilder[O]) AppendEmptyValue() { b.AppendEmptyValues(1) }

// AppendEmptyValues appends n empty lists.
func (b *ListViewBuilder[O]) AppendEmptyValues(n int) {
	for range n {
		b.AppendView(true, b.child.Len(), 0)
	}
}

func (b *ListViewBuilder[O]) bounds(i int) (int, int) {
	s := int(b.offsets[i])
	if b.open && i == b.length-1 {
		return s, b.child.Len()
	}
	return s, s + int(b.sizes[i])
}

func (b *ListViewBuilder[O]) slotsEqual(i, j int) bool {
	if same, done := b.nullsEqual(i, j); !same || done {
		return same
	}
	si, ei := b.bounds(i)
	sj, ej := b.bounds(j)
	return rangesEqual(b.child, si, ei, sj, ej)
}

func (b *ListViewBuilder[O]) truncate(n int) {
	if n >= b.length {
		return
	}
	if b.open {
		// The open slot's elements were appended after every other slot's.
		b.child.truncate(int(b.offsets[b.length-1]))
		b.open = false
	}
	clear(b.offsets[n:b.length])
	clear(b.sizes[n:b.length])
	b.truncateBase(n)
}

// Finish returns the array built so far and resets the builder. It
// panics when a view reaches beyond the child values (a programmer error).
func (b *ListViewBuilder[O]) Finish() *ListView[O] {
	b.close()
	if b.offsets == nil {
		b.grow(0)
	}
	cl := b.child.Len()
	for i := range b.length {
		if int(b.offsets[i])+int(b.sizes[i]) > cl {
			panic(fmt.Sprintf("array: list view slot %d [%d, +%d) beyond %d child values", i, b.offsets[i], b.sizes[i], cl))
		}
	}
	var zero O
	size := b.length * int(unsafe.Sizeof(zero))
	child := b.child.NewArray().Data()
	d := b.makeData([]*memory.Buffer{b.validityBuffer(), b.cfg.buffer(b.rawOff, size), b.cfg.buffer(b.rawSize, size)},
		[]*Data{child})
	b.resetBase()
	b.rawOff, b.rawSize, b.offsets, b.sizes = nil, nil, nil, nil
	return newListView[O](d)
}

// NewArray returns the array built so far and resets the builder.
func (b *ListViewBuilder[O]) NewArray() Array { return b.Finish() }

// FixedSizeListBuilder builds a [FixedSizeList] array. After Append, append
// exactly Size values to ValueBuilder; AppendNull and AppendEmptyValue
// append Size empty values themselves.
type FixedSizeListBuilder struct {
	builderBase
	size  int
	child builder
}

// NewFixedSizeListBuilder returns a builder of arrays of t, a
// fixed_size_list type.
func NewFixedSizeListBuilder(t *datatype.ListType, opts ...BuilderOption) *FixedSizeListBuilder {
	cfg := newConfig(opts)
	c, err := newBuilder(t.Elem().Type, cfg, 1)
	if err != nil {
		panic(err)
	}
	return newFixedSizeListBuilder(t, c, cfg)
}

func newFixedSizeListBuilder(t *datatype.ListType, child builder, cfg *builderConfig) *FixedSizeListBuilder {
	b := &FixedSizeListBuilder{size: int(t.Size()), child: child}
	b.init(t, cfg)
	return b
}

func (b *FixedSizeListBuilder) grow(n int) {
	if need := b.length + n; need > b.capacity {
		b.setCapacity(growCap(b.capacity, need))
	}
}

// Size is the number of values per list.
func (b *FixedSizeListBuilder) Size() int { return b.size }

// ValueBuilder is the builder of the list elements.
func (b *FixedSizeListBuilder) ValueBuilder() Builder { return b.child }

// Reserve makes room for n more lists and their elements.
func (b *FixedSizeListBuilder) Reserve(n int) {
	b.grow(n)
	b.child.Reserve(n * b.size)
}

// Append appends a list slot, null when valid is false; append Size values
// to ValueBuilder for it in either case.
func (b *FixedSizeListBuilder) Append(valid bool) {
	b.grow(1)
	if !valid {
		b.markNull(1)
	}
	b.length++
}

// AppendNull appends a null list of Size empty values.
func (b *FixedSizeListBuilder) AppendNull() { b.AppendNulls(1) }

// AppendNulls appends n null lists.
func (b *FixedSizeListBuilder) AppendNulls(n int) {
	b.grow(n)
	b.markNull(n)
	b.length += n
	b.child.AppendEmptyValues(n * b.size)
}

// AppendEmptyValue appends a list of Size empty values.
func (b *FixedSizeListBuilder) AppendEmptyValue() { b.AppendEmptyValues(1) }

// AppendEmptyValues appends n lists of empty values.
func (b *FixedSizeListBuilder) AppendEmptyValues(n int) {
	b.grow(n)
	b.length += n
	b.child.AppendEmptyValues(n * b.size)
}

func (b *FixedSizeListBuilder) slotsEqual(i, j int) bool {
	if same, done := b.nullsEqual(i, j); !same || done {
		return same
	}
	return rangesEqual(b.child, i*b.size, (i+1)*b.size, j*b.size, (j+1)*b.size)
}

func (b *FixedSizeListBuilder) truncate(n int) {
	if n < b.length {
		b.child.truncate(n * b.size)
		b.truncateBase(n)
	}
}

// Finish returns the array built so far and resets the builder. It panics
// when the child does not hold Size values per list (a programmer error).
func (b *FixedSizeListBuilder) Finish() *FixedSizeList {
	if b.child.Len() != b.length*b.size {
		panic(fmt.Sprintf("array: fixed_size_list of %d lists of %d has %d child values", b.length, b.size, b.child.Len()))
	}
	child := b.child.NewArray().Data()
	d := b.makeData([]*memory.Buffer{b.validityBuffer()}, []*Data{child})
	b.resetBase()
	return newFixedSizeList(d)
}

// NewArray returns the array built so far and resets the builder.
func (b *FixedSizeListBuilder) NewArray() Array { return b.Finish() }

// StructBuilder builds a [Struct] array. Append sets a slot's validity;
// append one value to every FieldBuilder for it (a null slot's field values
// are hidden). AppendNull and AppendEmptyValue append empty field values
// themselves.
type StructBuilder struct {
	builderBase
	fields []builder
}

// NewStructBuilder returns a builder of arrays of t.
func NewStructBuilder(t *datatype.StructType, opts ...BuilderOption) *StructBuilder {
	cfg := newConfig(opts)
	fs := make([]builder, t.NumFields())
	for i := range fs {
		c, err := newBuilder(t.Field(i).Type, cfg, 1)
		if err != nil {
			panic(err)
		}
		fs[i] = c
	}
	return newStructBuilder(t, fs, cfg)
}

func newStructBuilder(t datatype.DataType, fields []builder, cfg *builderConfig) *StructBuilder {
	b := &StructBuilder{fields: fields}
	b.init(t, cfg)
	return b
}

func (b *StructBuilder) grow(n int) {
	if need := b.length + n; need > b.capacity {
		b.setCapacity(growCap(b.capacity, need))
	}
}

// NumField is the number of fields.
func (b *StructBuilder) NumField() int { return len(b.fields) }

// FieldBuilder is the builder of field i.
func (b *StructBuilder) FieldBuilder(i int) Builder { return b.fields[i] }

// Reserve makes room for n more slots in the struct and every field.
func (b *StructBuilder) Reserve(n int) {
	b.grow(n)
	for _, f := range b.fields {
		f.Reserve(n)
	}
}

// Append appends a slot, null when valid is false; append a value to every
// field for it in either case.
func (b *StructBuilder) Append(valid bool) {
	b.grow(1)
	if !valid {
		b.markNull(1)
	}
	b.length++
}

// appendValid appends n valid slots without touching the fields.
func (b *StructBuilder) appendValid(n int) {
	b.grow(n)
	b.length += n
}

// AppendNull appends a null slot and an empty value to every field.
func (b *StructBuilder) AppendNull() { b.AppendNulls(1) }

// AppendNulls appends n null slots.
func (b *StructBuilder) AppendNulls(n int) {
	b.grow(n)
	b.markNull(n)
	b.length += n
	for _, f := range b.fields {
		f.AppendEmptyValues(n)
	}
}

// AppendEmptyValue appends a slot of empty field values.
func (b *StructBuilder) AppendEmptyValue() { b.AppendEmptyValues(1) }

// AppendEmptyValues appends n slots of empty field values.
func (b *StructBuilder) AppendEmptyValues(n int) {
	b.appendValid(n)
	for _, f := range b.fields {
		f.AppendEmptyValues(n)
	}
}

func (b *StructBuilder) slotsEqual(i, j int) bool {
	if same, done := b.nullsEqual(i, j); !same || done {
		return same
	}
	for _, f := range b.fields {
		if !f.slotsEqual(i, j) {
			return false
		}
	}
	return true
}

func (b *StructBuilder) truncate(n int) {
	if n < b.length {
		for _, f := range b.fields {
			f.truncate(n)
		}
		b.truncateBase(n)
	}
}

// Finish returns the array built so far and resets the builder. It panics
// when a field's length differs from the struct's (a programmer error).
func (b *StructBuilder) Finish() *Struct {
	children := make([]*Data, len(b.fields))
	for i, f := range b.fields {
		if f.Len() != b.length {
			panic(fmt.Sprintf("array: struct of length %d has field %d of length %d", b.length, i, f.Len()))
		}
		children[i] = f.NewArray().Data()
	}
	d := b.makeData([]*memory.Buffer{b.validityBuffer()}, children)
	b.resetBase()
	return newStruct(d)
}

// NewArray returns the array built so far and resets the builder.
func (b *StructBuilder) NewArray() Array { return b.Finish() }

// MapBuilder builds a [Map] array. Append starts a map; append its keys to
// KeyBuilder and as many values to ItemBuilder.
//
//	b := array.NewBuilder(datatype.MapOf(datatype.String, datatype.Int32, false)).(*array.MapBuilder)
//	kb, ib := b.KeyBuilder().(*array.BinaryBuilder[int32]), b.ItemBuilder().(*array.Int32Builder)
//	b.Append(true); kb.AppendString("a"); ib.Append(1) // {"a": 1}
type MapBuilder struct {
	list    *ListBuilder[int32]
	entries *StructBuilder
}

// NewMapBuilder returns a builder of arrays of t.
func NewMapBuilder(t *datatype.MapType, opts ...BuilderOption) *MapBuilder {
	cfg := newConfig(opts)
	e, err := newBuilder(t.Entries().Type, cfg, 1)
	if err != nil {
		panic(err)
	}
	return newMapBuilder(t, e.(*StructBuilder), cfg)
}

func newMapBuilder(t *datatype.MapType, entries *StructBuilder, cfg *builderConfig) *MapBuilder {
	return &MapBuilder{list: newListBuilder[int32](t, entries, cfg), entries: entries}
}

// sync counts the keys appended since the last call as entries.
func (b *MapBuilder) sync() {
	if n := b.entries.fields[0].Len() - b.entries.length; n > 0 {
		b.entries.appendValid(n)
	}
}

// Type is the map type.
func (b *MapBuilder) Type() datatype.DataType { return b.list.dtype }

// Len is the number of maps appended.
func (b *MapBuilder) Len() int { return b.list.length }

// NullN is the number of null maps appended.
func (b *MapBuilder) NullN() int { return b.list.nulls }

// KeyBuilder is the builder of the keys.
func (b *MapBuilder) KeyBuilder() Builder { return b.entries.fields[0] }

// ItemBuilder is the builder of the values.
func (b *MapBuilder) ItemBuilder() Builder { return b.entries.fields[1] }

// Reserve makes room for n more maps (not for their entries).
func (b *MapBuilder) Reserve(n int) { b.list.Reserve(n) }

// Append starts a map, null when valid is false.
func (b *MapBuilder) Append(valid bool) {
	b.sync()
	b.list.Append(valid)
}

// AppendNull appends a null map.
func (b *MapBuilder) AppendNull() { b.AppendNulls(1) }

// AppendNulls appends n null maps.
func (b *MapBuilder) AppendNulls(n int) {
	b.sync()
	b.list.AppendNulls(n)
}

// AppendEmptyValue appends an empty map.
func (b *MapBuilder) AppendEmptyValue() { b.AppendEmptyValues(1) }

// AppendEmptyValues appends n empty maps.
func (b *MapBuilder) AppendEmptyValues(n int) {
	b.sync()
	b.list.AppendEmptyValues(n)
}

func (b *MapBuilder) slotsEqual(i, j int) bool {
	b.sync()
	return b.list.slotsEqual(i, j)
}

func (b *MapBuilder) truncate(n int) {
	b.sync()
	b.list.truncate(n)
}

// Finish returns the array built so far and resets the builder. It panics
// when the numbers of keys and values differ (a programmer error).
func (b *MapBuilder) Finish() *Map {
	if k, v := b.entries.fields[0].Len(), b.entries.fields[1].Len(); k != v {
		panic(fmt.Sprintf("array: map builder has %d keys and %d values", k, v))
	}
	b.sync()
	return newMap(b.list.finishData())
}

// NewArray returns the array built so far and resets the builder.
func (b *MapBuilder) NewArray() Array { return b.Finish() }
