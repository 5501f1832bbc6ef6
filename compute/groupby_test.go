package compute

import (
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/stretchr/testify/require"
)

func isNullKey(a array.Array, i int) bool { return string(array.AppendKey(nil, a, i)) == "\x00" }

// refGroupBy is the naive reference: a Go map from the keys' encodings to
// the group's rows.
func refGroupBy(keys []array.Array, n int) (rows [][]int) {
	m := map[string]int{}
	for i := range n {
		var k []byte
		for _, c := range keys {
			k = array.AppendKey(k, c, i)
		}
		g, ok := m[string(k)]
		if !ok {
			g = len(rows)
			m[string(k)] = g
			rows = append(rows, nil)
		}
		rows[g] = append(rows[g], i)
	}
	return rows
}

// refSum adds numbers the way the kernel must: wrapping int64 or uint64,
// float64 in row order.
func refSum(a array.Array, rows []int) (any, int) {
	var si int64
	var su uint64
	var sf float64
	count := 0
	kind := reflect.Invalid
	for _, i := range rows {
		if a.IsNull(i) {
			continue
		}
		count++
		if h, ok := a.(*array.Float16); ok {
			sf += float64(h.Value(i).Float32())
			kind = reflect.Float64
			continue
		}
		v := reflect.ValueOf(a).MethodByName("Value").Call([]reflect.Value{reflect.ValueOf(i)})[0]
		switch v.Kind() {
		case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			si += v.Int()
			kind = reflect.Int64
		case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			su += v.Uint()
			kind = reflect.Uint64
		default:
			sf += v.Float()
			kind = reflect.Float64
		}
	}
	switch kind {
	case reflect.Int64:
		return si, count
	case reflect.Uint64:
		return su, count
	}
	return sf, count
}

// refMean is the mean of a group's numbers: of the exact sum for
// integers (correctly rounded), of the float64 sum in row order for
// floats.
func refMean(a array.Array, rows []int) float64 {
	sum, n := new(big.Int), 0
	for _, i := range rows {
		if a.IsNull(i) {
			continue
		}
		x, _, isFloat := refNum(a, i)
		if isFloat {
			s, c := refSum(a, rows)
			return s.(float64) / float64(c)
		}
		sum.Add(sum, x)
		n++
	}
	q := new(big.Float).SetPrec(53).Quo(new(big.Float).SetInt(sum), new(big.Float).SetInt64(int64(n)))
	f, _ := q.Float64()
	return f
}

