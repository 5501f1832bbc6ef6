package join_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
	"github.com/alkaid-go/alkaid/join"
)

// keyGen makes a random key column of n rows (a few distinct values,
// some null) of a side.
type keyGen struct {
	name        string
	left, right func(r *rand.Rand, n int) array.Array
}

func genInts(r *rand.Rand, n int) array.Array {
	b := array.NewPrimitiveBuilder[int64](datatype.Int64)
	for range n {
		if r.IntN(8) == 0 {
			b.AppendNull()
		} else {
			b.Append(r.Int64N(12) - 3)
		}
	}
	return b.NewArray()
}

func genInt32s(r *rand.Rand, n int) array.Array {
	b := array.NewPrimitiveBuilder[int32](datatype.Int32)
	for range n {
		if r.IntN(8) == 0 {
			b.AppendNull()
		} else {
			b.Append(int32(r.IntN(4)))
		}
	}
	return b.NewArray()
}

var words = []string{"", "a", "b", "ü", "日本", "a\x00", "ab"}

func genStrings(t datatype.DataType) func(r *rand.Rand, n int) array.Array {
	return func(r *rand.Rand, n int) array.Array {
		b := array.NewBuilder(t)
		for range n {
			if r.IntN(8) == 0 {
				b.AppendNull()
				continue
			}
			w := words[r.IntN(len(words))]
			switch b := b.(type) {
			case *array.BinaryBuilder[int32]:
				b.AppendString(w)
			case *array.BinaryBuilder[int64]:
				b.AppendString(w)
			case *array.BinaryViewBuilder:
				b.AppendString(w + strings.Repeat("long tail", r.IntN(2))) // inline and out-of-line views
			case *array.DictionaryBuilder[string]:
				if err := b.Append(w); err != nil {
					panic(err)
				}
			default:
				panic(fmt.Sprintf("no append for %T", b))
			}
		}
		return b.NewArray()
	}
}

func genFloats(r *rand.Rand, n int) array.Array {
	vals := []float64{math.NaN(), math.Copysign(0, -1), 0, 1.5, -2, math.Inf(1), math.Float64frombits(0x7ff8000000000001)}
	b := array.NewPrimitiveBuilder[float64](datatype.Float64)
	for range n {
		if r.IntN(8) == 0 {
			b.AppendNull()
		} else {
			b.Append(vals[r.IntN(len(vals))])
		}
	}
	return b.NewArray()
}

func genDecimals(r *rand.Rand, n int) array.Array {
	dt, err := datatype.NewDecimal(128, 30, 2)
	if err != nil {
		panic(err)
	}
	b := array.NewPrimitiveBuilder[datatype.Decimal128](dt)
	for range n {
		if r.IntN(8) == 0 {
			b.AppendNull()
		} else {
			b.Append(datatype.Decimal128{Lo: uint64(r.IntN(5)), Hi: int64(r.IntN(2))})
		}
	}
	return b.NewArray()
}

func genBools(r *rand.Rand, n int) array.Array {
	b := array.NewBooleanBuilder(datatype.Bool)
	for range n {
		if r.IntN(8) == 0 {
			b.AppendNull()
		} else {
			b.Append(r.IntN(2) == 0)
		}
	}
	return b.NewArray()
}

func stringDict() datatype.DataType {
	d, err := datatype.NewDictionary(datatype.Int16, datatype.String, false)
	if err != nil {
		panic(err)
	}
	return d
}

// naiveKey is a key as the nested-loop join compares it: the formatted
// values, -0 as 0 and every NaN as NaN.
func naiveKey(cols []array.Array, i int) (vals []string, hasNull bool) {
	for _, c := range cols {
		if c.IsNull(i) {
			vals, hasNull = append(vals, "\x00null"), true
			continue
		}
		s := array.FormatValue(c, i)
		if f, ok := c.(*array.Float64); ok {
			switch v := f.Value(i); {
			case v == 0:
				s = "0"
			case v != v:
				s = "NaN"
			}
		}
		vals = append(vals, s)
	}
	return vals, hasNull
}

