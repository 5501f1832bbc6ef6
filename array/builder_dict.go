package array

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// ErrDictionaryFull is returned when a new dictionary value would need an
// index beyond the range of the index type. It is a [datatype.ErrLimit].
var ErrDictionaryFull = datatype.Refine(datatype.ErrLimit, "array: dictionary index type is full")

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
	return nil, fmt.Errorf("array: %w: dictionary of %s values (want a primitive, binary or string type)", ErrNotSupported, t.Value)
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
		return nil, fmt.Errorf("array: %w: dictionary indices of type %s, want %s", ErrInvalid, indices.DataType(), t.Index)
	}
	if !datatype.Equal(dictionary.DataType(), t.Value) {
		return nil, fmt.Errorf("array: %w: dictionary of type %s, want %s", ErrInvalid, dictionary.DataType(), t.Value)
	}
	for i := range indices.Len() {
		if indices.IsValid(i) {
			if k := indexAt(indices, i); k < 0 || k >= dictionary.Len() {
				return nil, fmt.Errorf("array: %w: dictionary index %d at slot %d out of range [0, %d)", ErrInvalid, k, i, dictionary.Len())
			}
		}
	}
	d := *indices.Data()
	d.Type = t
	d.Dictionary = dictionary.Data()
	return newDictionary(&d), nil
}
