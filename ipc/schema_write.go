package ipc

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	fb "github.com/alkaid-go/alkaid/internal/flatbuf"
)

// schemaWriter converts a schema to Flatbuffers, giving each dictionary
// type a dictionary id in depth-first order of the fields (a dictionary's
// own id before those nested in its values); record batches are walked in
// the same order to find the dictionaries to send.
type schemaWriter struct {
	b      *flatbuffers.Builder
	compat bool
	nextID int64
	err    error
}

func writeSchema(b *flatbuffers.Builder, s *alkaid.Schema, compat bool) (flatbuffers.UOffsetT, error) {
	w := &schemaWriter{b: b, compat: compat}
	fields := make([]flatbuffers.UOffsetT, s.NumFields())
	for i := range fields {
		fields[i] = w.field(s.Field(i))
	}
	fieldsVec := w.offsets(fb.SchemaStartFieldsVector, fields)
	md := w.metadata(s.Metadata())
	fb.SchemaStart(b)
	if s.Endianness() == alkaid.BigEndian {
		fb.SchemaAddEndianness(b, fb.EndiannessBig)
	}
	fb.SchemaAddFields(b, fieldsVec)
	if md != 0 {
		fb.SchemaAddCustomMetadata(b, md)
	}
	return fb.SchemaEnd(b), w.err
}

func (w *schemaWriter) offsets(start func(*flatbuffers.Builder, int) flatbuffers.UOffsetT, offs []flatbuffers.UOffsetT) flatbuffers.UOffsetT {
	start(w.b, len(offs))
	for i := len(offs) - 1; i >= 0; i-- {
		w.b.PrependUOffsetT(offs[i])
	}
	return w.b.EndVector(len(offs))
}

// metadata writes a key-value vector, or returns 0 for none.
func (w *schemaWriter) metadata(m datatype.Metadata) flatbuffers.UOffsetT {
	if m.Len() == 0 {
		return 0
	}
	kvs := make([]flatbuffers.UOffsetT, m.Len())
	for i := range kvs {
		k, v := w.b.CreateString(m.Key(i)), w.b.CreateString(m.Value(i))
		fb.KeyValueStart(w.b)
		fb.KeyValueAddKey(w.b, k)
		fb.KeyValueAddValue(w.b, v)
		kvs[i] = fb.KeyValueEnd(w.b)
	}
	return w.offsets(fb.SchemaStartCustomMetadataVector, kvs)
}

func (w *schemaWriter) field(f datatype.Field) flatbuffers.UOffsetT {
	t := f.Type
	md := f.Metadata
	if ext, ok := t.(datatype.ExtensionType); ok {
		nameKey, metaKey := ExtensionNameKey, ExtensionMetadataKey
		if w.compat {
			nameKey, metaKey = ArrowExtensionNameKey, ArrowExtensionMetadataKey
		}
		md = md.With(nameKey, ext.ExtensionName()).With(metaKey, ext.Serialize())
		t = ext.StorageType()
	}
	var dictEnc flatbuffers.UOffsetT
	var dictIndex datatype.DataType
	var ordered bool
	id := int64(-1)
	if dt, ok := t.(*datatype.DictionaryType); ok {
		id = w.nextID
		w.nextID++
		dictIndex, ordered = dt.Index, dt.Ordered
		t = dt.Value
		// An extension value type keeps its name on the field.
		if ext, ok := t.(datatype.ExtensionType); ok {
			nameKey, metaKey := ExtensionNameKey, ExtensionMetadataKey
			if w.compat {
				nameKey, metaKey = ArrowExtensionNameKey, ArrowExtensionMetadataKey
			}
			md = md.With(nameKey, ext.ExtensionName()).With(metaKey, ext.Serialize())
			t = ext.StorageType()
		}
	}
	children := datatype.Children(t)
	childOffs := make([]flatbuffers.UOffsetT, len(children))
	for i, c := range children {
		childOffs[i] = w.field(c)
	}
	name := w.b.CreateString(f.Name)
	typeType, typeOff := w.typ(t)
	childVec := w.offsets(fb.FieldStartChildrenVector, childOffs)
	mdOff := w.metadata(md)
	if id >= 0 {
		fb.IntStart(w.b)
		fb.IntAddBitWidth(w.b, int32(8*datatype.ByteWidth(dictIndex)))
		fb.IntAddIsSigned(w.b, dictIndex.Kind().IsSignedInteger())
		idx := fb.IntEnd(w.b)
		fb.DictionaryEncodingStart(w.b)
		fb.DictionaryEncodingAddId(w.b, id)
		fb.DictionaryEncodingAddIndexType(w.b, idx)
		fb.DictionaryEncodingAddIsOrdered(w.b, ordered)
		dictEnc = fb.DictionaryEncodingEnd(w.b)
	}
	fb.FieldStart(w.b)
	fb.FieldAddName(w.b, name)
	fb.FieldAddNullable(w.b, f.Nullable)
	fb.FieldAddTypeType(w.b, typeType)
	fb.FieldAddType(w.b, typeOff)
	if dictEnc != 0 {
		fb.FieldAddDictionary(w.b, dictEnc)
	}
	fb.FieldAddChildren(w.b, childVec)
	if mdOff != 0 {
		fb.FieldAddCustomMetadata(w.b, mdOff)
	}
	return fb.FieldEnd(w.b)
}

