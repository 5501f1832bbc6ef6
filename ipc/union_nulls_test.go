package ipc

import (
	"bytes"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	fb "github.com/alkaid-go/alkaid/internal/flatbuf"
)

// unionWithNullCount is a stream of one sparse union<i: int32> of two
// slots, the second null in its child, whose union field node states
// nulls null slots (as one writer records its children's nulls there).
func unionWithNullCount(t *testing.T, nulls int64) []byte {
	t.Helper()
	ut, err := datatype.NewUnion(datatype.Sparse, []datatype.Field{field("i", datatype.Int32)}, nil)
	require.NoError(t, err)
	body := cat(pad8([]byte{0, 0}), pad8([]byte{0b01}), i32s(7, 0))
	return cat(schemaMsg(schemaOf(field("u", ut))), rb(func(b *batch) {
		b.length = 2
		b.nodes = [][2]int64{{2, nulls}, {2, 1}}
		b.buffers = [][2]int64{{0, 2}, {8, 1}, {16, 8}}
		b.body = body
	}))
}

// TestUnionNullCountCarriesNoMeaning pins the one rule for a union's
// field-node null count: every validation level accepts any count in
// [0, length], the array's count is 0, nullness comes from the children,
// and a writer writes 0.
func TestUnionNullCountCarriesNoMeaning(t *testing.T) {
	for _, nulls := range []int64{0, 1, 2} {
		in := unionWithNullCount(t, nulls)
		for _, v := range []array.ValidationLevel{array.ValidateStructure, array.ValidateSafe, array.ValidateFull} {
			sr, err := NewStreamReaderBytes(in, WithValidation(v))
			require.NoError(t, err)
			recs, err := drain(sr)
			require.NoError(t, err, "null count %d, validation %d", nulls, v)
			rec := recs[0]
			u := rec.Column(0).(*array.Union)
			require.Equal(t, 0, u.NullN())
			require.Equal(t, 0, u.Data().NullCount)
			require.False(t, u.IsNull(0))
			require.True(t, u.IsNull(1))
			require.NoError(t, array.Validate(u.Data(), array.ValidateFull))

			var out bytes.Buffer
			w, err := NewStreamWriter(&out, rec.Schema())
			require.NoError(t, err)
			require.NoError(t, w.Write(rec))
			require.NoError(t, w.Close())
			require.Equal(t, [][2]int64{{2, 0}, {2, 1}}, writtenNodes(t, out.Bytes()))
		}
	}
	// A count beyond the length is still invalid.
	sr, err := NewStreamReaderBytes(unionWithNullCount(t, 3))
	require.NoError(t, err)
	_, err = drain(sr)
	require.ErrorContains(t, err, "field node 0 has length 2 and null count 3")
}

// TestUnionWriterIgnoresDataNullCount: a union Data built with a null
// count is written with 0 in its field node.
func TestUnionWriterIgnoresDataNullCount(t *testing.T) {
	in := unionWithNullCount(t, 0)
	sr, err := NewStreamReaderBytes(in)
	require.NoError(t, err)
	rec := firstRecord(t, sr)
	d := *rec.Column(0).Data()
	d.NullCount = 1
	col, err := array.MakeWith(&d, array.ValidationOptions{Level: array.ValidateFull})
	require.NoError(t, err)
	rec2, err := alkaid.NewRecord(rec.Schema(), []array.Array{col}, 2)
	require.NoError(t, err)
	var out bytes.Buffer
	w, err := NewStreamWriter(&out, rec.Schema())
	require.NoError(t, err)
	require.NoError(t, w.Write(rec2))
	require.NoError(t, w.Close())
	require.Equal(t, [][2]int64{{2, 0}, {2, 1}}, writtenNodes(t, out.Bytes()))
}

// writtenNodes returns the field nodes of the first record batch of a
// stream.
func writtenNodes(t *testing.T, stream []byte) [][2]int64 {
	t.Helper()
	r := bytes.NewReader(stream)
	for {
		m, err := ReadMessage(r)
		require.NoError(t, err)
		if m.Type() != MessageRecordBatch {
			continue
		}
		var rbt fb.RecordBatch
		msg := fb.GetRootAsMessage(m.Metadata(), 0)
		var tab flatbuffers.Table
		require.True(t, msg.Header(&tab))
		rbt.Init(tab.Bytes, tab.Pos)
		var out [][2]int64
		for i := range rbt.NodesLength() {
			var n fb.FieldNode
			rbt.Nodes(&n, i)
			out = append(out, [2]int64{n.Length(), n.NullCount()})
		}
		return out
	}
}
