package gorecord

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"
	"unsafe"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// decoder writes array slots to Go memory. Decoders are bound once per
// (Go type, column type) pair; decoding reads typed value slices and
// writes through unsafe pointers into freshly allocated (zeroed) memory,
// so a slot that is skipped keeps its zero value.
type decoder interface {
	// decode writes slots [from, from+n) of a to base, base+stride, …
	decode(a array.Array, from, n int, base unsafe.Pointer, stride uintptr) error
}

// zeroBase is where empty non-nil slices point.
var zeroBase [8]byte

type binder struct {
	zeroForNull bool
}

func mismatch(n *node, dt datatype.DataType) error {
	return fmt.Errorf("%w: type %s does not fit field %s of Go type %s", ErrMismatch, dt, n.path, n.t)
}

// bind returns the decoder of column type dt into n's Go type. Nulls are
// an error for Go types without nil, or left as zero values with
// WithZeroForNull.
func (bd *binder) bind(n *node, dt datatype.DataType) (decoder, error) {
	d, err := bd.bindRaw(n, dt)
	if err != nil {
		return nil, err
	}
	switch n.kind {
	case kPtr, kSlice, kMap, kBytes, kJSON:
		return d, nil // null is nil
	}
	return &nullGuard{inner: d, zero: bd.zeroForNull, n: n}, nil
}

// bindRaw is bind for callers that handle nulls themselves: the decoder
// may assume every slot it is given is valid, except for Go types with
// nil, whose decoders check.
func (bd *binder) bindRaw(n *node, dt datatype.DataType) (decoder, error) {
	if et, ok := dt.(datatype.ExtensionType); ok {
		if n.ext != nil && n.ext.ExtensionName() != et.ExtensionName() && n.kind != kPtr {
			return nil, fmt.Errorf("%w: extension %s does not fit field %s (Go type %s is stored as %s)",
				ErrMismatch, et.ExtensionName(), n.path, n.t, n.ext.ExtensionName())
		}
		inner, err := bd.bindRaw(n, et.StorageType())
		if err != nil {
			return nil, err
		}
		return &extDec{inner: inner}, nil
	}
	if dt, ok := dt.(*datatype.DictionaryType); ok {
		switch n.kind {
		case kFixed, kBool, kString, kBytes, kFixedBin, kTime, kDuration:
			inner, err := bd.bindRaw(n, dt.Value)
			if err != nil {
				return nil, err
			}
			return &dictDec{inner: inner, t: n.t, kind: n.kind}, nil
		}
	}
	switch n.kind {
	case kFixed:
		if !fixedFits(dt, n.value) {
			return nil, mismatch(n, dt)
		}
		if d := fixedDecoder(dt); d != nil {
			return d, nil
		}
	case kBool:
		if dt.Kind() == datatype.KindBool {
			return boolDec{}, nil
		}
	case kString:
		if dt.Kind().IsBinaryLike() {
			return stringDec{}, nil
		}
	case kBytes:
		if dt.Kind().IsBinaryLike() {
			return bytesDec{}, nil
		}
	case kFixedBin:
		if ft, ok := dt.(*datatype.FixedSizeBinaryType); ok && ft.ByteWidth == n.size {
			return fixedBinDec{size: n.size}, nil
		}
	case kTime:
		if tt, ok := dt.(*datatype.TimestampType); ok {
			return timeDec{unit: tt.Unit, loc: location(tt.TimeZone), path: n.path}, nil
		}
	case kDuration:
		if tt, ok := dt.(*datatype.DurationType); ok {
			return durationDec{mul: int64(time.Second) / tt.Unit.PerSecond(), unit: tt.Unit, path: n.path}, nil
		}
	case kJSON:
		if dt.Kind().IsBinaryLike() {
			return jsonDec{t: n.t, path: n.path}, nil
		}
	case kPtr:
		elem, err := bd.bindRaw(n.elem, dt)
		if err != nil {
			return nil, err
		}
		return &ptrDec{elem: elem, et: n.elem.t}, nil
	case kSlice:
		lt, ok := dt.(*datatype.ListType)
		if !ok {
			break
		}
		elem, err := bd.bind(n.elem, lt.Elem().Type)
		if err != nil {
			return nil, err
		}
		return &listDec{elem: elem, et: n.elem.t}, nil
	case kArray:
		lt, ok := dt.(*datatype.ListType)
		if !ok || lt.Kind() != datatype.KindFixedSizeList || int(lt.Size()) != n.size {
			break
		}
		elem, err := bd.bind(n.elem, lt.Elem().Type)
		if err != nil {
			return nil, err
		}
		return &arrayDec{elem: elem, esize: n.elem.t.Size(), size: n.size}, nil
	case kMap:
		mt, ok := dt.(*datatype.MapType)
		if !ok {
			break
		}
		key, err := bd.bind(n.key, mt.Key().Type)
		if err != nil {
			return nil, err
		}
		val, err := bd.bind(n.elem, mt.Item().Type)
		if err != nil {
			return nil, err
		}
		return &mapDec{t: n.t, key: key, val: val}, nil
	case kStruct:
		st, ok := dt.(*datatype.StructType)
		if !ok {
			break
		}
		return bd.bindStruct(n, st)
	}
	return nil, mismatch(n, dt)
}

// bindStruct matches the Go fields to the struct's children by name.
func (bd *binder) bindStruct(n *node, st *datatype.StructType) (decoder, error) {
	d := &structDec{}
	for _, f := range n.fields {
		ci := st.FieldIndex(f.name)
		if ci < 0 {
			return nil, fmt.Errorf("%w: struct %s has no child %q for field %s", ErrMismatch, st, f.name, f.node.path)
		}
		fd, err := bd.bind(f.node, st.Field(ci).Type)
		if err != nil {
			return nil, err
		}
		d.fields = append(d.fields, structFieldDec{child: ci, off: f.offset, dec: fd})
	}
	return d, nil
}

