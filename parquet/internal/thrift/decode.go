package thrift

import (
	"fmt"
	"math"
	"reflect"
	"sync"
	"unsafe"
)

// Decoding works on the memory of the value decoded into, through a
// decoder made once per Go type from its reflected layout: a field is
// written at its offset, without a reflect.Value per field, and small
// values (optional scalars and strings, byte slices) are carved out of a
// few shared allocations rather than allocated one by one.

// kind is how a Go type is decoded.
type kind uint8

const (
	kBool kind = iota
	kInt8
	kUint8
	kInt16
	kInt32
	kInt64
	kFloat64
	kString
	kBytes
	kList
	kStruct
	kPointer
)

// decoder decodes values of one Go type.
type decoder struct {
	typ  reflect.Type
	kind kind
	wire byte     // see wireType
	elem *decoder // of a pointer's target or a list's elements
	// Structs: the fields by id (see structInfo).
	name   string
	fields []fieldDecoder
	byID   []int
}

// fieldDecoder decodes one tagged field of a struct.
type fieldDecoder struct {
	offset   uintptr
	id       int16
	required bool
	name     string
	dec      *decoder
}

var decoders sync.Map // reflect.Type -> *decoder

// decoderOf returns the decoder of Go type t.
func decoderOf(t reflect.Type) *decoder {
	if d, ok := decoders.Load(t); ok {
		return d.(*decoder)
	}
	d := makeDecoder(t, map[reflect.Type]*decoder{})
	actual, _ := decoders.LoadOrStore(t, d)
	return actual.(*decoder)
}

// makeDecoder makes the decoder of t; making holds those being made, so
// that a type that refers to itself gets its own decoder.
func makeDecoder(t reflect.Type, making map[reflect.Type]*decoder) *decoder {
	if d, ok := making[t]; ok {
		return d
	}
	d := &decoder{typ: t, wire: wireType(t)}
	making[t] = d
	switch t.Kind() {
	case reflect.Bool:
		d.kind = kBool
	case reflect.Int8:
		d.kind = kInt8
	case reflect.Uint8:
		d.kind = kUint8
	case reflect.Int16:
		d.kind = kInt16
	case reflect.Int32:
		d.kind = kInt32
	case reflect.Int64:
		d.kind = kInt64
	case reflect.Float64:
		d.kind = kFloat64
	case reflect.String:
		d.kind = kString
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			d.kind = kBytes
		} else {
			d.kind, d.elem = kList, makeDecoder(t.Elem(), making)
		}
	case reflect.Pointer:
		d.kind, d.elem = kPointer, makeDecoder(t.Elem(), making)
	case reflect.Struct:
		d.kind, d.name = kStruct, t.Name()
		si := info(t)
		d.byID = si.byID
		for _, fi := range si.fields {
			f := t.Field(fi.index)
			d.fields = append(d.fields, fieldDecoder{offset: f.Offset, id: fi.id, required: fi.required,
				name: fi.name, dec: makeDecoder(f.Type, making)})
		}
	}
	return d
}

// field is the index in d.fields of the field of id.
func (d *decoder) field(id int16) (int, bool) {
	if id < 0 || int(id) >= len(d.byID) || d.byID[id] == 0 {
		return 0, false
	}
	return d.byID[id] - 1, true
}

// Unmarshal decodes one compact-protocol struct from data into v, a
// pointer to a tagged struct, and returns the number of bytes it used.
// Fields of unknown ids are skipped; a known id with another wire type,
// or a missing required field, is an error.
func Unmarshal(data []byte, v any) (int, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct || rv.IsNil() {
		return 0, invalidf("Unmarshal needs a pointer to a struct, not %T", v)
	}
	r := &reader{buf: data}
	if err := r.readStruct(decoderOf(rv.Type().Elem()), rv.UnsafePointer(), 0); err != nil {
		return r.pos, err
	}
	return r.pos, nil
}

func (r *reader) readStruct(d *decoder, p unsafe.Pointer, depth int) error {
	if depth > maxDepth {
		return invalidf("nesting deeper than %d at byte %d", maxDepth, r.pos)
	}
	var seen uint64 // bit i: field i seen (first 64 fields)
	var last int16
	for {
		id, typ, err := r.fieldHeader(last)
		if err != nil {
			return err
		}
		if typ == typeStop {
			break
		}
		last = id
		i, ok := d.field(id)
		if !ok {
			if err := r.skip(typ, depth+1); err != nil {
				return err
			}
			continue
		}
		fd := &d.fields[i]
		if !compatible(fd.dec.wire, typ) {
			// Some writers reuse ids with other types: skip such a field,
			// as an unknown one (a required one is then reported missing).
			if err := r.skip(typ, depth+1); err != nil {
				return err
			}
			continue
		}
		if err := r.readValue(fd.dec, unsafe.Add(p, fd.offset), typ, depth+1); err != nil {
			return fmt.Errorf("%s.%s: %w", d.name, fd.name, err)
		}
		if i < 64 {
			seen |= 1 << i
		}
	}
	for i := range d.fields {
		if fd := &d.fields[i]; fd.required && i < 64 && seen&(1<<i) == 0 {
			return invalidf("%s: required field %s (id %d) missing", d.name, fd.name, fd.id)
		}
	}
	return nil
}

