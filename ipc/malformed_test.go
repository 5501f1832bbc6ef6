package ipc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	fb "github.com/alkaid-go/alkaid/internal/flatbuf"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

// frame wraps metadata and body as one encapsulated message.
func frame(meta, body []byte) []byte {
	pad := (8 - (8+len(meta))%8) % 8
	out := binary.LittleEndian.AppendUint32(nil, continuation)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(meta)+pad))
	out = append(out, meta...)
	out = append(out, make([]byte, pad)...)
	return append(out, body...)
}

func schemaMsg(s *alkaid.Schema) []byte {
	b := flatbuffers.NewBuilder(256)
	off, err := writeSchema(b, s, false)
	if err != nil {
		panic(err)
	}
	return frame(finishMessage(b, fb.MessageHeaderSchema, off, 0, nil), nil)
}

// batch describes a hand-made record batch message.
type batch struct {
	length   int64
	nodes    [][2]int64
	buffers  [][2]int64
	variadic []int64
	codec    int // 0 none, 1 lz4, 2 zstd, 9 unknown
	body     []byte
	bodyLen  int64 // stated body length; -2 = len(body)
	dictID   int64 // ≥ 0: a dictionary batch with this id
	delta    bool  // a dictionary batch: a delta
	version  fb.MetadataVersion
	header   fb.MessageHeader
}

func (bt batch) bytes() []byte {
	b := flatbuffers.NewBuilder(256)
	var comp flatbuffers.UOffsetT
	if bt.codec != 0 {
		fb.BodyCompressionStart(b)
		fb.BodyCompressionAddCodec(b, fb.CompressionType(map[int]int8{1: 0, 2: 1, 9: 7}[bt.codec]))
		comp = fb.BodyCompressionEnd(b)
	}
	var variadic flatbuffers.UOffsetT
	if bt.variadic != nil {
		fb.RecordBatchStartVariadicBufferCountsVector(b, len(bt.variadic))
		for i := len(bt.variadic) - 1; i >= 0; i-- {
			b.PrependInt64(bt.variadic[i])
		}
		variadic = b.EndVector(len(bt.variadic))
	}
	fb.RecordBatchStartBuffersVector(b, len(bt.buffers))
	for i := len(bt.buffers) - 1; i >= 0; i-- {
		fb.CreateBuffer(b, bt.buffers[i][0], bt.buffers[i][1])
	}
	bufs := b.EndVector(len(bt.buffers))
	fb.RecordBatchStartNodesVector(b, len(bt.nodes))
	for i := len(bt.nodes) - 1; i >= 0; i-- {
		fb.CreateFieldNode(b, bt.nodes[i][0], bt.nodes[i][1])
	}
	nodes := b.EndVector(len(bt.nodes))
	fb.RecordBatchStart(b)
	fb.RecordBatchAddLength(b, bt.length)
	fb.RecordBatchAddNodes(b, nodes)
	fb.RecordBatchAddBuffers(b, bufs)
	if comp != 0 {
		fb.RecordBatchAddCompression(b, comp)
	}
	if variadic != 0 {
		fb.RecordBatchAddVariadicBufferCounts(b, variadic)
	}
	rb := fb.RecordBatchEnd(b)
	header, ht := rb, fb.MessageHeaderRecordBatch
	if bt.dictID >= 0 {
		fb.DictionaryBatchStart(b)
		fb.DictionaryBatchAddId(b, bt.dictID)
		fb.DictionaryBatchAddData(b, rb)
		fb.DictionaryBatchAddIsDelta(b, bt.delta)
		header, ht = fb.DictionaryBatchEnd(b), fb.MessageHeaderDictionaryBatch
	}
	if bt.header != 0 {
		ht = bt.header
	}
	bodyLen := bt.bodyLen
	if bodyLen == -2 {
		bodyLen = int64(len(bt.body))
	}
	version := bt.version
	if version == 0 {
		version = fb.MetadataVersionV5
	}
	fb.MessageStart(b)
	fb.MessageAddVersion(b, version)
	fb.MessageAddHeaderType(b, ht)
	fb.MessageAddHeader(b, header)
	fb.MessageAddBodyLength(b, bodyLen)
	b.Finish(fb.MessageEnd(b))
	return frame(b.FinishedBytes(), bt.body)
}

