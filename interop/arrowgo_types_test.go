package interop

import (
	"fmt"

	aarrow "github.com/apache/arrow-go/v18/arrow"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

// arrowGoSchema is the arrow-go schema of an Alkaid schema, field names,
// nullability and metadata included.
func arrowGoSchema(s *alkaid.Schema) *aarrow.Schema {
	fields := make([]aarrow.Field, s.NumFields())
	for i := range fields {
		fields[i] = arrowGoField(s.Field(i))
	}
	md := arrowGoMetadata(s.Metadata())
	return aarrow.NewSchema(fields, &md)
}

func arrowGoMetadata(m datatype.Metadata) aarrow.Metadata {
	if m.Len() == 0 {
		return aarrow.Metadata{}
	}
	return aarrow.NewMetadata(m.Keys(), m.Values())
}

func arrowGoField(f datatype.Field) aarrow.Field {
	return aarrow.Field{Name: f.Name, Type: arrowGoType(f.Type), Nullable: f.Nullable, Metadata: arrowGoMetadata(f.Metadata)}
}

func arrowGoUnit(u datatype.TimeUnit) aarrow.TimeUnit {
	switch u {
	case datatype.Second:
		return aarrow.Second
	case datatype.Millisecond:
		return aarrow.Millisecond
	case datatype.Microsecond:
		return aarrow.Microsecond
	case datatype.Nanosecond:
		return aarrow.Nanosecond
	}
	panic(fmt.Sprintf("arrowGoUnit: %v", u))
}

// arrowGoType is the arrow-go type of an Alkaid type; it panics on a type
// it does not know (extension types are not part of this comparison).
func arrowGoType(t datatype.DataType) aarrow.DataType {
	switch t.Kind() {
	case datatype.KindNull:
		return aarrow.Null
	case datatype.KindBool:
		return aarrow.FixedWidthTypes.Boolean
	case datatype.KindInt8:
		return aarrow.PrimitiveTypes.Int8
	case datatype.KindInt16:
		return aarrow.PrimitiveTypes.Int16
	case datatype.KindInt32:
		return aarrow.PrimitiveTypes.Int32
	case datatype.KindInt64:
		return aarrow.PrimitiveTypes.Int64
	case datatype.KindUint8:
		return aarrow.PrimitiveTypes.Uint8
	case datatype.KindUint16:
		return aarrow.PrimitiveTypes.Uint16
	case datatype.KindUint32:
		return aarrow.PrimitiveTypes.Uint32
	case datatype.KindUint64:
		return aarrow.PrimitiveTypes.Uint64
	case datatype.KindFloat16:
		return aarrow.FixedWidthTypes.Float16
	case datatype.KindFloat32:
		return aarrow.PrimitiveTypes.Float32
	case datatype.KindFloat64:
		return aarrow.PrimitiveTypes.Float64
	case datatype.KindDecimal32, datatype.KindDecimal64, datatype.KindDecimal128, datatype.KindDecimal256:
		d := t.(*datatype.DecimalType)
		switch d.BitWidth {
		case 32:
			return &aarrow.Decimal32Type{Precision: d.Precision, Scale: d.Scale}
		case 64:
			return &aarrow.Decimal64Type{Precision: d.Precision, Scale: d.Scale}
		case 128:
			return &aarrow.Decimal128Type{Precision: d.Precision, Scale: d.Scale}
		default:
			return &aarrow.Decimal256Type{Precision: d.Precision, Scale: d.Scale}
		}
	case datatype.KindDate32:
		return aarrow.FixedWidthTypes.Date32
	case datatype.KindDate64:
		return aarrow.FixedWidthTypes.Date64
	case datatype.KindTime32:
		return &aarrow.Time32Type{Unit: arrowGoUnit(t.(*datatype.TimeType).Unit)}
	case datatype.KindTime64:
		return &aarrow.Time64Type{Unit: arrowGoUnit(t.(*datatype.TimeType).Unit)}
	case datatype.KindTimestamp:
		ts := t.(*datatype.TimestampType)
		return &aarrow.TimestampType{Unit: arrowGoUnit(ts.Unit), TimeZone: ts.TimeZone}
	case datatype.KindMonthInterval:
		return aarrow.FixedWidthTypes.MonthInterval
	case datatype.KindDayTimeInterval:
		return aarrow.FixedWidthTypes.DayTimeInterval
	case datatype.KindMonthDayNanoInterval:
		return aarrow.FixedWidthTypes.MonthDayNanoInterval
	case datatype.KindDuration:
		return &aarrow.DurationType{Unit: arrowGoUnit(t.(*datatype.DurationType).Unit)}
	case datatype.KindFixedSizeBinary:
		return &aarrow.FixedSizeBinaryType{ByteWidth: t.(*datatype.FixedSizeBinaryType).ByteWidth}
	case datatype.KindBinary:
		return aarrow.BinaryTypes.Binary
	case datatype.KindString:
		return aarrow.BinaryTypes.String
	case datatype.KindLargeBinary:
		return aarrow.BinaryTypes.LargeBinary
	case datatype.KindLargeString:
		return aarrow.BinaryTypes.LargeString
	case datatype.KindBinaryView:
		return aarrow.BinaryTypes.BinaryView
	case datatype.KindStringView:
		return aarrow.BinaryTypes.StringView
	case datatype.KindFixedSizeList:
		lt := t.(*datatype.ListType)
		return aarrow.FixedSizeListOfField(lt.Size(), arrowGoField(lt.Elem()))
	case datatype.KindList:
		return aarrow.ListOfField(arrowGoField(t.(*datatype.ListType).Elem()))
	case datatype.KindLargeList:
		return aarrow.LargeListOfField(arrowGoField(t.(*datatype.ListType).Elem()))
	case datatype.KindListView:
		return aarrow.ListViewOfField(arrowGoField(t.(*datatype.ListType).Elem()))
	case datatype.KindLargeListView:
		return aarrow.LargeListViewOfField(arrowGoField(t.(*datatype.ListType).Elem()))
	case datatype.KindStruct:
		st := t.(*datatype.StructType)
		fields := make([]aarrow.Field, st.NumFields())
		for i := range fields {
			fields[i] = arrowGoField(st.Field(i))
		}
		return aarrow.StructOf(fields...)
	case datatype.KindMap:
		mt := t.(*datatype.MapType)
		m := aarrow.MapOfFields(arrowGoField(mt.Key()), arrowGoField(mt.Item()))
		m.KeysSorted = mt.KeysSorted
		return m
	case datatype.KindSparseUnion, datatype.KindDenseUnion:
		ut := t.(*datatype.UnionType)
		fields := make([]aarrow.Field, ut.NumFields())
		codes := make([]aarrow.UnionTypeCode, ut.NumFields())
		for i := range fields {
			fields[i] = arrowGoField(ut.Field(i))
			codes[i] = ut.TypeCodes()[i]
		}
		if ut.Mode() == datatype.Sparse {
			return aarrow.SparseUnionOf(fields, codes)
		}
		return aarrow.DenseUnionOf(fields, codes)
	case datatype.KindDictionary:
		dt := t.(*datatype.DictionaryType)
		return &aarrow.DictionaryType{IndexType: arrowGoType(dt.Index), ValueType: arrowGoType(dt.Value), Ordered: dt.Ordered}
	case datatype.KindRunEndEncoded:
		rt := t.(*datatype.RunEndEncodedType)
		r := aarrow.RunEndEncodedOf(arrowGoType(rt.RunEnds().Type), arrowGoType(rt.Values().Type))
		r.ValueNullable = rt.Values().Nullable
		return r
	}
	panic(fmt.Sprintf("arrowGoType: no arrow-go type for %s", t))
}
