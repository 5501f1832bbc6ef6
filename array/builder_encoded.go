package array

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

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
