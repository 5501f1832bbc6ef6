package gorecord

import (
	"fmt"
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