// refBest is the reference min or max row of a group.
func refBest(a array.Array, rows []int, greatest bool) int {
	best := -1
	for _, i := range rows {
		v := sortRef(a, i)
		if v.null {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		b := sortRef(a, best)
		switch {
		case v.nan:
			continue
		case b.nan:
			best = i
			continue
		}
		c := sortRefCompare(v, b, Order{Descending: greatest})
		if c < 0 {
			best = i
		}
	}
	return best
}

func sameRef(x, y refVal) bool {
	return x.null == y.null && x.nan == y.nan && sortRefCompare(x, y, Order{}) == 0
}

func TestGroupByEveryType(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	numbers := []datatype.DataType{datatype.Int8, datatype.Int64, datatype.Uint32, datatype.Float64, datatype.Float16Type}
	for _, f := range everyType() {
		n := 1 + r.IntN(400)
		key := fewValues(t, r, f.Type, n, 1+r.IntN(12))
		second := fewValues(t, r, datatype.Int8, n, 3)
		num := fewValues(t, r, numbers[r.IntN(len(numbers))], n, 50)
		flag := fewValues(t, r, datatype.Bool, n, 4)
		fields := []datatype.Field{
			{Name: "k", Type: f.Type, Nullable: true}, {Name: "k2", Type: datatype.Int8, Nullable: true},
			{Name: "x", Type: num.DataType(), Nullable: true}, {Name: "b", Type: datatype.Bool, Nullable: true},
		}
		rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), []array.Array{key, second, num, flag}, n)
		require.NoError(t, err)
		_, _, orderErr := orderOf(key)

		for _, keys := range [][]string{{"k"}, {"k", "k2"}} {
			aggs := []Aggregate{{Func: AggCount}, {Func: AggCount, Column: "x"}, {Func: AggSum, Column: "x"},
				{Func: AggMean, Column: "x"}, {Func: AggMin, Column: "x"}, {Func: AggMax, Column: "x"},
				{Func: AggFirst, Column: "k"}, {Func: AggLast, Column: "x"}, {Func: AggCountDistinct, Column: "k"},
				{Func: AggAny, Column: "b"}, {Func: AggAll, Column: "b"}}
			if orderErr == nil {
				aggs = append(aggs, Aggregate{Func: AggMin, Column: "k", Name: "kmin"}, Aggregate{Func: AggMax, Column: "k", Name: "kmax"})
			}
			out, err := GroupBy(rec, keys, aggs)
			require.NoError(t, err, f.Name)
			cut := r.IntN(n + 1)
			tbl, err := alkaid.TableFromRecords(rec.Schema(), []*alkaid.Record{rec.Slice(0, cut), rec.Slice(cut, n)})
			require.NoError(t, err)
			outT, err := GroupByTable(tbl, keys, aggs)
			require.NoError(t, err)
			for c := range out.NumCols() {
				require.True(t, array.ApproxEqual(out.Column(c), outT.Column(c), array.NaNEqual()), "%s table column %d", f.Name, c)
			}

			keyCols := []array.Array{key, second}[:len(keys)]
			groups := refGroupBy(keyCols, n)
			require.Equal(t, len(groups), out.NumRows(), f.Name)
			nk := len(keys)
			for g, rows := range groups {
				msg := func(what string) string { return f.Name + " group " + what }
				for k := range nk {
					require.True(t, sameSlot(keyCols[k], rows[0], out.Column(k), g), msg("key"))
				}
				col := func(j int) array.Array { return out.Column(nk + j) }
				require.Equal(t, int64(len(rows)), col(0).(*array.Int64).Value(g))
				sum, cnt := refSum(num, rows)
				require.Equal(t, int64(cnt), col(1).(*array.Int64).Value(g), msg("count"))
				if cnt == 0 {
					for _, j := range []int{2, 3, 4, 5, 7} {
						require.True(t, col(j).IsNull(g), msg("null aggregate"))
					}
				} else {
					require.Equal(t, sum, reflect.ValueOf(col(2)).MethodByName("Value").Call([]reflect.Value{reflect.ValueOf(g)})[0].Interface(), msg("sum"))
					mean := col(3).(*array.Float64).Value(g)
					want := refMean(num, rows)
					require.True(t, mean == want || math.IsNaN(mean) && math.IsNaN(want), msg("mean"))
					require.True(t, sameRef(sortRef(num, refBest(num, rows, false)), sortRef(col(4), g)), msg("min"))
					require.True(t, sameRef(sortRef(num, refBest(num, rows, true)), sortRef(col(5), g)), msg("max"))
					last := -1
					for _, i := range rows {
						if !num.IsNull(i) {
							last = i
						}
					}
					require.True(t, sameSlot(num, last, col(7), g), msg("last"))
				}
				first := -1
				distinct := map[string]bool{}
				for _, i := range rows {
					if !isNullKey(key, i) {
						if first < 0 {
							first = i
						}
						distinct[string(array.AppendKey(nil, key, i))] = true
					}
				}
				if first < 0 {
					require.True(t, col(6).IsNull(g) || isNullKey(col(6), g), msg("first null"))
				} else {
					require.True(t, sameSlot(key, first, col(6), g), msg("first"))
				}
				require.Equal(t, int64(len(distinct)), col(8).(*array.Int64).Value(g), msg("count distinct"))
				anyV, allV, seen := false, true, false
				for _, i := range rows {
					if flag.IsValid(i) {
						v := flag.(*array.Boolean).Value(i)
						seen, anyV, allV = true, anyV || v, allV && v
					}
				}
				require.Equal(t, !seen, col(9).IsNull(g))
				if seen {
					require.Equal(t, anyV, col(9).(*array.Boolean).Value(g), msg("any"))
					require.Equal(t, allV, col(10).(*array.Boolean).Value(g), msg("all"))
				}
				if orderErr == nil {
					for j, greatest := range []bool{false, true} {
						b := refBest(key, rows, greatest)
						if b < 0 {
							require.True(t, col(11+j).IsNull(g) || isNullKey(col(11+j), g), msg("key min null"))
						} else {
							require.True(t, sameRef(sortRef(key, b), sortRef(col(11+j), g)), msg("key min/max"))
						}
					}
				}
			}
		}
	}
}

