package ipc

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

// TestWriteSliceOfPositionalLayouts writes short slices of large view,
// list view and dense union arrays: what is written must be in proportion
// to the slice, not to the buffers and children it shares, and read back
// as the slice.
func TestWriteSliceOfPositionalLayouts(t *testing.T) {
	const n = 20000
	g := randdata.New(9)
	union, err := datatype.NewUnion(datatype.Dense, []datatype.Field{
		{Name: "s", Type: datatype.String, Nullable: true}, {Name: "i", Type: datatype.Int64, Nullable: true},
	}, []int8{5, 2})
	require.NoError(t, err)
	for _, typ := range []datatype.DataType{
		datatype.StringView, datatype.BinaryView,
		datatype.ListViewOf(datatype.String), datatype.LargeListViewOf(datatype.Int64),
		union,
		datatype.ListOf(datatype.StringView), // compacted below a list
		datatype.StructOf(datatype.Field{Name: "v", Type: datatype.ListViewOf(datatype.Int32), Nullable: true}),
	} {
		t.Run(typ.String(), func(t *testing.T) {
			whole := g.Array(typ, n, true)
			s := alkaid.NewSchema([]datatype.Field{{Name: "c", Type: typ, Nullable: true}}, datatype.Metadata{})
			all, err := alkaid.NewRecord(s, []array.Array{whole}, -1)
			require.NoError(t, err)
			full := len(writeStream(t, s, []*alkaid.Record{all}))
			for _, cut := range [][2]int{{0, 10}, {n / 2, n/2 + 10}, {n - 10, n}, {7, 7}} {
				part := all.Slice(cut[0], cut[1])
				raw := writeStream(t, s, []*alkaid.Record{part})
				require.Less(t, len(raw), full/50, "slice %v of %d rows: %d bytes, the whole array %d", cut, n, len(raw), full)
				requireSameRecords(t, []*alkaid.Record{part}, readAll(t, raw, WithValidation(array.ValidateFull)), typ.String())
			}
		})
	}
}

// TestWriteViewsAsTheyAre: views that use most of their data buffers are
// written without a copy, and those that refer outside them are written
// as they are, for the reader to report.
func TestWriteViewsAsTheyAre(t *testing.T) {
	a := arrayjson.MustParse(datatype.StringView, `["a string longer than twelve", "short", "another long string value"]`)
	u := unloadColumns([]*array.Data{a.Data()}, a.Len())
	require.Equal(t, []int64{1}, u.variadic)
	require.Same(t, &a.Data().Buffers[2].Bytes()[0], &u.buffers[2][0], "data buffer copied")

	bad := *a.Data()
	bad.Buffers = append(bad.Buffers[:2:2], bad.Buffers[2].Slice(0, 4)) // too short for the views
	u = unloadColumns([]*array.Data{&bad}, bad.Length)
	require.Len(t, u.buffers[2], 4)
}

// TestWriteListViewOutOfRange: a list view that refers outside its child
// is written as it is (and refused by the reader), not gathered.
func TestWriteListViewOutOfRange(t *testing.T) {
	lv := arrayjson.MustParse(datatype.ListViewOf(datatype.Int32), `[[1, 2], null, [3], [], [4, 5, 6]]`).Data()
	bad := *lv
	bad.Children = []*array.Data{lv.Children[0].Slice(0, 2)} // the later slots now point past it
	s := alkaid.NewSchema([]datatype.Field{{Name: "c", Type: bad.Type, Nullable: true}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{array.MustMake(&bad)}, -1)
	require.NoError(t, err)
	raw := writeStream(t, s, []*alkaid.Record{rec})
	r, err := NewStreamReaderBytes(raw)
	require.NoError(t, err)
	var last error
	for _, err := range r.Records() {
		last = err
	}
	require.ErrorIs(t, last, ErrInvalid)
}

// TestWriteRandomSlices writes random slices of arrays of every type
// (views, list views and unions nested in others among them) and reads
// each back, fully validated, as the slice.
func TestWriteRandomSlices(t *testing.T) {
	g := randdata.New(16)
	r := rand.New(rand.NewPCG(16, 17))
	for _, f := range randdata.AllTypes().Fields() {
		t.Run(f.Name, func(t *testing.T) {
			s := alkaid.NewSchema([]datatype.Field{f}, datatype.Metadata{})
			for range 8 {
				a := g.Array(f.Type, 1+r.IntN(60), true)
				i := r.IntN(a.Len())
				rec, err := alkaid.NewRecord(s, []array.Array{array.Slice(a, i, i+r.IntN(a.Len()-i+1))}, -1)
				require.NoError(t, err)
				raw := writeStream(t, s, []*alkaid.Record{rec})
				requireSameRecords(t, []*alkaid.Record{rec}, readAll(t, raw, WithValidation(array.ValidateFull)), f.Name)
			}
		})
	}
}
