package thrift

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// fieldInfo describes one tagged struct field.
type fieldInfo struct {
	index    int
	id       int16
	required bool
	name     string
	wire     byte // the compact type code of the field's Go type
}

// structInfo lists the tagged fields of a struct type, by id.
type structInfo struct {
	fields []fieldInfo
	// byID[id] is 1 + the index in fields of the field of that id, 0 for
	// none (ids are small: a table, not a map, looked up per field read).
	byID []int
}

var infoCache sync.Map // reflect.Type -> *structInfo

// info returns the field table of struct type t. A malformed tag is a
// programmer error in this module's own types and panics.
func info(t reflect.Type) *structInfo {
	if v, ok := infoCache.Load(t); ok {
		return v.(*structInfo)
	}
	si := &structInfo{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag, ok := f.Tag.Lookup("thrift")
		if !ok {
			continue
		}
		parts := strings.Split(tag, ",")
		id, err := strconv.Atoi(parts[0])
		if err != nil || id <= 0 || id > math.MaxInt16 {
			panic(fmt.Sprintf("thrift: bad tag %q on %s.%s", tag, t.Name(), f.Name))
		}
		fi := fieldInfo{index: i, id: int16(id), name: f.Name, wire: wireType(f.Type)}
		fi.required = len(parts) > 1 && parts[1] == "required"
		for len(si.byID) <= id {
			si.byID = append(si.byID, 0)
		}
		si.byID[id] = len(si.fields) + 1
		si.fields = append(si.fields, fi)
	}
	infoCache.Store(t, si)
	return si
}

// compatible reports whether a field written as wire type w (see
// wireType) can hold wire type typ.
func compatible(w, typ byte) bool {
	return w == typ || (w == typeTrue && typ == typeFalse) || (w == typeList && typ == typeSet)
}

// wireType is the compact type code that a Go type is written as.
func wireType(t reflect.Type) byte {
	switch t.Kind() {
	case reflect.Bool:
		return typeTrue
	case reflect.Int8, reflect.Uint8:
		return typeByte
	case reflect.Int16:
		return typeI16
	case reflect.Int32:
		return typeI32
	case reflect.Int64:
		return typeI64
	case reflect.Float64:
		return typeDouble
	case reflect.String:
		return typeBinary
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return typeBinary
		}
		return typeList
	case reflect.Struct:
		return typeStruct
	case reflect.Pointer:
		return wireType(t.Elem())
	}
	panic("thrift: unsupported Go type " + t.String())
}

// Marshal appends the compact-protocol encoding of v, a tagged struct or
// a pointer to one, to dst. Nil pointers and nil slices of optional
// fields are left out.
func Marshal(dst []byte, v any) []byte {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	w := &writer{buf: dst}
	w.writeStruct(rv)
	return w.buf
}

func (w *writer) writeStruct(v reflect.Value) {
	si := info(v.Type())
	var last int16
	for _, fi := range si.fields {
		f := v.Field(fi.index)
		if f.Kind() == reflect.Pointer && f.IsNil() {
			continue
		}
		if f.Kind() == reflect.Slice && f.IsNil() && !fi.required {
			continue
		}
		if f.Kind() == reflect.Pointer {
			f = f.Elem()
		}
		typ := wireType(f.Type())
		if typ == typeTrue && !f.Bool() {
			typ = typeFalse
		}
		w.fieldHeader(last, fi.id, typ)
		last = fi.id
		if typ != typeTrue && typ != typeFalse {
			w.writeValue(f)
		}
	}
	w.buf = append(w.buf, typeStop)
}

func (w *writer) writeValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		w.writeValue(v.Elem())
	case reflect.Bool:
		if v.Bool() {
			w.buf = append(w.buf, typeTrue)
		} else {
			w.buf = append(w.buf, typeFalse)
		}
	case reflect.Int8:
		w.buf = append(w.buf, byte(v.Int()))
	case reflect.Uint8:
		w.buf = append(w.buf, byte(v.Uint()))
	case reflect.Int16, reflect.Int32, reflect.Int64:
		w.varint(v.Int())
	case reflect.Float64:
		w.buf = append(w.buf, make([]byte, 8)...)
		putFloat(w.buf[len(w.buf)-8:], v.Float())
	case reflect.String:
		w.uvarint(uint64(v.Len()))
		w.buf = append(w.buf, v.String()...)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			w.binary(v.Bytes())
			return
		}
		w.listHeader(wireType(v.Type().Elem()), v.Len())
		for i := range v.Len() {
			w.writeValue(v.Index(i))
		}
	case reflect.Struct:
		w.writeStruct(v)
	}
}

func putFloat(b []byte, f float64) {
	u := math.Float64bits(f)
	for i := range 8 {
		b[i] = byte(u >> (8 * i))
	}
}