// naiveJoin is the nested-loop join, in the order Reader.Records
// documents.
func naiveJoin(typ join.Type, l, r *alkaid.Record, lk, rk []int, nullsEqual bool, keep func(i, j int) bool) []string {
	cols := func(rec *alkaid.Record, key []int) []array.Array {
		out := make([]array.Array, len(key))
		for i, c := range key {
			out[i] = rec.Column(c)
		}
		return out
	}
	lc, rc := cols(l, lk), cols(r, rk)
	match := func(i, j int) bool {
		a, an := naiveKey(lc, i)
		b, bn := naiveKey(rc, j)
		if (an || bn) && !nullsEqual {
			return false
		}
		return strings.Join(a, "\x01") == strings.Join(b, "\x01") && keep(i, j)
	}
	row := func(i, j int, left, right bool) string {
		var vals []string
		if left {
			for c := range l.NumCols() {
				if i < 0 {
					vals = append(vals, "(null)")
				} else {
					vals = append(vals, array.FormatValue(l.Column(c), i))
				}
			}
		}
		if right {
			for c := range r.NumCols() {
				if j < 0 {
					vals = append(vals, "(null)")
				} else {
					vals = append(vals, array.FormatValue(r.Column(c), j))
				}
			}
		}
		return strings.Join(vals, "|")
	}
	var out []string
	rightMatched := make([]bool, r.NumRows())
	for i := range l.NumRows() {
		found := false
		for j := range r.NumRows() {
			if !match(i, j) {
				continue
			}
			found, rightMatched[j] = true, true
			switch typ {
			case join.Inner, join.LeftOuter, join.RightOuter, join.FullOuter:
				out = append(out, row(i, j, true, true))
			}
		}
		switch {
		case typ == join.LeftSemi && found, typ == join.LeftAnti && !found:
			out = append(out, row(i, -1, true, false))
		case !found && (typ == join.LeftOuter || typ == join.FullOuter):
			out = append(out, row(i, -1, true, true))
		}
	}
	for j, m := range rightMatched {
		switch {
		case typ == join.RightSemi && m, typ == join.RightAnti && !m:
			out = append(out, row(-1, j, false, true))
		case !m && (typ == join.RightOuter || typ == join.FullOuter):
			out = append(out, row(-1, j, true, true))
		}
	}
	return out
}

func sideRecord(t testing.TB, prefix string, keys []array.Array, n int) *alkaid.Record {
	id := array.NewPrimitiveBuilder[int64](datatype.Int64)
	for i := range n {
		id.Append(int64(i))
	}
	fields := []datatype.Field{{Name: prefix + "id", Type: datatype.Int64}}
	cols := []array.Array{id.NewArray()}
	for i, k := range keys {
		fields = append(fields, datatype.Field{Name: fmt.Sprintf("%sk%d", prefix, i), Type: k.DataType(), Nullable: true})
		cols = append(cols, k)
	}
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), cols, n)
	require.NoError(t, err)
	return rec
}

// TestJoinMatchesNestedLoop compares every join type with a nested-loop
// join on random inputs: keys of several types (one column and
// several, dictionaries against plain strings), nulls, NaN and -0, with
// and without null equality and a residual filter, serial and parallel,
// the left side in random batches.
func TestJoinMatchesNestedLoop(t *testing.T) {
	gens := [][]keyGen{
		{{"int64", genInts, genInts}},     // hashed: negative keys span all of uint64
		{{"int32", genInt32s, genInt32s}}, // dense: keys index the table directly
		{{"string", genStrings(datatype.String), genStrings(datatype.LargeString)}},
		{{"dict-string", genStrings(stringDict()), genStrings(datatype.String)}},
		{{"binary", genStrings(datatype.Binary), genStrings(datatype.BinaryView)}},
		{{"string-view", genStrings(datatype.StringView), genStrings(datatype.StringView)}},
		{{"float64", genFloats, genFloats}},
		{{"decimal128", genDecimals, genDecimals}},
		{{"bool", genBools, genBools}},
		{{"int32", genInt32s, genInt32s}, {"string", genStrings(datatype.String), genStrings(stringDict())}},
		{{"float64", genFloats, genFloats}, {"int64", genInts, genInts}},
	}
	types := []join.Type{join.Inner, join.LeftOuter, join.RightOuter, join.FullOuter, join.LeftSemi, join.LeftAnti, join.RightSemi, join.RightAnti}
	r := rand.New(rand.NewPCG(1, 2))
	for _, g := range gens {
		var names []string
		for _, k := range g {
			names = append(names, k.name)
		}
		for round := range 4 {
			nl, nr := r.IntN(120), r.IntN(60)
			var lkeys, rkeys []array.Array
			var keys []join.Key
			var lk, rk []int
			for i, k := range g {
				lkeys, rkeys = append(lkeys, k.left(r, nl)), append(rkeys, k.right(r, nr))
				keys = append(keys, join.Key{Left: fmt.Sprintf("lk%d", i), Right: fmt.Sprintf("rk%d", i)})
				lk, rk = append(lk, i+1), append(rk, i+1)
			}
			l, rt := sideRecord(t, "l", lkeys, nl), sideRecord(t, "r", rkeys, nr)
			// The left side in random batches.
			var batches []*alkaid.Record
			for lo := 0; lo < nl; {
				hi := min(nl, lo+1+r.IntN(40))
				batches = append(batches, l.Slice(lo, hi))
				lo = hi
			}
			left, err := alkaid.TableFromRecords(l.Schema(), batches)
			require.NoError(t, err)
			right, err := alkaid.TableFromRecords(rt.Schema(), []*alkaid.Record{rt})
			require.NoError(t, err)
			for _, typ := range types {
				for _, variant := range []string{"plain", "nulls-equal", "filter"} {
					name := fmt.Sprintf("%s/%d/%s/%s", strings.Join(names, ","), round, typ, variant)
					t.Run(name, func(t *testing.T) {
						keep := func(i, j int) bool { return true }
						opts := []join.Option{join.WithConcurrency(1 + round%3), join.WithBatchSize(1 + r.IntN(50))}
						nullsEqual := variant == "nulls-equal"
						if nullsEqual {
							opts = append(opts, join.WithNullsEqual())
						}
						if variant == "filter" {
							f := randomFilter(r)
							t.Logf("filter %s", f.text)
							e, err := expr.Parse(f.text)
							require.NoError(t, err)
							keep = f.keep
							opts = append(opts, join.WithFilter(e))
						}
						j, err := join.NewReader(left, right, typ, keys, opts...)
						require.NoError(t, err)
						want := naiveJoin(typ, l, rt, lk, rk, nullsEqual, keep)
						require.Equal(t, want, rows(t, j))
					})
				}
			}
		}
	}
}

