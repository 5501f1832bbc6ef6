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

// The decoders of leaf values: numbers, booleans, strings and bytes,
// times, durations, json fields and dictionary-encoded values.

type fixedDec[T array.FixedWidth] struct{}

func (fixedDec[T]) decode(a array.Array, from, n int, base unsafe.Pointer, stride uintptr) error {
	p, ok := a.(*array.Primitive[T])
	if !ok {
		return wrongArray(a)
	}
	vals := p.Values()[from : from+n]
	var zero T
	if stride == unsafe.Sizeof(zero) {
		copy(unsafe.Slice((*T)(base), n), vals)
		return nil
	}
	for i, v := range vals {
		*(*T)(at(base, stride, i)) = v
	}
	return nil
}

type boolDec struct{}

func (boolDec) decode(a array.Array, from, n int, base unsafe.Pointer, stride uintptr) error {
	b, ok := a.(*array.Boolean)
	if !ok {
		return wrongArray(a)
	}
	for i := range n {
		*(*bool)(at(base, stride, i)) = b.Value(from + i)
	}
	return nil
}

// binaryValues returns a function giving slot i of a binary-like array,
// and the total size of slots [from, from+n).
func binaryValues(a array.Array, from, n int) (func(int) []byte, int, error) {
	switch b := a.(type) {
	case *array.Binary[int32]:
		o := b.Offsets()
		return b.Value, int(o[from+n] - o[from]), nil
	case *array.Binary[int64]:
		o := b.Offsets()
		return b.Value, int(o[from+n] - o[from]), nil
	case *array.BinaryView:
		total := 0
		for i := from; i < from+n; i++ {
			total += b.ValueLen(i)
		}
		return b.Value, total, nil
	}
	return nil, 0, wrongArray(a)
}

// stringDec copies the slots' bytes into one allocation and points every
// string into it.
type stringDec struct{}

func (stringDec) decode(a array.Array, from, n int, base unsafe.Pointer, stride uintptr) error {
	value, total, err := binaryValues(a, from, n)
	if err != nil {
		return err
	}
	buf := make([]byte, 0, total)
	for i := range n {
		v := value(from + i)
		if len(v) == 0 {
			continue
		}
		s := len(buf)
		buf = append(buf, v...)
		*(*string)(at(base, stride, i)) = unsafe.String(&buf[s], len(v))
	}
	return nil
}

// bytesDec is stringDec for []byte: null is nil, an empty value is an
// empty non-nil slice, and each slice's capacity ends at its length.
type bytesDec struct{}

func (bytesDec) decode(a array.Array, from, n int, base unsafe.Pointer, stride uintptr) error {
	value, total, err := binaryValues(a, from, n)
	if err != nil {
		return err
	}
	buf := make([]byte, 0, total)
	for i := range n {
		if a.IsNull(from + i) {
			continue
		}
		v := value(from + i)
		dst := (*[]byte)(at(base, stride, i))
		if len(v) == 0 {
			*dst = unsafe.Slice(&zeroBase[0], 0)
			continue
		}
		s := len(buf)
		buf = append(buf, v...)
		*dst = buf[s:len(buf):len(buf)]
	}
	return nil
}

type fixedBinDec struct{ size int }

func (d fixedBinDec) decode(a array.Array, from, n int, base unsafe.Pointer, stride uintptr) error {
	b, ok := a.(*array.FixedSizeBinary)
	if !ok {
		return wrongArray(a)
	}
	for i := range n {
		copy(unsafe.Slice((*byte)(at(base, stride, i)), d.size), b.Value(from+i))
	}
	return nil
}

type timeDec struct {
	unit datatype.TimeUnit
	loc  *time.Location
	path string
}

func (d timeDec) decode(a array.Array, from, n int, base unsafe.Pointer, stride uintptr) error {
	p, ok := a.(*array.Primitive[datatype.Timestamp])
	if !ok {
		return wrongArray(a)
	}
	for i, v := range p.Values()[from : from+n] {
		if !v.InTimeRange(d.unit) && a.IsValid(from+i) {
			return fmt.Errorf("%w: slot %d of field %s: %d s since 1970 is past the last time.Time", ErrRange, from+i, d.path, v)
		}
		t := v.Time(d.unit)
		if d.loc != time.UTC {
			t = t.In(d.loc)
		}
		*(*time.Time)(at(base, stride, i)) = t
	}
	return nil
}

type durationDec struct {
	mul  int64 // nanoseconds per unit
	unit datatype.TimeUnit
	path string
}

func (d durationDec) decode(a array.Array, from, n int, base unsafe.Pointer, stride uintptr) error {
	p, ok := a.(*array.Primitive[datatype.Duration])
	if !ok {
		return wrongArray(a)
	}
	lo, hi := int64(math.MinInt64)/d.mul, int64(math.MaxInt64)/d.mul
	for i, v := range p.Values()[from : from+n] {
		if (int64(v) < lo || int64(v) > hi) && a.IsValid(from+i) {
			// A null slot's value is arbitrary; a valid one must fit.
			return fmt.Errorf("%w: slot %d of field %s: %d %s overflows time.Duration (about 292 years)", ErrRange, from+i, d.path, v, d.unit)
		}
		*(*time.Duration)(at(base, stride, i)) = time.Duration(int64(v) * d.mul)
	}
	return nil
}

type jsonDec struct {
	t    reflect.Type
	path string
}

func (d jsonDec) decode(a array.Array, from, n int, base unsafe.Pointer, stride uintptr) error {
	value, _, err := binaryValues(a, from, n)
	if err != nil {
		return err
	}
	for i := range n {
		if a.IsNull(from + i) {
			continue
		}
		if err := json.Unmarshal(value(from+i), reflect.NewAt(d.t, at(base, stride, i)).Interface()); err != nil {
			return fmt.Errorf("%w: slot %d of field %s: %v", ErrMismatch, from+i, d.path, err)
		}
	}
	return nil
}

// dictDec decodes the dictionary once into Go values and copies the one
// each index selects.
type dictDec struct {
	inner decoder
	t     reflect.Type
	kind  kind
}

func (d *dictDec) decode(a array.Array, from, n int, base unsafe.Pointer, stride uintptr) error {
	da, ok := a.(*array.Dictionary)
	if !ok {
		return wrongArray(a)
	}
	dict := da.Dictionary()
	size := d.t.Size()
	vals := reflect.MakeSlice(reflect.SliceOf(d.t), dict.Len(), dict.Len()).UnsafePointer()
	err := validRuns(dict, 0, dict.Len(), func(s, e int) error {
		return d.inner.decode(dict, s, e-s, at(vals, size, s), size)
	})
	if err != nil {
		return err
	}
	for i := range n {
		if da.IsNull(from + i) {
			continue
		}
		src, dst := at(vals, size, da.ValueIndex(from+i)), at(base, stride, i)
		switch d.kind {
		case kString:
			*(*string)(dst) = *(*string)(src)
		case kBytes:
			if v := *(*[]byte)(src); v != nil {
				*(*[]byte)(dst) = append(unsafe.Slice(&zeroBase[0], 0), v...)
			}
		default: // pointer-free values
			copy(unsafe.Slice((*byte)(dst), size), unsafe.Slice((*byte)(src), size))
		}
	}
	return nil
}
