package gorecord

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"time"
	"unsafe"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// encoder appends Go values to a builder. Values are read straight from
// memory through unsafe pointers; only maps and json fields use reflect
// per value.
type encoder interface {
	// appendRows appends the n values at base, base+stride, base+2·stride…
	appendRows(base unsafe.Pointer, stride uintptr, n int) error
	// appendNulls appends n nulls.
	appendNulls(n int)
}

// ptrCapable is implemented by scalar encoders that have a fused form
// reading through a pointer (nil → null), avoiding a call per value.
type ptrCapable interface {
	viaPointer(notNull bool) encoder
}

// sliceHeader is the memory layout of every Go slice.
type sliceHeader struct {
	data unsafe.Pointer
	len  int
	cap  int
}

func at(base unsafe.Pointer, stride uintptr, i int) unsafe.Pointer {
	return unsafe.Add(base, uintptr(i)*stride)
}

func builderMismatch(n *node, b array.Builder) error {
	// The builders come from the plan's own types: a mismatch is a bug here.
	return fmt.Errorf("gorecord: internal error: field %s: builder %T for %s", n.path, b, n.dt)
}

// newEncoder returns the encoder of node n appending to b, a builder of n.dt.
func newEncoder(n *node, b array.Builder) (encoder, error) {
	if eb, ok := b.(*array.ExtensionBuilder); ok {
		b = eb.StorageBuilder()
	}
	switch n.kind {
	case kFixed:
		return fixedEncoder(n, b)
	case kBool:
		if n.dict {
			if db, ok := b.(*array.DictionaryBuilder[bool]); ok {
				return &dictEnc[bool]{b: db}, nil
			}
		} else if bb, ok := b.(*array.BooleanBuilder); ok {
			return &boolEnc{b: bb}, nil
		}
	case kString:
		switch bb := b.(type) {
		case *array.DictionaryBuilder[string]:
			return &dictEnc[string]{b: bb}, nil
		case *array.BinaryBuilder[int32]:
			return &stringEnc[int32]{b: bb}, nil
		case *array.BinaryBuilder[int64]:
			return &stringEnc[int64]{b: bb}, nil
		case *array.BinaryViewBuilder:
			return &stringViewEnc{b: bb}, nil
		}
	case kBytes:
		switch bb := b.(type) {
		case *array.DictionaryBuilder[string]:
			return &dictBytesEnc{b: bb, notNull: n.notNull}, nil
		case *array.BinaryBuilder[int32]:
			return &bytesEnc[int32]{b: bb, notNull: n.notNull}, nil
		case *array.BinaryBuilder[int64]:
			return &bytesEnc[int64]{b: bb, notNull: n.notNull}, nil
		case *array.BinaryViewBuilder:
			return &bytesViewEnc{b: bb, notNull: n.notNull}, nil
		}
	case kFixedBin:
		switch bb := b.(type) {
		case *array.DictionaryBuilder[string]:
			return &dictFixedBinEnc{b: bb, size: n.size}, nil
		case *array.FixedSizeBinaryBuilder:
			return &fixedBinEnc{b: bb, size: n.size}, nil
		}
	case kTime:
		if pb, ok := b.(*array.PrimitiveBuilder[datatype.Timestamp]); ok {
			return &timeEnc{b: pb, unit: n.unit, path: n.path}, nil
		}
	case kDuration:
		if pb, ok := b.(*array.PrimitiveBuilder[datatype.Duration]); ok {
			return &durationEnc{b: pb, div: int64(time.Second) / n.unit.PerSecond()}, nil
		}
	case kJSON:
		if bb, ok := b.(*array.BinaryBuilder[int32]); ok {
			return &jsonEnc{b: bb, t: n.t}, nil
		}
	case kPtr:
		elem, err := newEncoder(n.elem, b)
		if err != nil {
			return nil, err
		}
		if pc, ok := elem.(ptrCapable); ok {
			return pc.viaPointer(n.notNull), nil
		}
		return &ptrEnc{elem: elem, notNull: n.notNull, zero: reflect.New(n.elem.t).UnsafePointer()}, nil
	case kSlice:
		var lb listAppender
		var child array.Builder
		switch bb := b.(type) {
		case *array.ListBuilder[int32]:
			lb, child = bb, bb.ValueBuilder()
		case *array.ListBuilder[int64]:
			lb, child = bb, bb.ValueBuilder()
		case *array.ListViewBuilder[int32]:
			lb, child = bb, bb.ValueBuilder()
		case *array.ListViewBuilder[int64]:
			lb, child = bb, bb.ValueBuilder()
		default:
			return nil, builderMismatch(n, b)
		}
		elem, err := newEncoder(n.elem, child)
		if err != nil {
			return nil, err
		}
		if l32, ok := b.(*array.ListBuilder[int32]); ok {
			if pl, ok := elem.(primListCapable); ok {
				return pl.listOf(l32, n.notNull), nil
			}
		}
		return &listEnc{b: lb, elem: elem, esize: n.elem.t.Size(), notNull: n.notNull}, nil
	case kArray:
		fb, ok := b.(*array.FixedSizeListBuilder)
		if !ok {
			break
		}
		elem, err := newEncoder(n.elem, fb.ValueBuilder())
		if err != nil {
			return nil, err
		}
		return &arrayEnc{b: fb, elem: elem, esize: n.elem.t.Size(), size: n.size}, nil
	case kMap:
		mb, ok := b.(*array.MapBuilder)
		if !ok {
			break
		}
		key, err := newEncoder(n.key, mb.KeyBuilder())
		if err != nil {
			return nil, err
		}
		val, err := newEncoder(n.elem, mb.ItemBuilder())
		if err != nil {
			return nil, err
		}
		return &mapEnc{b: mb, t: n.t, key: key, val: val, notNull: n.notNull}, nil
	case kStruct:
		sb, ok := b.(*array.StructBuilder)
		if !ok {
			break
		}
		fs, err := fieldEncoders(n, sb.FieldBuilder)
		if err != nil {
			return nil, err
		}
		return &structEnc{b: sb, fields: fs}, nil
	}
	return nil, builderMismatch(n, b)
}