func timeUnit(u datatype.TimeUnit) fb.TimeUnit {
	return [...]fb.TimeUnit{fb.TimeUnitSECOND, fb.TimeUnitMILLISECOND, fb.TimeUnitMICROSECOND, fb.TimeUnitNANOSECOND}[u&3]
}

// typ writes the type table of a non-dictionary, non-extension type.
func (w *schemaWriter) typ(t datatype.DataType) (fb.Type, flatbuffers.UOffsetT) {
	b := w.b
	empty := func(tt fb.Type, start func(*flatbuffers.Builder), end func(*flatbuffers.Builder) flatbuffers.UOffsetT) (fb.Type, flatbuffers.UOffsetT) {
		start(b)
		return tt, end(b)
	}
	switch k := t.Kind(); k {
	case datatype.KindNull:
		return empty(fb.TypeNull, fb.NullStart, fb.NullEnd)
	case datatype.KindBool:
		return empty(fb.TypeBool, fb.BoolStart, fb.BoolEnd)
	case datatype.KindInt8, datatype.KindInt16, datatype.KindInt32, datatype.KindInt64,
		datatype.KindUint8, datatype.KindUint16, datatype.KindUint32, datatype.KindUint64:
		fb.IntStart(b)
		fb.IntAddBitWidth(b, int32(8*datatype.ByteWidth(t)))
		fb.IntAddIsSigned(b, k.IsSignedInteger())
		return fb.TypeInt, fb.IntEnd(b)
	case datatype.KindFloat16, datatype.KindFloat32, datatype.KindFloat64:
		fb.FloatingPointStart(b)
		fb.FloatingPointAddPrecision(b, [...]fb.Precision{fb.PrecisionHALF, fb.PrecisionSINGLE, fb.PrecisionDOUBLE}[k-datatype.KindFloat16])
		return fb.TypeFloatingPoint, fb.FloatingPointEnd(b)
	case datatype.KindDecimal32, datatype.KindDecimal64, datatype.KindDecimal128, datatype.KindDecimal256:
		d := t.(*datatype.DecimalType)
		fb.DecimalStart(b)
		fb.DecimalAddPrecision(b, d.Precision)
		fb.DecimalAddScale(b, d.Scale)
		fb.DecimalAddBitWidth(b, int32(d.BitWidth))
		return fb.TypeDecimal, fb.DecimalEnd(b)
	case datatype.KindDate32, datatype.KindDate64:
		fb.DateStart(b)
		if k == datatype.KindDate32 {
			fb.DateAddUnit(b, fb.DateUnitDAY)
		} else {
			fb.DateAddUnit(b, fb.DateUnitMILLISECOND)
		}
		return fb.TypeDate, fb.DateEnd(b)
	case datatype.KindTime32, datatype.KindTime64:
		tt := t.(*datatype.TimeType)
		fb.TimeStart(b)
		fb.TimeAddUnit(b, timeUnit(tt.Unit))
		fb.TimeAddBitWidth(b, int32(8*datatype.ByteWidth(t)))
		return fb.TypeTime, fb.TimeEnd(b)
	case datatype.KindTimestamp:
		ts := t.(*datatype.TimestampType)
		var tz flatbuffers.UOffsetT
		if ts.TimeZone != "" {
			tz = b.CreateString(ts.TimeZone)
		}
		fb.TimestampStart(b)
		fb.TimestampAddUnit(b, timeUnit(ts.Unit))
		if tz != 0 {
			fb.TimestampAddTimezone(b, tz)
		}
		return fb.TypeTimestamp, fb.TimestampEnd(b)
	case datatype.KindDuration:
		fb.DurationStart(b)
		fb.DurationAddUnit(b, timeUnit(t.(*datatype.DurationType).Unit))
		return fb.TypeDuration, fb.DurationEnd(b)
	case datatype.KindMonthInterval, datatype.KindDayTimeInterval, datatype.KindMonthDayNanoInterval:
		fb.IntervalStart(b)
		fb.IntervalAddUnit(b, [...]fb.IntervalUnit{fb.IntervalUnitYEAR_MONTH, fb.IntervalUnitDAY_TIME, fb.IntervalUnitMONTH_DAY_NANO}[k-datatype.KindMonthInterval])
		return fb.TypeInterval, fb.IntervalEnd(b)
	case datatype.KindFixedSizeBinary:
		fb.FixedSizeBinaryStart(b)
		fb.FixedSizeBinaryAddByteWidth(b, int32(t.(*datatype.FixedSizeBinaryType).ByteWidth))
		return fb.TypeFixedSizeBinary, fb.FixedSizeBinaryEnd(b)
	case datatype.KindBinary:
		return empty(fb.TypeBinary, fb.BinaryStart, fb.BinaryEnd)
	case datatype.KindString:
		return empty(fb.TypeUtf8, fb.Utf8Start, fb.Utf8End)
	case datatype.KindLargeBinary:
		return empty(fb.TypeLargeBinary, fb.LargeBinaryStart, fb.LargeBinaryEnd)
	case datatype.KindLargeString:
		return empty(fb.TypeLargeUtf8, fb.LargeUtf8Start, fb.LargeUtf8End)
	case datatype.KindBinaryView:
		return empty(fb.TypeBinaryView, fb.BinaryViewStart, fb.BinaryViewEnd)
	case datatype.KindStringView:
		return empty(fb.TypeUtf8View, fb.Utf8ViewStart, fb.Utf8ViewEnd)
	case datatype.KindList:
		return empty(fb.TypeList, fb.ListStart, fb.ListEnd)
	case datatype.KindLargeList:
		return empty(fb.TypeLargeList, fb.LargeListStart, fb.LargeListEnd)
	case datatype.KindListView:
		return empty(fb.TypeListView, fb.ListViewStart, fb.ListViewEnd)
	case datatype.KindLargeListView:
		return empty(fb.TypeLargeListView, fb.LargeListViewStart, fb.LargeListViewEnd)
	case datatype.KindFixedSizeList:
		fb.FixedSizeListStart(b)
		fb.FixedSizeListAddListSize(b, t.(*datatype.ListType).Size())
		return fb.TypeFixedSizeList, fb.FixedSizeListEnd(b)
	case datatype.KindStruct:
		return empty(fb.TypeStruct_, fb.Struct_Start, fb.Struct_End)
	case datatype.KindMap:
		fb.MapStart(b)
		fb.MapAddKeysSorted(b, t.(*datatype.MapType).KeysSorted)
		return fb.TypeMap, fb.MapEnd(b)
	case datatype.KindSparseUnion, datatype.KindDenseUnion:
		u := t.(*datatype.UnionType)
		codes := u.TypeCodes()
		fb.UnionStartTypeIdsVector(b, len(codes))
		for i := len(codes) - 1; i >= 0; i-- {
			b.PrependInt32(int32(codes[i]))
		}
		ids := b.EndVector(len(codes))
		fb.UnionStart(b)
		if u.Mode() == datatype.Dense {
			fb.UnionAddMode(b, fb.UnionModeDense)
		} else {
			fb.UnionAddMode(b, fb.UnionModeSparse)
		}
		fb.UnionAddTypeIds(b, ids)
		return fb.TypeUnion, fb.UnionEnd(b)
	case datatype.KindRunEndEncoded:
		return empty(fb.TypeRunEndEncoded, fb.RunEndEncodedStart, fb.RunEndEncodedEnd)
	}
	w.err = unsupportedf("no wire type for %s", t)
	return empty(fb.TypeNull, fb.NullStart, fb.NullEnd)
}
