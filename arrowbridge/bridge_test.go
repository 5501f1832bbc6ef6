package arrowbridge

import (
	"bytes"
	"runtime"
	"testing"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	aipc "github.com/apache/arrow-go/v18/arrow/ipc"
	amemory "github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/ipc"
)

// records are random records of every randdata type, whole and sliced.
func records(t *testing.T) []*alkaid.Record {
	t.Helper()
	schema := randdata.AllTypes()
	rec := randdata.New(1).Record(schema, 200)
	return []*alkaid.Record{rec, rec.Slice(13, 170), rec.Slice(200, 200), randdata.New(2).Record(schema, 1)}
}

// writeArrowGo writes arrow-go records with arrow-go's IPC writer: its own
// reading of the buffers it was handed.
func writeArrowGo(t *testing.T, recs []arrow.RecordBatch) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := aipc.NewWriter(&buf, aipc.WithSchema(recs[0].Schema()))
	for _, r := range recs {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// arrowGoRead has arrow-go build its own arrays for rec, by reading an
// Alkaid stream of it.
func arrowGoRead(t *testing.T, rec *alkaid.Record, opts ...aipc.Option) (arrow.RecordBatch, func()) {
	t.Helper()
	var buf bytes.Buffer
	w, err := ipc.NewStreamWriter(&buf, rec.Schema(), ipc.WithArrowCompat())
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	r, err := aipc.NewReader(&buf, opts...)
	require.NoError(t, err)
	require.True(t, r.Next(), "%v", r.Err())
	return r.RecordBatch(), r.Release
}

func TestToArrowEveryTypeAsArrowGoSeesIt(t *testing.T) {
	for k, rec := range records(t) {
		arec, err := ToArrowRecord(rec)
		require.NoError(t, err)
		// arrow-go's own comparison with the arrays it builds itself.
		theirs, done := arrowGoRead(t, rec)
		require.True(t, arec.Schema().Equal(theirs.Schema()), "schema\n%v\narrow-go reads\n%v", arec.Schema(), theirs.Schema())
		for i := range rec.NumCols() {
			require.True(t, aarray.Equal(arec.Column(i), theirs.Column(i)), "record %d column %s:\nours %v\ntheirs %v", k, rec.ColumnName(i), arec.Column(i), theirs.Column(i))
		}
		done()
		if k == 0 {
			// arrow-go writes what it sees (it cannot write sliced list
			// views and unions, hence whole records only); Alkaid reads
			// it back, fully validated.
			b := writeArrowGo(t, []arrow.RecordBatch{arec})
			r, err := ipc.NewStreamReader(bytes.NewReader(b), ipc.WithValidation(array.ValidateFull))
			require.NoError(t, err)
			var got *alkaid.Record
			for rec, err := range r.Records() {
				require.NoError(t, err)
				got = rec
				break
			}
			require.NotNil(t, got)
			require.True(t, rec.Schema().Equal(r.Schema()), "schema came back as\n%v", r.Schema())
			for i := range rec.NumCols() {
				require.True(t, array.Equal(rec.Column(i), got.Column(i)), "column %s", rec.ColumnName(i))
			}
		}
		arec.Release()
	}
}

func TestFromArrowEveryTypeBuiltByArrowGo(t *testing.T) {
	for _, rec := range records(t) {
		arec, done := arrowGoRead(t, rec)
		got, err := FromArrowRecord(arec)
		done()
		require.NoError(t, err)
		require.True(t, rec.Schema().Equal(got.Schema()), "schema came back as\n%v", got.Schema())
		for i := range rec.NumCols() {
			require.NoError(t, array.Validate(got.Column(i).Data(), array.ValidateFull), "column %s", rec.ColumnName(i))
			require.True(t, array.Equal(rec.Column(i), got.Column(i)), "column %s:\nwant %v\ngot  %v", rec.ColumnName(i), rec.Column(i), got.Column(i))
		}
	}
}

func TestRoundTripEveryTypeBothWays(t *testing.T) {
	for _, rec := range records(t) {
		arec, err := ToArrowRecord(rec)
		require.NoError(t, err)
		back, err := FromArrowRecord(arec)
		arec.Release()
		require.NoError(t, err)
		require.True(t, rec.Schema().Equal(back.Schema()))
		for i := range rec.NumCols() {
			require.True(t, array.Equal(rec.Column(i), back.Column(i)), "column %s", rec.ColumnName(i))
			requireSameBuffers(t, rec.ColumnName(i), rec.Column(i).Data(), back.Column(i).Data())
		}
	}
}

// addr is the address of a buffer's first byte (0 for an empty one).
func addr(b []byte) uintptr {
	if len(b) == 0 {
		return 0
	}
	return uintptr(unsafe.Pointer(&b[0]))
}

// requireSameBuffers checks that two Alkaid data share every buffer,
// recursively.
func requireSameBuffers(t *testing.T, path string, a, b *array.Data) {
	t.Helper()
	require.Len(t, b.Buffers, len(a.Buffers), path)
	for i := range a.Buffers {
		require.Equal(t, addr(a.Buffers[i].Bytes()), addr(b.Buffers[i].Bytes()), "%s buffer %d", path, i)
	}
	require.Len(t, b.Children, len(a.Children), path)
	for i := range a.Children {
		requireSameBuffers(t, path+".child", a.Children[i], b.Children[i])
	}
	if a.Dictionary != nil {
		requireSameBuffers(t, path+".dictionary", a.Dictionary, b.Dictionary)
	}
}

// requireSharedWithArrow checks that arrow-go data uses an Alkaid data's
// buffers, recursively, allowing for arrow-go's absent validity slot of
// null, union and run-end encoded arrays.
func requireSharedWithArrow(t *testing.T, path string, a *array.Data, b arrow.ArrayData) {
	t.Helper()
	ab := b.Buffers()
	switch datatype.StorageOf(a.Type).Kind() {
	case datatype.KindNull, datatype.KindRunEndEncoded:
		require.Len(t, ab, 1, path)
		require.Nil(t, ab[0], path)
		ab = nil
	case datatype.KindSparseUnion, datatype.KindDenseUnion:
		require.Nil(t, ab[0], path)
		ab = ab[1:]
	}
	if datatype.StorageOf(a.Type).Kind() != datatype.KindNull {
		require.Len(t, ab, len(a.Buffers), path)
		for i := range a.Buffers {
			var got []byte
			if ab[i] != nil {
				got = ab[i].Bytes()
			}
			require.Equal(t, addr(a.Buffers[i].Bytes()), addr(got), "%s buffer %d", path, i)
			require.Equal(t, a.Buffers[i].Len(), len(got), "%s buffer %d", path, i)
		}
	}
	require.Equal(t, a.Offset, b.Offset(), path)
	require.Equal(t, a.Length, b.Len(), path)
	require.Len(t, b.Children(), len(a.Children), path)
	for i := range a.Children {
		requireSharedWithArrow(t, path+".child", a.Children[i], b.Children()[i])
	}
	if a.Dictionary != nil {
		requireSharedWithArrow(t, path+".dictionary", a.Dictionary, b.Dictionary())
	}
}

func TestZeroCopyEveryTypeBothWays(t *testing.T) {
	for _, rec := range records(t) {
		for i, f := range rec.Schema().Fields() {
			col := rec.Column(i)
			aa, err := ToArrow(col)
			require.NoError(t, err)
			requireSharedWithArrow(t, f.Name, col.Data(), aa.Data())
			back, err := FromArrow(aa)
			require.NoError(t, err)
			requireSharedWithArrow(t, f.Name+"(back)", back.Data(), aa.Data())
			requireSameBuffers(t, f.Name, col.Data(), back.Data())
			aa.Release()
		}
	}
}

func TestExtensionTypesBothWays(t *testing.T) {
	storage := randdata.New(3).Array(must(datatype.NewFixedSizeBinary(16)), 20, true)
	uuids, err := array.NewExtension(&extension.UUIDType{}, storage)
	require.NoError(t, err)
	schema := alkaid.NewSchema([]datatype.Field{{Name: "id", Type: uuids.DataType(), Nullable: true}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(schema, []array.Array{uuids}, 20)
	require.NoError(t, err)
	arec, err := ToArrowRecord(rec)
	require.NoError(t, err)
	defer arec.Release()
	// arrow-go knows arrow.uuid when its extensions package is imported
	// (the Example imports it); either way the name survives the trip.
	back, err := FromArrowRecord(arec)
	require.NoError(t, err)
	require.IsType(t, &extension.UUIDType{}, back.Column(0).DataType())
	require.True(t, array.Equal(uuids, back.Column(0)))
	requireSameBuffers(t, "id", uuids.Data(), back.Column(0).Data())
}

// TestArrowGoReleaseHonoured: an Alkaid record converted from arrow-go
// holds one arrow-go reference, given back once the Alkaid arrays are
// unreachable; arrow-go's checked allocator then has nothing outstanding.
func TestArrowGoReleaseHonoured(t *testing.T) {
	mem := amemory.NewCheckedAllocator(amemory.NewGoAllocator())
	rec := randdata.New(4).Record(randdata.AllTypes(), 100)
	arec, done := arrowGoRead(t, rec, aipc.WithAllocator(mem))
	got, err := FromArrowRecord(arec)
	require.NoError(t, err)
	done() // arrow-go's own references are gone
	require.NotZero(t, mem.CurrentAlloc(), "arrow-go freed memory Alkaid still uses")
	col := got.Column(30) // keep one column only
	got = nil
	for range 3 {
		runtime.GC()
	}
	require.NotZero(t, mem.CurrentAlloc())
	require.Positive(t, col.Len())
	runtime.KeepAlive(col)
	col = nil
	for i := 0; i < 200 && mem.CurrentAlloc() != 0; i++ {
		runtime.GC()
		time.Sleep(2 * time.Millisecond)
	}
	mem.AssertSize(t, 0)
}

func TestSchemaConversionKeepsMetadataAndUnknownExtensions(t *testing.T) {
	f := datatype.Field{Name: "x", Type: datatype.Int32, Nullable: true,
		Metadata: datatype.MetadataFrom("k", "v", extensionNameKey, "vendor.unknown", extensionMetadataKey, "p")}
	s := alkaid.NewSchema([]datatype.Field{f}, datatype.MetadataFrom("schema", "meta"))
	as, err := ToArrowSchema(s)
	require.NoError(t, err)
	v, ok := as.Field(0).Metadata.GetValue(extensionNameKey)
	require.True(t, ok)
	require.Equal(t, "vendor.unknown", v)
	back, err := FromArrowSchema(as)
	require.NoError(t, err)
	require.True(t, s.Equal(back), "%v", back)

	_, err = ToArrowSchema(s.WithEndianness(alkaid.BigEndian))
	require.ErrorIs(t, err, ErrNotSupported)
}

func TestFromArrowArrayMismatch(t *testing.T) {
	b := aarray.NewInt32Builder(amemory.NewGoAllocator())
	b.AppendValues([]int32{1, 2, 3}, nil)
	a := b.NewArray()
	defer a.Release()
	_, err := FromArrowOf(a, datatype.StructOf(datatype.Field{Name: "a", Type: datatype.Int32}))
	require.Error(t, err)
	got, err := FromArrow(a)
	require.NoError(t, err)
	require.Equal(t, "[1 2 3]", got.String())
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestFromArrowSlicedByArrowGo: arrow-go's own zero-copy slices of the
// arrays it built convert to the same values as Alkaid's slices.
func TestFromArrowSlicedByArrowGo(t *testing.T) {
	rec := records(t)[0]
	theirs, done := arrowGoRead(t, rec)
	defer done()
	for i, f := range rec.Schema().Fields() {
		s := aarray.NewSlice(theirs.Column(i), 13, 170)
		got, err := FromArrowOf(s, f.Type)
		s.Release()
		require.NoError(t, err, f.Name)
		require.NoError(t, array.Validate(got.Data(), array.ValidateFull), f.Name)
		want := array.Slice(rec.Column(i), 13, 170)
		require.True(t, array.Equal(want, got), "column %s:\nwant %v\ngot  %v", f.Name, want, got)
	}
}