type fieldEnc struct {
	off uintptr
	enc encoder
}

func fieldEncoders(n *node, builder func(int) array.Builder) ([]fieldEnc, error) {
	fs := make([]fieldEnc, len(n.fields))
	for i, f := range n.fields {
		e, err := newEncoder(f.node, builder(i))
		if err != nil {
			return nil, err
		}
		fs[i] = fieldEnc{off: f.offset, enc: e}
	}
	return fs, nil
}

// fixedEncoder picks the Go value type T the array package uses for the
// node's column type.
func fixedEncoder(n *node, b array.Builder) (encoder, error) {
	var e encoder
	switch n.value.Kind() {
	case datatype.KindInt8:
		e = fixedEnc[int8](b, n.dict)
	case datatype.KindInt16:
		e = fixedEnc[int16](b, n.dict)
	case datatype.KindInt32:
		e = fixedEnc[int32](b, n.dict)
	case datatype.KindInt64:
		e = fixedEnc[int64](b, n.dict)
	case datatype.KindUint8:
		e = fixedEnc[uint8](b, n.dict)
	case datatype.KindUint16:
		e = fixedEnc[uint16](b, n.dict)
	case datatype.KindUint32:
		e = fixedEnc[uint32](b, n.dict)
	case datatype.KindUint64:
		e = fixedEnc[uint64](b, n.dict)
	case datatype.KindFloat16:
		e = fixedEnc[datatype.Float16](b, n.dict)
	case datatype.KindFloat32:
		e = fixedEnc[float32](b, n.dict)
	case datatype.KindFloat64:
		e = fixedEnc[float64](b, n.dict)
	case datatype.KindDecimal32:
		e = fixedEnc[datatype.Decimal32](b, n.dict)
	case datatype.KindDecimal64:
		e = fixedEnc[datatype.Decimal64](b, n.dict)
	case datatype.KindDecimal128:
		e = fixedEnc[datatype.Decimal128](b, n.dict)
	case datatype.KindDecimal256:
		e = fixedEnc[datatype.Decimal256](b, n.dict)
	case datatype.KindDate32:
		e = fixedEnc[datatype.Date32](b, n.dict)
	case datatype.KindDate64:
		e = fixedEnc[datatype.Date64](b, n.dict)
	case datatype.KindTime32:
		e = fixedEnc[datatype.Time32](b, n.dict)
	case datatype.KindTime64:
		e = fixedEnc[datatype.Time64](b, n.dict)
	case datatype.KindTimestamp:
		e = fixedEnc[datatype.Timestamp](b, n.dict)
	case datatype.KindDuration:
		e = fixedEnc[datatype.Duration](b, n.dict)
	case datatype.KindMonthInterval:
		e = fixedEnc[datatype.MonthInterval](b, n.dict)
	case datatype.KindDayTimeInterval:
		e = fixedEnc[datatype.DayTimeInterval](b, n.dict)
	case datatype.KindMonthDayNanoInterval:
		e = fixedEnc[datatype.MonthDayNanoInterval](b, n.dict)
	}
	if e == nil {
		return nil, builderMismatch(n, b)
	}
	return e, nil
}

