package array

import (
	"bytes"
	"fmt"
	"slices"
	"unsafe"

	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/simd"
	"github.com/alkaid-go/alkaid/memory"
)

// PrimitiveBuilder builds a [Primitive] array of Go value type T.
//
//	b := array.NewPrimitiveBuilder[int64](datatype.Int64)
//	b.Append(1)
//	b.AppendNull()
//	b.AppendValues([]int64{3, 4}, nil)
//	arr := b.Finish() // [1 (null) 3 4]
type PrimitiveBuilder[T FixedWidth] struct {
	builderBase
	// vals is the values allocation viewed as T: len(vals) is the number
	// of slots appended and cap(vals) the capacity. The slots past the
	// length hold anything (the allocation is not cleared first, and
	// bufferBytes clears what is left when finishing): every append
	// writes its slots, null ones included. Append only extends vals; the
	// other methods bring builderBase.length up to date first (see sync).
	vals []T
	raw  []byte // the allocation as bytes, at full capacity
}

// Aliases for the common primitive builders.
type (
	Int8Builder          = PrimitiveBuilder[int8]
	Int16Builder         = PrimitiveBuilder[int16]
	Int32Builder         = PrimitiveBuilder[int32]
	Int64Builder         = PrimitiveBuilder[int64]
	Uint8Builder         = PrimitiveBuilder[uint8]
	Uint16Builder        = PrimitiveBuilder[uint16]
	Uint32Builder        = PrimitiveBuilder[uint32]
	Uint64Builder        = PrimitiveBuilder[uint64]
	Float16Builder       = PrimitiveBuilder[datatype.Float16]
	Float32Builder       = PrimitiveBuilder[float32]
	Float64Builder       = PrimitiveBuilder[float64]
	Date32Builder        = PrimitiveBuilder[datatype.Date32]
	Date64Builder        = PrimitiveBuilder[datatype.Date64]
	Time32Builder        = PrimitiveBuilder[datatype.Time32]
	Time64Builder        = PrimitiveBuilder[datatype.Time64]
	TimestampBuilder     = PrimitiveBuilder[datatype.Timestamp]
	DurationBuilder      = PrimitiveBuilder[datatype.Duration]
	Decimal32Builder     = PrimitiveBuilder[datatype.Decimal32]
	Decimal64Builder     = PrimitiveBuilder[datatype.Decimal64]
	Decimal128Builder    = PrimitiveBuilder[datatype.Decimal128]
	Decimal256Builder    = PrimitiveBuilder[datatype.Decimal256]
	MonthIntervalBuilder = PrimitiveBuilder[datatype.MonthInterval]
	DayTimeBuilder       = PrimitiveBuilder[datatype.DayTimeInterval]
	MonthDayNanoBuilder  = PrimitiveBuilder[datatype.MonthDayNanoInterval]
)

// NewPrimitiveBuilder returns a builder of arrays of type t, whose values
// are T. It panics when T's size is not t's byte width (a programmer
// error), e.g. NewPrimitiveBuilder[int32](datatype.Int64).
func NewPrimitiveBuilder[T FixedWidth](t datatype.DataType, opts ...BuilderOption) *PrimitiveBuilder[T] {
	return newPrimitiveBuilder[T](t, newConfig(opts))
}

func newPrimitiveBuilder[T FixedWidth](t datatype.DataType, cfg *builderConfig) *PrimitiveBuilder[T] {
	var zero T
	if w := datatype.ByteWidth(t); w != int(unsafe.Sizeof(zero)) || !datatype.IsFixedWidth(t) {
		panic(fmt.Sprintf("array: primitive builder of %T (%d bytes) for type %s (%d bytes)", zero, unsafe.Sizeof(zero), t, w))
	}
	b := &PrimitiveBuilder[T]{}
	b.init(t, cfg)
	return b
}

// sync brings builderBase.length up to date with the values appended.
func (b *PrimitiveBuilder[T]) sync() { b.length = len(b.vals) }

// grow makes room for n more values.
func (b *PrimitiveBuilder[T]) grow(n int) {
	b.sync()
	if b.length+n > cap(b.vals) {
		b.realloc(n, nil)
	}
}

// realloc moves the values to a new allocation with room for n more and
// appends tail (at most n values) there.
func (b *PrimitiveBuilder[T]) realloc(n int, tail []T) {
	var zero T
	w := int(unsafe.Sizeof(zero))
	raw := b.cfg.uncleared(growCap(cap(b.vals), b.length+n)*w, b.raw[:b.length*w], memory.BytesOf(tail))
	b.raw = raw
	b.vals = unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(raw))), len(raw)/w)[:b.length+len(tail)]
	b.setCapacity(cap(b.vals))
}

