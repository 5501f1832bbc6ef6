package ipc

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	fb "github.com/alkaid-go/alkaid/internal/flatbuf"
)

// allocated runs f and returns the bytes it allocated (an upper bound of
// the heap it grew by).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestWriterRefusesHugeMetadata (issue item 1): a schema whose metadata
// the Flatbuffers builder cannot build (it would panic past 2 GiB), or
// that readers would refuse, is an ErrLimit before any byte is written.
func TestWriterRefusesHugeMetadata(t *testing.T) {
	big := strings.Repeat("n", 1<<20) // shared by every use: 1 MiB of memory
	many := func(n int, f func(i int) datatype.Field) *alkaid.Schema {
		fields := make([]datatype.Field, n)
		for i := range fields {
			fields[i] = f(i)
		}
		return schemaOf(fields...)
	}
	kv := func(n int) datatype.Metadata {
		keys, vals := make([]string, n), make([]string, n)
		for i := range keys {
			keys[i], vals[i] = strings.Repeat("k", i+1), big
		}
		return datatype.NewMetadata(keys, vals)
	}
	tz, _ := datatype.NewTimestamp(datatype.Second, big)
	cases := []struct {
		name   string
		schema *alkaid.Schema
	}{
		// 3 GiB of names: past what the builder can hold.
		{"names past 2 GiB", many(3000, func(int) datatype.Field { return field(big, datatype.Int8) })},
		{"one name past MaxMetadataSize", schemaOf(field(strings.Repeat("x", DefaultLimits.MaxMetadataSize), datatype.Int8))},
		{"key-value metadata past 2 GiB", alkaid.NewSchema([]datatype.Field{field("a", datatype.Int8)}, kv(2500))},
		{"field metadata", schemaOf(datatype.Field{Name: "a", Type: datatype.Int8, Metadata: kv(100)})},
		{"time zones", many(100, func(int) datatype.Field { return field("t", tz) })},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, file := range []bool{false, true} {
				var out bytes.Buffer
				var err error
				require.NotPanics(t, func() {
					if file {
						_, err = NewFileWriter(&out, c.schema)
					} else {
						_, err = NewStreamWriter(&out, c.schema)
					}
				})
				require.ErrorIs(t, err, ErrLimit)
				require.Zero(t, out.Len(), "nothing is written before the refusal")
			}
		})
	}
}

// TestWriterRefusesTooManyTables (item 7): a schema of more tables than
// default readers accept is refused before anything is written; one just
// under the limit is written and read back with the default limits, and a
// reader with a lower MaxTables refuses it with ErrLimit.
func TestWriterRefusesTooManyTables(t *testing.T) {
	wide := func(n int) *alkaid.Schema {
		fields := make([]datatype.Field, n)
		for i := range fields {
			fields[i] = field("c", datatype.Null) // a Field and a Null table each
		}
		return schemaOf(fields...)
	}
	var out bytes.Buffer
	_, err := NewStreamWriter(&out, wide(DefaultLimits.MaxTables/2+1))
	require.ErrorIs(t, err, ErrLimit)
	require.Contains(t, err.Error(), "MaxTables")
	require.Zero(t, out.Len())

	n := DefaultLimits.MaxTables/2 - 8
	s := wide(n)
	w, err := NewStreamWriter(&out, s)
	require.NoError(t, err)
	rec, err := alkaid.NewRecord(s, nullColumns(t, n, 2), 2)
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	r, err := NewStreamReaderBytes(out.Bytes())
	require.NoError(t, err)
	require.Equal(t, n, r.Schema().NumFields())
	require.Equal(t, 2, firstRecord(t, r).NumRows())

	_, err = NewStreamReaderBytes(out.Bytes(), WithLimits(Limits{MaxTables: 1000}))
	require.ErrorIs(t, err, ErrLimit)
}

// TestWriterRefusesHugeBatchMetadata (items 1 and 7): message-level
// metadata past what readers accept is refused, and the writer goes on.
func TestWriterRefusesHugeBatchMetadata(t *testing.T) {
	s := schemaOf(field("c", datatype.Null))
	rec, err := alkaid.NewRecord(s, nullColumns(t, 1, 3), 3)
	require.NoError(t, err)
	big := strings.Repeat("v", DefaultLimits.MaxMetadataSize)
	var out bytes.Buffer
	w, err := NewStreamWriter(&out, s)
	require.NoError(t, err)
	require.ErrorIs(t, w.WriteWithMetadata(rec, map[string]string{"k": big}), ErrLimit)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	require.NoError(t, readStreamFully(out.Bytes()))

	out.Reset()
	fw, err := NewFileWriter(&out, s)
	require.NoError(t, err)
	fw.SetFooterMetadata(map[string]string{"k": big})
	require.ErrorIs(t, fw.Write(rec), ErrLimit)
	require.ErrorIs(t, fw.Close(), ErrLimit)
}

func nullColumns(t *testing.T, n, rows int) []array.Array {
	t.Helper()
	col := array.MustMake(array.NewData(datatype.Null, rows, nil, nil, rows, 0))
	cols := make([]array.Array, n)
	for i := range cols {
		cols[i] = col
	}
	return cols
}

