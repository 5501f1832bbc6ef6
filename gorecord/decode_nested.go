package gorecord

import (
	"reflect"
	"unsafe"

	"github.com/alkaid-go/alkaid/array"
)

// The decoders of nested values: pointers, slices and arrays from lists,
// maps and structs.

// ptrDec decodes the valid slots into one new backing array and points
// at its elements; null slots stay nil.
type ptrDec struct {
	elem decoder
	et   reflect.Type
}

func (d *ptrDec) decode(a array.Array, from, n int, base unsafe.Pointer, stride uintptr) error {
	valid := n - a.NullN()
	if a.NullN() > 0 {
		valid = 0
		for i := from; i < from+n; i++ {
			if a.IsValid(i) {
				valid++
			}
		}
	}
	if valid == 0 {
		return nil
	}
	size := d.et.Size()
	back := reflect.MakeSlice(reflect.SliceOf(d.et), valid, valid).UnsafePointer()
	k := 0
	return validRuns(a, from, n, func(s, e int) error {
		if err := d.elem.decode(a, s, e-s, at(back, size, k), size); err != nil {
			return err
		}
		for i := s; i < e; i++ {
			*(*unsafe.Pointer)(at(base, stride, i-from)) = at(back, size, k)
			k++
		}
		return nil
	})
}

// listDec decodes the elements of all the slots into one new backing
// array and slices it: null is nil, an empty list an empty non-nil slice.
type listDec struct {
	elem decoder
	et   reflect.Type
}

func (d *listDec) decode(a array.Array, from, n int, base unsafe.Pointer, stride uintptr) error {
	l, ok := a.(array.ListLike)
	if !ok {
		return wrongArray(a)
	}
	lo, hi := -1, 0
	for i := from; i < from+n; i++ {
		if l.IsNull(i) {
			continue
		}
		s, e := l.ValueOffsets(i)
		if e > s {
			if lo < 0 || s < lo {
				lo = s
			}
			hi = max(hi, e)
		}
	}
	size := d.et.Size()
	var back unsafe.Pointer
	if lo >= 0 {
		back = reflect.MakeSlice(reflect.SliceOf(d.et), hi-lo, hi-lo).UnsafePointer()
		if err := d.elem.decode(l.ListValues(), lo, hi-lo, back, size); err != nil {
			return err
		}
	}
	for i := range n {
		if l.IsNull(from + i) {
			continue
		}
		s, e := l.ValueOffsets(from + i)
		h := sliceHeader{data: unsafe.Pointer(&zeroBase), len: e - s, cap: e - s}
		if e > s {
			h.data = at(back, size, s-lo)
		}
		*(*sliceHeader)(at(base, stride, i)) = h
	}
	return nil
}

// arrayDec decodes fixed-size lists into [N]T values in place.
type arrayDec struct {
	elem  decoder
	esize uintptr
	size  int
}

func (d *arrayDec) decode(a array.Array, from, n int, base unsafe.Pointer, stride uintptr) error {
	l, ok := a.(*array.FixedSizeList)
	if !ok {
		return wrongArray(a)
	}
	start, _ := l.ValueOffsets(from)
	if stride == d.esize*uintptr(d.size) {
		return d.elem.decode(l.ListValues(), start, n*d.size, base, d.esize)
	}
	for i := range n {
		s, _ := l.ValueOffsets(from + i)
		if err := d.elem.decode(l.ListValues(), s, d.size, at(base, stride, i), d.esize); err != nil {
			return err
		}
	}
	return nil
}

// mapDec decodes keys and values into backing arrays, then fills each map
// with reflect.
type mapDec struct {
	t        reflect.Type
	key, val decoder
}

func (d *mapDec) decode(a array.Array, from, n int, base unsafe.Pointer, stride uintptr) error {
	m, ok := a.(*array.Map)
	if !ok {
		return wrongArray(a)
	}
	lo, hi := -1, 0
	for i := from; i < from+n; i++ {
		if s, e := m.ValueOffsets(i); !m.IsNull(i) && e > s {
			if lo < 0 {
				lo = s
			}
			hi = e
		}
	}
	kt, vt := d.t.Key(), d.t.Elem()
	var keys, vals unsafe.Pointer
	if lo >= 0 {
		keys = reflect.MakeSlice(reflect.SliceOf(kt), hi-lo, hi-lo).UnsafePointer()
		vals = reflect.MakeSlice(reflect.SliceOf(vt), hi-lo, hi-lo).UnsafePointer()
		if err := d.key.decode(m.Keys(), lo, hi-lo, keys, kt.Size()); err != nil {
			return err
		}
		if err := d.val.decode(m.Items(), lo, hi-lo, vals, vt.Size()); err != nil {
			return err
		}
	}
	for i := range n {
		if m.IsNull(from + i) {
			continue
		}
		s, e := m.ValueOffsets(from + i)
		mv := reflect.MakeMapWithSize(d.t, e-s)
		for j := s; j < e; j++ {
			mv.SetMapIndex(reflect.NewAt(kt, at(keys, kt.Size(), j-lo)).Elem(), reflect.NewAt(vt, at(vals, vt.Size(), j-lo)).Elem())
		}
		reflect.NewAt(d.t, at(base, stride, i)).Elem().Set(mv)
	}
	return nil
}

type structFieldDec struct {
	child int
	off   uintptr
	dec   decoder
}

// structDec decodes each field over all the slots at once.
type structDec struct{ fields []structFieldDec }

func (d *structDec) decode(a array.Array, from, n int, base unsafe.Pointer, stride uintptr) error {
	s, ok := a.(*array.Struct)
	if !ok {
		return wrongArray(a)
	}
	for _, f := range d.fields {
		if err := f.dec.decode(s.Field(f.child), from, n, unsafe.Add(base, f.off), stride); err != nil {
			return err
		}
	}
	return nil
}