func TestGroupByCases(t *testing.T) {
	s := alkaid.NewSchema([]datatype.Field{{Name: "k", Type: datatype.String, Nullable: true}, {Name: "v", Type: datatype.Int64, Nullable: true}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{
		arrayjson.MustParse(datatype.String, `["a", null, "b", "a", null]`),
		arrayjson.MustParse(datatype.Int64, `[1, 2, null, 4, 5]`)}, 5)
	require.NoError(t, err)
	out, err := GroupBy(rec, []string{"k"}, []Aggregate{{Func: AggSum, Column: "v"}, Aggregate{Func: AggCount, Name: "n"}})
	require.NoError(t, err)
	require.Equal(t, "record: 3 rows\n  k: [\"a\" (null) \"b\"]\n  sum(v): [5 7 (null)]\n  n: [2 2 1]\n", out.String())

	all, err := GroupBy(rec, nil, []Aggregate{{Func: AggMax, Column: "k"}})
	require.NoError(t, err)
	require.Equal(t, `["b"]`, all.Column(0).String())

	for _, c := range []struct {
		keys []string
		agg  Aggregate
		want error
		msg  string
	}{
		{[]string{"nope"}, Aggregate{Func: AggCount}, ErrInvalid, `no column "nope"`},
		{[]string{"k"}, Aggregate{Func: AggSum, Column: "k"}, ErrNotSupported, "sum(k)"},
		{[]string{"k"}, Aggregate{Func: AggAny, Column: "v"}, ErrNotSupported, "any of int64"},
		{[]string{"k"}, Aggregate{Func: AggSum}, ErrInvalid, "sum needs a column"},
		{[]string{"k"}, Aggregate{Func: AggFunc(99), Column: "v"}, ErrInvalid, "aggregate function 99"},
	} {
		_, err := GroupBy(rec, c.keys, []Aggregate{c.agg})
		require.ErrorIs(t, err, c.want)
		require.ErrorContains(t, err, c.msg)
	}
}

// TestGroupByEveryAggregateEveryType runs every aggregate over a column
// of every type: a valid result of one row per group, or an error.
func TestGroupByEveryAggregateEveryType(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	n := 40
	key := fewValues(t, r, datatype.Int8, n, 4)
	for _, f := range everyType() {
		col := fewValues(t, r, f.Type, n, 6)
		s := alkaid.NewSchema([]datatype.Field{{Name: "k", Type: datatype.Int8, Nullable: true}, {Name: "v", Type: f.Type, Nullable: true}}, datatype.Metadata{})
		rec, err := alkaid.NewRecord(s, []array.Array{key, col}, n)
		require.NoError(t, err)
		for fn := AggCount; fn <= AggAll; fn++ {
			out, err := GroupBy(rec, []string{"k"}, []Aggregate{{Func: fn, Column: "v"}})
			if err != nil {
				require.ErrorIs(t, err, ErrNotSupported, "%s of %s", fn, f.Name)
				continue
			}
			require.Equal(t, 2, out.NumCols())
			for c := range out.NumCols() {
				require.NoError(t, array.Validate(out.Column(c).Data(), array.ValidateFull), "%s of %s", fn, f.Name)
			}
		}
	}
}

// TestGroupBySumParallel checks the two-halves sum of a long column
// against a Go map (integers: exact whatever the order).
func TestGroupBySumParallel(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 30))
	n := parallelMin + 999
	k := make([]int64, n)
	v := array.NewPrimitiveBuilder[int32](datatype.Int32)
	sums, counts := map[int64]int64{}, map[int64]int64{}
	for i := range k {
		k[i] = r.Int64N(300)
		if r.IntN(10) == 0 {
			v.AppendNull()
			continue
		}
		x := r.Int32N(1000) - 500
		v.Append(x)
		sums[k[i]] += int64(x)
		counts[k[i]]++
	}
	s := alkaid.NewSchema([]datatype.Field{{Name: "k", Type: datatype.Int64}, {Name: "v", Type: datatype.Int32, Nullable: true}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{int64Array(k), v.NewArray()}, n)
	require.NoError(t, err)
	out, err := GroupBy(rec, []string{"k"}, []Aggregate{{Func: AggSum, Column: "v"}, Aggregate{Func: AggCount, Column: "v"}})
	require.NoError(t, err)
	require.Equal(t, len(sums), out.NumRows())
	for g := range out.NumRows() {
		key := out.Column(0).(*array.Int64).Value(g)
		require.Equal(t, sums[key], out.Column(1).(*array.Int64).Value(g))
		require.Equal(t, counts[key], out.Column(2).(*array.Int64).Value(g))
	}
}