// growOne is Append's slow path, kept out of line so that Append inlines.
//
//go:noinline
func (b *PrimitiveBuilder[T]) growOne() { b.grow(1) }

// Len is the number of slots appended.
func (b *PrimitiveBuilder[T]) Len() int { return len(b.vals) }

// Reserve makes room for n more values.
func (b *PrimitiveBuilder[T]) Reserve(n int) { b.grow(n) }

// Append appends a value.
func (b *PrimitiveBuilder[T]) Append(v T) {
	// Small enough to be inlined (go build -gcflags=-m): there is no
	// bitmap to maintain, as the bitmap, if any, has the bits from the
	// length on set already, and append never grows vals itself, there
	// being room.
	if len(b.vals) == cap(b.vals) {
		b.growOne()
	}
	b.vals = append(b.vals, v)
}

// AppendNull appends a null slot (its value is zero).
func (b *PrimitiveBuilder[T]) AppendNull() {
	n := len(b.vals)
	if n < cap(b.vals) && b.valid != nil {
		var zero T
		b.valid[n>>3] &^= 1 << (n & 7)
		b.nulls++
		b.vals = append(b.vals, zero)
		return
	}
	b.AppendNulls(1)
}

// AppendNulls appends n null slots.
func (b *PrimitiveBuilder[T]) AppendNulls(n int) {
	b.grow(n)
	b.markNull(n)
	b.vals = b.vals[:b.length+n]
	clear(b.vals[b.length:])
}

// AppendEmptyValue appends a zero value.
func (b *PrimitiveBuilder[T]) AppendEmptyValue() { b.AppendEmptyValues(1) }

// AppendEmptyValues appends n zero values.
func (b *PrimitiveBuilder[T]) AppendEmptyValues(n int) {
	b.grow(n)
	b.vals = b.vals[:b.length+n]
	clear(b.vals[b.length:])
}

// AppendValues appends vs; valid, when not nil, says which are valid (it
// must be as long as vs) and the values of invalid slots are stored as
// zero.
func (b *PrimitiveBuilder[T]) AppendValues(vs []T, valid []bool) {
	if valid != nil && len(valid) != len(vs) {
		panic(fmt.Sprintf("array: AppendValues with %d values and %d validity flags", len(vs), len(valid)))
	}
	b.sync()
	n := b.length
	if valid == nil || !slices.Contains(valid, false) {
		if n+len(vs) > cap(b.vals) {
			b.realloc(len(vs), vs)
		} else {
			b.vals = append(b.vals, vs...) // within capacity
		}
		return
	}
	// The flags go into the bitmap first; the values are then copied under
	// it, null slots zeroed, in one pass over the memory.
	b.grow(len(vs))
	if b.valid == nil {
		b.materialize()
	}
	b.nulls += packValid(b.valid, n, valid)
	b.vals = b.vals[:n+len(vs)]
	simd.CopyValid(b.vals[n:], vs, b.valid, n)
}

// Value returns the i'th value appended (zero for a null slot).
func (b *PrimitiveBuilder[T]) Value(i int) T { return b.vals[i] }

func (b *PrimitiveBuilder[T]) slotsEqual(i, j int) bool {
	if same, done := b.nullsEqual(i, j); !same || done {
		return same
	}
	v := b.vals
	return bytes.Equal(memory.BytesOf(v[i:i+1]), memory.BytesOf(v[j:j+1]))
}

func (b *PrimitiveBuilder[T]) truncate(n int) {
	b.sync()
	if n < b.length {
		b.truncateBase(n)
		b.vals = b.vals[:n]
	}
}

// Finish returns the array built so far and resets the builder.
func (b *PrimitiveBuilder[T]) Finish() *Primitive[T] {
	b.sync()
	var zero T
	d := b.makeData2(b.raw, b.length*int(unsafe.Sizeof(zero)))
	b.resetBase()
	b.vals, b.raw = nil, nil
	return newPrimitive[T](d)
}

// NewArray returns the array built so far and resets the builder.
func (b *PrimitiveBuilder[T]) NewArray() Array { return b.Finish() }

// BooleanBuilder builds a [Boolean] array.
type BooleanBuilder struct {
	builderBase
	bits []byte // values, capacity bits
}