func fixedEnc[T array.FixedWidth](b array.Builder, dict bool) encoder {
	if dict {
		if db, ok := b.(*array.DictionaryBuilder[T]); ok {
			return &dictEnc[T]{b: db}
		}
		return nil
	}
	if pb, ok := b.(*array.PrimitiveBuilder[T]); ok {
		return &primEnc[T]{b: pb}
	}
	return nil
}

// primEnc appends fixed-width values; a contiguous run is one copy.
type primEnc[T array.FixedWidth] struct{ b *array.PrimitiveBuilder[T] }

func (e *primEnc[T]) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	var zero T
	if stride == unsafe.Sizeof(zero) {
		e.b.AppendValues(unsafe.Slice((*T)(base), n), nil)
		return nil
	}
	b := e.b
	b.Reserve(n)
	for i := range n {
		b.Append(*(*T)(at(base, stride, i)))
	}
	return nil
}

func (e *primEnc[T]) appendNulls(n int) { e.b.AppendNulls(n) }

func (e *primEnc[T]) viaPointer(notNull bool) encoder {
	return &ptrPrimEnc[T]{b: e.b, notNull: notNull}
}

// primListCapable is implemented by primEnc: lists of fixed-width values
// (the commonest lists) get a fused encoder without calls per list.
type primListCapable interface {
	listOf(b *array.ListBuilder[int32], notNull bool) encoder
}

func (e *primEnc[T]) listOf(b *array.ListBuilder[int32], notNull bool) encoder {
	return &primListEnc[T]{b: b, vb: e.b, notNull: notNull}
}

// primListEnc appends []T values to a list<T>: each slice is one copy.
type primListEnc[T array.FixedWidth] struct {
	b       *array.ListBuilder[int32]
	vb      *array.PrimitiveBuilder[T]
	notNull bool
}

func (e *primListEnc[T]) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	b, vb := e.b, e.vb
	b.Reserve(n)
	for i := range n {
		v := *(*[]T)(at(base, stride, i))
		if v == nil {
			if e.notNull {
				b.AppendEmptyValue()
			} else {
				b.AppendNull()
			}
			continue
		}
		b.Append(true)
		if len(v) > 0 {
			vb.AppendValues(v, nil)
		}
	}
	return nil
}

func (e *primListEnc[T]) appendNulls(n int) { e.b.AppendNulls(n) }

// ptrPrimEnc appends *T values, nil as null (or zero with notNull).
type ptrPrimEnc[T array.FixedWidth] struct {
	b       *array.PrimitiveBuilder[T]
	notNull bool
}

func (e *ptrPrimEnc[T]) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	b := e.b
	b.Reserve(n)
	for i := range n {
		p := *(*unsafe.Pointer)(at(base, stride, i))
		switch {
		case p != nil:
			b.Append(*(*T)(p))
		case e.notNull:
			b.AppendEmptyValue()
		default:
			b.AppendNull()
		}
	}
	return nil
}

