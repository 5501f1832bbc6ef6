package array

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// UnionBuilder builds a sparse or dense [Union] array. Append(code) starts
// a slot of the child with that type code and returns the child's builder;
// append exactly one value to it. In a sparse union the other children
// get a null for the slot, so that every child stays as long as the union.
//
//	b := array.NewBuilder(unionType).(*array.UnionBuilder)
//	b.Append(0).(*array.Float32Builder).Append(1.2)
//	b.AppendNull() // a null in the first child
type UnionBuilder struct {
	dtype    *datatype.UnionType
	cfg      *builderConfig
	length   int
	capacity int
	codes    []byte // int8 type codes, capacity bytes
	rawOff   []byte
	offsets  []int32 // dense only
	children []builder
	index    [128]int
	first    int8 // type code of the first child
}

// NewUnionBuilder returns a builder of arrays of t.
func NewUnionBuilder(t *datatype.UnionType, opts ...BuilderOption) *UnionBuilder {
	cfg := newConfig(opts)
	cs := make([]builder, t.NumFields())
	for i := range cs {
		c, err := newBuilder(t.Field(i).Type, cfg, 1)
		if err != nil {
			panic(err)
		}
		cs[i] = c
	}
	return newUnionBuilder(t, cs, cfg)
}

func newUnionBuilder(t *datatype.UnionType, children []builder, cfg *builderConfig) *UnionBuilder {
	b := &UnionBuilder{dtype: t, cfg: cfg, children: children, index: t.ChildIndex()}
	if codes := t.TypeCodes(); len(codes) > 0 {
		b.first = codes[0]
	}
	return b
}

// Type is the union type.
func (b *UnionBuilder) Type() datatype.DataType { return b.dtype }

// Len is the number of slots appended.
func (b *UnionBuilder) Len() int { return b.length }

// NullN is 0: a union's nulls are its children's.
func (b *UnionBuilder) NullN() int { return 0 }

// Mode is sparse or dense.
func (b *UnionBuilder) Mode() datatype.UnionMode { return b.dtype.Mode() }

// NumChildren is the number of children.
func (b *UnionBuilder) NumChildren() int { return len(b.children) }

// ChildBuilder is the builder of child i (by index, not type code).
func (b *UnionBuilder) ChildBuilder(i int) Builder { return b.children[i] }

func (b *UnionBuilder) grow(n int) {
	need := b.length + n
	if need <= b.capacity {
		return
	}
	c := growCap(b.capacity, need)
	codes := b.cfg.bytes(c)
	copy(codes, b.codes)
	b.codes = codes
	if b.dtype.Mode() == datatype.Dense {
		b.rawOff, b.offsets = growOffsets[int32](b.cfg, b.rawOff, c, 0)
	}
	b.capacity = c
}

// Reserve makes room for n more slots (not in the children).
func (b *UnionBuilder) Reserve(n int) { b.grow(n) }

// Append starts a slot of the child with type code code and returns that
// child's builder, to which exactly one value must then be appended. It
// panics when no child has the code (a programmer error).
func (b *UnionBuilder) Append(code int8) Builder {
	if code < 0 || b.index[code] < 0 {
		panic(fmt.Sprintf("array: union %s has no type code %d", b.dtype, code))
	}
	idx := b.index[code]
	b.grow(1)
	n := b.length
	b.codes[n] = byte(code)
	if b.dtype.Mode() == datatype.Dense {
		b.offsets[n] = toOffset[int32](b.children[idx].Len())
	} else {
		for i, c := range b.children {
			if i != idx {
				c.AppendNull()
			}
		}
	}
	b.length = n + 1
	return b.children[idx]
}

// AppendNull appends a null of the first child.
func (b *UnionBuilder) AppendNull() { b.Append(b.first).AppendNull() }

// AppendNulls appends n nulls of the first child.
func (b *UnionBuilder) AppendNulls(n int) {
	for range n {
		b.AppendNull()
	}
}

