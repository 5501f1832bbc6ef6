package fbcheck

import (
	"encoding/json"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/alkaid-go/alkaid/internal/flatbuf"
)

// The union type ids, enum values and struct sizes are the wire format;
// pin them so a schema edit that moves one fails here by name.
func TestWireConstants(t *testing.T) {
	types := []flatbuf.Type{
		flatbuf.TypeNONE, flatbuf.TypeNull, flatbuf.TypeInt, flatbuf.TypeFloatingPoint, flatbuf.TypeBinary,
		flatbuf.TypeUtf8, flatbuf.TypeBool, flatbuf.TypeDecimal, flatbuf.TypeDate, flatbuf.TypeTime,
		flatbuf.TypeTimestamp, flatbuf.TypeInterval, flatbuf.TypeList, flatbuf.TypeStruct_, flatbuf.TypeUnion,
		flatbuf.TypeFixedSizeBinary, flatbuf.TypeFixedSizeList, flatbuf.TypeMap, flatbuf.TypeDuration,
		flatbuf.TypeLargeBinary, flatbuf.TypeLargeUtf8, flatbuf.TypeLargeList, flatbuf.TypeRunEndEncoded,
		flatbuf.TypeBinaryView, flatbuf.TypeUtf8View, flatbuf.TypeListView, flatbuf.TypeLargeListView,
	}
	for i, ty := range types {
		if int(ty) != i {
			t.Errorf("Type %v = %d, want %d", ty, ty, i)
		}
	}
	headers := []flatbuf.MessageHeader{flatbuf.MessageHeaderNONE, flatbuf.MessageHeaderSchema,
		flatbuf.MessageHeaderDictionaryBatch, flatbuf.MessageHeaderRecordBatch, flatbuf.MessageHeaderTensor,
		flatbuf.MessageHeaderSparseTensor}
	for i, h := range headers {
		if int(h) != i {
			t.Errorf("MessageHeader %v = %d, want %d", h, h, i)
		}
	}
	enums := []struct {
		name      string
		got, want int64
	}{
		{"MetadataVersionV1", int64(flatbuf.MetadataVersionV1), 0},
		{"MetadataVersionV5", int64(flatbuf.MetadataVersionV5), 4},
		{"FeatureDICTIONARY_REPLACEMENT", int64(flatbuf.FeatureDICTIONARY_REPLACEMENT), 1},
		{"FeatureCOMPRESSED_BODY", int64(flatbuf.FeatureCOMPRESSED_BODY), 2},
		{"UnionModeDense", int64(flatbuf.UnionModeDense), 1},
		{"PrecisionDOUBLE", int64(flatbuf.PrecisionDOUBLE), 2},
		{"DateUnitMILLISECOND", int64(flatbuf.DateUnitMILLISECOND), 1},
		{"TimeUnitNANOSECOND", int64(flatbuf.TimeUnitNANOSECOND), 3},
		{"IntervalUnitMONTH_DAY_NANO", int64(flatbuf.IntervalUnitMONTH_DAY_NANO), 2},
		{"EndiannessBig", int64(flatbuf.EndiannessBig), 1},
		{"CompressionTypeZSTD", int64(flatbuf.CompressionTypeZSTD), 1},
		{"BodyCompressionMethodBUFFER", int64(flatbuf.BodyCompressionMethodBUFFER), 0},
		{"SparseMatrixCompressedAxisColumn", int64(flatbuf.SparseMatrixCompressedAxisColumn), 1},
		{"SparseTensorIndexSparseTensorIndexCSF", int64(flatbuf.SparseTensorIndexSparseTensorIndexCSF), 3},
	}
	for _, e := range enums {
		if e.got != e.want {
			t.Errorf("%s = %d, want %d", e.name, e.got, e.want)
		}
	}

	// Struct sizes: each struct written alone into a fresh builder.
	size := func(create func(b *flatbuffers.Builder) flatbuffers.UOffsetT) int {
		b := flatbuffers.NewBuilder(0)
		return int(create(b))
	}
	if n := size(func(b *flatbuffers.Builder) flatbuffers.UOffsetT { return flatbuf.CreateBuffer(b, 1, 2) }); n != 16 {
		t.Errorf("Buffer is %d bytes, want 16", n)
	}
	if n := size(func(b *flatbuffers.Builder) flatbuffers.UOffsetT { return flatbuf.CreateFieldNode(b, 1, 2) }); n != 16 {
		t.Errorf("FieldNode is %d bytes, want 16", n)
	}
	if n := size(func(b *flatbuffers.Builder) flatbuffers.UOffsetT { return flatbuf.CreateBlock(b, 1, 2, 3) }); n != 24 {
		t.Errorf("Block is %d bytes, want 24 (offset, metaDataLength, 4 pad bytes, bodyLength)", n)
	}
}

