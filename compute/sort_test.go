package compute

import (
	"cmp"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/stretchr/testify/require"
)

// refVal is a value as the reference sort sees it: null, NaN, a number
// (exact, as a big.Float) or a byte string.
type refVal struct {
	null, nan bool
	num       *big.Float
	str       *string
}

// sortRef reads slot i by reflection, independently of the comparators
// under test.
func sortRef(a array.Array, i int) refVal {
	switch x := a.(type) {
	case *array.Extension:
		return sortRef(x.Storage(), i)
	case *array.Dictionary:
		if x.IsNull(i) {
			return refVal{null: true}
		}
		return sortRef(x.Dictionary(), x.ValueIndex(i))
	case *array.RunEndEncoded:
		return sortRef(x.Values(), x.PhysicalIndex(i))
	case *array.Float16:
		if x.IsNull(i) {
			return refVal{null: true}
		}
		return floatRef(float64(x.Value(i).Float32()))
	}
	if a.IsNull(i) {
		return refVal{null: true}
	}
	v := reflect.ValueOf(a).MethodByName("Value").Call([]reflect.Value{reflect.ValueOf(i)})[0]
	switch val := v.Interface().(type) {
	case datatype.Decimal128:
		b := new(big.Int).Lsh(big.NewInt(val.Hi), 64)
		b.Add(b, new(big.Int).SetUint64(val.Lo))
		return refVal{num: new(big.Float).SetInt(b)}
	case datatype.Decimal256:
		b := big.NewInt(int64(val[3]))
		for w := 2; w >= 0; w-- {
			b.Lsh(b, 64).Add(b, new(big.Int).SetUint64(val[w]))
		}
		return refVal{num: new(big.Float).SetInt(b)}
	case []byte:
		s := string(val)
		return refVal{str: &s}
	case bool:
		if val {
			return refVal{num: big.NewFloat(1)}
		}
		return refVal{num: big.NewFloat(0)}
	}
	switch v.Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return refVal{num: new(big.Float).SetInt64(v.Int())}
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return refVal{num: new(big.Float).SetUint64(v.Uint())}
	case reflect.Float32, reflect.Float64:
		return floatRef(v.Float())
	}
	panic("sortRef: " + a.DataType().String())
}

func floatRef(f float64) refVal {
	if math.IsNaN(f) {
		return refVal{nan: true}
	}
	return refVal{num: big.NewFloat(f)}
}

// sortRefCompare orders two values of one key as the documentation says.
func sortRefCompare(x, y refVal, o Order) int {
	rank := func(v refVal) int {
		switch {
		case v.null && o.NullsFirst:
			return -1
		case v.null:
			return 2
		case v.nan:
			return 1
		}
		return 0
	}
	if rx, ry := rank(x), rank(y); rx != ry || rx != 0 {
		return cmp.Compare(rx, ry)
	}
	var c int
	if x.str != nil {
		c = strings.Compare(*x.str, *y.str)
	} else {
		c = x.num.Cmp(y.num)
	}
	if o.Descending {
		c = -c
	}
	return c
}

// refSort is the reference: sort.SliceStable over the rows.
func refSort(cols []array.Array, orders []Order) []int64 {
	n := cols[0].Len()
	vals := make([][]refVal, len(cols))
	for k, c := range cols {
		vals[k] = make([]refVal, n)
		for i := range n {
			vals[k][i] = sortRef(c, i)
		}
	}
	idx := make([]int64, n)
	for i := range idx {
		idx[i] = int64(i)
	}
	sort.SliceStable(idx, func(p, q int) bool {
		for k := range cols {
			if c := sortRefCompare(vals[k][idx[p]], vals[k][idx[q]], orders[k]); c != 0 {
				return c < 0
			}
		}
		return false
	})
	return idx
}

// fewValues returns n slots drawn from a pool of a few random values of
// dt (nulls included), so that the sort meets many ties.
func fewValues(t *testing.T, r *rand.Rand, dt datatype.DataType, n, pool int) array.Array {
	t.Helper()
	g := randdata.New(r.Uint64())
	g.NullFraction = 0.15
	p := g.Array(dt, pool, true)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = r.IntN(pool)
	}
	out, err := takeArray(p, idx)
	require.NoError(t, err)
	return out
}