// AppendEmptyValue appends an empty value of the first child.
func (b *UnionBuilder) AppendEmptyValue() { b.Append(b.first).AppendEmptyValue() }

// AppendEmptyValues appends n empty values of the first child.
func (b *UnionBuilder) AppendEmptyValues(n int) {
	for range n {
		b.AppendEmptyValue()
	}
}

func (b *UnionBuilder) childSlot(i int) (builder, int) {
	c := b.children[b.index[b.codes[i]]]
	if b.dtype.Mode() == datatype.Dense {
		return c, int(b.offsets[i])
	}
	return c, i
}

func (b *UnionBuilder) slotsEqual(i, j int) bool {
	if b.codes[i] != b.codes[j] {
		return false
	}
	c, si := b.childSlot(i)
	_, sj := b.childSlot(j)
	return c.slotsEqual(si, sj)
}

func (b *UnionBuilder) truncate(n int) {
	if n >= b.length {
		return
	}
	if b.dtype.Mode() == datatype.Dense {
		for i := b.length - 1; i >= n; i-- {
			c, s := b.childSlot(i)
			c.truncate(s)
		}
		clear(b.offsets[n:b.length])
	} else {
		for _, c := range b.children {
			c.truncate(n)
		}
	}
	clear(b.codes[n:b.length])
	b.length = n
}

// Finish returns the array built so far and resets the builder. It panics
// when the children were not given the values their slots need (a
// programmer error).
func (b *UnionBuilder) Finish() *Union {
	if b.codes == nil {
		b.grow(0)
	}
	bufs := []*memory.Buffer{b.cfg.buffer(b.codes, b.length)}
	if b.dtype.Mode() == datatype.Dense {
		for i := range b.length {
			if c, s := b.childSlot(i); s >= c.Len() {
				panic(fmt.Sprintf("array: dense union slot %d refers to child value %d of %d", i, s, c.Len()))
			}
		}
		bufs = append(bufs, b.cfg.buffer(b.rawOff, 4*b.length))
	} else {
		for i, c := range b.children {
			if c.Len() != b.length {
				panic(fmt.Sprintf("array: sparse union of length %d has child %d of length %d", b.length, i, c.Len()))
			}
		}
	}
	children := make([]*Data, len(b.children))
	for i, c := range b.children {
		children[i] = c.NewArray().Data()
	}
	d := &Data{Type: b.dtype, Length: b.length, Buffers: bufs, Children: children}
	b.length, b.capacity, b.codes, b.rawOff, b.offsets = 0, 0, nil, nil, nil
	return newUnion(d)
}

// NewArray returns the array built so far and resets the builder.
func (b *UnionBuilder) NewArray() Array { return b.Finish() }

// ErrDictionaryFull is returned when a new dictionary value would need an
// index beyond the range of the index type.
var ErrDictionaryFull = errors.New("array: dictionary index type is full")

// DictionaryBuilder builds a [Dictionary] array, keeping each distinct
// value once in the dictionary: K is the Go type of the values (the value
// type T of a primitive value type, bool for bool, string for the binary and
// string types). Floating-point values are matched by value, with every NaN
// one entry.
//
//	b := array.NewBuilder(dictType).(*array.DictionaryBuilder[string])
//	b.Append("foo"); b.Append("bar"); b.Append("foo")
//	// indices [0 1 0], dictionary ["foo" "bar"]
type DictionaryBuilder[K comparable] struct {
	builderBase
	width    int    // index byte width
	maxIndex int    // largest index the index type holds
	raw      []byte // indices
	memo     map[K]int
	nanIndex int
	values   builder
	add      func(K)
	get      func(Array, int) K
	empty    K // the value AppendEmptyValue appends
}

// DictionaryBuilders of the common value kinds.
type (
	StringDictionaryBuilder = DictionaryBuilder[string]
	Int64DictionaryBuilder  = DictionaryBuilder[int64]
)

