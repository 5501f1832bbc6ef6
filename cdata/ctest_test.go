//go:build cgo

package cdata

import (
	"errors"
	"fmt"
	"iter"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/cdata/internal/ctest"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

// sliceSource is an alkaid.RecordReader over records in memory, failing
// with err (when set) after them.
type sliceSource struct {
	schema *alkaid.Schema
	recs   []*alkaid.Record
	err    error
	closed bool
}

func (s *sliceSource) Schema() *alkaid.Schema { return s.schema }

func (s *sliceSource) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		for _, r := range s.recs {
			if !yield(r, nil) {
				return
			}
		}
		if s.err != nil {
			yield(nil, s.err)
		}
	}
}

func (s *sliceSource) Close() error {
	s.closed = true
	return nil
}

var _ alkaid.RecordReader = (*StreamReader)(nil)

// drain reads every batch of r: the batches before an error, and the
// error.
func drain(r alkaid.RecordReader) ([]*alkaid.Record, error) {
	var recs []*alkaid.Record
	for rec, err := range r.Records() {
		if err != nil {
			return recs, err
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

var abcSchema = alkaid.NewSchema([]datatype.Field{
	{Name: "a", Type: datatype.Int64, Nullable: true},
	{Name: "b", Type: datatype.String, Nullable: true},
	{Name: "c", Type: datatype.StringView, Nullable: true},
}, datatype.Metadata{})

// abcRecords makes batches of random records, some of them slices, and
// the sums the C consumer should find.
func abcRecords(seed uint64) ([]*alkaid.Record, ctest.Sums) {
	g := randdata.New(seed)
	g.NullFraction = 0.2
	var recs []*alkaid.Record
	var want ctest.Sums
	for i, n := range []int{0, 1, 17, 300, 64} {
		r := g.Record(abcSchema, n)
		if i == 3 {
			r = r.Slice(13, 250)
		}
		recs = append(recs, r)
		want.Batches++
		want.Rows += int64(r.NumRows())
		a := r.Column(0).(*array.Primitive[int64])
		b := r.Column(1).(*array.Binary[int32])
		c := r.Column(2).(*array.BinaryView)
		for j := range r.NumRows() {
			if a.IsNull(j) {
				want.NullsA++
			} else {
				want.SumA += a.Value(j)
			}
			if b.IsNull(j) {
				want.NullsB++
			} else {
				want.BytesB += int64(len(b.Value(j)))
			}
			if c.IsNull(j) {
				want.NullsC++
			} else {
				want.BytesC += int64(len(c.Value(j)))
			}
		}
	}
	return recs, want
}

func TestCConsumerReadsExportedStream(t *testing.T) {
	recs, want := abcRecords(1)
	s := NewArrowArrayStream()
	defer Free(s)
	src := &sliceSource{schema: abcSchema, recs: recs}
	require.NoError(t, ExportStream(src, s))
	recs = nil
	runtime.GC() // the stream keeps the source and its records alive
	got := ctest.ConsumeStream(unsafe.Pointer(s))
	require.Zero(t, got.Code, got.Msg)
	require.Equal(t, want, got)
	require.True(t, StreamReleased(s))
	require.True(t, src.closed, "releasing the stream closes its source")
}

func TestCConsumerSeesGetLastError(t *testing.T) {
	recs, _ := abcRecords(2)
	s := NewArrowArrayStream()
	defer Free(s)
	src := &sliceSource{schema: abcSchema, recs: recs[:2], err: errors.New("disk on fire at batch 2")}
	require.NoError(t, ExportStream(src, s))
	got := ctest.ConsumeStream(unsafe.Pointer(s))
	require.Equal(t, 5, got.Code, "EIO") // EIO on Linux
	require.Equal(t, "disk on fire at batch 2", got.Msg)
	require.Equal(t, int64(2), got.Batches)

	// A schema the interface cannot carry fails get_schema with a message.
	bad := &sliceSource{schema: abcSchema.WithEndianness(alkaid.BigEndian)}
	require.NoError(t, ExportStream(bad, s))
	got = ctest.ConsumeStream(unsafe.Pointer(s))
	require.NotZero(t, got.Code)
	require.Contains(t, got.Msg, "big-endian")
}

// checkProduced checks a record of ctest.ProduceStruct.
func checkProduced(t *testing.T, rec *alkaid.Record, n, offset int) {
	t.Helper()
	require.Equal(t, n, rec.NumRows())
	require.Equal(t, "x", rec.ColumnName(0))
	x := rec.Column(0).(*array.Primitive[int32])
	y := rec.Column(1).(*array.Binary[int32])
	for j := range n {
		i := j + offset
		require.Equal(t, i%5 == 4, x.IsNull(j), "row %d", j)
		if i%5 != 4 {
			require.Equal(t, int32(3*i), x.Value(j))
		}
		require.Equal(t, fmt.Sprintf("s%d", i), string(y.Value(j)))
	}
}

// waitReleased collects until the C producer's release count reaches want.
func waitReleased(t *testing.T, want int64) {
	t.Helper()
	for range 300 {
		runtime.GC()
		if a, _, _ := ctest.Released(); a >= want {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	a, _, _ := ctest.Released()
	require.Equal(t, want, a)
}

func TestImportFromCProducer(t *testing.T) {
	for _, c := range []struct{ n, offset int }{{0, 0}, {1, 0}, {40, 0}, {33, 7}, {0, 9}} {
		a0, s0, _ := ctest.Released()
		ca, cs := NewArrowArray(), NewArrowSchema()
		ctest.ProduceStruct(unsafe.Pointer(ca), unsafe.Pointer(cs), c.n, c.offset, ctest.BreakNone)
		rec, err := ImportRecord(ca, cs, WithValidation(array.ValidateFull))
		require.True(t, ArrayReleased(ca) && SchemaReleased(cs))
		Free(ca)
		Free(cs)
		require.NoError(t, err)
		checkProduced(t, rec, c.n, c.offset)
		_, s1, _ := ctest.Released()
		require.Equal(t, s0+1, s1, "the schema is released at once")
		runtime.KeepAlive(rec)
		rec = nil
		waitReleased(t, a0+1)
	}
}

func TestImportHostileCProducer(t *testing.T) {
	want := map[ctest.Break]string{
		ctest.BreakNBuffers:       "x: int32 array has 3 buffers, want 2",
		ctest.BreakNullValues:     "x: buffer 1 is NULL",
		ctest.BreakNegativeLength: "x: length is -1",
		ctest.BreakNullCount:      "x: null_count is 21 for length 20",
		ctest.BreakNChildren:      "has 3 children, want 2",
		ctest.BreakNegativeOffset: "x: offset is -1",
		ctest.BreakNoValidity:     "x: null_count is 4 but the validity buffer is NULL",
		ctest.BreakFormat:         `field x: cdata: not supported: format "q"`,
		ctest.BreakNullFormat:     "field x: format is NULL",
		ctest.BreakShortChild:     "y",
		ctest.BreakOffsets:        "y",
		ctest.BreakBadUTF8:        "UTF-8",
		ctest.BreakListNoChild:    `format "+l": has 0 children, want 1`,
	}
	for brk := ctest.BreakNone + 1; brk < ctest.BreakCount; brk++ {
		t.Run(brk.String(), func(t *testing.T) {
			a0, s0, _ := ctest.Released()
			ca, cs := NewArrowArray(), NewArrowSchema()
			ctest.ProduceStruct(unsafe.Pointer(ca), unsafe.Pointer(cs), 20, 0, brk)
			rec, err := ImportRecord(ca, cs, WithValidation(array.ValidateFull))
			Free(ca)
			Free(cs)
			require.Error(t, err)
			require.Nil(t, rec)
			t.Log(err)
			require.Contains(t, err.Error(), want[brk])
			require.True(t, errors.Is(err, ErrInvalid) || errors.Is(err, ErrNotSupported), "%v", err)
			// Both structs are released, exactly once, even on error.
			a1, s1, _ := ctest.Released()
			require.Equal(t, s0+1, s1)
			require.Equal(t, a0+1, a1)
			runtime.GC()
			a2, _, _ := ctest.Released()
			require.Equal(t, a1, a2)
		})
	}
}

func TestImportCStream(t *testing.T) {
	_, _, st0 := ctest.Released()
	s := NewArrowArrayStream()
	ctest.ProduceStream(unsafe.Pointer(s), 4, -1)
	r, err := ImportStream(s)
	require.True(t, StreamReleased(s))
	Free(s)
	require.NoError(t, err)
	require.Equal(t, []string{"x", "y"}, []string{r.Schema().Field(0).Name, r.Schema().Field(1).Name})
	k := 0
	for rec, err := range r.Records() {
		require.NoError(t, err)
		checkProduced(t, rec, 10+k, k)
		k++
	}
	require.Equal(t, 4, k)
	_, err = drain(r)
	require.ErrorIs(t, err, ErrInvalid, "a stream is read once")
	require.NoError(t, r.Close())
	require.NoError(t, r.Close())
	_, err = drain(r)
	require.ErrorIs(t, err, ErrInvalid, "read after Close")
	_, _, st1 := ctest.Released()
	require.Equal(t, st0+1, st1)
}

func TestImportCStreamError(t *testing.T) {
	s := NewArrowArrayStream()
	defer Free(s)
	ctest.ProduceStream(unsafe.Pointer(s), 4, 1)
	r, err := ImportStream(s)
	require.NoError(t, err)
	defer r.Close()
	got, err := drain(r)
	require.Len(t, got, 1)
	require.ErrorIs(t, err, ErrStream)
	require.True(t, strings.HasSuffix(err.Error(), "get_next returned 5: producer failed at batch 1"), err.Error())
}

func TestStreamRoundTripThroughC(t *testing.T) {
	// Our export, our import: errors travel both ways.
	recs, _ := abcRecords(3)
	s := NewArrowArrayStream()
	defer Free(s)
	require.NoError(t, ExportStream(&sliceSource{schema: abcSchema, recs: recs, err: errors.New("source broke")}, s))
	r, err := ImportStream(s)
	require.NoError(t, err)
	defer r.Close()
	require.True(t, abcSchema.Equal(r.Schema()))
	got, err := drain(r)
	require.Len(t, got, len(recs))
	for i := range recs {
		for c := range 3 {
			require.True(t, array.Equal(recs[i].Column(c), got[i].Column(c)))
		}
	}
	require.ErrorIs(t, err, ErrStream)
	require.Contains(t, err.Error(), "source broke")
}

// A consumer that releases the stream before its end stops the source's
// iteration and closes the source.
func TestExportedStreamReleasedEarly(t *testing.T) {
	recs, _ := abcRecords(4)
	s := NewArrowArrayStream()
	defer Free(s)
	src := &sliceSource{schema: abcSchema, recs: recs}
	require.NoError(t, ExportStream(src, s))
	r, err := ImportStream(s)
	require.NoError(t, err)
	for _, err := range r.Records() {
		require.NoError(t, err)
		break
	}
	require.False(t, src.closed)
	require.NoError(t, r.Close())
	require.True(t, src.closed)
}