// sharedSchemaMsg builds a schema message whose refs references all point
// at one table holding a string of size bytes: the key-value metadata of
// the schema, the fields (one Field table with a long name), or the time
// zones (one Timestamp table).
func sharedSchemaMsg(kind string, refs, size int) []byte {
	b := flatbuffers.NewBuilder(size + 16*refs + 1024)
	long := b.CreateString(strings.Repeat("z", size))
	var fieldsVec, mdVec flatbuffers.UOffsetT
	shared := func(start func(*flatbuffers.Builder, int) flatbuffers.UOffsetT, off flatbuffers.UOffsetT) flatbuffers.UOffsetT {
		start(b, refs)
		for range refs {
			b.PrependUOffsetT(off)
		}
		return b.EndVector(refs)
	}
	switch kind {
	case "metadata":
		key := b.CreateString("k")
		fb.KeyValueStart(b)
		fb.KeyValueAddKey(b, key)
		fb.KeyValueAddValue(b, long)
		mdVec = shared(fb.SchemaStartCustomMetadataVector, fb.KeyValueEnd(b))
		fb.SchemaStartFieldsVector(b, 0)
		fieldsVec = b.EndVector(0)
	case "names", "timezones":
		name := long
		typeType := fb.TypeNull
		fb.NullStart(b)
		typ := fb.NullEnd(b)
		if kind == "timezones" {
			name = b.CreateString("t")
			fb.TimestampStart(b)
			fb.TimestampAddUnit(b, fb.TimeUnitSECOND)
			fb.TimestampAddTimezone(b, long)
			typ, typeType = fb.TimestampEnd(b), fb.TypeTimestamp
		}
		fb.FieldStart(b)
		fb.FieldAddName(b, name)
		fb.FieldAddTypeType(b, typeType)
		fb.FieldAddType(b, typ)
		fieldsVec = shared(fb.SchemaStartFieldsVector, fb.FieldEnd(b))
	}
	fb.SchemaStart(b)
	fb.SchemaAddFields(b, fieldsVec)
	if mdVec != 0 {
		fb.SchemaAddCustomMetadata(b, mdVec)
	}
	return frame(finishMessage(b, fb.MessageHeaderSchema, fb.SchemaEnd(b), 0, nil), nil)
}

// TestSharedTablesCopiedOnce (item 2): a 1 MiB string shared by 1,000
// references (a 1 MiB stream that used to cost 1 GiB of copies) is
// refused with ErrLimit, allocating a small multiple of the input; the
// cost grows linearly with the input, and the same structure without the
// sharing reads fine.
func TestSharedTablesCopiedOnce(t *testing.T) {
	for _, kind := range []string{"metadata", "names", "timezones"} {
		t.Run(kind, func(t *testing.T) {
			var costs []float64
			for _, size := range []int{256 << 10, 1 << 20} {
				in := cat(sharedSchemaMsg(kind, 1000, size), eos)
				var err error
				got := allocated(func() { _, err = NewStreamReaderBytes(in) })
				require.ErrorIs(t, err, ErrLimit)
				require.Less(t, got, uint64(8*len(in)+(1<<20)), "allocated %d bytes for a %d-byte input", got, len(in))
				costs = append(costs, float64(got)/float64(len(in)))
				// Also through the decoder (the metadata is copied out of
				// the fed bytes) and an io.Reader.
				d := mustDecoder(t)
				_, _ = d.Write(in)
				_, err = d.Next()
				require.ErrorIs(t, err, ErrLimit)
				_, err = NewStreamReader(bytes.NewReader(in))
				require.ErrorIs(t, err, ErrLimit)
			}
			require.Less(t, costs[1], 2*costs[0]+1, "cost per input byte must not grow with the input")
			// Two references: within the budget, read as usual.
			r, err := NewStreamReaderBytes(cat(sharedSchemaMsg(kind, 2, 1<<10), eos))
			require.NoError(t, err)
			require.NotNil(t, r.Schema())
		})
	}
}

// TestDeltaForUndefinedDictionary (item 5): a delta batch with no
// dictionary before it is invalid.
func TestDeltaForUndefinedDictionary(t *testing.T) {
	dt, _ := datatype.NewDictionary(datatype.Int8, datatype.Int32, false)
	s := schemaMsg(schemaOf(field("d", dt)))
	delta := rb(func(b *batch) { b.dictID, b.delta = 0, true })
	in := cat(s, delta, eos)
	err := readStreamFully(in)
	require.ErrorIs(t, err, ErrInvalid)
	require.Contains(t, err.Error(), "delta")
	d := mustDecoder(t)
	_, _ = d.Write(in)
	_, err = d.Next()
	require.NoError(t, err)
	_, err = d.Next()
	require.ErrorIs(t, err, ErrInvalid)
	// The same batch as a first (non-delta) dictionary is fine.
	require.NoError(t, readStreamFully(cat(s, rb(func(b *batch) { b.dictID = 0 }), eos)))
	// And so is the delta once a dictionary exists.
	require.NoError(t, readStreamFully(cat(s, rb(func(b *batch) { b.dictID = 0 }), delta, eos)))
}

// TestWriterRefusesTooDeep (item 7): fields nested deeper than default
// readers accept are refused before anything is written; the deepest
// they accept round-trips.
func TestWriterRefusesTooDeep(t *testing.T) {
	nest := func(depth int) *alkaid.Schema {
		var typ datatype.DataType = datatype.Int8
		for range depth - 1 {
			typ = datatype.ListOf(typ)
		}
		return schemaOf(field("deep", typ))
	}
	var out bytes.Buffer
	_, err := NewStreamWriter(&out, nest(DefaultLimits.MaxDepth+1))
	require.ErrorIs(t, err, ErrLimit)
	require.Contains(t, err.Error(), "MaxDepth")
	require.Zero(t, out.Len())
	w, err := NewStreamWriter(&out, nest(DefaultLimits.MaxDepth))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	r, err := NewStreamReaderBytes(out.Bytes())
	require.NoError(t, err)
	require.True(t, r.Schema().Equal(nest(DefaultLimits.MaxDepth)))
}
