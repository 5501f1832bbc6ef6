package cli

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/flatbuf"
	"github.com/alkaid-go/alkaid/ipc"
)

// Files as independent writers make them, built here from files this
// library writes: an empty list child name, no leading schema message
// (Arrow JS), a bare leading schema Flatbuffer (a writer that forgets the
// length prefix), a union field node with a null count.

// listRecord is one batch of l: list<NAME: int32>, ll: large_list<…>,
// f: fixed_size_list<…>[2], each [[1, 2], [3, null], null].
func listRecord(t testing.TB, name string) *alkaid.Record {
	t.Helper()
	elem := datatype.Field{Name: name, Type: datatype.Int32, Nullable: true}
	fsl, err := datatype.FixedSizeListOfField(elem, 2)
	require.NoError(t, err)
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "l", Type: datatype.ListOfField(elem), Nullable: true},
		{Name: "ll", Type: datatype.LargeListOfField(elem), Nullable: true},
		{Name: "f", Type: fsl, Nullable: true},
	}, datatype.Metadata{})
	cols := make([]array.Array, 3)
	for i, f := range schema.Fields() {
		b := array.NewBuilder(f.Type)
		var child *array.PrimitiveBuilder[int32]
		appendList := func(valid bool) {
			switch lb := b.(type) {
			case *array.ListBuilder[int32]:
				lb.Append(valid)
				child = lb.ValueBuilder().(*array.PrimitiveBuilder[int32])
			case *array.ListBuilder[int64]:
				lb.Append(valid)
				child = lb.ValueBuilder().(*array.PrimitiveBuilder[int32])
			case *array.FixedSizeListBuilder:
				lb.Append(valid)
				child = lb.ValueBuilder().(*array.PrimitiveBuilder[int32])
			}
		}
		appendList(true)
		child.Append(1)
		child.Append(2)
		appendList(true)
		child.Append(3)
		child.AppendNull()
		if _, fixed := b.(*array.FixedSizeListBuilder); fixed {
			b.AppendNull()
		} else {
			appendList(false)
		}
		cols[i] = b.NewArray()
	}
	rec, err := alkaid.NewRecord(schema, cols, 3)
	require.NoError(t, err)
	return rec
}

// unionRecord is one batch of u: sparse_union<i: int32, s: utf8> of
// three slots, the second null (in child i).
func unionRecord(t testing.TB) *alkaid.Record {
	t.Helper()
	ut, err := datatype.NewUnion(datatype.Sparse, []datatype.Field{
		{Name: "i", Type: datatype.Int32, Nullable: true},
		{Name: "s", Type: datatype.String, Nullable: true},
	}, nil)
	require.NoError(t, err)
	schema := alkaid.NewSchema([]datatype.Field{{Name: "u", Type: ut}}, datatype.Metadata{})
	b := array.NewUnionBuilder(ut)
	b.Append(0).(*array.PrimitiveBuilder[int32]).Append(7)
	b.Append(0).AppendNull()
	b.Append(1).(*array.BinaryBuilder[int32]).Append([]byte("x"))
	rec, err := alkaid.NewRecord(schema, []array.Array{b.NewArray()}, 3)
	require.NoError(t, err)
	return rec
}