func (e *ptrPrimEnc[T]) appendNulls(n int) { e.b.AppendNulls(n) }

type boolEnc struct{ b *array.BooleanBuilder }

func (e *boolEnc) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	b := e.b
	b.Reserve(n)
	for i := range n {
		b.Append(*(*bool)(at(base, stride, i)))
	}
	return nil
}

func (e *boolEnc) appendNulls(n int) { e.b.AppendNulls(n) }

// dictEnc appends values of Go type K to a dictionary builder.
type dictEnc[K comparable] struct{ b *array.DictionaryBuilder[K] }

func (e *dictEnc[K]) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	for i := range n {
		if err := e.b.Append(*(*K)(at(base, stride, i))); err != nil {
			return err
		}
	}
	return nil
}

func (e *dictEnc[K]) appendNulls(n int) { e.b.AppendNulls(n) }

type dictBytesEnc struct {
	b       *array.DictionaryBuilder[string]
	notNull bool
}

func (e *dictBytesEnc) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	for i := range n {
		v := *(*[]byte)(at(base, stride, i))
		if v == nil && !e.notNull {
			e.b.AppendNull()
			continue
		}
		if err := e.b.AppendBytes(v); err != nil {
			return err
		}
	}
	return nil
}

func (e *dictBytesEnc) appendNulls(n int) { e.b.AppendNulls(n) }

type dictFixedBinEnc struct {
	b    *array.DictionaryBuilder[string]
	size int
}

func (e *dictFixedBinEnc) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	for i := range n {
		if err := e.b.AppendBytes(unsafe.Slice((*byte)(at(base, stride, i)), e.size)); err != nil {
			return err
		}
	}
	return nil
}

func (e *dictFixedBinEnc) appendNulls(n int) { e.b.AppendNulls(n) }

type stringEnc[O array.Offset] struct{ b *array.BinaryBuilder[O] }

func (e *stringEnc[O]) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	b := e.b
	b.Reserve(n)
	for i := range n {
		v := *(*string)(at(base, stride, i))
		if err := b.CheckRoom(len(v)); err != nil {
			return err
		}
		b.AppendString(v)
	}
	return nil
}

func (e *stringEnc[O]) appendNulls(n int) { e.b.AppendNulls(n) }

func (e *stringEnc[O]) viaPointer(notNull bool) encoder {
	return &ptrStringEnc{b: e.b, notNull: notNull}
}

// stringAppender is the part of the string builders ptrStringEnc uses.
type stringAppender interface {
	AppendString(string)
	AppendNull()
	AppendNulls(int)
	AppendEmptyValue()
	CheckRoom(n int) error
}

type ptrStringEnc struct {
	b       stringAppender
	notNull bool
}

func (e *ptrStringEnc) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	for i := range n {
		p := *(**string)(at(base, stride, i))
		switch {
		case p != nil:
			if err := e.b.CheckRoom(len(*p)); err != nil {
				return err
			}
			e.b.AppendString(*p)
		case e.notNull:
			e.b.AppendEmptyValue()
		default:
			e.b.AppendNull()
		}
	}
	return nil
}

func (e *ptrStringEnc) appendNulls(n int) { e.b.AppendNulls(n) }

type stringViewEnc struct{ b *array.BinaryViewBuilder }

func (e *stringViewEnc) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	b := e.b
	b.Reserve(n)
	for i := range n {
		v := *(*string)(at(base, stride, i))
		if err := b.CheckRoom(len(v)); err != nil {
			return err
		}
		b.AppendString(v)
	}
	return nil
}

func (e *stringViewEnc) appendNulls(n int) { e.b.AppendNulls(n) }

func (e *stringViewEnc) viaPointer(notNull bool) encoder {
	return &ptrStringEnc{b: e.b, notNull: notNull}
}

// bytesEnc appends []byte values, nil as null unless notNull.
type bytesEnc[O array.Offset] struct {
	b       *array.BinaryBuilder[O]
	notNull bool
}

