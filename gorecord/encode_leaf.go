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

// The encoders of leaf values: numbers, booleans, dictionary-encoded
// values, strings and bytes, times, durations and json fields.

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