func newDictionaryBuilder(t *datatype.DictionaryType, cfg *builderConfig, depth int) (builder, error) {
	vb, err := newBuilder(t.Value, cfg, depth+1)
	if err != nil {
		return nil, err
	}
	switch v := vb.(type) {
	case *BinaryBuilder[int32]:
		return newDict(t, cfg, vb, v.AppendString, stringAt), nil
	case *BinaryBuilder[int64]:
		return newDict(t, cfg, vb, v.AppendString, stringAt), nil
	case *BinaryViewBuilder:
		return newDict(t, cfg, vb, v.AppendString, stringAt), nil
	case *FixedSizeBinaryBuilder:
		d := newDict(t, cfg, vb, v.AppendString, stringAt)
		d.empty = strings.Repeat("\x00", v.width)
		return d, nil
	case *BooleanBuilder:
		return newDict(t, cfg, vb, v.Append, func(a Array, i int) bool { return a.(*Boolean).Value(i) }), nil
	case *PrimitiveBuilder[int8]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[int16]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[int32]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[int64]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[uint8]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[uint16]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[uint32]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[uint64]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[datatype.Float16]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[float32]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[float64]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[datatype.Decimal32]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[datatype.Decimal64]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[datatype.Decimal128]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[datatype.Decimal256]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[datatype.Date32]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[datatype.Date64]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[datatype.Time32]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[datatype.Time64]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[datatype.Timestamp]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[datatype.Duration]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[datatype.MonthInterval]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[datatype.DayTimeInterval]:
		return primitiveDict(t, cfg, v), nil
	case *PrimitiveBuilder[datatype.MonthDayNanoInterval]:
		return primitiveDict(t, cfg, v), nil
	}
	return nil, fmt.Errorf("array: %w: dictionary of %s values (want a primitive, binary or string type)", ErrUnsupported, t.Value)
}

func primitiveDict[T FixedWidth](t *datatype.DictionaryType, cfg *builderConfig, v *PrimitiveBuilder[T]) builder {
	return newDict(t, cfg, v, v.Append, func(a Array, i int) T { return a.(*Primitive[T]).Value(i) })
}

func stringAt(a Array, i int) string {
	switch a := a.(type) {
	case *Binary[int32]:
		return a.ValueString(i)
	case *Binary[int64]:
		return a.ValueString(i)
	case *BinaryView:
		return a.ValueString(i)
	case *FixedSizeBinary:
		return string(a.Value(i))
	}
	panic("array: not a binary array: " + a.DataType().String())
}

func newDict[K comparable](t *datatype.DictionaryType, cfg *builderConfig, values builder, add func(K), get func(Array, int) K) *DictionaryBuilder[K] {
	b := &DictionaryBuilder[K]{
		width: datatype.ByteWidth(t.Index), maxIndex: maxIndexOf(t.Index.Kind()),
		memo: map[K]int{}, nanIndex: -1, values: values, add: add, get: get,
	}
	b.init(t, cfg)
	return b
}

func maxIndexOf(k datatype.Kind) int {
	switch k {
	case datatype.KindInt8:
		return math.MaxInt8
	case datatype.KindUint8:
		return math.MaxUint8
	case datatype.KindInt16:
		return math.MaxInt16
	case datatype.KindUint16:
		return math.MaxUint16
	case datatype.KindInt32:
		return math.MaxInt32
	case datatype.KindUint32:
		return math.MaxUint32
	}
	return math.MaxInt
}

func (b *DictionaryBuilder[K]) grow(n int) {
	need := b.length + n
	if need <= b.capacity {
		return
	}
	c := growCap(b.capacity, need)
	b.raw = b.cfg.bytesWith(c*b.width, b.raw[:b.length*b.width], nil)
	b.setCapacity(c)
}