// buildSchemaMessage writes a Message{Schema} with the generated builders:
//
//	id: int64 not null; name: utf8 (custom metadata); ts: timestamp[us, UTC];
//	price: decimal(38, 9) (bitWidth left at its default); tags: list<item: utf8>;
//	cat: dictionary<int16, ordered> of utf8, id 7; u: dense union<a: int32, b: float64> ids [3, 5];
//	sv: utf8view; t: time32[ms] (unit and bitWidth left at their defaults)
func buildSchemaMessage() []byte {
	b := flatbuffers.NewBuilder(1024)

	kv := func(k, v string) flatbuffers.UOffsetT {
		ko, vo := b.CreateString(k), b.CreateString(v)
		flatbuf.KeyValueStart(b)
		flatbuf.KeyValueAddKey(b, ko)
		flatbuf.KeyValueAddValue(b, vo)
		return flatbuf.KeyValueEnd(b)
	}
	intType := func(bits int32, signed bool) flatbuffers.UOffsetT {
		flatbuf.IntStart(b)
		flatbuf.IntAddBitWidth(b, bits)
		flatbuf.IntAddIsSigned(b, signed)
		return flatbuf.IntEnd(b)
	}
	empty := func(start func(*flatbuffers.Builder), end func(*flatbuffers.Builder) flatbuffers.UOffsetT) flatbuffers.UOffsetT {
		start(b)
		return end(b)
	}
	offsets := func(start func(*flatbuffers.Builder, int) flatbuffers.UOffsetT, offs ...flatbuffers.UOffsetT) flatbuffers.UOffsetT {
		start(b, len(offs))
		for i := len(offs) - 1; i >= 0; i-- {
			b.PrependUOffsetT(offs[i])
		}
		return b.EndVector(len(offs))
	}
	type fieldSpec struct {
		name     string
		nullable bool
		tag      flatbuf.Type
		typ      flatbuffers.UOffsetT
		children []flatbuffers.UOffsetT
		dict     flatbuffers.UOffsetT
		meta     []flatbuffers.UOffsetT
	}
	field := func(f fieldSpec) flatbuffers.UOffsetT {
		name := b.CreateString(f.name)
		children := offsets(flatbuf.FieldStartChildrenVector, f.children...)
		var meta flatbuffers.UOffsetT
		if f.meta != nil {
			meta = offsets(flatbuf.FieldStartCustomMetadataVector, f.meta...)
		}
		flatbuf.FieldStart(b)
		flatbuf.FieldAddName(b, name)
		flatbuf.FieldAddNullable(b, f.nullable)
		flatbuf.FieldAddTypeType(b, f.tag)
		flatbuf.FieldAddType(b, f.typ)
		flatbuf.FieldAddChildren(b, children)
		if f.dict != 0 {
			flatbuf.FieldAddDictionary(b, f.dict)
		}
		if meta != 0 {
			flatbuf.FieldAddCustomMetadata(b, meta)
		}
		return flatbuf.FieldEnd(b)
	}

	var fields []flatbuffers.UOffsetT
	fields = append(fields, field(fieldSpec{name: "id", tag: flatbuf.TypeInt, typ: intType(64, true)}))
	fields = append(fields, field(fieldSpec{name: "name", nullable: true, tag: flatbuf.TypeUtf8,
		typ:  empty(flatbuf.Utf8Start, flatbuf.Utf8End),
		meta: []flatbuffers.UOffsetT{kv("ALKAID:extension:name", "example"), kv("note", "")}}))

	tz := b.CreateString("UTC")
	flatbuf.TimestampStart(b)
	flatbuf.TimestampAddUnit(b, flatbuf.TimeUnitMICROSECOND)
	flatbuf.TimestampAddTimezone(b, tz)
	fields = append(fields, field(fieldSpec{name: "ts", nullable: true, tag: flatbuf.TypeTimestamp, typ: flatbuf.TimestampEnd(b)}))

	flatbuf.DecimalStart(b)
	flatbuf.DecimalAddPrecision(b, 38)
	flatbuf.DecimalAddScale(b, 9)
	fields = append(fields, field(fieldSpec{name: "price", nullable: true, tag: flatbuf.TypeDecimal, typ: flatbuf.DecimalEnd(b)}))

	item := field(fieldSpec{name: "item", nullable: true, tag: flatbuf.TypeUtf8, typ: empty(flatbuf.Utf8Start, flatbuf.Utf8End)})
	fields = append(fields, field(fieldSpec{name: "tags", nullable: true, tag: flatbuf.TypeList,
		typ: empty(flatbuf.ListStart, flatbuf.ListEnd), children: []flatbuffers.UOffsetT{item}}))

	idx := intType(16, true)
	flatbuf.DictionaryEncodingStart(b)
	flatbuf.DictionaryEncodingAddId(b, 7)
	flatbuf.DictionaryEncodingAddIndexType(b, idx)
	flatbuf.DictionaryEncodingAddIsOrdered(b, true)
	dict := flatbuf.DictionaryEncodingEnd(b)
	fields = append(fields, field(fieldSpec{name: "cat", nullable: true, tag: flatbuf.TypeUtf8,
		typ: empty(flatbuf.Utf8Start, flatbuf.Utf8End), dict: dict}))

	ua := field(fieldSpec{name: "a", nullable: true, tag: flatbuf.TypeInt, typ: intType(32, true)})
	flatbuf.FloatingPointStart(b)
	flatbuf.FloatingPointAddPrecision(b, flatbuf.PrecisionDOUBLE)
	ub := field(fieldSpec{name: "b", nullable: true, tag: flatbuf.TypeFloatingPoint, typ: flatbuf.FloatingPointEnd(b)})
	flatbuf.UnionStartTypeIdsVector(b, 2)
	b.PrependInt32(5)
	b.PrependInt32(3)
	ids := b.EndVector(2)
	flatbuf.UnionStart(b)
	flatbuf.UnionAddMode(b, flatbuf.UnionModeDense)
	flatbuf.UnionAddTypeIds(b, ids)
	fields = append(fields, field(fieldSpec{name: "u", nullable: true, tag: flatbuf.TypeUnion, typ: flatbuf.UnionEnd(b),
		children: []flatbuffers.UOffsetT{ua, ub}}))

	fields = append(fields, field(fieldSpec{name: "sv", nullable: true, tag: flatbuf.TypeUtf8View,
		typ: empty(flatbuf.Utf8ViewStart, flatbuf.Utf8ViewEnd)}))
	fields = append(fields, field(fieldSpec{name: "t", nullable: true, tag: flatbuf.TypeTime,
		typ: empty(flatbuf.TimeStart, flatbuf.TimeEnd)}))

	fieldVec := offsets(flatbuf.SchemaStartFieldsVector, fields...)
	meta := offsets(flatbuf.SchemaStartCustomMetadataVector, kv("origin", "fbcheck"))
	flatbuf.SchemaStartFeaturesVector(b, 1)
	b.PrependInt64(int64(flatbuf.FeatureCOMPRESSED_BODY))
	features := b.EndVector(1)
	flatbuf.SchemaStart(b)
	flatbuf.SchemaAddEndianness(b, flatbuf.EndiannessLittle)
	flatbuf.SchemaAddFields(b, fieldVec)
	flatbuf.SchemaAddCustomMetadata(b, meta)
	flatbuf.SchemaAddFeatures(b, features)
	schema := flatbuf.SchemaEnd(b)

	flatbuf.MessageStart(b)
	flatbuf.MessageAddVersion(b, flatbuf.MetadataVersionV5)
	flatbuf.MessageAddHeaderType(b, flatbuf.MessageHeaderSchema)
	flatbuf.MessageAddHeader(b, schema)
	flatbuf.MessageAddBodyLength(b, 0)
	b.Finish(flatbuf.MessageEnd(b))
	return b.FinishedBytes()
}