// specialFloats returns float arrays full of NaNs, zeros of both signs,
// infinities and nulls.
func specialFloats(r *rand.Rand, n int) []array.Array {
	specials := []float64{math.NaN(), 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), 1.5, -2.25, 1e300}
	b64 := array.NewPrimitiveBuilder[float64](datatype.Float64)
	b32 := array.NewPrimitiveBuilder[float32](datatype.Float32)
	for range n {
		if r.IntN(8) == 0 {
			b64.AppendNull()
			b32.AppendNull()
			continue
		}
		f := specials[r.IntN(len(specials))]
		if r.IntN(3) == 0 {
			f = math.Round(r.NormFloat64()*100) / 4
		}
		b64.Append(f)
		b32.Append(float32(f))
	}
	return []array.Array{b64.NewArray(), b32.NewArray()}
}

var allOrders = []Order{{}, {Descending: true}, {NullsFirst: true}, {Descending: true, NullsFirst: true}}

// orderable returns the types of everyType that have an order.
func orderable(t *testing.T) []datatype.Field {
	var out []datatype.Field
	for _, f := range everyType() {
		a := array.NewBuilder(f.Type).NewArray()
		if _, _, err := orderOf(a); err == nil {
			out = append(out, f)
		}
	}
	require.Greater(t, len(out), 30)
	return out
}

func TestSortIndicesEveryType(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, f := range orderable(t) {
		for _, n := range []int{0, 1, 40, radixMin + 300} {
			a := fewValues(t, r, f.Type, n, 1+r.IntN(30))
			a = array.Slice(a, min(n, 3), n)
			for _, o := range allOrders {
				got, err := SortIndices(a, o)
				require.NoError(t, err, f.Name)
				require.Equal(t, refSort([]array.Array{a}, []Order{o}), append([]int64{}, got.Values()...), "%s n=%d %+v", f.Name, n, o)
			}
		}
	}
}

func TestSortFloatsNaN(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{50, 2000} {
		for _, a := range specialFloats(r, n) {
			for _, o := range allOrders {
				got, err := SortIndices(a, o)
				require.NoError(t, err)
				require.Equal(t, refSort([]array.Array{a}, []Order{o}), got.Values(), "%s n=%d %+v", a.DataType(), n, o)
			}
		}
	}
}

func TestSortRecordMultiKey(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	types := orderable(t)
	for trial := range 40 {
		n := 1 + r.IntN(600)
		nk := 1 + r.IntN(3)
		var fields []datatype.Field
		var cols []array.Array
		var keys []SortKey
		var orders []Order
		for k := range nk {
			f := types[r.IntN(len(types))]
			f.Name = f.Name + string(rune('a'+k))
			fields = append(fields, f)
			cols = append(cols, fewValues(t, r, f.Type, n, 1+r.IntN(6)))
			o := allOrders[r.IntN(len(allOrders))]
			keys = append(keys, SortKey{Column: f.Name, Order: o})
			orders = append(orders, o)
		}
		rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), cols, n)
		require.NoError(t, err)
		want := refSort(cols, orders)
		got, err := SortIndicesRecord(rec, keys)
		require.NoError(t, err)
		require.Equal(t, want, got.Values(), "trial %d keys %+v", trial, keys)

		// The same rows as a table of several chunks.
		cut := r.IntN(n + 1)
		tbl, err := alkaid.TableFromRecords(rec.Schema(), []*alkaid.Record{rec.Slice(0, cut), rec.Slice(cut, n)})
		require.NoError(t, err)
		gotT, err := SortIndicesTable(tbl, keys)
		require.NoError(t, err)
		require.Equal(t, want, gotT.Values())

		sorted, err := SortRecord(rec, keys)
		require.NoError(t, err)
		for k := range nk {
			requireSame(t, mustTake(t, cols[k], want), sorted.Column(k), "sorted column")
		}
		sortedT, err := SortTable(tbl, keys)
		require.NoError(t, err)
		require.Equal(t, n, sortedT.NumRows())
	}
}

func mustTake(t *testing.T, a array.Array, idx []int64) array.Array {
	t.Helper()
	out, err := Take(a, indicesArray(toInts(idx)))
	require.NoError(t, err)
	return out
}

func toInts(v []int64) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}

func TestSortErrors(t *testing.T) {
	lst := arrayjson.MustParse(datatype.ListOf(datatype.Int32), `[[1], [2]]`)
	_, err := SortIndices(lst, Order{})
	require.ErrorIs(t, err, ErrNotSupported)
	rec, err := alkaid.NewRecord(alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int32}}, datatype.Metadata{}),
		[]array.Array{arrayjson.MustParse(datatype.Int32, `[1, 2]`)}, 2)
	require.NoError(t, err)
	_, err = SortIndicesRecord(rec, nil)
	require.ErrorIs(t, err, ErrInvalid)
	_, err = SortIndicesRecord(rec, []SortKey{{Column: "nope"}})
	require.ErrorContains(t, err, `no column "nope"`)
}