// Reserve makes room for n more indices.
func (b *DictionaryBuilder[K]) Reserve(n int) { b.grow(n) }

// DictLen is the number of distinct values so far.
func (b *DictionaryBuilder[K]) DictLen() int { return b.values.Len() }

// Append appends v, adding it to the dictionary if it is new. The error
// wraps [ErrDictionaryFull] when a new value needs an index beyond the
// index type's range; nothing is appended then.
func (b *DictionaryBuilder[K]) Append(v K) error {
	idx, ok := b.memo[v]
	if !ok {
		var err error
		if idx, err = b.insert(v); err != nil {
			return err
		}
	}
	b.appendIndex(idx)
	return nil
}

// AppendBytes appends v to a dictionary of binary or string values (K =
// string) without converting v to a string unless it is new. It panics for
// other K (a programmer error).
func (b *DictionaryBuilder[K]) AppendBytes(v []byte) error {
	sb, ok := any(b).(*DictionaryBuilder[string])
	if !ok {
		panic(fmt.Sprintf("array: AppendBytes on a dictionary builder of %s values", b.values.Type()))
	}
	idx, ok := sb.memo[string(v)]
	if !ok {
		var err error
		if idx, err = sb.insert(string(v)); err != nil {
			return err
		}
	}
	sb.appendIndex(idx)
	return nil
}

func (b *DictionaryBuilder[K]) insert(v K) (int, error) {
	isNaN := v != v
	if isNaN && b.nanIndex >= 0 {
		return b.nanIndex, nil
	}
	idx := b.values.Len()
	if idx > b.maxIndex {
		return 0, fmt.Errorf("%w: %d distinct values for index type %s", ErrDictionaryFull, idx+1, b.dtype.(*datatype.DictionaryType).Index)
	}
	b.add(v)
	if isNaN {
		b.nanIndex = idx
		return idx, nil
	}
	if s, ok := any(v).(string); ok {
		v = any(strings.Clone(s)).(K) // the key must not share the caller's memory
	}
	b.memo[v] = idx
	return idx, nil
}

func (b *DictionaryBuilder[K]) appendIndex(idx int) {
	n := b.length
	if n >= b.capacity {
		b.grow(1)
	}
	switch b.width {
	case 1:
		b.raw[n] = byte(idx)
	case 2:
		binary.LittleEndian.PutUint16(b.raw[2*n:], uint16(idx))
	case 4:
		binary.LittleEndian.PutUint32(b.raw[4*n:], uint32(idx))
	default:
		binary.LittleEndian.PutUint64(b.raw[8*n:], uint64(idx))
	}
	b.length = n + 1
}

// AppendArray dictionary-encodes every slot of a, an array of the value
// type, appending nulls for its nulls.
func (b *DictionaryBuilder[K]) AppendArray(a Array) error {
	if !datatype.Equal(a.DataType(), b.values.Type()) {
		return fmt.Errorf("array: %w: appending %s values to a dictionary of %s", ErrInvalid, a.DataType(), b.values.Type())
	}
	for i := range a.Len() {
		if a.IsNull(i) {
			b.AppendNull()
			continue
		}
		if err := b.Append(b.get(a, i)); err != nil {
			return err
		}
	}
	return nil
}

// AppendNull appends a null index (stored as 0).
func (b *DictionaryBuilder[K]) AppendNull() { b.AppendNulls(1) }

// AppendNulls appends n null indices.
func (b *DictionaryBuilder[K]) AppendNulls(n int) {
	b.grow(n)
	b.markNull(n)
	b.length += n
}

// AppendEmptyValue appends the value type's empty value.
func (b *DictionaryBuilder[K]) AppendEmptyValue() {
	if err := b.Append(b.empty); err != nil {
		panic(err)
	}
}

// AppendEmptyValues appends n empty values.
func (b *DictionaryBuilder[K]) AppendEmptyValues(n int) {
	for range n {
		b.AppendEmptyValue()
	}
}

