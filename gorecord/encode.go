package gorecord

import (
	"fmt"
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
