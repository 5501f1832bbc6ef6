package arrowbridge

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

// The field metadata keys of an extension type that the other library
// does not know: the field keeps its storage type and names the extension.
const (
	extensionNameKey     = "ARROW:extension:name"
	extensionMetadataKey = "ARROW:extension:metadata"
)

var toUnit = [...]arrow.TimeUnit{arrow.Second, arrow.Millisecond, arrow.Microsecond, arrow.Nanosecond}

func fromUnit(u arrow.TimeUnit) (datatype.TimeUnit, error) {
	for i, v := range toUnit {
		if v == u {
			return datatype.TimeUnit(i), nil
		}
	}
	return 0, fmt.Errorf("arrowbridge: %w: time unit %v", ErrNotSupported, u)
}

// ToArrowType returns the arrow-go type of an Alkaid type. An extension
// type becomes arrow-go's extension type of the same name when arrow-go
// has one registered, and its storage type otherwise (see [ToArrowField],
// which then keeps the name in the field's metadata).
func ToArrowType(t datatype.DataType) (arrow.DataType, error) {
	if ext, ok := t.(datatype.ExtensionType); ok {
		storage, err := ToArrowType(ext.StorageType())
		if err != nil {
			return nil, err
		}
		if at := arrow.GetExtensionType(ext.ExtensionName()); at != nil {
			got, err := at.Deserialize(storage, ext.Serialize())
			if err != nil {
				return nil, fmt.Errorf("arrowbridge: extension type %q: %w", ext.ExtensionName(), err)
			}
			return got, nil
		}
		return storage, nil
	}
	if p, ok := primitiveTo[t.Kind()]; ok {
		return p, nil
	}
	switch t := t.(type) {
	case *datatype.DecimalType:
		switch t.BitWidth {
		case 32:
			return &arrow.Decimal32Type{Precision: t.Precision, Scale: t.Scale}, nil
		case 64:
			return &arrow.Decimal64Type{Precision: t.Precision, Scale: t.Scale}, nil
		case 128:
			return &arrow.Decimal128Type{Precision: t.Precision, Scale: t.Scale}, nil
		case 256:
			return &arrow.Decimal256Type{Precision: t.Precision, Scale: t.Scale}, nil
		}
	case *datatype.TimeType:
		if t.Kind() == datatype.KindTime32 {
			return &arrow.Time32Type{Unit: toUnit[t.Unit&3]}, nil
		}
		return &arrow.Time64Type{Unit: toUnit[t.Unit&3]}, nil
	case *datatype.TimestampType:
		return &arrow.TimestampType{Unit: toUnit[t.Unit&3], TimeZone: t.TimeZone}, nil
	case *datatype.DurationType:
		return &arrow.DurationType{Unit: toUnit[t.Unit&3]}, nil
	case *datatype.FixedSizeBinaryType:
		return &arrow.FixedSizeBinaryType{ByteWidth: t.ByteWidth}, nil
	case *datatype.ListType:
		elem, err := ToArrowField(t.Elem())
		if err != nil {
			return nil, err
		}
		switch t.Kind() {
		case datatype.KindList:
			return arrow.ListOfField(elem), nil
		case datatype.KindLargeList:
			return arrow.LargeListOfField(elem), nil
		case datatype.KindListView:
			return arrow.ListViewOfField(elem), nil
		case datatype.KindLargeListView:
			return arrow.LargeListViewOfField(elem), nil
		case datatype.KindFixedSizeList:
			return arrow.FixedSizeListOfField(t.Size(), elem), nil
		}
	case *datatype.StructType:
		fields, err := toArrowFields(t.Fields())
		if err != nil {
			return nil, err
		}
		return arrow.StructOf(fields...), nil
	case *datatype.MapType:
		kv, err := toArrowFields([]datatype.Field{t.Key(), t.Item()})
		if err != nil {
			return nil, err
		}
		m := arrow.MapOfFields(kv[0], kv[1])
		m.KeysSorted = t.KeysSorted
		return m, nil
	case *datatype.UnionType:
		fields, err := toArrowFields(t.Fields())
		if err != nil {
			return nil, err
		}
		codes := make([]arrow.UnionTypeCode, len(fields))
		for i, c := range t.TypeCodes() {
			codes[i] = arrow.UnionTypeCode(c)
		}
		if t.Mode() == datatype.Dense {
			return arrow.DenseUnionOf(fields, codes), nil
		}
		return arrow.SparseUnionOf(fields, codes), nil
	case *datatype.DictionaryType:
		index, err := ToArrowType(t.Index)
		if err != nil {
			return nil, err
		}
		value, err := ToArrowType(t.Value)
		if err != nil {
			return nil, err
		}
		return &arrow.DictionaryType{IndexType: index, ValueType: value, Ordered: t.Ordered}, nil
	case *datatype.RunEndEncodedType:
		ends, err := ToArrowType(t.RunEnds().Type)
		if err != nil {
			return nil, err
		}
		values, err := ToArrowType(t.Values().Type)
		if err != nil {
			return nil, err
		}
		r := arrow.RunEndEncodedOf(ends, values)
		r.ValueNullable = t.Values().Nullable
		return r, nil
	}
	return nil, fmt.Errorf("arrowbridge: %w: no arrow-go type for %s", ErrNotSupported, t)
}