func (b *DictionaryBuilder[K]) index(i int) uint64 {
	switch b.width {
	case 1:
		return uint64(b.raw[i])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b.raw[2*i:]))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b.raw[4*i:]))
	}
	return binary.LittleEndian.Uint64(b.raw[8*i:])
}

func (b *DictionaryBuilder[K]) slotsEqual(i, j int) bool {
	if same, done := b.nullsEqual(i, j); !same || done {
		return same
	}
	return b.index(i) == b.index(j)
}

func (b *DictionaryBuilder[K]) truncate(n int) {
	if n < b.length {
		clear(b.raw[n*b.width : b.length*b.width])
		b.truncateBase(n)
	}
}

// Finish returns the array built so far and resets the builder, the
// dictionary included.
func (b *DictionaryBuilder[K]) Finish() *Dictionary {
	d := b.makeData([]*memory.Buffer{b.validityBuffer(), b.cfg.buffer(b.raw, b.length*b.width)}, nil)
	d.Dictionary = b.values.NewArray().Data()
	b.resetBase()
	b.raw = nil
	b.memo = map[K]int{}
	b.nanIndex = -1
	return newDictionary(d)
}

// NewArray returns the array built so far and resets the builder.
func (b *DictionaryBuilder[K]) NewArray() Array { return b.Finish() }

// NewDictionaryArray assembles a dictionary array of type t from existing
// indices (an array of t's index type) and dictionary (an array of t's
// value type), sharing their memory, after checking that every valid
// index is within the dictionary.
func NewDictionaryArray(t *datatype.DictionaryType, indices, dictionary Array) (*Dictionary, error) {
	if !datatype.Equal(indices.DataType(), t.Index) {
		return nil, fmt.Errorf("%w: dictionary indices of type %s, want %s", ErrInvalid, indices.DataType(), t.Index)
	}
	if !datatype.Equal(dictionary.DataType(), t.Value) {
		return nil, fmt.Errorf("%w: dictionary of type %s, want %s", ErrInvalid, dictionary.DataType(), t.Value)
	}
	for i := range indices.Len() {
		if indices.IsValid(i) {
			if k := indexAt(indices, i); k < 0 || k >= dictionary.Len() {
				return nil, fmt.Errorf("%w: dictionary index %d at slot %d out of range [0, %d)", ErrInvalid, k, i, dictionary.Len())
			}
		}
	}
	d := *indices.Data()
	d.Type = t
	d.Dictionary = dictionary.Data()
	return newDictionary(&d), nil
}

// RunEndEncodedBuilder builds a [RunEndEncoded] array, merging equal
// neighbours into one run. To append a value, append it to ValueBuilder,
// then call Append (or AppendRun for several slots): when it equals the
// value of the last run (compared by bytes, nulls equal to nulls) the run
// grows and the value is dropped from the child again. This works for any
// value type, nested ones included.
//
//	b := array.NewBuilder(reeType).(*array.RunEndEncodedBuilder)
//	vb := b.ValueBuilder().(*array.Float32Builder)
//	vb.Append(1); b.Append()
//	vb.Append(1); b.Append() // one run [1 1]
//	b.AppendNull()
type RunEndEncodedBuilder struct {
	dtype  *datatype.RunEndEncodedType
	cfg    *builderConfig
	length int
	ends   []int64
	maxEnd int64
	values builder
}

// NewRunEndEncodedBuilder returns a builder of arrays of t.
func NewRunEndEncodedBuilder(t *datatype.RunEndEncodedType, opts ...BuilderOption) *RunEndEncodedBuilder {
	cfg := newConfig(opts)
	v, err := newBuilder(t.Values().Type, cfg, 1)
	if err != nil {
		panic(err)
	}
	return newRunEndEncodedBuilder(t, v, cfg)
}