// wantBuiltSchema is buildSchemaMessage's schema in the integration JSON format.
const wantBuiltSchema = `{"fields": [
 {"name": "id", "nullable": false, "type": {"name": "int", "bitWidth": 64, "isSigned": true}},
 {"name": "name", "nullable": true, "type": {"name": "utf8"},
  "metadata": [{"key": "ALKAID:extension:name", "value": "example"}, {"key": "note", "value": ""}]},
 {"name": "ts", "nullable": true, "type": {"name": "timestamp", "unit": "MICROSECOND", "timezone": "UTC"}},
 {"name": "price", "nullable": true, "type": {"name": "decimal", "precision": 38, "scale": 9}},
 {"name": "tags", "nullable": true, "type": {"name": "list"},
  "children": [{"name": "item", "nullable": true, "type": {"name": "utf8"}}]},
 {"name": "cat", "nullable": true, "type": {"name": "utf8"},
  "dictionary": {"id": 7, "isOrdered": true, "indexType": {"name": "int", "bitWidth": 16, "isSigned": true}}},
 {"name": "u", "nullable": true, "type": {"name": "union", "mode": "DENSE", "typeIds": [3, 5]},
  "children": [{"name": "a", "nullable": true, "type": {"name": "int", "bitWidth": 32, "isSigned": true}},
               {"name": "b", "nullable": true, "type": {"name": "floatingpoint", "precision": "DOUBLE"}}]},
 {"name": "sv", "nullable": true, "type": {"name": "utf8view"}},
 {"name": "t", "nullable": true, "type": {"name": "time", "unit": "MILLISECOND", "bitWidth": 32}}
], "metadata": [{"key": "origin", "value": "fbcheck"}]}`