var primitiveTo = map[datatype.Kind]arrow.DataType{
	datatype.KindNull: arrow.Null, datatype.KindBool: arrow.FixedWidthTypes.Boolean,
	datatype.KindInt8: arrow.PrimitiveTypes.Int8, datatype.KindInt16: arrow.PrimitiveTypes.Int16,
	datatype.KindInt32: arrow.PrimitiveTypes.Int32, datatype.KindInt64: arrow.PrimitiveTypes.Int64,
	datatype.KindUint8: arrow.PrimitiveTypes.Uint8, datatype.KindUint16: arrow.PrimitiveTypes.Uint16,
	datatype.KindUint32: arrow.PrimitiveTypes.Uint32, datatype.KindUint64: arrow.PrimitiveTypes.Uint64,
	datatype.KindFloat16: arrow.FixedWidthTypes.Float16, datatype.KindFloat32: arrow.PrimitiveTypes.Float32,
	datatype.KindFloat64: arrow.PrimitiveTypes.Float64,
	datatype.KindDate32:  arrow.FixedWidthTypes.Date32, datatype.KindDate64: arrow.FixedWidthTypes.Date64,
	datatype.KindMonthInterval:        arrow.FixedWidthTypes.MonthInterval,
	datatype.KindDayTimeInterval:      arrow.FixedWidthTypes.DayTimeInterval,
	datatype.KindMonthDayNanoInterval: arrow.FixedWidthTypes.MonthDayNanoInterval,
	datatype.KindBinary:               arrow.BinaryTypes.Binary, datatype.KindString: arrow.BinaryTypes.String,
	datatype.KindLargeBinary: arrow.BinaryTypes.LargeBinary, datatype.KindLargeString: arrow.BinaryTypes.LargeString,
	datatype.KindBinaryView: arrow.BinaryTypes.BinaryView, datatype.KindStringView: arrow.BinaryTypes.StringView,
}

var primitiveFrom = func() map[arrow.Type]datatype.DataType {
	m := map[arrow.Type]datatype.DataType{}
	for k, t := range primitiveTo {
		m[t.ID()] = datatype.Primitive(k)
	}
	return m
}()

// ToArrowField returns the arrow-go field of an Alkaid field. An extension
// type arrow-go does not know travels as its storage type with
// ARROW:extension:name and ARROW:extension:metadata in the field's
// metadata, as in IPC; a storage type whose metadata names an extension
// type arrow-go knows becomes that type.
func ToArrowField(f datatype.Field) (arrow.Field, error) {
	t, err := ToArrowType(f.Type)
	if err != nil {
		return arrow.Field{}, fmt.Errorf("field %q: %w", f.Name, err)
	}
	md := f.Metadata
	if ext, ok := f.Type.(datatype.ExtensionType); ok && t.ID() != arrow.EXTENSION {
		md = md.With(extensionNameKey, ext.ExtensionName()).With(extensionMetadataKey, ext.Serialize())
	}
	if name, ok := md.Get(extensionNameKey); ok && t.ID() != arrow.EXTENSION {
		// A storage type naming an extension arrow-go has registered.
		if at := arrow.GetExtensionType(name); at != nil {
			serialized, _ := md.Get(extensionMetadataKey)
			if et, err := at.Deserialize(t, serialized); err == nil {
				t, md = et, md.Without(extensionNameKey, extensionMetadataKey)
			}
		}
	}
	return arrow.Field{Name: f.Name, Type: t, Nullable: f.Nullable, Metadata: toArrowMetadata(md)}, nil
}