func i32s(v ...int32) []byte {
	var out []byte
	for _, x := range v {
		out = binary.LittleEndian.AppendUint32(out, uint32(x))
	}
	return out
}

func pad8(b []byte) []byte { return append(b, make([]byte, (8-len(b)%8)%8)...) }

func field(name string, t datatype.DataType) datatype.Field {
	return datatype.Field{Name: name, Type: t, Nullable: true}
}

func schemaOf(fields ...datatype.Field) *alkaid.Schema {
	return alkaid.NewSchema(fields, datatype.Metadata{})
}

// deepSchemaMsg nests lists depth levels deep, written by hand so that no
// Go recursion limits the writer.
func deepSchemaMsg(depth int) []byte {
	b := flatbuffers.NewBuilder(1 << 16)
	name := b.CreateString("x")
	fb.IntStart(b)
	fb.IntAddBitWidth(b, 32)
	fb.IntAddIsSigned(b, true)
	it := fb.IntEnd(b)
	fb.FieldStart(b)
	fb.FieldAddName(b, name)
	fb.FieldAddTypeType(b, fb.TypeInt)
	fb.FieldAddType(b, it)
	cur := fb.FieldEnd(b)
	for range depth {
		fb.ListStart(b)
		lt := fb.ListEnd(b)
		fb.FieldStartChildrenVector(b, 1)
		b.PrependUOffsetT(cur)
		kids := b.EndVector(1)
		fb.FieldStart(b)
		fb.FieldAddName(b, name)
		fb.FieldAddTypeType(b, fb.TypeList)
		fb.FieldAddType(b, lt)
		fb.FieldAddChildren(b, kids)
		cur = fb.FieldEnd(b)
	}
	fb.SchemaStartFieldsVector(b, 1)
	b.PrependUOffsetT(cur)
	fields := b.EndVector(1)
	fb.SchemaStart(b)
	fb.SchemaAddFields(b, fields)
	s := fb.SchemaEnd(b)
	return frame(finishMessage(b, fb.MessageHeaderSchema, s, 0, nil), nil)
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func rb(mod func(*batch)) []byte {
	bt := batch{length: 3, nodes: [][2]int64{{3, 0}}, buffers: [][2]int64{{0, 0}, {0, 12}},
		body: pad8(i32s(1, 2, 3)), bodyLen: -2, dictID: -1}
	if mod != nil {
		mod(&bt)
	}
	return bt.bytes()
}

type malformed struct {
	name string
	in   []byte
	opts []Option
	want string
}

func malformedCases() []malformed {
	i32 := schemaMsg(schemaOf(field("a", datatype.Int32)))
	str := schemaMsg(schemaOf(field("s", datatype.String)))
	dt, _ := datatype.NewDictionary(datatype.Int8, datatype.String, false)
	dict := schemaMsg(schemaOf(field("d", dt)))
	sparse, _ := datatype.NewUnion(datatype.Sparse, []datatype.Field{field("i", datatype.Int8)}, []int8{5})
	dense, _ := datatype.NewUnion(datatype.Dense, []datatype.Field{field("i", datatype.Int8)}, []int8{5})
	ree, _ := datatype.NewRunEndEncoded(datatype.Int32, datatype.Int8)
	bigEndian := schemaMsg(schemaOf(field("a", datatype.Int32)).WithEndianness(alkaid.BigEndian))
	fsb, _ := datatype.NewFixedSizeBinary(4)
	strBatch := func(offs []int32, data string) func(*batch) {
		return func(b *batch) {
			ob := pad8(i32s(offs...))
			b.length = int64(len(offs) - 1)
			b.nodes = [][2]int64{{b.length, 0}}
			b.buffers = [][2]int64{{0, 0}, {0, int64(4 * len(offs))}, {int64(len(ob)), int64(len(data))}}
			b.body = pad8(append(ob, data...))
		}
	}
	valid := cat(i32, rb(nil), eos)
	eosBad := binary.LittleEndian.AppendUint32(nil, 0xFFFFFFFE)
	cases := []malformed{
		{"empty input", nil, nil, "stream ends before its schema"},
		{"only a continuation marker", []byte{0xFF, 0xFF, 0xFF, 0xFF}, nil, "stream ends before its schema"},
		{"truncated prefix", []byte{0xFF, 0xFF, 0xFF, 0xFF, 8, 0}, nil, "truncated message length"},
		{"bad continuation", cat(eosBad, []byte{0, 0, 0, 0}), nil, "negative message metadata length"},
		{"negative metadata size", cat([]byte{0xFF, 0xFF, 0xFF, 0xFF}, i32s(-8)), nil, "negative message metadata length -8"},
		{"huge metadata size", cat([]byte{0xFF, 0xFF, 0xFF, 0xFF}, i32s(0x7FFFFFF0)), nil, "exceeds"},
		{"metadata shorter than stated", cat([]byte{0xFF, 0xFF, 0xFF, 0xFF}, i32s(64), make([]byte, 10)), nil, "truncated message metadata"},
		{"metadata garbage", frame([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, nil), nil, "flatbuffer"},
		{"root offset beyond metadata", frame(i32s(4096, 0, 0, 0), nil), nil, "flatbuffer: Message table at 4096 outside"},
		{"vtable outside metadata", frame(i32s(4, -1000, 0, 0), nil), nil, "vtable"},
		{"record batch before schema", rb(nil), nil, "record batch before the schema"},
		{"second schema", cat(i32, i32), nil, "a second schema message"},
		{"negative body length", cat(i32, rb(func(b *batch) { b.bodyLen = -5 })), nil, "negative message body length -5"},
		{"body beyond the limit", cat(i32, rb(func(b *batch) { b.bodyLen = 1 << 40 })), nil, "message body of 1099511627776 bytes exceeds"},
		{"body longer than input", cat(i32, rb(func(b *batch) { b.bodyLen = 1 << 20 })), nil, "message body of 1048576 bytes but only"},
		{"body truncated", valid[:len(valid)-12], nil, "message body of 16 bytes but only"},
		{"buffer offset beyond body", cat(i32, rb(func(b *batch) { b.buffers[1] = [2]int64{64, 12} })), nil, "buffer 1 requires body bytes [64, 64+12) but the body has 16 bytes"},
		{"buffer length beyond body", cat(i32, rb(func(b *batch) { b.buffers[1] = [2]int64{0, 100} })), nil, "buffer 1 requires body bytes [0, 0+100)"},
		{"buffer offset negative", cat(i32, rb(func(b *batch) { b.buffers[1] = [2]int64{-8, 12} })), nil, "buffer 1 requires body bytes [-8"},
		{"buffer length overflowing", cat(i32, rb(func(b *batch) { b.buffers[1] = [2]int64{8, 1<<63 - 4} })), nil, "buffer 1 requires body bytes"},
		{"buffers overlapping", cat(str, rb(func(b *batch) {
			strBatch([]int32{0, 1, 2}, "ab")(b)
			b.buffers[2] = [2]int64{4, 2}
		})), nil, "overlaps the buffer before it"},
		{"too few buffers", cat(i32, rb(func(b *batch) { b.buffers = b.buffers[:1] })), nil, "the message has 1 buffers; the schema needs more"},
		{"too many buffers", cat(i32, rb(func(b *batch) { b.buffers = append(b.buffers, [2]int64{16, 0}) })), nil, "the message has 1 field nodes, 3 buffers"},
		{"too few field nodes", cat(i32, rb(func(b *batch) { b.nodes = nil })), nil, "the message has 0 field nodes; the schema needs more"},
		{"too many field nodes", cat(i32, rb(func(b *batch) { b.nodes = append(b.nodes, [2]int64{1, 0}) })), nil, "the message has 2 field nodes"},
		{"negative node length", cat(i32, rb(func(b *batch) { b.nodes[0] = [2]int64{-1, 0} })), nil, "field node 0 has length -1"},
		{"null count above length", cat(i32, rb(func(b *batch) { b.nodes[0] = [2]int64{3, 4} })), nil, "field node 0 has length 3 and null count 4"},
		{"nulls without bitmap", cat(i32, rb(func(b *batch) { b.nodes[0] = [2]int64{3, 1} })), nil, "has 1 nulls but no validity bitmap"},
		{"values buffer too short", cat(i32, rb(func(b *batch) { b.buffers[1] = [2]int64{0, 8} })), nil, "needs 12 for 3 slots"},
		{"batch length differs from column", cat(i32, rb(func(b *batch) { b.length = 2 })), nil, "column 0 (a) has 3 rows, the batch 2"},
		{"negative batch length", cat(i32, rb(func(b *batch) { b.length = -1 })), nil, "length -1"},
		{"offsets decreasing", cat(str, rb(strBatch([]int32{0, 3, 1, 4}, "abcd"))), nil, "offset"},
		{"offset beyond data", cat(str, rb(strBatch([]int32{0, 2, 9}, "abcd"))), nil, "offset"},
		{"first offset negative", cat(str, rb(strBatch([]int32{-2, 2, 4}, "abcd"))), nil, "offset"},
		{"invalid UTF-8", cat(str, rb(strBatch([]int32{0, 2, 4}, "a\xffcd"))), []Option{WithValidation(array.ValidateFull)}, "UTF-8"},
		{"sparse union id undeclared", cat(schemaMsg(schemaOf(field("u", sparse))), rb(func(b *batch) {
			b.length = 2
			b.nodes = [][2]int64{{2, 0}, {2, 0}}
			b.buffers = [][2]int64{{0, 2}, {8, 0}, {8, 2}}
			b.body = []byte{5, 9, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0}
		})), nil, "type"},
		{"dense union offset out of range", cat(schemaMsg(schemaOf(field("u", dense))), rb(func(b *batch) {
			b.length = 2
			b.nodes = [][2]int64{{2, 0}, {1, 0}}
			b.buffers = [][2]int64{{0, 2}, {8, 8}, {16, 0}, {16, 1}}
			b.body = cat([]byte{5, 5, 0, 0, 0, 0, 0, 0}, i32s(0, 7), []byte{1, 0, 0, 0, 0, 0, 0, 0})
		})), nil, "offset"},
		{"dictionary id unknown", cat(dict, rb(func(b *batch) { b.dictID = 42 })), nil, "dictionary batch (id 42): no field of the schema uses this id"},
		{"dictionary used before defined", cat(dict, rb(func(b *batch) {
			b.nodes = [][2]int64{{3, 0}}
			b.buffers = [][2]int64{{0, 0}, {0, 3}}
			b.body = pad8([]byte{0, 1, 0})
		})), nil, "dictionary id 0 used before any dictionary batch defined it"},
		// Checked once, on arrival: batches check only their indices.
		{"dictionary values beyond their data", cat(dict,
			rb(func(b *batch) { strBatch([]int32{0, 9}, "x")(b); b.dictID = 0 })), nil, "dictionary batch (id 0)"},
		{"dictionary index out of range", cat(dict,
			rb(func(b *batch) { strBatch([]int32{0, 1}, "x")(b); b.dictID = 0 }),
			rb(func(b *batch) {
				b.buffers = [][2]int64{{0, 0}, {0, 3}}
				b.body = pad8([]byte{0, 1, 0})
			})), nil, "index"},
		{"run ends not increasing", cat(schemaMsg(schemaOf(field("r", ree))), rb(func(b *batch) {
			b.length = 4
			b.nodes = [][2]int64{{4, 0}, {2, 0}, {2, 0}}
			b.buffers = [][2]int64{{0, 0}, {0, 8}, {8, 0}, {8, 2}}
			b.body = cat(i32s(3, 2), []byte{1, 2, 0, 0, 0, 0, 0, 0})
		})), nil, "run end"},
		{"run ends too short", cat(schemaMsg(schemaOf(field("r", ree))), rb(func(b *batch) {
			b.length = 9
			b.nodes = [][2]int64{{9, 0}, {2, 0}, {2, 0}}
			b.buffers = [][2]int64{{0, 0}, {0, 8}, {8, 0}, {8, 2}}
			b.body = cat(i32s(1, 2), []byte{1, 2, 0, 0, 0, 0, 0, 0})
		})), nil, "run end"},
		{"view without variadic count", cat(schemaMsg(schemaOf(field("v", datatype.StringView))), rb(func(b *batch) {
			b.length = 1
			b.buffers = [][2]int64{{0, 0}, {0, 16}}
			b.nodes = [][2]int64{{1, 0}}
			b.body = make([]byte, 16)
		})), nil, "needs a variadic buffer count"},
		{"view buffer index out of range", cat(schemaMsg(schemaOf(field("v", datatype.StringView))), rb(func(b *batch) {
			b.length = 1
			b.nodes = [][2]int64{{1, 0}}
			b.variadic = []int64{0}
			b.buffers = [][2]int64{{0, 0}, {0, 16}}
			b.body = cat(i32s(20, 0x61616161, 3, 0))
		})), nil, "buffer"},
		{"nesting 10,000 deep", deepSchemaMsg(10000), nil, "deeper than"},
		// Found by fuzzing: arrays of zero-width types take no bytes at any
		// length, so only MaxRows stops a tiny input declaring 2^40 rows.
		{"null column of 2^40 rows", cat(schemaMsg(schemaOf(field("n", datatype.Null))), rb(func(b *batch) {
			b.length = 1 << 40
			b.nodes = [][2]int64{{1 << 40, 1 << 40}}
			b.buffers = nil
			b.body = nil
		})), nil, "length 1099511627776 (limit 2147483647 rows)"},
		{"compressed length lying (larger)", cat(i32, rb(func(b *batch) {
			b.codec = 1
			b.body = pad8(binary.LittleEndian.AppendUint64(nil, 1<<40))
			b.buffers[1] = [2]int64{0, 8}
		})), nil, "would expand to 1099511627776 bytes"},
		{"compressed buffers beyond the limit together", cat(i32, rb(func(b *batch) {
			b.codec = 1
			b.body = cat(binary.LittleEndian.AppendUint64(nil, 600), binary.LittleEndian.AppendUint64(nil, 600))
			b.buffers = [][2]int64{{0, 8}, {8, 8}}
		})), []Option{WithLimits(Limits{MaxDecompressed: 1000})}, "compressed buffers 0 to 1 would expand to more than 1000 bytes together"},
		{"compressed length lying (impossible ratio)", cat(i32, rb(func(b *batch) {
			b.codec = 2
			b.body = pad8(binary.LittleEndian.AppendUint64(nil, 1<<30))
			b.buffers[1] = [2]int64{0, 8}
		})), []Option{WithLimits(Limits{MaxCompressionRatio: 1 << 30})}, "compressed buffer of 8 bytes claims 1073741824 uncompressed bytes"},
		{"compressed length out of proportion to the body", cat(i32, rb(func(b *batch) {
			b.codec = 2
			b.body = pad8(binary.LittleEndian.AppendUint64(nil, 1<<30))
			b.buffers[1] = [2]int64{0, 8}
		})), nil, "a body of 8 bytes states 1073741824 uncompressed bytes"},
		{"compressed length lying (smaller)", cat(i32, rb(func(b *batch) {
			b.codec = 2
			frame := zstdEncoder(0).EncodeAll(i32s(1, 2, 3, 4, 5, 6), nil)
			b.body = pad8(cat(binary.LittleEndian.AppendUint64(nil, 12), frame))
			b.buffers[1] = [2]int64{0, int64(8 + len(frame))}
		})), nil, "zstd buffer"},
		{"compressed garbage", cat(i32, rb(func(b *batch) {
			b.codec = 2
			b.body = pad8(cat(binary.LittleEndian.AppendUint64(nil, 12), []byte("not zstd at all")))
			b.buffers[1] = [2]int64{0, 23}
		})), nil, "zstd buffer"},
		{"compressed buffer lacks length", cat(i32, rb(func(b *batch) {
			b.codec = 1
			b.buffers[1] = [2]int64{0, 4}
		})), nil, "lacks its 8-byte length"},
		{"unknown codec", cat(i32, rb(func(b *batch) { b.codec = 9 })), nil, "compression codec 7"},
		{"tensor message", cat(i32, rb(func(b *batch) { b.header = fb.MessageHeaderTensor })), nil, "tensor messages"},
		{"metadata version V3", cat(i32, rb(func(b *batch) { b.version = fb.MetadataVersionV3 })), nil, "metadata version V3"},
		{"big-endian refused", cat(bigEndian, rb(nil)), []Option{WithoutByteSwap()}, "big-endian data"},
		{"fixed-size binary too short", cat(schemaMsg(schemaOf(field("f", fsb))), rb(func(b *batch) { b.buffers[1] = [2]int64{0, 8} })), nil, "needs 12"},
	}
	return cases
}

func TestMalformedStreams(t *testing.T) {
	cases := malformedCases()
	require.GreaterOrEqual(t, len(cases), 40)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := readStreamFully(c.in, c.opts...)
			require.Error(t, err)
			require.True(t, errors.Is(err, ErrInvalid) || errors.Is(err, ErrNotSupported) || errors.Is(err, ErrLimit),
				"error does not wrap a sentinel: %v", err)
			require.Contains(t, err.Error(), c.want)
			// The push decoder must agree.
			dec := mustDecoder(t, c.opts...)
			dec.Write(c.in)
			var derr error
			for range 100 {
				ev, err := dec.Next()
				if err != nil || ev.Kind == EventEnd {
					derr = err
					break
				}
			}
			if derr != nil && !errors.Is(derr, ErrNeedMore) {
				require.True(t, errors.Is(derr, ErrInvalid) || errors.Is(derr, ErrNotSupported) || errors.Is(derr, ErrLimit), "%v", derr)
			}
		})
	}
}