// NewBooleanBuilder returns a builder of arrays of t, datatype.Bool.
func NewBooleanBuilder(t datatype.DataType, opts ...BuilderOption) *BooleanBuilder {
	b := &BooleanBuilder{}
	b.init(t, newConfig(opts))
	return b
}

func (b *BooleanBuilder) grow(n int) {
	need := b.length + n
	if need <= b.capacity {
		return
	}
	c := memory.RoundUp(growCap(b.capacity, need))
	bits := b.cfg.bytes(c / 8)
	copy(bits, b.bits)
	b.bits = bits
	b.setCapacity(len(bits) * 8)
}

// Reserve makes room for n more values.
func (b *BooleanBuilder) Reserve(n int) { b.grow(n) }

// Append appends a value.
func (b *BooleanBuilder) Append(v bool) {
	n := b.length
	if n >= b.capacity {
		b.grow(1)
	}
	if v {
		b.bits[n>>3] |= 1 << (n & 7)
	}
	b.length = n + 1
}

// AppendNull appends a null slot.
func (b *BooleanBuilder) AppendNull() { b.AppendNulls(1) }

// AppendNulls appends n null slots.
func (b *BooleanBuilder) AppendNulls(n int) {
	b.grow(n)
	b.markNull(n)
	b.length += n
}

// AppendEmptyValue appends false.
func (b *BooleanBuilder) AppendEmptyValue() { b.AppendEmptyValues(1) }

// AppendEmptyValues appends n false values.
func (b *BooleanBuilder) AppendEmptyValues(n int) {
	b.grow(n)
	b.length += n
}

// AppendValues appends vs; valid, when not nil, says which are valid.
func (b *BooleanBuilder) AppendValues(vs []bool, valid []bool) {
	if valid != nil && len(valid) != len(vs) {
		panic(fmt.Sprintf("array: AppendValues with %d values and %d validity flags", len(vs), len(valid)))
	}
	b.grow(len(vs))
	n := b.length
	if valid != nil && slices.Contains(valid, false) {
		if b.valid == nil {
			b.materialize()
		}
		b.nulls += packValid(b.valid, n, valid)
	}
	for i, v := range vs {
		if v && (valid == nil || valid[i]) {
			b.bits[(n+i)>>3] |= 1 << ((n + i) & 7)
		}
	}
	b.length += len(vs)
}

func (b *BooleanBuilder) slotsEqual(i, j int) bool {
	if same, done := b.nullsEqual(i, j); !same || done {
		return same
	}
	return bitutil.GetBit(b.bits, i) == bitutil.GetBit(b.bits, j)
}

func (b *BooleanBuilder) truncate(n int) {
	if n < b.length {
		bitutil.SetBitsTo(b.bits, n, b.length-n, false)
		b.truncateBase(n)
	}
}

// Finish returns the array built so far and resets the builder.
func (b *BooleanBuilder) Finish() *Boolean {
	d := b.makeData([]*memory.Buffer{b.validityBuffer(), b.cfg.buffer(b.bits, bitutil.BytesForBits(b.length))}, nil)
	b.resetBase()
	b.bits = nil
	return newBoolean(d)
}

// NewArray returns the array built so far and resets the builder.
func (b *BooleanBuilder) NewArray() Array { return b.Finish() }

// NullBuilder builds a [Null] array: it only counts slots.
type NullBuilder struct {
	dtype  datatype.DataType
	length int
}

// NewNullBuilder returns a builder of null arrays.
func NewNullBuilder() *NullBuilder { return &NullBuilder{dtype: datatype.Null} }

// Type is datatype.Null.
func (b *NullBuilder) Type() datatype.DataType { return b.dtype }

// Len is the number of slots appended.
func (b *NullBuilder) Len() int { return b.length }

// NullN is Len: every slot is null.
func (b *NullBuilder) NullN() int { return b.length }

// Reserve does nothing: null arrays have no buffers.
func (b *NullBuilder) Reserve(int) {}

// AppendNull appends a slot.
func (b *NullBuilder) AppendNull() { b.length++ }

// AppendNulls appends n slots.
func (b *NullBuilder) AppendNulls(n int) { b.length += n }

// AppendEmptyValue appends a (null) slot.
func (b *NullBuilder) AppendEmptyValue() { b.length++ }

// AppendEmptyValues appends n (null) slots.
func (b *NullBuilder) AppendEmptyValues(n int) { b.length += n }

