package array

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/memory"
)

// Builder appends values to a growing array. Every concrete builder of
// this package implements it; the concrete types add typed Append methods
// and a Finish that returns the concrete array type.
//
// Memory comes from a [memory.Allocator] (64-byte aligned, padded) and
// belongs to the garbage collector. The validity bitmap is allocated only
// once a null is appended, so an array without nulls has none; null slots
// hold zero values. Builders are not safe for concurrent use.
//
// Appending to a nested builder's children is the caller's job (see each
// builder); getting the child counts wrong is a programmer error that
// NewArray reports with a panic.
type Builder interface {
	// Type is the type of the arrays built.
	Type() datatype.DataType
	// Len is the number of slots appended so far.
	Len() int
	// NullN is the number of null slots appended so far (0 for unions and
	// run-end encoded builders, whose nulls live in their children).
	NullN() int
	// Reserve makes room for n more slots without reallocation (children
	// of nested builders are not reserved).
	Reserve(n int)
	// AppendNull appends a null slot.
	AppendNull()
	// AppendNulls appends n null slots.
	AppendNulls(n int)
	// AppendEmptyValue appends a valid slot holding the type's empty value:
	// zero, "", [], a struct of empty values, …
	AppendEmptyValue()
	// AppendEmptyValues appends n empty values.
	AppendEmptyValues(n int)
	// NewArray returns the array built so far and resets the builder to
	// empty so that it can be reused; the array does not share memory with
	// later appends.
	NewArray() Array
}

// builder is implemented by every builder of this package; the run-end
// encoded builder uses it to merge equal neighbours over any value type.
type builder interface {
	Builder
	// slotsEqual reports whether slots i and j hold the same value (two
	// nulls are equal; values compare by their bytes).
	slotsEqual(i, j int) bool
	// truncate drops slots [n, Len()).
	truncate(n int)
}

// BuilderOption configures a builder.
type BuilderOption func(*builderConfig)

type builderConfig struct {
	alloc     memory.Allocator
	blockSize int
}

// DefaultBlockSize is the default size of the data buffers of the view
// builders.
const DefaultBlockSize = 32 << 10

// WithAllocator makes a builder (and its children) allocate from a; the
// default is [memory.DefaultAllocator].
func WithAllocator(a memory.Allocator) BuilderOption {
	return func(c *builderConfig) { c.alloc = a }
}

// WithBlockSize sets the size of the data buffers that binary_view and
// utf8_view builders store long values in (default [DefaultBlockSize]); a
// value longer than a block gets a buffer of its own size.
func WithBlockSize(n int) BuilderOption {
	return func(c *builderConfig) {
		if n > 0 {
			c.blockSize = n
		}
	}
}

func newConfig(opts []BuilderOption) *builderConfig {
	c := &builderConfig{alloc: memory.DefaultAllocator, blockSize: DefaultBlockSize}
	for _, o := range opts {
		o(c)
	}
	if c.alloc == nil {
		c.alloc = memory.DefaultAllocator
	}
	return c
}

func (c *builderConfig) options() []BuilderOption {
	cc := *c
	return []BuilderOption{func(d *builderConfig) { *d = cc }}
}

// bytes allocates at least n zeroed bytes and returns them at full
// (padded) capacity.
func (c *builderConfig) bytes(n int) []byte {
	b := c.alloc.Allocate(n)
	return b[:cap(b)]
}

