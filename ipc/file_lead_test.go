package ipc

import (
	"bytes"
	"encoding/binary"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	fb "github.com/alkaid-go/alkaid/internal/flatbuf"
)

// int64Record is a record of one int64 column "alpha".
func int64Record(t *testing.T, vs ...int64) *alkaid.Record {
	t.Helper()
	s := schemaOf(field("alpha", datatype.Int64))
	b := array.NewPrimitiveBuilder[int64](datatype.Int64)
	for _, v := range vs {
		b.Append(v)
	}
	rec, err := alkaid.NewRecord(s, []array.Array{b.Finish()}, len(vs))
	require.NoError(t, err)
	return rec
}

// replaceLead rewrites the leading schema message of a file (bytes
// [8, 8+n) where n is its framed length) with lead, zero-padded to the
// same length so that the footer's block offsets stay right.
func replaceLead(t *testing.T, file []byte, frameLen int, lead []byte) []byte {
	t.Helper()
	require.LessOrEqual(t, len(lead), frameLen)
	out := bytes.Clone(file)
	region := out[8 : 8+frameLen]
	clear(region)
	copy(region, lead)
	return out
}

// TestFileLeadingSchemaMalformed: a file whose leading schema message is
// malformed but whose footer is good is read through the footer at every
// validation level; the fault is a warning naming the writer's defect,
// and an error only with WithStrictSchemaMessage.
func TestFileLeadingSchemaMalformed(t *testing.T) {
	rec := int64Record(t, 1, 2, 3)
	s := rec.Schema()
	frame := schemaMsg(s)
	meta := frame[8:] // the Flatbuffer, padded
	good := writeFile(t, s, []*alkaid.Record{rec})
	require.Equal(t, frame, good[8:8+len(frame)], "the writer's leading message")
	huge := binary.LittleEndian.AppendUint32([]byte{0xFF, 0xFF, 0xFF, 0xFF}, 1<<20)
	cases := []struct {
		name, lead, want string
	}{
		{"bare flatbuffer", string(meta), "it is a bare Schema Flatbuffer without the continuation marker and length prefix"},
		{"marker without length", "\xFF\xFF\xFF\xFF" + string(meta[:len(meta)-4]), "it is a Schema Flatbuffer after the continuation marker but without its length prefix"},
		{"metadata past the first block", string(huge), "1048576 bytes of metadata run past the footer at byte"},
		{"metadata not a message", string(frame[:8]) + string(bytes.Repeat([]byte{0x7F}, len(frame)-8)), "schema message at byte 8: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw := replaceLead(t, good, len(frame), []byte(c.lead))
			for _, v := range []array.ValidationLevel{array.ValidateStructure, array.ValidateSafe, array.ValidateFull} {
				fr, err := NewFileReader(bytes.NewReader(raw), int64(len(raw)), WithValidation(v))
				require.NoError(t, err)
				require.True(t, fr.Schema().Equal(s))
				w := fr.Warnings()
				require.Len(t, w, 1)
				require.ErrorIs(t, w[0], ErrInvalid)
				require.ErrorContains(t, w[0], "schema message at byte 8")
				require.ErrorContains(t, w[0], c.want)
				require.ErrorContains(t, w[0], "the file's writer wrote a malformed leading message")
				got, err := fr.Record(0)
				require.NoError(t, err)
				require.Equal(t, rec.String(), got.String())
			}
			_, err := NewFileReader(bytes.NewReader(raw), int64(len(raw)), WithValidation(array.ValidateFull), WithStrictSchemaMessage())
			require.ErrorIs(t, err, ErrInvalid)
			require.ErrorContains(t, err, c.want)
		})
	}
	// A well-formed file has no warnings, strict or not.
	for _, opts := range [][]Option{nil, {WithStrictSchemaMessage(), WithValidation(array.ValidateFull)}} {
		fr, err := NewFileReader(bytes.NewReader(good), int64(len(good)), opts...)
		require.NoError(t, err)
		require.Empty(t, fr.Warnings())
	}
}

// TestFileWithoutLeadingSchema: files whose stream part starts at the
// first batch (Arrow JS writes them) or holds no message at all are read
// through the footer without a warning, strict or not.
func TestFileWithoutLeadingSchema(t *testing.T) {
	rec := int64Record(t, 4, 5)
	s := rec.Schema()
	frame := schemaMsg(s)
	good := writeFile(t, s, []*alkaid.Record{rec})
	noLead := dropLeadingSchema(t, good, len(frame))
	empty := fileWithSchemas(t, nil, s)
	for name, raw := range map[string][]byte{"first batch at byte 8": noLead, "no batches": empty} {
		t.Run(name, func(t *testing.T) {
			for _, opts := range [][]Option{nil, {WithValidation(array.ValidateFull), WithStrictSchemaMessage()}} {
				fr, err := NewFileReader(bytes.NewReader(raw), int64(len(raw)), opts...)
				require.NoError(t, err)
				require.True(t, fr.Schema().Equal(s))
				require.Empty(t, fr.Warnings())
				for rec2, err := range fr.Records() {
					require.NoError(t, err)
					require.Equal(t, rec.String(), rec2.String())
				}
			}
		})
	}
}

// dropLeadingSchema removes the leading schema message (frameLen bytes
// at byte 8) of a file and moves the footer's blocks back by as much: the
// file Arrow JS writes, whose stream part starts at its first batch.
func dropLeadingSchema(t *testing.T, file []byte, frameLen int) []byte {
	t.Helper()
	out := cat(file[:8], file[8+frameLen:])
	tail := len(Magic) + 4
	footerLen := int(binary.LittleEndian.Uint32(out[len(out)-tail:]))
	footer := fb.GetRootAsFooter(out[len(out)-tail-footerLen:], 0)
	var b fb.Block
	for i := range footer.RecordBatchesLength() {
		require.True(t, footer.RecordBatches(&b, i))
		require.True(t, b.MutateOffset(b.Offset()-int64(frameLen)))
	}
	for i := range footer.DictionariesLength() {
		require.True(t, footer.Dictionaries(&b, i))
		require.True(t, b.MutateOffset(b.Offset()-int64(frameLen)))
	}
	return out
}

// TestFileWarningsConcurrent: below array.ValidateFull the leading message is
// checked on the first call of Warnings, which goroutines may make at
// once.
func TestFileWarningsConcurrent(t *testing.T) {
	rec := int64Record(t, 1)
	frame := schemaMsg(rec.Schema())
	good := writeFile(t, rec.Schema(), []*alkaid.Record{rec})
	raw := replaceLead(t, good, len(frame), frame[8:])
	fr, err := NewFileReader(bytes.NewReader(raw), int64(len(raw)))
	require.NoError(t, err)
	var wg sync.WaitGroup
	got := make([]int, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = len(fr.Warnings())
			_, _ = fr.Record(0)
		}()
	}
	wg.Wait()
	require.Equal(t, []int{1, 1, 1, 1, 1, 1, 1, 1}, got)
}