func TestSortChunkedAndSort(t *testing.T) {
	a := arrayjson.MustParse(datatype.String, `["b", null, "a", "c", "a"]`)
	c, err := alkaid.NewChunked(datatype.String, []array.Array{array.Slice(a, 0, 2), array.Slice(a, 2, 5)})
	require.NoError(t, err)
	idx, err := SortIndicesChunked(c, Order{Descending: true})
	require.NoError(t, err)
	require.Equal(t, []int64{3, 0, 2, 4, 1}, idx.Values())
	s, err := Sort(a, Order{NullsFirst: true})
	require.NoError(t, err)
	require.Equal(t, `[(null) "a" "a" "b" "c"]`, s.String())
}

// TestSortLongInt64 takes the radix path that splits by the top digit
// first (long inputs, keys spread over many digits), against
// sort.SliceStable on the Go values.
func TestSortLongInt64Parallel(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, spread := range []uint{64, 40, 12} {
		n := 150_000
		if spread == 64 {
			n = parallelMin + 1000 // the pieces sort on two goroutines
		}
		b := array.NewPrimitiveBuilder[int64](datatype.Int64)
		for range n {
			if r.IntN(20) == 0 {
				b.AppendNull()
				continue
			}
			b.Append(int64(r.Uint64() >> (64 - spread)))
		}
		a := b.Finish()
		for _, o := range allOrders {
			want := make([]int64, n)
			for i := range want {
				want[i] = int64(i)
			}
			sort.SliceStable(want, func(p, q int) bool {
				x, y := want[p], want[q]
				nx, ny := a.IsNull(int(x)), a.IsNull(int(y))
				if nx || ny {
					return nx != ny && (nx == o.NullsFirst)
				}
				if o.Descending {
					return a.Value(int(x)) > a.Value(int(y))
				}
				return a.Value(int(x)) < a.Value(int(y))
			})
			got, err := SortIndices(a, o)
			require.NoError(t, err)
			require.Equal(t, want, got.Values(), "spread %d %+v", spread, o)
		}
	}
}

func TestTopK(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	types := orderable(t)
	for trial := range 60 {
		f := types[r.IntN(len(types))]
		n := r.IntN(300)
		a := fewValues(t, r, f.Type, n, 1+r.IntN(20))
		o := allOrders[r.IntN(len(allOrders))]
		k := r.IntN(n + 5)
		got, err := TopKIndices(a, k, o)
		require.NoError(t, err)
		want := refSort([]array.Array{a}, []Order{o})
		require.Equal(t, want[:min(k, n)], append([]int64{}, got.Values()...), "trial %d %s k=%d %+v", trial, f.Name, k, o)
	}
	rec, err := alkaid.NewRecord(alkaid.NewSchema([]datatype.Field{{Name: "a", Type: datatype.Int32, Nullable: true},
		{Name: "b", Type: datatype.String, Nullable: true}}, datatype.Metadata{}), []array.Array{
		arrayjson.MustParse(datatype.Int32, `[2, 1, 2, null, 1]`),
		arrayjson.MustParse(datatype.String, `["x", "y", "a", "b", "c"]`)}, 5)
	require.NoError(t, err)
	got, err := TopKIndicesRecord(rec, 3, []SortKey{{Column: "a", Order: Order{Descending: true}}, SortKey{Column: "b"}})
	require.NoError(t, err)
	require.Equal(t, []int64{2, 0, 4}, got.Values())
	_, err = TopKIndices(rec.Column(0), -1, Order{})
	require.ErrorIs(t, err, ErrInvalid)
}

// TestSortRecordRadixFirst sorts by a first key the radix path takes
// (long, few distinct values, nulls, NaNs) and breaks its ties by others.
func TestSortRecordRadixFirst(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, first := range []datatype.DataType{datatype.Int64, datatype.Float64, datatype.String, datatype.Uint8} {
		n := 3000
		cols := []array.Array{fewValues(t, r, first, n, 25), fewValues(t, r, datatype.String, n, 8), fewValues(t, r, datatype.Int16, n, 5)}
		fields := []datatype.Field{{Name: "a", Type: first, Nullable: true}, {Name: "b", Type: datatype.String, Nullable: true},
			{Name: "c", Type: datatype.Int16, Nullable: true}}
		rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), cols, n)
		require.NoError(t, err)
		for _, o := range allOrders {
			keys := []SortKey{{Column: "a", Order: o}, {Column: "b", Order: Order{Descending: true}}, {Column: "c"}}
			got, err := SortIndicesRecord(rec, keys)
			require.NoError(t, err)
			require.Equal(t, refSort(cols, []Order{o, {Descending: true}, {}}), got.Values(), "%s %+v", first, o)
		}
	}
}