// bytesWith is bytes(n) holding a copy of head followed by tail (together
// at most n bytes) and zeros: what growing an allocation needs.
//
// With memory.GoAllocator (the default) large allocations that are mostly
// copies are made by append, which, unlike make, does not clear the memory
// it is about to copy into: those bytes are written once instead of twice.
// The result is what GoAllocator gives (Go memory, aligned, padded) or else
// comes from Allocate; any other allocator gets every allocation through
// Allocate.
func (c *builderConfig) bytesWith(n int, head, tail []byte) []byte {
	// Only worth it when the copy covers at least half: make does not
	// clear memory fresh from the OS, append clears what it does not copy
	// over in every case.
	if _, ok := c.alloc.(memory.GoAllocator); ok && n >= 32<<10 && 2*(len(head)+len(tail)) >= n {
		// append takes the length asked for as the capacity (rounded up to
		// a page) only when it is more than twice the old capacity, h here;
		// else it grows by its own factor. The capacity returned is what
		// was asked for, so that doubling keeps to powers of two.
		h, m := len(head), len(head)+len(tail)
		size := memory.RoundUp(max(n, m))
		var b []byte
		if m >= n && m > 2*h {
			b = append(head[:h:h], tail...)
		} else {
			b = append(head[:h:h], make([]byte, max(size, 2*h+1)-h)...)
			copy(b[h:], tail)
		}
		if uintptr(unsafe.Pointer(unsafe.SliceData(b)))%memory.Alignment == 0 && cap(b) >= size {
			b = b[:size:size]
			clear(b[m:]) // zero already; cleared here not to depend on it
			return b
		}
	}
	b := c.bytes(n)
	copy(b[copy(b, head):], tail)
	return b
}

// uncleared is bytesWith without the zeros: at least n bytes holding head
// then tail, the rest undefined, at full capacity. With Go's allocator the
// memory is not cleared first (internal/rawmem), for a builder that
// writes every byte it uses (bufferBytes clears the rest); any other
// allocator gets bytesWith.
func (c *builderConfig) uncleared(n int, head, tail []byte) []byte {
	if _, ok := c.alloc.(memory.GoAllocator); !ok {
		return c.bytesWith(n, head, tail)
	}
	b := rawmem.Aligned(n)
	b = b[:cap(b)]
	copy(b[copy(b, head):], tail)
	return b
}

// buffer wraps the first n bytes of raw as a finished buffer; raw is
// copied into a tight allocation when most of it would be wasted.
func (c *builderConfig) buffer(raw []byte, n int) *memory.Buffer {
	return memory.NewBuffer(c.bufferBytes(raw, n))
}

// bufferBytes is buffer's bytes.
func (c *builderConfig) bufferBytes(raw []byte, n int) []byte {
	if raw == nil || (cap(raw) > 4096 && 2*memory.RoundUp(n) < cap(raw)) {
		b := c.alloc.Allocate(n)
		copy(b, raw[:n])
		return b
	}
	// Builders grow into memory that is not cleared first (uncleared):
	// the buffer's capacity ends at its padding, cleared here, so that
	// nothing stale is reachable through it; the rest of the allocation
	// is not cleared, as nothing reaches it.
	p := min(memory.RoundUp(n), cap(raw))
	clear(raw[n:p])
	return raw[:n:p]
}

// packValid writes valid[i] into bit off+i of dst (whatever the bit held
// before) and returns how many of valid are false. Whole bytes of the
// bitmap are packed eight flags at a time.
func packValid(dst []byte, off int, valid []bool) (nulls int) {
	set, i := 0, 0
	for ; i < len(valid) && (off+i)&7 != 0; i++ {
		set += setBitTo(dst, off+i, valid[i])
	}
	for ; i+8 <= len(valid); i += 8 {
		packed := pack8(valid[i:])
		dst[(off+i)>>3] = packed
		set += bits.OnesCount8(packed)
	}
	for ; i < len(valid); i++ {
		set += setBitTo(dst, off+i, valid[i])
	}
	return len(valid) - set
}

// pack8 packs valid[0:8] into a byte, flag k at bit k. Eight bools are
// eight bytes of 0 or 1; the multiplication gathers their low bits into
// the top byte.
func pack8(valid []bool) byte {
	_ = valid[7]
	w := binary.LittleEndian.Uint64(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(valid))), 8))
	return byte((w * 0x0102040810204080) >> 56)
}

// setBitTo sets or clears bit i of dst and returns 1 when it set it.
func setBitTo(dst []byte, i int, v bool) int {
	if v {
		dst[i>>3] |= 1 << (i & 7)
		return 1
	}
	dst[i>>3] &^= 1 << (i & 7)
	return 0
}

// growCap returns the new capacity in slots for a builder of capacity cur
// that needs need slots: at least double, at least 32.
func growCap(cur, need int) int {
	return max(2*cur, need, 32)
}

