package parquet

import (
	"encoding/binary"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// restorable reports whether a type stored in the ARROW:schema key can
// replace the type read from the Parquet schema: the same shape, with
// leaves whose values convert (the same fixed width, or byte strings of
// another offset width or a view layout), dictionary, run-end encoded
// and extension types over such leaves, and any list layout over a list.
func restorable(stored, read datatype.DataType) bool {
	if datatype.Equal(stored, read) {
		return true
	}
	if r, ok := read.(datatype.ExtensionType); ok {
		// A logical type read as an extension (UUID) that the writer
		// stored as its storage type.
		return restorable(stored, r.StorageType())
	}
	switch s := stored.(type) {
	case *datatype.DictionaryType:
		return restorable(s.Value, read)
	case *datatype.RunEndEncodedType:
		return restorable(s.Values().Type, read)
	case datatype.ExtensionType:
		return restorable(s.StorageType(), read)
	case *datatype.ListType:
		r, ok := read.(*datatype.ListType)
		return ok && r.Kind() == datatype.KindList && restorableField(s.Elem(), r.Elem())
	case *datatype.StructType:
		r, ok := read.(*datatype.StructType)
		if !ok || r.NumFields() != s.NumFields() {
			return false
		}
		for i := range s.NumFields() {
			if !restorableField(s.Field(i), r.Field(i)) {
				return false
			}
		}
		return true
	case *datatype.MapType:
		r, ok := read.(*datatype.MapType)
		return ok && restorableField(s.Key(), r.Key()) && restorableField(s.Item(), r.Item())
	}
	sk, rk := stored.Kind(), read.Kind()
	if f := secondsFactor(stored); f != 0 {
		// Written in days or milliseconds, as Alkaid and Arrow C++ do, or
		// as plain integers of the stored unit, as arrow-rs does.
		return (sk == datatype.KindDate64 && (rk == datatype.KindDate32 || rk == datatype.KindInt64)) ||
			(sk == datatype.KindTime32 && (rk == datatype.KindTime32 || rk == datatype.KindInt32))
	}
	if isParquetInterval(read) {
		// Parquet's INTERVAL, as arrow-rs writes month and day-time
		// intervals.
		return sk == datatype.KindMonthInterval || sk == datatype.KindDayTimeInterval
	}
	switch {
	case sk == datatype.KindLargeString || sk == datatype.KindStringView:
		return rk == datatype.KindString
	case sk == datatype.KindLargeBinary || sk == datatype.KindBinaryView:
		return rk == datatype.KindBinary
	case sk == datatype.KindBool || rk == datatype.KindBool:
		return false
	}
	w := datatype.ByteWidth(stored)
	if w == 0 || w != datatype.ByteWidth(read) {
		return false
	}
	return sk == rk || rk == datatype.KindInt32 || rk == datatype.KindInt64 || rk == datatype.KindFixedSizeBinary
}

func restorableField(s, r datatype.Field) bool {
	return s.Nullable == r.Nullable && restorable(s.Type, r.Type)
}

// convertLeaf gives the leaf values a the type t that restorable allowed.
func convertLeaf(a array.Array, t datatype.DataType) (array.Array, error) {
	k := t.Kind()
	if et, ok := t.(datatype.ExtensionType); ok {
		k = et.StorageType().Kind()
	}
	switch k {
	case datatype.KindNull:
		// A column annotated UNKNOWN: its values (none, when the file is
		// right) are nulls.
		return makeArray(t, a.Len())
	case datatype.KindLargeString, datatype.KindStringView, datatype.KindLargeBinary, datatype.KindBinaryView:
		src, ok := a.(*array.Binary[int32])
		if !ok {
			break
		}
		st := t
		if et, ok := t.(datatype.ExtensionType); ok {
			st = et.StorageType()
		}
		b := array.NewBuilder(st)
		app, ok := b.(interface{ Append([]byte) })
		if !ok {
			return nil, unsupportedf("no byte appender for %s", st)
		}
		b.Reserve(src.Len())
		for i := range src.Len() {
			app.Append(src.Value(i))
		}
		out := b.NewArray()
		if st == t {
			return out, nil
		}
		a = out
	}
	if rk := a.DataType().Kind(); isParquetInterval(a.DataType()) && (k == datatype.KindMonthInterval || k == datatype.KindDayTimeInterval) {
		return intervalLeaf(a, t)
	} else if f := secondsFactor(t); f != 0 && rk != datatype.KindInt32 && rk != datatype.KindInt64 {
		raw, w, ok := array.FixedWidthBytes(a)
		if !ok {
			return nil, unsupportedf("values of %T for %s", a, t)
		}
		ow := datatype.ByteWidth(t)
		out := make([]byte, a.Len()*ow)
		for i := range a.Len() {
			var x int64
			if w == 4 {
				x = int64(int32(binary.LittleEndian.Uint32(raw[4*i:])))
			} else {
				x = int64(binary.LittleEndian.Uint64(raw[8*i:]))
			}
			if f > 0 {
				x /= f
			} else {
				x *= -f
			}
			if ow == 4 {
				binary.LittleEndian.PutUint32(out[4*i:], uint32(x))
			} else {
				binary.LittleEndian.PutUint64(out[8*i:], uint64(x))
			}
		}
		return makeArray(t, a.Len(), nil, memory.NewBuffer(out))
	}
	d := *a.Data()
	d.Type = t
	v, err := array.Make(&d)
	if err != nil {
		return nil, invalidf("%v", err)
	}
	return v, nil
}

// isParquetInterval reports whether t is the type Parquet's INTERVAL is
// read as: 12 bytes, the months, days and milliseconds as little-endian
// 32-bit integers.
func isParquetInterval(t datatype.DataType) bool {
	fb, ok := t.(*datatype.FixedSizeBinaryType)
	return ok && fb.ByteWidth == 12
}

// intervalLeaf takes the months (a month interval) or the days and
// milliseconds (a day-time interval) of Parquet INTERVAL values.
func intervalLeaf(a array.Array, t datatype.DataType) (array.Array, error) {
	raw, _, ok := array.FixedWidthBytes(a)
	if !ok {
		return nil, unsupportedf("values of %T for %s", a, t)
	}
	from, w := 0, 4 // the months
	if t.Kind() == datatype.KindDayTimeInterval {
		from, w = 4, 8 // the days, then the milliseconds
	}
	out := make([]byte, a.Len()*w)
	for i := range a.Len() {
		copy(out[i*w:(i+1)*w], raw[12*i+from:])
	}
	return makeArray(t, a.Len(), nil, memory.NewBuffer(out))
}
