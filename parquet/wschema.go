package parquet

import (
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// wleaf is a leaf column to write: its physical type, and the function
// that turns the leaf's values into physical values.
type wleaf struct {
	path   []string
	phys   format.Type
	width  int // FIXED_LEN_BYTE_ARRAY length; physical width of fixed types
	signed bool
	vtype  datatype.DataType // the Alkaid type of the values
}

// schemaBuilder flattens Alkaid fields into Parquet schema elements.
type schemaBuilder struct {
	elems     []format.SchemaElement
	leaves    []*wleaf
	maxLeaves int
}

func repOf(nullable bool) format.Repetition {
	if nullable {
		return format.Optional
	}
	return format.Required
}

// add appends the elements of field f with repetition rep.
func (b *schemaBuilder) add(f datatype.Field, rep format.Repetition, path []string) error {
	path = append(append([]string(nil), path...), f.Name)
	t := f.Type
	if dt, ok := t.(*datatype.DictionaryType); ok {
		t = dt.Value
	}
	if rt, ok := t.(*datatype.RunEndEncodedType); ok {
		t = rt.Values().Type
	}
	var logical *format.LogicalType // of the extension types Parquet annotates
	if et, ok := t.(datatype.ExtensionType); ok {
		if et.ExtensionName() == extension.UUIDName && datatype.ByteWidth(et.StorageType()) == 16 {
			logical = &format.LogicalType{UUID: &format.Empty{}}
		}
		t = et.StorageType()
	}
	if dt, ok := t.(*datatype.DictionaryType); ok {
		t = dt.Value
	}
	switch tt := t.(type) {
	case *datatype.StructType:
		if tt.NumFields() == 0 {
			return unsupportedf("field %q: struct without fields", pathString(path))
		}
		b.elems = append(b.elems, format.SchemaElement{Name: f.Name, RepetitionType: ptr(rep), NumChildren: ptr(int32(tt.NumFields()))})
		for _, c := range tt.Fields() {
			if err := b.add(c, repOf(c.Nullable), path); err != nil {
				return err
			}
		}
		return nil
	case *datatype.ListType:
		b.elems = append(b.elems,
			format.SchemaElement{Name: f.Name, RepetitionType: ptr(rep), NumChildren: ptr(int32(1)),
				ConvertedType: ptr(format.List), LogicalType: &format.LogicalType{List: &format.Empty{}}},
			format.SchemaElement{Name: "list", RepetitionType: ptr(format.Repeated), NumChildren: ptr(int32(1))})
		e := tt.Elem()
		e.Name = "element"
		return b.add(e, repOf(e.Nullable), append(path, "list"))
	case *datatype.MapType:
		b.elems = append(b.elems,
			format.SchemaElement{Name: f.Name, RepetitionType: ptr(rep), NumChildren: ptr(int32(1)),
				ConvertedType: ptr(format.Map), LogicalType: &format.LogicalType{Map: &format.Empty{}}},
			format.SchemaElement{Name: "key_value", RepetitionType: ptr(format.Repeated), NumChildren: ptr(int32(2))})
		k, v := tt.Key(), tt.Item()
		k.Name, v.Name = "key", "value"
		if err := b.add(k, format.Required, append(path, "key_value")); err != nil {
			return err
		}
		return b.add(v, repOf(v.Nullable), append(path, "key_value"))
	}
	e := format.SchemaElement{Name: f.Name, RepetitionType: ptr(rep)}
	l := &wleaf{path: path, vtype: t}
	if err := leafElement(t, &e, l); err != nil {
		return unsupportedf("field %q: %v", pathString(path), err)
	}
	if logical != nil {
		e.LogicalType = logical
	}
	if len(b.leaves) >= b.maxLeaves {
		return limitf("field %q: more than %d leaf columns", pathString(path), b.maxLeaves)
	}
	b.elems = append(b.elems, e)
	b.leaves = append(b.leaves, l)
	return nil
}

// leafElement fills the physical and logical type of a leaf. Fixed-width
// types without a Parquet annotation are stored as their raw bytes
// (INT32, INT64 or FIXED_LEN_BYTE_ARRAY); the ARROW:schema key restores
// them on reading.
func leafElement(t datatype.DataType, e *format.SchemaElement, l *wleaf) error {
	set := func(p format.Type, lt *format.LogicalType) {
		e.Type, e.LogicalType, l.phys = ptr(p), lt, p
		switch p {
		case format.Int32:
			l.width = 4
		case format.Int64:
			l.width = 8
		case format.Float:
			l.width = 4
		case format.Double:
			l.width = 8
		}
	}
	// Integers carry the legacy converted type beside the logical one:
	// readers that know only converted types (DuckDB among them) would
	// otherwise read unsigned columns as signed.
	intLT := func(bits int8, signed bool) *format.LogicalType {
		c := map[int8]format.ConvertedType{8: format.Int8, 16: format.Int16, 32: format.Int32C, 64: format.Int64C}[bits]
		if !signed {
			c = map[int8]format.ConvertedType{8: format.Uint8, 16: format.Uint16, 32: format.Uint32, 64: format.Uint64}[bits]
		}
		e.ConvertedType = ptr(c)
		return &format.LogicalType{Integer: &format.IntType{BitWidth: bits, IsSigned: signed}}
	}
	switch k := t.Kind(); k {
	case datatype.KindBool:
		set(format.Boolean, nil)
	case datatype.KindInt8, datatype.KindInt16, datatype.KindInt32:
		set(format.Int32, intLT(int8(8*datatype.ByteWidth(t)), true))
		l.signed = true
	case datatype.KindUint8, datatype.KindUint16, datatype.KindUint32:
		set(format.Int32, intLT(int8(8*datatype.ByteWidth(t)), false))
	case datatype.KindInt64:
		set(format.Int64, intLT(64, true))
		l.signed = true
	case datatype.KindUint64:
		set(format.Int64, intLT(64, false))
	case datatype.KindFloat32:
		set(format.Float, nil)
	case datatype.KindFloat64:
		set(format.Double, nil)
	case datatype.KindFloat16:
		set(format.FixedLenByteArray, &format.LogicalType{Float16: &format.Empty{}})
		l.width, e.TypeLength = 2, ptr(int32(2))
	case datatype.KindDate32:
		set(format.Int32, &format.LogicalType{Date: &format.Empty{}})
		// DuckDB reads a date without the legacy annotation as INTEGER.
		e.ConvertedType = ptr(format.Date)
		l.signed = true
	case datatype.KindTime32, datatype.KindTime64:
		u := t.(*datatype.TimeType).Unit
		if u == datatype.Second {
			// As Arrow does: milliseconds, restored by the stored schema.
			u = datatype.Millisecond
		}
		p := format.Int64
		if k == datatype.KindTime32 {
			p = format.Int32
		}
		set(p, &format.LogicalType{Time: &format.TimeType{IsAdjustedToUTC: true, Unit: unitOf(u)}})
		l.signed = true
	case datatype.KindTimestamp:
		ts := t.(*datatype.TimestampType)
		if ts.Unit == datatype.Second {
			// Seconds do not always fit milliseconds: stored raw, restored
			// by the stored schema.
			set(format.Int64, nil)
			break
		}
		set(format.Int64, &format.LogicalType{Timestamp: &format.TimeType{IsAdjustedToUTC: ts.TimeZone != "", Unit: unitOf(ts.Unit)}})
		l.signed = true
	case datatype.KindDecimal32, datatype.KindDecimal64, datatype.KindDecimal128, datatype.KindDecimal256:
		d := t.(*datatype.DecimalType)
		lt := &format.LogicalType{Decimal: &format.DecimalType{Precision: d.Precision, Scale: d.Scale}}
		e.Precision, e.Scale, e.ConvertedType = ptr(d.Precision), ptr(d.Scale), ptr(format.Decimal)
		switch k {
		case datatype.KindDecimal32:
			set(format.Int32, lt)
		case datatype.KindDecimal64:
			set(format.Int64, lt)
		default:
			w := d.BitWidth / 8
			set(format.FixedLenByteArray, lt)
			l.width, e.TypeLength = w, ptr(int32(w))
		}
	case datatype.KindString, datatype.KindLargeString, datatype.KindStringView:
		set(format.ByteArray, &format.LogicalType{String: &format.Empty{}})
		e.ConvertedType = ptr(format.UTF8)
	case datatype.KindBinary, datatype.KindLargeBinary, datatype.KindBinaryView:
		set(format.ByteArray, nil)
	case datatype.KindFixedSizeBinary:
		w := datatype.ByteWidth(t)
		set(format.FixedLenByteArray, nil)
		l.width, e.TypeLength = w, ptr(int32(w))
	case datatype.KindDate64:
		// As Arrow does: days, restored by the stored schema.
		set(format.Int32, &format.LogicalType{Date: &format.Empty{}})
		l.signed = true
	case datatype.KindDuration, datatype.KindMonthInterval, datatype.KindDayTimeInterval, datatype.KindMonthDayNanoInterval:
		switch w := datatype.ByteWidth(t); w {
		case 4:
			set(format.Int32, nil)
		case 8:
			set(format.Int64, nil)
		default:
			set(format.FixedLenByteArray, nil)
			l.width, e.TypeLength = w, ptr(int32(w))
		}
		l.signed = true
	case datatype.KindNull:
		// As Arrow does: an optional INT32 of no value, annotated
		// UNKNOWN (always null).
		set(format.Int32, &format.LogicalType{Unknown: &format.Empty{}})
		e.RepetitionType = ptr(format.Optional)
	default:
		return unsupportedf("type %s has no Parquet representation", t)
	}
	return nil
}

func unitOf(u datatype.TimeUnit) format.TimeUnit {
	switch u {
	case datatype.Millisecond:
		return format.TimeUnit{Millis: &format.Empty{}}
	case datatype.Microsecond:
		return format.TimeUnit{Micros: &format.Empty{}}
	}
	return format.TimeUnit{Nanos: &format.Empty{}}
}

// sortingColumns resolves the sorting columns' paths to leaf indices.
func sortingColumns(cols []SortingColumn, leaves []*wleaf) ([]format.SortingColumn, error) {
	var out []format.SortingColumn
	for _, c := range cols {
		idx := -1
		for i, l := range leaves {
			if pathString(l.path) == c.Path {
				idx = i
				break
			}
		}
		if idx < 0 {
			return nil, invalidf("WithSortingColumns: column %q: no such leaf column", c.Path)
		}
		out = append(out, format.SortingColumn{ColumnIdx: int32(idx), Descending: c.Descending, NullsFirst: c.NullsFirst})
	}
	return out, nil
}