func newRunEndEncodedBuilder(t *datatype.RunEndEncodedType, values builder, cfg *builderConfig) *RunEndEncodedBuilder {
	max := int64(math.MaxInt64)
	switch t.RunEnds().Type.Kind() {
	case datatype.KindInt16:
		max = math.MaxInt16
	case datatype.KindInt32:
		max = math.MaxInt32
	}
	return &RunEndEncodedBuilder{dtype: t, cfg: cfg, values: values, maxEnd: max}
}

// Type is the run-end encoded type.
func (b *RunEndEncodedBuilder) Type() datatype.DataType { return b.dtype }

// Len is the number of logical slots appended.
func (b *RunEndEncodedBuilder) Len() int { return b.length }

// NullN is 0: the nulls are runs of null values.
func (b *RunEndEncodedBuilder) NullN() int { return 0 }

// NumRuns is the number of runs so far.
func (b *RunEndEncodedBuilder) NumRuns() int { return len(b.ends) }

// ValueBuilder is the builder of the run values; see [RunEndEncodedBuilder].
func (b *RunEndEncodedBuilder) ValueBuilder() Builder { return b.values }

// Reserve makes room for n more runs.
func (b *RunEndEncodedBuilder) Reserve(n int) { b.ends = growSlice(b.ends, n) }

func growSlice[T any](s []T, n int) []T {
	if cap(s)-len(s) < n {
		ns := make([]T, len(s), len(s)+n)
		copy(ns, s)
		return ns
	}
	return s
}

// Append makes the value just appended to ValueBuilder the next slot.
func (b *RunEndEncodedBuilder) Append() { b.AppendRun(1) }

// AppendRun makes the value just appended to ValueBuilder the next n slots.
// It panics unless exactly one value was appended to ValueBuilder since the
// last call, or when the length would overflow the run-end type (programmer
// errors).
func (b *RunEndEncodedBuilder) AppendRun(n int) {
	k := len(b.ends)
	if b.values.Len() != k+1 {
		panic(fmt.Sprintf("array: run-end encoded builder has %d runs and %d values; append one value to ValueBuilder before Append", k, b.values.Len()))
	}
	if n <= 0 {
		b.values.truncate(k)
		return
	}
	end := int64(b.length) + int64(n)
	if end > b.maxEnd {
		panic(fmt.Sprintf("array: run end %d overflows %s", end, b.dtype.RunEnds().Type))
	}
	if k > 0 && b.values.slotsEqual(k-1, k) {
		b.values.truncate(k)
		b.ends[k-1] = end
	} else {
		b.ends = append(b.ends, end)
	}
	b.length += n
}

// AppendNull appends a null slot, extending a run of nulls.
func (b *RunEndEncodedBuilder) AppendNull() { b.AppendNulls(1) }

// AppendNulls appends n null slots.
func (b *RunEndEncodedBuilder) AppendNulls(n int) {
	b.values.AppendNull()
	b.AppendRun(n)
}

// AppendEmptyValue appends an empty value.
func (b *RunEndEncodedBuilder) AppendEmptyValue() { b.AppendEmptyValues(1) }

// AppendEmptyValues appends n empty values.
func (b *RunEndEncodedBuilder) AppendEmptyValues(n int) {
	b.values.AppendEmptyValue()
	b.AppendRun(n)
}

// physical returns the run holding logical slot i.
func (b *RunEndEncodedBuilder) physical(i int) int {
	return sort.Search(len(b.ends), func(j int) bool { return b.ends[j] > int64(i) })
}

func (b *RunEndEncodedBuilder) slotsEqual(i, j int) bool {
	pi, pj := b.physical(i), b.physical(j)
	return pi == pj || b.values.slotsEqual(pi, pj)
}

func (b *RunEndEncodedBuilder) truncate(n int) {
	if n >= b.length {
		return
	}
	p := b.physical(n)
	start := int64(0)
	if p > 0 {
		start = b.ends[p-1]
	}
	if start == int64(n) {
		b.ends = b.ends[:p]
	} else {
		b.ends[p] = int64(n)
		b.ends = b.ends[:p+1]
	}
	b.values.truncate(len(b.ends))
	b.length = n
}

