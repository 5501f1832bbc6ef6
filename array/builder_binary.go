package array

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/simd"
	"github.com/alkaid-go/alkaid/memory"
)

// BinaryBuilder builds a [Binary] array with offsets of type O: binary and
// utf8 with int32, large_binary and large_utf8 with int64. Strings are not
// checked for UTF-8 (validation does that).
//
//	b := array.NewBinaryBuilder[int32](datatype.String)
//	b.AppendString("joe")
//	b.AppendNull()
//	arr := b.Finish() // ["joe" (null)]
type BinaryBuilder[O Offset] struct {
	builderBase
	rawOff  []byte
	offsets []O    // offsets[i+1] is the end of slot i; len == capacity+1
	data    []byte // the values allocation at full capacity
	dlen    int    // bytes of data used; the rest is undefined (see uncleared)
}

// Aliases for the binary builders of each offset width, and the same
// under the names of the string arrays they build ([String],
// [LargeString]).
type (
	BinaryBuilder32    = BinaryBuilder[int32]
	BinaryBuilder64    = BinaryBuilder[int64]
	StringBuilder      = BinaryBuilder[int32]
	LargeStringBuilder = BinaryBuilder[int64]
)

// NewBinaryBuilder returns a builder of arrays of t: binary or utf8 for
// O = int32, large_binary or large_utf8 for O = int64.
func NewBinaryBuilder[O Offset](t datatype.DataType, opts ...BuilderOption) *BinaryBuilder[O] {
	b := &BinaryBuilder[O]{}
	b.init(t, newConfig(opts))
	return b
}

func (b *BinaryBuilder[O]) grow(n int) {
	need := b.length + n
	if need <= b.capacity && b.offsets != nil {
		return
	}
	c := growCap(b.capacity, need)
	var zero O
	size := int(unsafe.Sizeof(zero))
	raw := b.cfg.bytesWith((c+1)*size, b.rawOff[:min(len(b.rawOff), (b.length+1)*size)], nil)
	b.rawOff = raw
	b.offsets = memory.ViewBytes[O](raw)
	b.setCapacity(len(b.offsets) - 1)
}

// growData makes room for n more bytes of values.
func (b *BinaryBuilder[O]) growData(n int) {
	need := b.dlen + n
	if need <= len(b.data) {
		return
	}
	var zero O
	if unsafe.Sizeof(zero) == 4 && need > math.MaxInt32 {
		panic(fmt.Sprintf("array: %s data of %d bytes exceeds 32-bit offsets", b.dtype, need))
	}
	d := b.cfg.uncleared(max(2*len(b.data), need, 256), b.data[:b.dlen], nil)
	if unsafe.Sizeof(zero) == 4 && len(d) > math.MaxInt32 {
		d = d[:math.MaxInt32] // appends within capacity must not overflow the offsets
	}
	b.data = d
}

// reserveOne is the slow path of the single appends: room for one more
// slot of n bytes.
func (b *BinaryBuilder[O]) reserveOne(n int) {
	b.grow(1)
	b.growData(n)
}

// Reserve makes room for n more values.
func (b *BinaryBuilder[O]) Reserve(n int) { b.grow(n) }

// ReserveData makes room for n more bytes of values.
func (b *BinaryBuilder[O]) ReserveData(n int) { b.growData(n) }

// Append appends v.
func (b *BinaryBuilder[O]) Append(v []byte) {
	n, end := b.length, b.dlen+len(v)
	if n >= b.capacity || end > len(b.data) {
		b.reserveOne(len(v))
	}
	copy(b.data[b.dlen:end], v)
	b.offsets[n+1] = O(end)
	b.dlen = end
	b.length = n + 1
}

// AppendString appends s.
func (b *BinaryBuilder[O]) AppendString(s string) {
	n, end := b.length, b.dlen+len(s)
	if n >= b.capacity || end > len(b.data) {
		b.reserveOne(len(s))
	}
	copy(b.data[b.dlen:end], s)
	b.offsets[n+1] = O(end)
	b.dlen = end
	b.length = n + 1
}

// AppendValues appends vs; valid, when not nil, says which are valid.
func (b *BinaryBuilder[O]) AppendValues(vs [][]byte, valid []bool) {
	checkValid(len(vs), valid)
	appendAll(b, vs, valid)
}

// AppendStrings appends vs; valid, when not nil, says which are valid.
func (b *BinaryBuilder[O]) AppendStrings(vs []string, valid []bool) {
	checkValid(len(vs), valid)
	appendAll(b, vs, valid)
}

// appendAll appends vs with one reservation of slots and of bytes; the
// values are copied one after the other into the data by simd.Concat,
// which may also write into the data's spare capacity (undefined until
// Finish clears it).
func appendAll[O Offset, S []byte | string](b *BinaryBuilder[O], vs []S, valid []bool) {
	total := 0
	for i, v := range vs {
		if valid == nil || valid[i] {
			total += len(v)
		}
	}
	b.grow(len(vs))
	b.growData(total)
	n := b.length
	b.dlen += simd.Concat(b.data[b.dlen:], b.offsets[n+1:n+1+len(vs)], O(b.dlen), vs, valid)
	if valid != nil && slices.Contains(valid, false) {
		if b.valid == nil {
			b.materialize()
		}
		b.nulls += packValid(b.valid, n, valid)
	}
	b.length += len(vs)
}