// builderBase keeps what every builder with a validity bitmap shares: the
// length, the capacity in slots, the null count and the bitmap, which
// stays nil until the first null.
//
// Once allocated, the bitmap has every bit from the length on set: a valid
// slot is appended without touching it, a null one clears its bit.
//
//	valid  [bits of slots 0..length-1][1 1 1 … 1 up to 8*len(valid)]
//	                                   ^ length
type builderBase struct {
	cfg      *builderConfig
	dtype    datatype.DataType
	length   int
	capacity int
	nulls    int
	valid    []byte // nil while no slot is null; else covers at least capacity bits
}

func (b *builderBase) init(t datatype.DataType, cfg *builderConfig) {
	b.dtype = t
	b.cfg = cfg
}

// Type is the type of the arrays built.
func (b *builderBase) Type() datatype.DataType { return b.dtype }

// Len is the number of slots appended.
func (b *builderBase) Len() int { return b.length }

// NullN is the number of null slots appended.
func (b *builderBase) NullN() int { return b.nulls }

// setCapacity records a new capacity and grows the bitmap to match.
func (b *builderBase) setCapacity(c int) {
	b.capacity = c
	if b.valid != nil && len(b.valid)*8 < c {
		nb := b.cfg.bytes(bitutil.BytesForBits(c))
		copy(nb, b.valid)
		fillOnes(nb[len(b.valid):])
		b.valid = nb
	}
}

// fillOnes sets every bit of p, doubling the filled part with copy.
func fillOnes(p []byte) {
	if len(p) == 0 {
		return
	}
	p[0] = 0xFF
	for i := 1; i < len(p); i *= 2 {
		copy(p[i:], p[:i])
	}
}

// materialize allocates the bitmap with every bit set: the slots so far
// are valid.
func (b *builderBase) materialize() {
	b.valid = b.cfg.bytes(bitutil.BytesForBits(max(b.capacity, b.length)))
	fillOnes(b.valid)
}

// markNull records n null slots from the current length, which the
// capacity must cover (the length is not changed).
func (b *builderBase) markNull(n int) {
	if n > 0 {
		if b.valid == nil {
			b.materialize()
		}
		if n == 1 {
			b.valid[b.length>>3] &^= 1 << (b.length & 7)
		} else {
			bitutil.SetBitsTo(b.valid, b.length, n, false)
		}
		b.nulls += n
	}
}

func (b *builderBase) isValid(i int) bool {
	return b.valid == nil || b.valid[i>>3]&(1<<(i&7)) != 0
}

// nullsEqual compares the validity of slots i and j: same is false when
// one is null and the other is not; done is true when both are null.
func (b *builderBase) nullsEqual(i, j int) (same, done bool) {
	vi, vj := b.isValid(i), b.isValid(j)
	return vi == vj, !vi
}

// truncateBase drops the validity of slots [n, length).
func (b *builderBase) truncateBase(n int) {
	if n >= b.length {
		return
	}
	if b.valid != nil {
		b.nulls -= (b.length - n) - bitutil.CountSetBits(b.valid, n, b.length-n)
		bitutil.SetBitsTo(b.valid, n, b.length-n, true)
	}
	b.length = n
}

// validityBuffer is the finished bitmap, nil when no slot is null. Only
// Finish calls it, just before resetBase: it clears the bits past the
// length (bufferBytes the bytes after).
func (b *builderBase) validityBuffer() *memory.Buffer {
	if v := b.validityBytes(); v != nil {
		return memory.NewBuffer(v)
	}
	return nil
}

// validityBytes is validityBuffer's bytes.
func (b *builderBase) validityBytes() []byte {
	if b.nulls == 0 {
		return nil
	}
	n := bitutil.BytesForBits(b.length)
	if r := b.length & 7; r != 0 {
		b.valid[n-1] &= 1<<r - 1
	}
	return b.cfg.bufferBytes(b.valid, n)
}

// dataBlock is a finished array's Data with its list of two buffers
// and the buffers themselves, allocated together.
type dataBlock struct {
	d    Data
	list [2]*memory.Buffer
	bufs [2]memory.Buffer
}

