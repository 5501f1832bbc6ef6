package gorecord

import (
	"reflect"
	"unsafe"

	"github.com/alkaid-go/alkaid/array"
)

// The encoders of nested values: pointers, slices and arrays as lists,
// maps and structs.

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