func checkValid(n int, valid []bool) {
	if valid != nil && len(valid) != n {
		panic(fmt.Sprintf("array: AppendValues with %d values and %d validity flags", n, len(valid)))
	}
}

// AppendNull appends a null slot (of length zero).
func (b *BinaryBuilder[O]) AppendNull() { b.AppendNulls(1) }

// AppendNulls appends n null slots.
func (b *BinaryBuilder[O]) AppendNulls(n int) {
	b.appendEmpty(n)
	b.markNull(n)
	b.length += n
}

// AppendEmptyValue appends an empty value.
func (b *BinaryBuilder[O]) AppendEmptyValue() { b.AppendEmptyValues(1) }

// AppendEmptyValues appends n empty values.
func (b *BinaryBuilder[O]) AppendEmptyValues(n int) {
	b.appendEmpty(n)
	b.length += n
}

func (b *BinaryBuilder[O]) appendEmpty(n int) {
	b.grow(n)
	end := O(b.dlen)
	for i := range n {
		b.offsets[b.length+1+i] = end
	}
}

// Value returns the i'th value appended; it shares the builder's memory
// and is valid until the next append.
func (b *BinaryBuilder[O]) Value(i int) []byte {
	if i < 0 || i >= b.length {
		panic(fmt.Sprintf("array: value %d of builder of length %d", i, b.length))
	}
	return b.data[b.offsets[i]:b.offsets[i+1]]
}

// DataLen is the number of value bytes appended.
func (b *BinaryBuilder[O]) DataLen() int { return b.dlen }

// CheckRoom returns an error when n more value bytes would not fit the
// builder's offsets (2 GiB in all with 32-bit offsets), where appending
// them would panic: code appending data it did not produce (parsers,
// importers) checks before each append.
func (b *BinaryBuilder[O]) CheckRoom(n int) error {
	var zero O
	if unsafe.Sizeof(zero) == 4 && n > math.MaxInt32-b.dlen {
		return fmt.Errorf("array: %w: %s values would reach %d bytes, beyond 32-bit offsets (use the large type)", datatype.ErrLimit, b.dtype, int64(b.dlen)+int64(n))
	}
	return nil
}

func (b *BinaryBuilder[O]) slotsEqual(i, j int) bool {
	if same, done := b.nullsEqual(i, j); !same || done {
		return same
	}
	return bytes.Equal(b.Value(i), b.Value(j))
}

func (b *BinaryBuilder[O]) truncate(n int) {
	if n < b.length {
		b.dlen = int(b.offsets[n])
		clear(b.offsets[n+1 : b.length+1])
		b.truncateBase(n)
	}
}

// Finish returns the array built so far and resets the builder.
func (b *BinaryBuilder[O]) Finish() *Binary[O] {
	if b.offsets == nil {
		b.grow(0)
	}
	var zero O
	size := int(unsafe.Sizeof(zero))
	d := b.makeData([]*memory.Buffer{
		b.validityBuffer(),
		b.cfg.buffer(b.rawOff, (b.length+1)*size),
		b.cfg.buffer(b.data, b.dlen),
	}, nil)
	b.resetBase()
	b.rawOff, b.offsets, b.data, b.dlen = nil, nil, nil, 0
	return newBinary[O](d)
}

// NewArray returns the array built so far and resets the builder.
func (b *BinaryBuilder[O]) NewArray() Array { return b.Finish() }

// BinaryViewBuilder builds a [BinaryView] array (binary_view or
// utf8_view). Values of at most [ViewInlineMax] bytes live inline in their
// view; longer ones are copied into data buffers of the block size (see
// [WithBlockSize]), a value longer than a block getting a buffer of its own.
//
//	view  [len][value, zero padded to 12 bytes]         len ≤ 12
//	view  [len][first 4 bytes][buffer index][offset]    len > 12
type BinaryViewBuilder struct {
	builderBase
	views  []byte   // 16 bytes per slot, capacity slots
	blocks [][]byte // finished data buffers
	cur    []byte   // the data buffer being filled (len used, cap allocated)
}

// NewBinaryViewBuilder returns a builder of arrays of t, binary_view or
// utf8_view.
func NewBinaryViewBuilder(t datatype.DataType, opts ...BuilderOption) *BinaryViewBuilder {
	b := &BinaryViewBuilder{}
	b.init(t, newConfig(opts))
	return b
}

func (b *BinaryViewBuilder) grow(n int) {
	need := b.length + n
	if need <= b.capacity {
		return
	}
	c := growCap(b.capacity, need)
	b.views = b.cfg.bytesWith(16*c, b.views[:16*b.length], nil)
	b.setCapacity(c)
}

// Reserve makes room for n more values.
func (b *BinaryViewBuilder) Reserve(n int) { b.grow(n) }