// makeData2 is makeData for arrays with a bitmap and one more buffer,
// which is the first n bytes of raw: one allocation instead of four.
// Only Finish calls it, just before resetBase.
func (b *builderBase) makeData2(raw []byte, n int) *Data {
	blk := &dataBlock{}
	if v := b.validityBytes(); v != nil {
		blk.bufs[0] = *memory.NewBuffer(v)
		blk.list[0] = &blk.bufs[0]
	}
	blk.bufs[1] = *memory.NewBuffer(b.cfg.bufferBytes(raw, n))
	blk.list[1] = &blk.bufs[1]
	blk.d = Data{Type: b.dtype, Length: b.length, NullCount: b.nulls, Buffers: blk.list[:]}
	return &blk.d
}

func (b *builderBase) resetBase() {
	b.length, b.capacity, b.nulls, b.valid = 0, 0, 0, nil
}

func (b *builderBase) makeData(buffers []*memory.Buffer, children []*Data) *Data {
	return &Data{Type: b.dtype, Length: b.length, NullCount: b.nulls, Buffers: buffers, Children: children}
}

// NewBuilder returns a builder for arrays of type t, with builders for its
// children chosen recursively. It panics when t cannot be built (a
// dictionary whose values are not hashable by their bytes); see
// [TryNewBuilder] for an error instead.
func NewBuilder(t datatype.DataType, opts ...BuilderOption) Builder {
	b, err := TryNewBuilder(t, opts...)
	if err != nil {
		panic(err)
	}
	return b
}

// TryNewBuilder is [NewBuilder] returning an error wrapping
// [ErrNotSupported] for types it cannot build.
func TryNewBuilder(t datatype.DataType, opts ...BuilderOption) (Builder, error) {
	if t == nil {
		return nil, fmt.Errorf("array: %w: nil type", ErrNotSupported)
	}
	b, err := newBuilder(t, newConfig(opts), 0)
	if err != nil {
		return nil, err
	}
	return b, nil
}

func newBuilder(t datatype.DataType, cfg *builderConfig, depth int) (builder, error) {
	if depth > maxBuildDepth {
		return nil, fmt.Errorf("array: %w: nesting deeper than %d", ErrNotSupported, maxBuildDepth)
	}
	opts := cfg.options()
	child := func(ct datatype.DataType) (builder, error) { return newBuilder(ct, cfg, depth+1) }
	switch tt := t.(type) {
	case datatype.ExtensionType:
		st, err := child(tt.StorageType())
		if err != nil {
			return nil, err
		}
		return &ExtensionBuilder{etype: tt, storage: st}, nil
	case *datatype.ListType:
		c, err := child(tt.Elem().Type)
		if err != nil {
			return nil, err
		}
		switch tt.Kind() {
		case datatype.KindList:
			return newListBuilder[int32](tt, c, cfg), nil
		case datatype.KindLargeList:
			return newListBuilder[int64](tt, c, cfg), nil
		case datatype.KindListView:
			return newListViewBuilder[int32](tt, c, cfg), nil
		case datatype.KindLargeListView:
			return newListViewBuilder[int64](tt, c, cfg), nil
		default:
			return newFixedSizeListBuilder(tt, c, cfg), nil
		}
	case *datatype.StructType:
		cs := make([]builder, tt.NumFields())
		for i := range cs {
			c, err := child(tt.Field(i).Type)
			if err != nil {
				return nil, err
			}
			cs[i] = c
		}
		return newStructBuilder(tt, cs, cfg), nil
	case *datatype.MapType:
		e, err := child(tt.Entries().Type)
		if err != nil {
			return nil, err
		}
		return newMapBuilder(tt, e.(*StructBuilder), cfg), nil
	case *datatype.UnionType:
		cs := make([]builder, tt.NumFields())
		for i := range cs {
			c, err := child(tt.Field(i).Type)
			if err != nil {
				return nil, err
			}
			cs[i] = c
		}
		return newUnionBuilder(tt, cs, cfg), nil
	case *datatype.DictionaryType:
		return newDictionaryBuilder(tt, cfg, depth)
	case *datatype.RunEndEncodedType:
		v, err := child(tt.Values().Type)
		if err != nil {
			return nil, err
		}
		return newRunEndEncodedBuilder(tt, v, cfg), nil
	}
	switch t.Kind() {
	case datatype.KindNull:
		return &NullBuilder{dtype: t}, nil
	case datatype.KindBool:
		return NewBooleanBuilder(t, opts...), nil
	case datatype.KindFixedSizeBinary:
		return NewFixedSizeBinaryBuilder(t, opts...), nil
	case datatype.KindBinary, datatype.KindString:
		return NewBinaryBuilder[int32](t, opts...), nil
	case datatype.KindLargeBinary, datatype.KindLargeString:
		return NewBinaryBuilder[int64](t, opts...), nil
	case datatype.KindBinaryView, datatype.KindStringView:
		return NewBinaryViewBuilder(t, opts...), nil
	}
	if b := newPrimitiveBuilderFor(t, cfg); b != nil {
		return b, nil
	}
	return nil, fmt.Errorf("array: %w: no builder for type %s", ErrNotSupported, t)
}