func TestBuildSchemaMessage(t *testing.T) {
	buf := buildSchemaMessage()
	m := flatbuf.GetRootAsMessage(buf, 0)
	if m.Version() != flatbuf.MetadataVersionV5 || m.HeaderType() != flatbuf.MessageHeaderSchema || m.BodyLength() != 0 {
		t.Fatalf("message {version %v, header %v, body %d}", m.Version(), m.HeaderType(), m.BodyLength())
	}
	var s flatbuf.Schema
	if !header(m, &s) {
		t.Fatal("no header")
	}
	var want jsonSchema
	if err := json.Unmarshal([]byte(wantBuiltSchema), &want); err != nil {
		t.Fatal(err)
	}
	ids := dictIDs{}
	if err := checkSchema(&s, &want, ids); err != nil {
		t.Fatal(err)
	}
	if ids[7] != 7 || len(ids) != 1 {
		t.Errorf("dictionary ids %v, want map[7:7]", ids)
	}
	if s.Endianness() != flatbuf.EndiannessLittle || s.FeaturesLength() != 1 || s.Features(0) != flatbuf.FeatureCOMPRESSED_BODY {
		t.Errorf("endianness %v, features %d", s.Endianness(), s.FeaturesLength())
	}
}

// TestBuildRecordBatchAndFooter round-trips a RecordBatch message (with
// compression and variadic buffer counts) and a Footer through the builders.
func TestBuildRecordBatchAndFooter(t *testing.T) {
	b := flatbuffers.NewBuilder(256)
	flatbuf.RecordBatchStartVariadicBufferCountsVector(b, 1)
	b.PrependInt64(3)
	variadic := b.EndVector(1)
	flatbuf.RecordBatchStartBuffersVector(b, 2)
	flatbuf.CreateBuffer(b, 8, 100) // written back to front
	flatbuf.CreateBuffer(b, 0, 2)
	buffers := b.EndVector(2)
	flatbuf.RecordBatchStartNodesVector(b, 1)
	flatbuf.CreateFieldNode(b, 10, 1)
	nodes := b.EndVector(1)
	flatbuf.BodyCompressionStart(b)
	flatbuf.BodyCompressionAddCodec(b, flatbuf.CompressionTypeZSTD)
	comp := flatbuf.BodyCompressionEnd(b)
	flatbuf.RecordBatchStart(b)
	flatbuf.RecordBatchAddLength(b, 10)
	flatbuf.RecordBatchAddNodes(b, nodes)
	flatbuf.RecordBatchAddBuffers(b, buffers)
	flatbuf.RecordBatchAddCompression(b, comp)
	flatbuf.RecordBatchAddVariadicBufferCounts(b, variadic)
	rbOff := flatbuf.RecordBatchEnd(b)
	flatbuf.MessageStart(b)
	flatbuf.MessageAddVersion(b, flatbuf.MetadataVersionV5)
	flatbuf.MessageAddHeaderType(b, flatbuf.MessageHeaderRecordBatch)
	flatbuf.MessageAddHeader(b, rbOff)
	flatbuf.MessageAddBodyLength(b, 112)
	b.Finish(flatbuf.MessageEnd(b))

	m := flatbuf.GetRootAsMessage(b.FinishedBytes(), 0)
	var rb flatbuf.RecordBatch
	if m.HeaderType() != flatbuf.MessageHeaderRecordBatch || !header(m, &rb) || m.BodyLength() != 112 {
		t.Fatalf("header %v", m.HeaderType())
	}
	var fn flatbuf.FieldNode
	var buf flatbuf.Buffer
	rb.Nodes(&fn, 0)
	rb.Buffers(&buf, 1)
	comp2 := rb.Compression(nil)
	if rb.Length() != 10 || rb.NodesLength() != 1 || fn.Length() != 10 || fn.NullCount() != 1 ||
		rb.BuffersLength() != 2 || buf.Offset() != 8 || buf.Length() != 100 ||
		comp2 == nil || comp2.Codec() != flatbuf.CompressionTypeZSTD || comp2.Method() != flatbuf.BodyCompressionMethodBUFFER ||
		rb.VariadicBufferCountsLength() != 1 || rb.VariadicBufferCounts(0) != 3 {
		t.Errorf("record batch did not round-trip")
	}

	b = flatbuffers.NewBuilder(256)
	flatbuf.SchemaStart(b)
	schema := flatbuf.SchemaEnd(b)
	flatbuf.FooterStartRecordBatchesVector(b, 2)
	flatbuf.CreateBlock(b, 400, 136, 1024)
	flatbuf.CreateBlock(b, 8, 200, 64)
	blocks := b.EndVector(2)
	flatbuf.FooterStart(b)
	flatbuf.FooterAddVersion(b, flatbuf.MetadataVersionV5)
	flatbuf.FooterAddSchema(b, schema)
	flatbuf.FooterAddRecordBatches(b, blocks)
	b.Finish(flatbuf.FooterEnd(b))
	f := flatbuf.GetRootAsFooter(b.FinishedBytes(), 0)
	var blk flatbuf.Block
	f.RecordBatches(&blk, 1)
	if f.Version() != flatbuf.MetadataVersionV5 || f.Schema(nil) == nil || f.DictionariesLength() != 0 ||
		f.RecordBatchesLength() != 2 || blk.Offset() != 400 || blk.MetaDataLength() != 136 || blk.BodyLength() != 1024 {
		t.Errorf("footer did not round-trip")
	}
	// Schema defaults: an empty Schema table reads as little-endian.
	if f.Schema(nil).Endianness() != flatbuf.EndiannessLittle {
		t.Errorf("default endianness is not Little")
	}
}