// filterCase is a residual filter over the row ids lid and rid, as
// text and as what it keeps.
type filterCase struct {
	text string
	keep func(i, j int) bool
}

// randomFilter returns one of several filters comparing a left column
// with a right one, with a random constant; the last makes some pairs
// null, which do not match.
func randomFilter(r *rand.Rand) filterCase {
	c := 1 + r.IntN(4)
	switch r.IntN(4) {
	case 0:
		return filterCase{fmt.Sprintf("(lid + rid) %% %d <> 0", c+1), func(i, j int) bool { return (i+j)%(c+1) != 0 }}
	case 1:
		return filterCase{fmt.Sprintf("lid < rid * %d", c), func(i, j int) bool { return i < j*c }}
	case 2:
		return filterCase{fmt.Sprintf("lid - rid BETWEEN -%d AND %d", c*5, c*10), func(i, j int) bool { return i-j >= -c*5 && i-j <= c*10 }}
	default:
		return filterCase{fmt.Sprintf("CASE WHEN (lid * rid) %% %d = 0 THEN NULL ELSE lid >= rid END", c+1),
			func(i, j int) bool { return (i*j)%(c+1) != 0 && i >= j }}
	}
}

// TestJoinManySparseKeys fills the hashed uint64 table enough for keys
// to collide and checks a left join against a Go map.
func TestJoinManySparseKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const nb, np = 5000, 20000
	bk := array.NewPrimitiveBuilder[int64](datatype.Int64)
	where := map[int64]int64{}
	var keys []int64
	for i := range nb {
		k := int64(r.Uint64())
		bk.Append(k)
		where[k] = int64(i)
		keys = append(keys, k)
	}
	pk := array.NewPrimitiveBuilder[int64](datatype.Int64)
	want := array.NewPrimitiveBuilder[int64](datatype.Int64)
	for range np {
		k := int64(r.Uint64())
		if r.IntN(2) == 0 {
			k = keys[r.IntN(nb)]
		}
		pk.Append(k)
		if i, ok := where[k]; ok {
			want.Append(i)
		} else {
			want.AppendNull()
		}
	}
	build := sideRecord(t, "r", []array.Array{bk.NewArray()}, nb)
	probe := sideRecord(t, "l", []array.Array{pk.NewArray()}, np)
	j, err := join.NewReader(table(t, probe), table(t, build), join.LeftOuter, []join.Key{{Left: "lk0", Right: "rk0"}}, join.WithColumns("rid"))
	require.NoError(t, err)
	var got []array.Array
	for rec, err := range j.Records() {
		require.NoError(t, err)
		got = append(got, rec.Column(0))
	}
	all, err := array.Concatenate(got...)
	require.NoError(t, err)
	require.True(t, array.Equal(want.NewArray(), all))
}