// newPrimitiveBuilderFor maps a fixed-width kind to its Go value type.
func newPrimitiveBuilderFor(t datatype.DataType, cfg *builderConfig) builder {
	switch t.Kind() {
	case datatype.KindInt8:
		return newPrimitiveBuilder[int8](t, cfg)
	case datatype.KindInt16:
		return newPrimitiveBuilder[int16](t, cfg)
	case datatype.KindInt32:
		return newPrimitiveBuilder[int32](t, cfg)
	case datatype.KindInt64:
		return newPrimitiveBuilder[int64](t, cfg)
	case datatype.KindUint8:
		return newPrimitiveBuilder[uint8](t, cfg)
	case datatype.KindUint16:
		return newPrimitiveBuilder[uint16](t, cfg)
	case datatype.KindUint32:
		return newPrimitiveBuilder[uint32](t, cfg)
	case datatype.KindUint64:
		return newPrimitiveBuilder[uint64](t, cfg)
	case datatype.KindFloat16:
		return newPrimitiveBuilder[datatype.Float16](t, cfg)
	case datatype.KindFloat32:
		return newPrimitiveBuilder[float32](t, cfg)
	case datatype.KindFloat64:
		return newPrimitiveBuilder[float64](t, cfg)
	case datatype.KindDecimal32:
		return newPrimitiveBuilder[datatype.Decimal32](t, cfg)
	case datatype.KindDecimal64:
		return newPrimitiveBuilder[datatype.Decimal64](t, cfg)
	case datatype.KindDecimal128:
		return newPrimitiveBuilder[datatype.Decimal128](t, cfg)
	case datatype.KindDecimal256:
		return newPrimitiveBuilder[datatype.Decimal256](t, cfg)
	case datatype.KindDate32:
		return newPrimitiveBuilder[datatype.Date32](t, cfg)
	case datatype.KindDate64:
		return newPrimitiveBuilder[datatype.Date64](t, cfg)
	case datatype.KindTime32:
		return newPrimitiveBuilder[datatype.Time32](t, cfg)
	case datatype.KindTime64:
		return newPrimitiveBuilder[datatype.Time64](t, cfg)
	case datatype.KindTimestamp:
		return newPrimitiveBuilder[datatype.Timestamp](t, cfg)
	case datatype.KindDuration:
		return newPrimitiveBuilder[datatype.Duration](t, cfg)
	case datatype.KindMonthInterval:
		return newPrimitiveBuilder[datatype.MonthInterval](t, cfg)
	case datatype.KindDayTimeInterval:
		return newPrimitiveBuilder[datatype.DayTimeInterval](t, cfg)
	case datatype.KindMonthDayNanoInterval:
		return newPrimitiveBuilder[datatype.MonthDayNanoInterval](t, cfg)
	}
	return nil
}

// maxBuildDepth bounds the nesting of the types NewBuilder follows.
const maxBuildDepth = 64