// readStreamFully reads every batch and prints it (touching every value).
func readStreamFully(in []byte, opts ...Option) error {
	r, err := NewStreamReader(bytes.NewReader(in), opts...)
	if err != nil {
		return err
	}
	for rec, err := range r.Records() {
		if err != nil {
			return err
		}
		_ = rec.String()
	}
	return nil
}

// TestTruncatedEverywhere cuts a valid stream at every byte: the reader
// either ends cleanly at a message boundary or reports truncation.
func TestTruncatedEverywhere(t *testing.T) {
	dt, _ := datatype.NewDictionary(datatype.Int8, datatype.String, false)
	s := schemaOf(field("i", datatype.Int64), field("l", datatype.ListOf(datatype.String)), field("d", dt))
	rec := randdata.New(5).Record(s, 20)
	raw := writeStream(t, s, []*alkaid.Record{rec, rec.Slice(3, 9)}, WithCompression(Zstd, 0))
	for cut := range len(raw) {
		err := readStreamFully(raw[:cut])
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		if err != nil && !strings.Contains(err.Error(), "truncated") && !strings.Contains(err.Error(), "remain") &&
			!strings.Contains(err.Error(), "before its schema") {
			t.Fatalf("cut at %d: unexpected error %v", cut, err)
		}
	}
}