// readValue decodes a value of wire type typ into p, a value of d's type.
func (r *reader) readValue(d *decoder, p unsafe.Pointer, typ byte, depth int) error {
	if d.kind == kPointer {
		q := r.alloc(d.elem)
		if err := r.readValue(d.elem, q, typ, depth); err != nil {
			return err
		}
		*(*unsafe.Pointer)(p) = q
		return nil
	}
	if !compatible(d.wire, typ) {
		return invalidf("wire type %d where %d was expected at byte %d", typ, d.wire, r.pos)
	}
	switch d.kind {
	case kBool:
		*(*bool)(p) = typ == typeTrue
	case kInt8, kUint8:
		b, err := r.byte()
		if err != nil {
			return err
		}
		*(*uint8)(p) = b
	case kInt16, kInt32, kInt64:
		x, err := r.varint()
		if err != nil {
			return err
		}
		switch d.kind {
		case kInt16:
			if x < math.MinInt16 || x > math.MaxInt16 {
				return invalidf("integer %d overflows %s at byte %d", x, d.typ, r.pos)
			}
			*(*int16)(p) = int16(x)
		case kInt32:
			if x < math.MinInt32 || x > math.MaxInt32 {
				return invalidf("integer %d overflows %s at byte %d", x, d.typ, r.pos)
			}
			*(*int32)(p) = int32(x)
		default:
			*(*int64)(p) = x
		}
	case kFloat64:
		x, err := r.double()
		if err != nil {
			return err
		}
		*(*float64)(p) = x
	case kString:
		b, err := r.binary()
		if err != nil {
			return err
		}
		*(*string)(p) = r.string(b)
	case kBytes:
		b, err := r.binary()
		if err != nil {
			return err
		}
		*(*[]byte)(p) = r.bytes(b)
	case kList:
		return r.readList(d, p, depth)
	case kStruct:
		return r.readStruct(d, p, depth)
	}
	return nil
}

func (r *reader) readList(d *decoder, p unsafe.Pointer, depth int) error {
	if depth > maxDepth {
		return invalidf("nesting deeper than %d at byte %d", maxDepth, r.pos)
	}
	elem, n, err := r.listHeader()
	if err != nil {
		return err
	}
	ed := d.elem
	want := ed.wire
	if want == typeTrue && elem == typeFalse {
		elem = typeTrue
	}
	if n > 0 && elem != want {
		return invalidf("list of wire type %d where %d was expected at byte %d", elem, want, r.pos)
	}
	s := reflect.MakeSlice(d.typ, n, n)
	base, size := s.UnsafePointer(), ed.typ.Size()
	for i := range n {
		e := unsafe.Add(base, uintptr(i)*size)
		if want == typeTrue {
			b, err := r.byte()
			if err != nil {
				return err
			}
			if ed.kind == kPointer {
				q := r.alloc(ed.elem)
				*(*unsafe.Pointer)(e) = q
				e = q
			}
			*(*bool)(e) = b == typeTrue
			continue
		}
		if err := r.readValue(ed, e, elem, depth+1); err != nil {
			return fmt.Errorf("element %d: %w", i, err)
		}
	}
	*(*sliceHeader)(p) = sliceHeader{data: base, len: n, cap: n}
	return nil
}

// sliceHeader is the layout of a slice (see reflect.SliceHeader).
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// slabWords is the number of 8-byte words of the first block optional
// scalars are carved from; blockBytes that of the first block of strings
// and byte slices, and maxShared the longest of them carved out of a
// block (longer ones are allocated apart).
const (
	slabWords  = 16
	blockBytes = 256
	maxShared  = 128
)

// grown is the size of block n of those of first size first: doubling,
// up to 64 times the first.
func grown(first, n int) int { return first << min(n, 6) }

// alloc returns zeroed memory for a value of d's type, the target of an
// optional field or pointer list element.
func (r *reader) alloc(d *decoder) unsafe.Pointer {
	switch d.kind {
	case kBool, kInt8, kUint8, kInt16, kInt32, kInt64, kFloat64:
		if len(r.words) == 0 {
			r.words = make([]uint64, grown(slabWords, r.nWords))
			r.nWords++
		}
		p := unsafe.Pointer(&r.words[0])
		r.words = r.words[1:]
		return p
	case kString:
		if len(r.strs) == 0 {
			r.strs = make([]string, grown(slabWords, r.nStrs))
			r.nStrs++
		}
		p := unsafe.Pointer(&r.strs[0])
		r.strs = r.strs[1:]
		return p
	}
	return reflect.New(d.typ).UnsafePointer()
}

// shared copies b out of the input into a block of copies.
func (r *reader) shared(b []byte) []byte {
	if len(b) > maxShared {
		return append([]byte(nil), b...)
	}
	if cap(r.block)-len(r.block) < len(b) {
		r.block = make([]byte, 0, grown(blockBytes, r.nBlocks))
		r.nBlocks++
	}
	at := len(r.block)
	r.block = append(r.block, b...)
	return r.block[at:len(r.block):len(r.block)]
}

// string returns a copy of b as a string. Its bytes, in a shared block,
// are never written again: the block's other copies are other ranges.
func (r *reader) string(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > maxShared {
		return string(b)
	}
	c := r.shared(b)
	return unsafe.String(&c[0], len(c))
}

// bytes returns a copy of b, of its own capacity: appending to it does
// not write over other copies.
func (r *reader) bytes(b []byte) []byte {
	if len(b) == 0 {
		return []byte{}
	}
	return r.shared(b)
}