func toArrowFields(fs []datatype.Field) ([]arrow.Field, error) {
	out := make([]arrow.Field, len(fs))
	for i, f := range fs {
		var err error
		if out[i], err = ToArrowField(f); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func toArrowMetadata(m datatype.Metadata) arrow.Metadata {
	if m.Len() == 0 {
		return arrow.Metadata{}
	}
	return arrow.NewMetadata(m.Keys(), m.Values())
}

func fromArrowMetadata(m arrow.Metadata) datatype.Metadata {
	if m.Len() == 0 {
		return datatype.Metadata{}
	}
	return datatype.NewMetadata(m.Keys(), m.Values())
}

// ToArrowSchema returns the arrow-go schema of an Alkaid schema, metadata
// included. Big-endian schemas are not supported (arrow-go arrays are
// native).
func ToArrowSchema(s *alkaid.Schema) (*arrow.Schema, error) {
	if s.Endianness() != alkaid.LittleEndian {
		return nil, fmt.Errorf("arrowbridge: %w: a big-endian schema", ErrNotSupported)
	}
	fields, err := toArrowFields(s.Fields())
	if err != nil {
		return nil, fmt.Errorf("arrowbridge: %w", err)
	}
	md := toArrowMetadata(s.Metadata())
	return arrow.NewSchema(fields, &md), nil
}

// FromArrowType returns the Alkaid type of an arrow-go type. An arrow-go
// extension type becomes the Alkaid extension type of the same name when
// one is registered (datatype.RegisterExtension; the canonical ones are
// registered by importing package extension), and its storage type
// otherwise.
func FromArrowType(t arrow.DataType) (datatype.DataType, error) {
	if p, ok := primitiveFrom[t.ID()]; ok {
		return p, nil
	}
	bad := func(err error) (datatype.DataType, error) {
		return nil, fmt.Errorf("arrowbridge: type %s: %w", t, err)
	}
	switch t := t.(type) {
	case arrow.ExtensionType:
		storage, err := FromArrowType(t.StorageType())
		if err != nil {
			return nil, err
		}
		if ext, ok := datatype.LookupExtension(t.ExtensionName()); ok {
			got, err := ext.Deserialize(storage, t.Serialize())
			if err != nil {
				return bad(err)
			}
			return got, nil
		}
		return storage, nil
	case *arrow.Decimal32Type:
		return decimal(32, t.Precision, t.Scale)
	case *arrow.Decimal64Type:
		return decimal(64, t.Precision, t.Scale)
	case *arrow.Decimal128Type:
		return decimal(128, t.Precision, t.Scale)
	case *arrow.Decimal256Type:
		return decimal(256, t.Precision, t.Scale)
	case *arrow.Time32Type:
		return timeOf(t.Unit, datatype.NewTime)
	case *arrow.Time64Type:
		return timeOf(t.Unit, datatype.NewTime)
	case *arrow.DurationType:
		return timeOf(t.Unit, datatype.NewDuration)
	case *arrow.TimestampType:
		u, err := fromUnit(t.Unit)
		if err != nil {
			return nil, err
		}
		return datatype.NewTimestamp(u, t.TimeZone)
	case *arrow.FixedSizeBinaryType:
		return datatype.NewFixedSizeBinary(t.ByteWidth)
	case *arrow.ListType:
		elem, err := FromArrowField(t.ElemField())
		if err != nil {
			return nil, err
		}
		return datatype.ListOfField(elem), nil
	case *arrow.LargeListType:
		elem, err := FromArrowField(t.ElemField())
		if err != nil {
			return nil, err
		}
		return datatype.LargeListOfField(elem), nil
	case *arrow.ListViewType:
		elem, err := FromArrowField(t.ElemField())
		if err != nil {
			return nil, err
		}
		return datatype.ListViewOfField(elem), nil
	case *arrow.LargeListViewType:
		elem, err := FromArrowField(t.ElemField())
		if err != nil {
			return nil, err
		}
		return datatype.LargeListViewOfField(elem), nil
	case *arrow.FixedSizeListType:
		elem, err := FromArrowField(t.ElemField())
		if err != nil {
			return nil, err
		}
		return datatype.FixedSizeListOfField(elem, t.Len())
	case *arrow.StructType:
		fields, err := fromArrowFields(t.Fields())
		if err != nil {
			return nil, err
		}
		return datatype.StructOf(fields...), nil
	case *arrow.MapType:
		kv, err := fromArrowFields([]arrow.Field{t.KeyField(), t.ItemField()})
		if err != nil {
			return nil, err
		}
		kv[0].Nullable = false // arrow-go's key field may say otherwise; keys are never null
		m, err := datatype.MapOfFields(kv[0], kv[1], t.KeysSorted)
		if err != nil {
			return bad(err)
		}
		return m, nil
	case arrow.UnionType:
		fields, err := fromArrowFields(t.Fields())
		if err != nil {
			return nil, err
		}
		codes := make([]int8, len(fields))
		for i, c := range t.TypeCodes() {
			codes[i] = int8(c)
		}
		mode := datatype.Sparse
		if t.Mode() == arrow.DenseMode {
			mode = datatype.Dense
		}
		u, err := datatype.NewUnion(mode, fields, codes)
		if err != nil {
			return bad(err)
		}
		return u, nil
	case *arrow.DictionaryType:
		index, err := FromArrowType(t.IndexType)
		if err != nil {
			return nil, err
		}
		value, err := FromArrowType(t.ValueType)
		if err != nil {
			return nil, err
		}
		return datatype.NewDictionary(index, value, t.Ordered)
	case *arrow.RunEndEncodedType:
		ends, err := FromArrowType(t.RunEnds())
		if err != nil {
			return nil, err
		}
		values, err := FromArrowType(t.Encoded())
		if err != nil {
			return nil, err
		}
		return datatype.NewRunEndEncodedFields(datatype.Field{Name: "run_ends", Type: ends},
			datatype.Field{Name: "values", Type: values, Nullable: t.ValueNullable})
	}
	return nil, fmt.Errorf("arrowbridge: %w: no Alkaid type for %s", ErrNotSupported, t)
}

func decimal(width int, precision, scale int32) (datatype.DataType, error) {
	return datatype.NewDecimal(width, precision, scale)
}

func timeOf[T datatype.DataType](u arrow.TimeUnit, mk func(datatype.TimeUnit) (T, error)) (datatype.DataType, error) {
	du, err := fromUnit(u)
	if err != nil {
		return nil, err
	}
	return mk(du)
}

// FromArrowField returns the Alkaid field of an arrow-go field. A storage
// type whose metadata names a registered Alkaid extension type becomes
// that type (the two keys leave the metadata).
func FromArrowField(f arrow.Field) (datatype.Field, error) {
	t, err := FromArrowType(f.Type)
	if err != nil {
		return datatype.Field{}, fmt.Errorf("field %q: %w", f.Name, err)
	}
	md := fromArrowMetadata(f.Metadata)
	if at, ok := f.Type.(arrow.ExtensionType); ok {
		if _, isExt := t.(datatype.ExtensionType); !isExt {
			// An arrow-go extension type Alkaid does not know: keep its
			// name with the storage, as IPC would.
			md = md.With(extensionNameKey, at.ExtensionName()).With(extensionMetadataKey, at.Serialize())
		}
	}
	if _, isExt := t.(datatype.ExtensionType); !isExt {
		if name, ok := md.Get(extensionNameKey); ok {
			if ext, ok := datatype.LookupExtension(name); ok {
				serialized, _ := md.Get(extensionMetadataKey)
				if et, err := ext.Deserialize(t, serialized); err == nil {
					t, md = et, md.Without(extensionNameKey, extensionMetadataKey)
				}
			}
		}
	}
	return datatype.Field{Name: f.Name, Type: t, Nullable: f.Nullable, Metadata: md}, nil
}

func fromArrowFields(fs []arrow.Field) ([]datatype.Field, error) {
	out := make([]datatype.Field, len(fs))
	for i, f := range fs {
		var err error
		if out[i], err = FromArrowField(f); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// FromArrowSchema returns the Alkaid schema of an arrow-go schema.
func FromArrowSchema(s *arrow.Schema) (*alkaid.Schema, error) {
	fields, err := fromArrowFields(s.Fields())
	if err != nil {
		return nil, fmt.Errorf("arrowbridge: %w", err)
	}
	md := s.Metadata()
	return alkaid.NewSchema(fields, fromArrowMetadata(md)), nil
}