func (e *bytesEnc[O]) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	b := e.b
	b.Reserve(n)
	for i := range n {
		v := *(*[]byte)(at(base, stride, i))
		if v == nil && !e.notNull {
			b.AppendNull()
		} else if err := b.CheckRoom(len(v)); err != nil {
			return err
		} else {
			b.Append(v)
		}
	}
	return nil
}

func (e *bytesEnc[O]) appendNulls(n int) { e.b.AppendNulls(n) }

type bytesViewEnc struct {
	b       *array.BinaryViewBuilder
	notNull bool
}

func (e *bytesViewEnc) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	b := e.b
	b.Reserve(n)
	for i := range n {
		v := *(*[]byte)(at(base, stride, i))
		if v == nil && !e.notNull {
			b.AppendNull()
		} else if err := b.CheckRoom(len(v)); err != nil {
			return err
		} else {
			b.Append(v)
		}
	}
	return nil
}

func (e *bytesViewEnc) appendNulls(n int) { e.b.AppendNulls(n) }

type fixedBinEnc struct {
	b    *array.FixedSizeBinaryBuilder
	size int
}

func (e *fixedBinEnc) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	b := e.b
	b.Reserve(n)
	for i := range n {
		b.Append(unsafe.Slice((*byte)(at(base, stride, i)), e.size))
	}
	return nil
}

func (e *fixedBinEnc) appendNulls(n int) { e.b.AppendNulls(n) }

type timeEnc struct {
	b    *array.PrimitiveBuilder[datatype.Timestamp]
	unit datatype.TimeUnit
	path string
}

// The instants whose nanoseconds since the epoch fit an int64.
var (
	minNano = time.Unix(0, math.MinInt64)
	maxNano = time.Unix(0, math.MaxInt64)
)

func (e *timeEnc) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	b := e.b
	b.Reserve(n)
	if e.unit == datatype.Nanosecond {
		for i := range n {
			t := (*time.Time)(at(base, stride, i))
			if t.Before(minNano) || t.After(maxNano) {
				return fmt.Errorf("gorecord: %w: field %s: time %s is outside the range of timestamp[ns] (years 1678 to 2262)",
					ErrRange, e.path, t)
			}
			b.Append(datatype.Timestamp(t.UnixNano()))
		}
		return nil
	}
	switch e.unit {
	case datatype.Microsecond:
		for i := range n {
			b.Append(datatype.Timestamp((*time.Time)(at(base, stride, i)).UnixMicro()))
		}
	case datatype.Millisecond:
		for i := range n {
			b.Append(datatype.Timestamp((*time.Time)(at(base, stride, i)).UnixMilli()))
		}
	default:
		for i := range n {
			b.Append(datatype.Timestamp((*time.Time)(at(base, stride, i)).Unix()))
		}
	}
	return nil
}

func (e *timeEnc) appendNulls(n int) { e.b.AppendNulls(n) }

type durationEnc struct {
	b   *array.PrimitiveBuilder[datatype.Duration]
	div int64 // nanoseconds per unit
}

func (e *durationEnc) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	b := e.b
	b.Reserve(n)
	for i := range n {
		b.Append(datatype.Duration(int64(*(*time.Duration)(at(base, stride, i))) / e.div))
	}
	return nil
}

func (e *durationEnc) appendNulls(n int) { e.b.AppendNulls(n) }

// jsonEnc appends values of any type as JSON text (reflect per value: the
// escape hatch for interface fields).
type jsonEnc struct {
	b *array.BinaryBuilder[int32]
	t reflect.Type
}

func (e *jsonEnc) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	for i := range n {
		v := reflect.NewAt(e.t, at(base, stride, i)).Elem()
		switch v.Kind() {
		case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Slice:
			if v.IsNil() {
				e.b.AppendNull()
				continue
			}
		}
		js, err := json.Marshal(v.Interface())
		if err != nil {
			return fmt.Errorf("gorecord: json: %w", err)
		}
		e.b.Append(js)
	}
	return nil
}

func (e *jsonEnc) appendNulls(n int) { e.b.AppendNulls(n) }

// ptrEnc appends *T values through T's encoder, one call per value.
type ptrEnc struct {
	elem    encoder
	notNull bool
	zero    unsafe.Pointer // a zero T, for nil with notNull
}