func (b *NullBuilder) slotsEqual(int, int) bool { return true }
func (b *NullBuilder) truncate(n int)           { b.length = min(b.length, n) }

// Finish returns the array built so far and resets the builder.
func (b *NullBuilder) Finish() *Null {
	a := newNull(&Data{Type: b.dtype, Length: b.length, NullCount: b.length})
	b.length = 0
	return a
}

// NewArray returns the array built so far and resets the builder.
func (b *NullBuilder) NewArray() Array { return b.Finish() }

// FixedSizeBinaryBuilder builds a [FixedSizeBinary] array.
type FixedSizeBinaryBuilder struct {
	builderBase
	width int
	raw   []byte // capacity*width bytes
}

// NewFixedSizeBinaryBuilder returns a builder of arrays of t, a
// fixed_size_binary type (or an extension over one).
func NewFixedSizeBinaryBuilder(t datatype.DataType, opts ...BuilderOption) *FixedSizeBinaryBuilder {
	ft, ok := datatype.StorageOf(t).(*datatype.FixedSizeBinaryType)
	if !ok {
		panic("array: fixed-size binary builder for type " + t.String())
	}
	b := &FixedSizeBinaryBuilder{width: ft.ByteWidth}
	b.init(t, newConfig(opts))
	return b
}

func (b *FixedSizeBinaryBuilder) grow(n int) {
	need := b.length + n
	if need <= b.capacity {
		return
	}
	c := growCap(b.capacity, need)
	b.raw = b.cfg.bytesWith(c*b.width, b.raw[:b.length*b.width], nil)
	b.setCapacity(c)
}

// Reserve makes room for n more values.
func (b *FixedSizeBinaryBuilder) Reserve(n int) { b.grow(n) }

// Append appends v, which must be exactly the type's width long (else it
// panics: a programmer error).
func (b *FixedSizeBinaryBuilder) Append(v []byte) {
	if len(v) != b.width {
		panic(fmt.Sprintf("array: appending %d bytes to fixed_size_binary[%d]", len(v), b.width))
	}
	b.grow(1)
	copy(b.raw[b.length*b.width:], v)
	b.length++
}

// AppendString appends s, which must be exactly the type's width long.
func (b *FixedSizeBinaryBuilder) AppendString(s string) {
	b.Append(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// AppendValues appends vs; valid, when not nil, says which are valid.
func (b *FixedSizeBinaryBuilder) AppendValues(vs [][]byte, valid []bool) {
	if valid != nil && len(valid) != len(vs) {
		panic(fmt.Sprintf("array: AppendValues with %d values and %d validity flags", len(vs), len(valid)))
	}
	b.grow(len(vs))
	for i, v := range vs {
		if valid != nil && !valid[i] {
			b.AppendNull()
		} else {
			b.Append(v)
		}
	}
}

// AppendNull appends a null slot (zero bytes).
func (b *FixedSizeBinaryBuilder) AppendNull() { b.AppendNulls(1) }

// AppendNulls appends n null slots.
func (b *FixedSizeBinaryBuilder) AppendNulls(n int) {
	b.grow(n)
	b.markNull(n)
	b.length += n
}

// AppendEmptyValue appends a value of zero bytes.
func (b *FixedSizeBinaryBuilder) AppendEmptyValue() { b.AppendEmptyValues(1) }

// AppendEmptyValues appends n values of zero bytes.
func (b *FixedSizeBinaryBuilder) AppendEmptyValues(n int) {
	b.grow(n)
	b.length += n
}

func (b *FixedSizeBinaryBuilder) slotsEqual(i, j int) bool {
	if same, done := b.nullsEqual(i, j); !same || done {
		return same
	}
	w := b.width
	return bytes.Equal(b.raw[i*w:(i+1)*w], b.raw[j*w:(j+1)*w])
}

func (b *FixedSizeBinaryBuilder) truncate(n int) {
	if n < b.length {
		clear(b.raw[n*b.width : b.length*b.width])
		b.truncateBase(n)
	}
}

// Finish returns the array built so far and resets the builder.
func (b *FixedSizeBinaryBuilder) Finish() *FixedSizeBinary {
	d := b.makeData([]*memory.Buffer{b.validityBuffer(), b.cfg.buffer(b.raw, b.length*b.width)}, nil)
	b.resetBase()
	b.raw = nil
	return newFixedSizeBinary(d)
}

// NewArray returns the array built so far and resets the builder.
func (b *FixedSizeBinaryBuilder) NewArray() Array { return b.Finish() }