// fixedFits reports whether a column of type got can be read into Go
// values of the fixed-width type want: same kind, and for types whose
// values depend on a parameter, the same unit or scale.
func fixedFits(got, want datatype.DataType) bool {
	if got.Kind() != want.Kind() {
		return false
	}
	switch w := want.(type) {
	case *datatype.TimestampType:
		return got.(*datatype.TimestampType).Unit == w.Unit
	case *datatype.DurationType:
		return got.(*datatype.DurationType).Unit == w.Unit
	case *datatype.TimeType:
		return got.(*datatype.TimeType).Unit == w.Unit
	case *datatype.DecimalType:
		return got.(*datatype.DecimalType).Scale == w.Scale
	}
	return true
}

// location maps a timestamp's time zone to a location: UTC for "" and
// "UTC", a fixed zone for "+hh:mm"/"-hh:mm", else the IANA zone, falling
// back to UTC when it cannot be loaded (the instant stays right).
func location(tz string) *time.Location {
	switch tz {
	case "", "UTC", "Z", "Etc/UTC":
		return time.UTC
	}
	if len(tz) == 6 && (tz[0] == '+' || tz[0] == '-') && tz[3] == ':' {
		h, err1 := strconv.Atoi(tz[1:3])
		m, err2 := strconv.Atoi(tz[4:6])
		if err1 == nil && err2 == nil {
			off := h*3600 + m*60
			if tz[0] == '-' {
				off = -off
			}
			return time.FixedZone(tz, off)
		}
	}
	if loc, err := time.LoadLocation(tz); err == nil {
		return loc
	}
	return time.UTC
}

// validRuns calls f for each maximal run [s, e) of valid slots within
// [from, from+n).
func validRuns(a array.Array, from, n int, f func(s, e int) error) error {
	if a.NullN() == 0 {
		return f(from, from+n)
	}
	end := from + n
	for i := from; i < end; {
		for i < end && a.IsNull(i) {
			i++
		}
		s := i
		for i < end && !a.IsNull(i) {
			i++
		}
		if s < i {
			if err := f(s, i); err != nil {
				return err
			}
		}
	}
	return nil
}

// nullGuard applies the null policy for Go types without nil: an error,
// or with WithZeroForNull, skipping the null slots (left zero).
type nullGuard struct {
	inner decoder
	zero  bool
	n     *node
}

func (g *nullGuard) decode(a array.Array, from, n int, base unsafe.Pointer, stride uintptr) error {
	if a.NullN() == 0 {
		return g.inner.decode(a, from, n, base, stride)
	}
	if !g.zero {
		for i := from; i < from+n; i++ {
			if a.IsNull(i) {
				return fmt.Errorf("%w: slot %d of field %s is null but Go type %s has no nil (use a pointer, or WithZeroForNull)",
					ErrNull, i, g.n.path, g.n.t)
			}
		}
		return g.inner.decode(a, from, n, base, stride)
	}
	return validRuns(a, from, n, func(s, e int) error {
		return g.inner.decode(a, s, e-s, at(base, stride, s-from), stride)
	})
}

type extDec struct{ inner decoder }

func (d *extDec) decode(a array.Array, from, n int, base unsafe.Pointer, stride uintptr) error {
	if e, ok := a.(*array.Extension); ok {
		a = e.Storage()
	}
	return d.inner.decode(a, from, n, base, stride)
}

func wrongArray(a array.Array) error {
	return fmt.Errorf("gorecord: internal error: unexpected array %T of %s", a, a.DataType())
}

func fixedDecoder(dt datatype.DataType) decoder {
	switch dt.Kind() {
	case datatype.KindInt8:
		return fixedDec[int8]{}
	case datatype.KindInt16:
		return fixedDec[int16]{}
	case datatype.KindInt32:
		return fixedDec[int32]{}
	case datatype.KindInt64:
		return fixedDec[int64]{}
	case datatype.KindUint8:
		return fixedDec[uint8]{}
	case datatype.KindUint16:
		return fixedDec[uint16]{}
	case datatype.KindUint32:
		return fixedDec[uint32]{}
	case datatype.KindUint64:
		return fixedDec[uint64]{}
	case datatype.KindFloat16:
		return fixedDec[datatype.Float16]{}
	case datatype.KindFloat32:
		return fixedDec[float32]{}
	case datatype.KindFloat64:
		return fixedDec[float64]{}
	case datatype.KindDecimal32:
		return fixedDec[datatype.Decimal32]{}
	case datatype.KindDecimal64:
		return fixedDec[datatype.Decimal64]{}
	case datatype.KindDecimal128:
		return fixedDec[datatype.Decimal128]{}
	case datatype.KindDecimal256:
		return fixedDec[datatype.Decimal256]{}
	case datatype.KindDate32:
		return fixedDec[datatype.Date32]{}
	case datatype.KindDate64:
		return fixedDec[datatype.Date64]{}
	case datatype.KindTime32:
		return fixedDec[datatype.Time32]{}
	case datatype.KindTime64:
		return fixedDec[datatype.Time64]{}
	case datatype.KindTimestamp:
		return fixedDec[datatype.Timestamp]{}
	case datatype.KindDuration:
		return fixedDec[datatype.Duration]{}
	case datatype.KindMonthInterval:
		return fixedDec[datatype.MonthInterval]{}
	case datatype.KindDayTimeInterval:
		return fixedDec[datatype.DayTimeInterval]{}
	case datatype.KindMonthDayNanoInterval:
		return fixedDec[datatype.MonthDayNanoInterval]{}
	}
	return nil
}

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