func (e *ptrEnc) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	for i := range n {
		p := *(*unsafe.Pointer)(at(base, stride, i))
		if p == nil {
			if !e.notNull {
				e.elem.appendNulls(1)
				continue
			}
			p = e.zero
		}
		if err := e.elem.appendRows(p, 0, 1); err != nil {
			return err
		}
	}
	return nil
}

func (e *ptrEnc) appendNulls(n int) { e.elem.appendNulls(n) }

// listAppender is the part of the list and list-view builders listEnc uses.
type listAppender interface {
	Append(valid bool)
	AppendNull()
	AppendNulls(int)
	AppendEmptyValue()
	Reserve(int)
}

// listEnc appends slices: nil as null (or empty with notNull), the
// elements through the element encoder in one call per slice.
type listEnc struct {
	b       listAppender
	elem    encoder
	esize   uintptr
	notNull bool
}

func (e *listEnc) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	b := e.b
	b.Reserve(n)
	for i := range n {
		h := (*sliceHeader)(at(base, stride, i))
		if h.data == nil {
			if e.notNull {
				b.AppendEmptyValue()
			} else {
				b.AppendNull()
			}
			continue
		}
		b.Append(true)
		if h.len > 0 {
			if err := e.elem.appendRows(h.data, e.esize, h.len); err != nil {
				return err
			}
		}
	}
	return nil
}

func (e *listEnc) appendNulls(n int) { e.b.AppendNulls(n) }

// arrayEnc appends [N]T values as fixed-size lists.
type arrayEnc struct {
	b     *array.FixedSizeListBuilder
	elem  encoder
	esize uintptr
	size  int
}

func (e *arrayEnc) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	for range n {
		e.b.Append(true)
	}
	if stride == e.esize*uintptr(e.size) {
		// Consecutive arrays are one run of elements.
		return e.elem.appendRows(base, e.esize, n*e.size)
	}
	for i := range n {
		if err := e.elem.appendRows(at(base, stride, i), e.esize, e.size); err != nil {
			return err
		}
	}
	return nil
}

func (e *arrayEnc) appendNulls(n int) { e.b.AppendNulls(n) }

// mapEnc appends maps, iterating with reflect (keys and values are copied
// into two reusable variables and encoded from there).
type mapEnc struct {
	b        *array.MapBuilder
	t        reflect.Type
	key, val encoder
	notNull  bool
}

func (e *mapEnc) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	var kv, vv reflect.Value
	for i := range n {
		p := at(base, stride, i)
		if *(*unsafe.Pointer)(p) == nil {
			if e.notNull {
				e.b.AppendEmptyValue()
			} else {
				e.b.AppendNull()
			}
			continue
		}
		e.b.Append(true)
		m := reflect.NewAt(e.t, p).Elem()
		if m.Len() == 0 {
			continue
		}
		if !kv.IsValid() {
			kv, vv = reflect.New(e.t.Key()).Elem(), reflect.New(e.t.Elem()).Elem()
		}
		kp, vp := kv.Addr().UnsafePointer(), vv.Addr().UnsafePointer()
		it := m.MapRange()
		for it.Next() {
			kv.SetIterKey(it)
			vv.SetIterValue(it)
			if err := e.key.appendRows(kp, 0, 1); err != nil {
				return err
			}
			if err := e.val.appendRows(vp, 0, 1); err != nil {
				return err
			}
		}
	}
	return nil
}

func (e *mapEnc) appendNulls(n int) { e.b.AppendNulls(n) }

// structEnc appends structs field by field: each field's encoder sees all
// n rows at once.
type structEnc struct {
	b      *array.StructBuilder
	fields []fieldEnc
}

func (e *structEnc) appendRows(base unsafe.Pointer, stride uintptr, n int) error {
	for range n {
		e.b.Append(true)
	}
	for _, f := range e.fields {
		if err := f.enc.appendRows(unsafe.Add(base, f.off), stride, n); err != nil {
			return err
		}
	}
	return nil
}

func (e *structEnc) appendNulls(n int) { e.b.AppendNulls(n) }