// CheckRoom returns an error when a value of n bytes is longer than a
// view can describe (2 GiB), where appending it would panic.
func (b *BinaryViewBuilder) CheckRoom(n int) error {
	if n > math.MaxInt32 {
		return fmt.Errorf("array: %w: %s value of %d bytes, longer than a view can describe", datatype.ErrLimit, b.dtype, n)
	}
	return nil
}

// Append appends v.
func (b *BinaryViewBuilder) Append(v []byte) {
	n := b.length
	if n >= b.capacity {
		b.grow(1)
	}
	view := b.views[16*n : 16*n+16]
	binary.LittleEndian.PutUint32(view, uint32(len(v)))
	if len(v) <= ViewInlineMax {
		copy(view[4:], v)
	} else {
		if len(v) > math.MaxInt32 {
			panic(fmt.Sprintf("array: view value of %d bytes", len(v)))
		}
		if len(b.cur)+len(v) > cap(b.cur) {
			b.newBlock(len(v))
		}
		copy(view[4:8], v)
		binary.LittleEndian.PutUint32(view[8:], uint32(len(b.blocks)))
		binary.LittleEndian.PutUint32(view[12:], uint32(len(b.cur)))
		b.cur = append(b.cur, v...)
	}
	b.length = n + 1
}

// AppendString appends s.
func (b *BinaryViewBuilder) AppendString(s string) {
	b.Append(unsafe.Slice(unsafe.StringData(s), len(s)))
}

func (b *BinaryViewBuilder) newBlock(n int) {
	if b.cur != nil {
		b.blocks = append(b.blocks, b.cur)
	}
	b.cur = b.cfg.bytes(max(n, b.cfg.blockSize))[:0]
}

// AppendValues appends vs; valid, when not nil, says which are valid.
func (b *BinaryViewBuilder) AppendValues(vs [][]byte, valid []bool) {
	checkValid(len(vs), valid)
	b.grow(len(vs))
	for i, v := range vs {
		if valid != nil && !valid[i] {
			b.AppendNull()
		} else {
			b.Append(v)
		}
	}
}

// AppendStrings appends vs; valid, when not nil, says which are valid.
func (b *BinaryViewBuilder) AppendStrings(vs []string, valid []bool) {
	checkValid(len(vs), valid)
	b.grow(len(vs))
	for i, v := range vs {
		if valid != nil && !valid[i] {
			b.AppendNull()
		} else {
			b.AppendString(v)
		}
	}
}

// AppendNull appends a null slot (an all-zero view).
func (b *BinaryViewBuilder) AppendNull() { b.AppendNulls(1) }

// AppendNulls appends n null slots.
func (b *BinaryViewBuilder) AppendNulls(n int) {
	b.grow(n)
	b.markNull(n)
	b.length += n
}

// AppendEmptyValue appends an empty value.
func (b *BinaryViewBuilder) AppendEmptyValue() { b.AppendEmptyValues(1) }

// AppendEmptyValues appends n empty values.
func (b *BinaryViewBuilder) AppendEmptyValues(n int) {
	b.grow(n)
	b.length += n
}

// Value returns the i'th value appended; it shares the builder's memory.
func (b *BinaryViewBuilder) Value(i int) []byte {
	if i < 0 || i >= b.length {
		panic(fmt.Sprintf("array: value %d of builder of length %d", i, b.length))
	}
	v := b.views[16*i : 16*i+16]
	n := int(binary.LittleEndian.Uint32(v))
	if n <= ViewInlineMax {
		return v[4 : 4+n]
	}
	blk, off := int(binary.LittleEndian.Uint32(v[8:])), int(binary.LittleEndian.Uint32(v[12:]))
	if blk == len(b.blocks) {
		return b.cur[off : off+n]
	}
	return b.blocks[blk][off : off+n]
}

func (b *BinaryViewBuilder) slotsEqual(i, j int) bool {
	if same, done := b.nullsEqual(i, j); !same || done {
		return same
	}
	return bytes.Equal(b.Value(i), b.Value(j))
}

func (b *BinaryViewBuilder) truncate(n int) {
	if n < b.length {
		clear(b.views[16*n : 16*b.length])
		b.truncateBase(n)
	}
}

// Finish returns the array built so far and resets the builder.
func (b *BinaryViewBuilder) Finish() *BinaryView {
	bufs := []*memory.Buffer{b.validityBuffer(), b.cfg.buffer(b.views, 16*b.length)}
	for _, blk := range b.blocks {
		bufs = append(bufs, b.cfg.buffer(blk, len(blk)))
	}
	if len(b.cur) > 0 {
		bufs = append(bufs, b.cfg.buffer(b.cur, len(b.cur)))
	}
	d := b.makeData(bufs, nil)
	b.resetBase()
	b.views, b.blocks, b.cur = nil, nil, nil
	return newBinaryView(d)
}

// NewArray returns the array built so far and resets the builder.
func (b *BinaryViewBuilder) NewArray() Array { return b.Finish() }
