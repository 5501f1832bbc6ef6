package compute

import (
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/stretchr/testify/require"
)

// TestForms checks the chunked and table forms against the array and
// record forms of the same rows, the chunks cut where no row order
// would hide a mistake.
func TestForms(t *testing.T) {
	x := arrayjson.MustParse(datatype.Int64, `[5, null, 3, 9, 3, 1, null, 7, 3]`)
	y := arrayjson.MustParse(datatype.String, `["a", "b", "c", "d", "e", "f", "g", "h", "i"]`)
	schema := alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int64, Nullable: true}, {Name: "y", Type: datatype.String}}, datatype.Metadata{})
	rec := must(alkaid.NewRecord(schema, []array.Array{x, y}, x.Len()))
	tbl := must(alkaid.TableFromRecords(schema, []*alkaid.Record{rec.Slice(0, 2), rec.Slice(2, 2), rec.Slice(2, 7), rec.Slice(7, 9)}))
	col := tbl.Column(0)
	desc := Order{Descending: true}
	keys := []SortKey{{Column: "x", Order: desc}, {Column: "y"}}

	sorted := must(Sort(x, desc))
	sortedC := must(SortChunked(col, desc))
	require.Len(t, sortedC.Chunks(), 1)
	require.True(t, array.Equal(sorted, sortedC.Chunks()[0]), "SortChunked")

	top := must(TopKIndices(x, 4, desc))
	require.Equal(t, top.Values(), must(TopKIndicesChunked(col, 4, desc)).Values(), "TopKIndicesChunked")
	require.Equal(t, []int64{3, 7, 0, 2}, top.Values())
	topR := must(TopKIndicesRecord(rec, 5, keys))
	require.Equal(t, topR.Values(), must(TopKIndicesTable(tbl, 5, keys)).Values(), "TopKIndicesTable")
	require.Equal(t, []int64{3, 7, 0, 2, 4}, topR.Values())
	require.Equal(t, must(SortIndicesRecord(rec, keys)).Values()[:5], topR.Values())

	v, n := must2(ValueCounts(x))
	vc, nc := must2(ValueCountsChunked(col))
	require.True(t, array.Equal(v, vc), "ValueCountsChunked values")
	require.Equal(t, n.Values(), nc.Values(), "ValueCountsChunked counts")
	require.Equal(t, 5, must(CountDistinct(x)))
	require.Equal(t, 5, must(CountDistinctChunked(col)))

	// Filter: an array mask for the array and record forms, a chunked one
	// for the chunked and table forms.
	mask := arrayjson.MustParse(datatype.Bool, `[true, false, true, null, true, false, true, true, false]`).(*array.Boolean)
	maskC := must(alkaid.NewChunked(datatype.Bool, []array.Array{array.Slice(mask, 0, 4), array.Slice(mask, 4, 9)}))
	fr := must(FilterRecord(rec, mask))
	ft := must(FilterTable(tbl, maskC))
	require.Equal(t, fr.NumRows(), ft.NumRows())
	for c := range fr.NumCols() {
		require.True(t, array.Equal(fr.Column(c), must(flatten(ft.Column(c)))), "FilterTable column %d", c)
		require.True(t, array.Equal(must(Filter(rec.Column(c), mask)), fr.Column(c)), "FilterRecord column %d", c)
		require.True(t, array.Equal(fr.Column(c), must(flatten(must(FilterChunked(tbl.Column(c), maskC))))), "FilterChunked column %d", c)
	}
}

func must2[A, B any](a A, b B, err error) (A, B) {
	if err != nil {
		panic(err)
	}
	return a, b
}

// TestKernelTable pins which kinds have which kernel in the one table:
// the kinds that had a grouped sum, a radix key, a bits hash and a
// numeric cast in the separate tables this one replaced.
func TestKernelTable(t *testing.T) {
	k := func(kinds ...datatype.Kind) map[datatype.Kind]bool {
		m := map[datatype.Kind]bool{}
		for _, x := range kinds {
			m[x] = true
		}
		return m
	}
	ints := []datatype.Kind{datatype.KindInt8, datatype.KindInt16, datatype.KindInt32, datatype.KindInt64,
		datatype.KindUint8, datatype.KindUint16, datatype.KindUint32, datatype.KindUint64}
	floats := []datatype.Kind{datatype.KindFloat32, datatype.KindFloat64}
	temporal := []datatype.Kind{datatype.KindDate32, datatype.KindDate64, datatype.KindTime32, datatype.KindTime64,
		datatype.KindTimestamp, datatype.KindDuration, datatype.KindDecimal32, datatype.KindDecimal64}
	bytesKinds := []datatype.Kind{datatype.KindString, datatype.KindBinary, datatype.KindLargeString,
		datatype.KindLargeBinary, datatype.KindStringView, datatype.KindBinaryView}
	cat := func(ks ...[]datatype.Kind) []datatype.Kind {
		var out []datatype.Kind
		for _, x := range ks {
			out = append(out, x...)
		}
		return out
	}
	want := map[string]map[datatype.Kind]bool{
		"groupSum": k(cat(ints, floats, []datatype.Kind{datatype.KindFloat16, datatype.KindDecimal32,
			datatype.KindDecimal64, datatype.KindDecimal128, datatype.KindDecimal256})...),
		"radix": k(cat(ints, floats, temporal, bytesKinds)...),
		"group": k(cat(ints, floats, temporal, []datatype.Kind{datatype.KindFloat16, datatype.KindMonthInterval})...),
		"cast":  k(cat(ints, floats, []datatype.Kind{datatype.KindFloat16, datatype.KindBool})...),
	}
	for kind := range dispatch {
		kn := &dispatch[kind]
		has := map[string]bool{"groupSum": kn.groupSum != nil, "radix": kn.radix != nil, "group": kn.group != nil, "cast": kn.cast != nil}
		for slot, kinds := range want {
			require.Equal(t, kinds[datatype.Kind(kind)], has[slot], "%s of %s", slot, datatype.Kind(kind))
		}
		// Every kind that orders its values has a min/max kernel.
		if kn.order != nil {
			require.NotNil(t, kn.minMax, "minMax of %s", datatype.Kind(kind))
		}
	}
}