func writeFileBytes(t testing.TB, schema *alkaid.Schema, recs []*alkaid.Record, opts ...ipc.Option) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, schema, opts...)
	require.NoError(t, err)
	for _, r := range recs {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// leadingFrame is the length of a file's leading message (at byte 8).
func leadingFrame(t testing.TB, file []byte) int {
	t.Helper()
	r := bytes.NewReader(file[8:])
	m, err := ipc.ReadMessage(r)
	require.NoError(t, err)
	require.Equal(t, ipc.MessageSchema, m.Type())
	return len(file) - 8 - r.Len()
}

// footerOf returns the footer table of a file, over its bytes.
func footerOf(file []byte) *flatbuf.Footer {
	tail := len(ipc.Magic) + 4 // the magic ends the file, unpadded
	if ipc.DetectMagic(file) == ipc.ArrowMagic {
		tail = len(ipc.ArrowMagic) + 4
	}
	n := int(binary.LittleEndian.Uint32(file[len(file)-tail:]))
	return flatbuf.GetRootAsFooter(file[len(file)-tail-n:], 0)
}

// withoutLeadingSchema removes the leading schema message and moves the
// footer's blocks back by as much: the file Arrow JS writes.
func withoutLeadingSchema(t testing.TB, file []byte) []byte {
	t.Helper()
	n := leadingFrame(t, file)
	out := append(bytes.Clone(file[:8]), file[8+n:]...)
	ft := footerOf(out)
	var b flatbuf.Block
	for i := range ft.RecordBatchesLength() {
		require.True(t, ft.RecordBatches(&b, i))
		require.True(t, b.MutateOffset(b.Offset()-int64(n)))
	}
	for i := range ft.DictionariesLength() {
		require.True(t, ft.Dictionaries(&b, i))
		require.True(t, b.MutateOffset(b.Offset()-int64(n)))
	}
	return out
}

// withBareLeadingSchema replaces the leading schema message by its
// Flatbuffer alone, without the continuation marker and length, padded
// with zeros so that the footer's offsets stay right.
func withBareLeadingSchema(t testing.TB, file []byte) []byte {
	t.Helper()
	n := leadingFrame(t, file)
	out := bytes.Clone(file)
	meta := bytes.Clone(file[16 : 8+n])
	clear(out[8 : 8+n])
	copy(out[8:], meta)
	return out
}

// withUnionNullCount sets the null count of field node 0 (the union) of
// every record batch of a stream or file to nulls.
func withUnionNullCount(t testing.TB, raw []byte, nulls int64) []byte {
	t.Helper()
	out := bytes.Clone(raw)
	start := 0
	if ipc.DetectMagic(out) != "" {
		start = 8
	}
	patched := 0
	require.NoError(t, scanMessages(bytes.NewReader(out[start:]), int64(start), func(mi msgInfo, m *ipc.Message) error {
		if mi.typ != ipc.MessageRecordBatch {
			return nil
		}
		metaAt := int(mi.offset) + 8
		meta := out[metaAt : metaAt+len(m.Metadata())]
		msg := flatbuf.GetRootAsMessage(meta, 0)
		var tab flatbuffers.Table
		require.True(t, msg.Header(&tab))
		var rb flatbuf.RecordBatch
		rb.Init(tab.Bytes, tab.Pos)
		var node flatbuf.FieldNode
		require.True(t, rb.Nodes(&node, 0))
		require.True(t, node.MutateNullCount(nulls))
		patched++
		return nil
	}))
	require.Positive(t, patched)
	return out
}

func writeTemp(t *testing.T, name string, raw []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, raw, 0o644))
	return p
}

// catSchemaOf is what the schema of path reads as through cat's reader
// (openInput), the reference the other commands must agree with.
func catSchemaOf(t *testing.T, path string) *alkaid.Schema {
	t.Helper()
	in, err := openInput(path)
	require.NoError(t, err)
	defer in.Close()
	return in.Schema()
}

// schemaFieldsOf is the field lines of `alkaid schema`'s output.
func schemaFieldsOf(s *alkaid.Schema) string {
	var b strings.Builder
	for _, f := range s.Fields() {
		b.WriteString("  " + f.String() + "\n")
	}
	return b.String()
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	return raw
}

// firstNodeNulls is the null count of field node 0 of a record batch
// message.
func firstNodeNulls(m *ipc.Message) int64 {
	msg := flatbuf.GetRootAsMessage(m.Metadata(), 0)
	var tab flatbuffers.Table
	if !msg.Header(&tab) {
		return -1
	}
	var rb flatbuf.RecordBatch
	rb.Init(tab.Bytes, tab.Pos)
	var node flatbuf.FieldNode
	if !rb.Nodes(&node, 0) {
		return -1
	}
	return node.NullCount()
}