// Finish returns the array built so far and resets the builder. It panics
// when a value was appended to ValueBuilder without Append (a programmer
// error).
func (b *RunEndEncodedBuilder) Finish() *RunEndEncoded {
	if b.values.Len() != len(b.ends) {
		panic(fmt.Sprintf("array: run-end encoded builder has %d runs and %d values", len(b.ends), b.values.Len()))
	}
	rt := b.dtype.RunEnds().Type
	w := datatype.ByteWidth(rt)
	raw := b.cfg.alloc.Allocate(w * len(b.ends))
	for i, e := range b.ends {
		switch w {
		case 2:
			binary.LittleEndian.PutUint16(raw[2*i:], uint16(e))
		case 4:
			binary.LittleEndian.PutUint32(raw[4*i:], uint32(e))
		default:
			binary.LittleEndian.PutUint64(raw[8*i:], uint64(e))
		}
	}
	ends := &Data{Type: rt, Length: len(b.ends), Buffers: []*memory.Buffer{nil, memory.NewBuffer(raw)}}
	d := &Data{Type: b.dtype, Length: b.length, Children: []*Data{ends, b.values.NewArray().Data()}}
	b.length, b.ends = 0, nil
	return newRunEndEncoded(d)
}

// NewArray returns the array built so far and resets the builder.
func (b *RunEndEncodedBuilder) NewArray() Array { return b.Finish() }

// ExtensionBuilder builds an [Extension] array by building its storage.
type ExtensionBuilder struct {
	etype   datatype.ExtensionType
	storage builder
}

// NewExtensionBuilder returns a builder of arrays of t.
func NewExtensionBuilder(t datatype.ExtensionType, opts ...BuilderOption) *ExtensionBuilder {
	s, err := newBuilder(t.StorageType(), newConfig(opts), 1)
	if err != nil {
		panic(err)
	}
	return &ExtensionBuilder{etype: t, storage: s}
}

// StorageBuilder is the builder of the storage; append values to it.
func (b *ExtensionBuilder) StorageBuilder() Builder { return b.storage }

// Type is the extension type.
func (b *ExtensionBuilder) Type() datatype.DataType { return b.etype }

// Len is the number of slots appended.
func (b *ExtensionBuilder) Len() int { return b.storage.Len() }

// NullN is the number of null slots appended.
func (b *ExtensionBuilder) NullN() int { return b.storage.NullN() }

// Reserve makes room for n more slots.
func (b *ExtensionBuilder) Reserve(n int) { b.storage.Reserve(n) }

// AppendNull appends a null slot.
func (b *ExtensionBuilder) AppendNull() { b.storage.AppendNull() }

// AppendNulls appends n null slots.
func (b *ExtensionBuilder) AppendNulls(n int) { b.storage.AppendNulls(n) }

// AppendEmptyValue appends an empty value.
func (b *ExtensionBuilder) AppendEmptyValue() { b.storage.AppendEmptyValue() }

// AppendEmptyValues appends n empty values.
func (b *ExtensionBuilder) AppendEmptyValues(n int) { b.storage.AppendEmptyValues(n) }

func (b *ExtensionBuilder) slotsEqual(i, j int) bool { return b.storage.slotsEqual(i, j) }
func (b *ExtensionBuilder) truncate(n int)           { b.storage.truncate(n) }

// Finish returns the array built so far and resets the builder.
func (b *ExtensionBuilder) Finish() *Extension {
	d := *b.storage.NewArray().Data()
	d.Type = b.etype
	return newExtension(&d, b.etype)
}

// NewArray returns the array built so far and resets the builder.
func (b *ExtensionBuilder) NewArray() Array { return b.Finish() }
