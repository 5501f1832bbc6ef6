package compute

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/stretchr/testify/require"
)

// decimalBig is the unscaled value of slot i of a decimal array.
func decimalBig(a array.Array, i int) *big.Int {
	switch x := a.(type) {
	case *array.Decimal32:
		return big.NewInt(int64(x.Value(i)))
	case *array.Decimal64:
		return big.NewInt(int64(x.Value(i)))
	case *array.Decimal128:
		return x.Value(i).BigInt()
	}
	return a.(*array.Decimal256).Value(i).BigInt()
}

// scalarBig is the unscaled value of a decimal scalar.
func scalarBig(s Scalar) *big.Int {
	switch v := s.Value.(type) {
	case datatype.Decimal32:
		return big.NewInt(int64(v))
	case datatype.Decimal64:
		return big.NewInt(int64(v))
	case datatype.Decimal128:
		return v.BigInt()
	}
	return s.Value.(datatype.Decimal256).BigInt()
}

// randomDecimals is n decimals of t, some null, many near the largest
// of t's precision (so that sums leave it).
func randomDecimals(r *rand.Rand, t *datatype.DecimalType, n int) array.Array {
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Precision)), nil)
	b, _ := array.TryNewBuilder(t)
	for range n {
		if r.IntN(8) == 0 {
			b.AppendNull()
			continue
		}
		v := randBig(r, limit)
		if r.IntN(4) == 0 {
			v.Sub(limit, big.NewInt(1+r.Int64N(3))) // near the top
		}
		if r.IntN(2) == 0 {
			v.Neg(v)
		}
		switch t.BitWidth {
		case 32:
			b.(*array.Decimal32Builder).Append(datatype.Decimal32(v.Int64()))
		case 64:
			b.(*array.Decimal64Builder).Append(datatype.Decimal64(v.Int64()))
		case 128:
			b.(*array.Decimal128Builder).Append(datatype.Decimal128FromBig(v))
		default:
			b.(*array.Decimal256Builder).Append(datatype.Decimal256FromBig(v))
		}
	}
	return b.NewArray()
}

// randBig is a random number in [0, limit).
func randBig(r *rand.Rand, limit *big.Int) *big.Int {
	b := make([]byte, limit.BitLen()/8+8)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	v := new(big.Int).SetBytes(b)
	return v.Mod(v, limit)
}

// refDecimalMean is sum / count rounded half away from zero.
func refDecimalMean(sum *big.Int, count int) *big.Int {
	num := new(big.Int).Mul(sum, big.NewInt(2))
	den := big.NewInt(2 * int64(count))
	if sum.Sign() < 0 {
		num.Sub(num, big.NewInt(int64(count)))
	} else {
		num.Add(num, big.NewInt(int64(count)))
	}
	return num.Quo(num, den)
}

// TestDecimalAggregates checks Sum, Mean, Min and Max of decimals of
// every width against big.Int, over arrays and chunks, and their
// result types.
func TestDecimalAggregates(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	for _, dt := range []*datatype.DecimalType{{BitWidth: 32, Precision: 9, Scale: 2}, {BitWidth: 32, Precision: 4, Scale: 0},
		{BitWidth: 64, Precision: 18, Scale: 3}, {BitWidth: 128, Precision: 38, Scale: 10}, {BitWidth: 128, Precision: 20, Scale: 2},
		{BitWidth: 256, Precision: 76, Scale: 5}} {
		for _, n := range []int{0, 1, 7, 300} {
			name := fmt.Sprintf("%s/%d", dt, n)
			a := randomDecimals(r, dt, n)
			sum, count := new(big.Int), 0
			var lo, hi *big.Int
			for i := range n {
				if a.IsNull(i) {
					continue
				}
				v := decimalBig(a, i)
				sum.Add(sum, v)
				count++
				if lo == nil || v.Cmp(lo) < 0 {
					lo = v
				}
				if hi == nil || v.Cmp(hi) > 0 {
					hi = v
				}
			}
			c, err := alkaid.NewChunked(dt, []array.Array{array.Slice(a, 0, n/3), array.Slice(a, n/3, n)})
			require.NoError(t, err)
			sumType := decimalSumType(dt)
			maxSum := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(sumType.Precision)), nil)
			for _, s := range []func() (Scalar, error){
				func() (Scalar, error) { return Sum(a) }, func() (Scalar, error) { return SumChecked(a) },
				func() (Scalar, error) { return SumChunked(c) }, func() (Scalar, error) { return SumCheckedChunked(c) },
			} {
				got, err := s()
				if new(big.Int).Abs(sum).Cmp(maxSum) >= 0 {
					require.ErrorIs(t, err, ErrOverflow, name)
					continue
				}
				require.NoError(t, err, name)
				require.True(t, datatype.Equal(sumType, got.Type), "%s: sum type %s", name, got.Type)
				require.Equal(t, count > 0, got.Valid, name)
				if count > 0 {
					require.Zero(t, sum.Cmp(scalarBig(got)), "%s: sum %s, want %s", name, scalarBig(got), sum)
				}
			}
			for _, m := range []func() (Scalar, error){
				func() (Scalar, error) { return Mean(a) }, func() (Scalar, error) { return MeanChunked(c) },
			} {
				got, err := m()
				require.NoError(t, err, name)
				require.True(t, datatype.Equal(dt, got.Type), "%s: mean type %s", name, got.Type)
				require.Equal(t, count > 0, got.Valid, name)
				if count > 0 {
					want := refDecimalMean(sum, count)
					require.Zero(t, want.Cmp(scalarBig(got)), "%s: mean %s, want %s", name, scalarBig(got), want)
				}
			}
			mn, mx, err := MinMaxChunked(c)
			require.NoError(t, err, name)
			if count > 0 {
				require.Zero(t, lo.Cmp(scalarBig(mn)), name)
				require.Zero(t, hi.Cmp(scalarBig(mx)), name)
			}
		}
	}
}

// TestDecimalSumOverflow: a sum beyond the sum type's precision is an
// error wrapping ErrOverflow, in aggregates and group-by.
func TestDecimalSumOverflow(t *testing.T) {
	top := `"99999999999999999999999999999999999999"` // 10^38 - 1
	a := arrayjson.MustParse(must(datatype.NewDecimal(128, 38, 0)), "["+top+", "+top+"]")
	_, err := Sum(a)
	require.ErrorIs(t, err, ErrOverflow)
	_, err = SumChecked(a)
	require.ErrorIs(t, err, ErrOverflow)
	m, err := Mean(a)
	require.NoError(t, err)
	require.Equal(t, "99999999999999999999999999999999999999", m.String())

	rec := decimalRecord(t, []int64{1, 1}, a)
	_, err = GroupBy(rec, []string{"k"}, []Aggregate{{Func: AggSum, Column: "v"}})
	require.ErrorIs(t, err, ErrOverflow)
	out, err := GroupBy(rec, []string{"k"}, []Aggregate{{Func: AggMean, Column: "v"}})
	require.NoError(t, err)
	require.Equal(t, "99999999999999999999999999999999999999", array.FormatValue(out.Column(1), 0))

	// Sums of 32- and 64-bit decimals are 128-bit: they do not overflow.
	b := arrayjson.MustParse(must(datatype.NewDecimal(64, 18, 2)), `["9999999999999999.99", "9999999999999999.99", "-0.01"]`)
	s, err := Sum(b)
	require.NoError(t, err)
	require.Equal(t, "decimal128(38, 2)", s.Type.String())
	require.Equal(t, "19999999999999999.97", s.String())
}

// decimalRecord is a record of an int64 key column k and the column v.
func decimalRecord(t *testing.T, keys []int64, v array.Array) *alkaid.Record {
	s := alkaid.NewSchema([]datatype.Field{{Name: "k", Type: datatype.Int64}, {Name: "v", Type: v.DataType(), Nullable: true}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{int64Array(keys), v}, len(keys))
	require.NoError(t, err)
	return rec
}

// TestGroupByDecimal checks group-by sum, mean, min and max of decimals
// against big.Int.
func TestGroupByDecimal(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	for _, dt := range []*datatype.DecimalType{{BitWidth: 32, Precision: 9, Scale: 2}, {BitWidth: 64, Precision: 18, Scale: 0},
		{BitWidth: 128, Precision: 30, Scale: 4}, {BitWidth: 256, Precision: 70, Scale: 1}} {
		n := 500
		v := randomDecimals(r, dt, n)
		keys := make([]int64, n)
		for i := range keys {
			keys[i] = r.Int64N(9)
		}
		out, err := GroupBy(decimalRecord(t, keys, v), []string{"k"}, []Aggregate{{Func: AggSum, Column: "v"},
			Aggregate{Func: AggMean, Column: "v"}, Aggregate{Func: AggMin, Column: "v"}, Aggregate{Func: AggMax, Column: "v"},
			Aggregate{Func: AggCount, Column: "v"}})
		require.NoError(t, err, dt.String())
		require.True(t, datatype.Equal(decimalSumType(dt), out.Column(1).DataType()), dt.String())
		require.True(t, datatype.Equal(dt, out.Column(2).DataType()), dt.String())
		require.NoError(t, array.Validate(out.Column(1).Data(), array.ValidateFull))
		for g := range out.NumRows() {
			key := out.Column(0).(*array.Int64).Value(g)
			sum, count := new(big.Int), 0
			var lo, hi *big.Int
			for i, k := range keys {
				if k != key || v.IsNull(i) {
					continue
				}
				x := decimalBig(v, i)
				sum.Add(sum, x)
				count++
				if lo == nil || x.Cmp(lo) < 0 {
					lo = x
				}
				if hi == nil || x.Cmp(hi) > 0 {
					hi = x
				}
			}
			require.Equal(t, int64(count), out.Column(5).(*array.Int64).Value(g))
			if count == 0 {
				require.True(t, out.Column(1).IsNull(g))
				continue
			}
			require.Zero(t, sum.Cmp(decimalBig(out.Column(1), g)), "%s group %d sum", dt, key)
			require.Zero(t, refDecimalMean(sum, count).Cmp(decimalBig(out.Column(2), g)), "%s group %d mean", dt, key)
			require.Zero(t, lo.Cmp(decimalBig(out.Column(3), g)), "%s group %d min", dt, key)
			require.Zero(t, hi.Cmp(decimalBig(out.Column(4), g)), "%s group %d max", dt, key)
		}
	}
}

// TestGroupByMeanExact: a group's mean is of its exact sum, not of the
// wrapped int64 or uint64 one.
func TestGroupByMeanExact(t *testing.T) {
	for _, c := range []struct {
		v    array.Array
		want float64
	}{
		{arrayjson.MustParse(datatype.Int64, `[9223372036854775807, 9223372036854775807]`), 9.223372036854776e18},
		{arrayjson.MustParse(datatype.Int64, `[-9223372036854775808, -9223372036854775808, null, -1]`), -6.148914691236517e18},
		{arrayjson.MustParse(datatype.Uint64, `[18446744073709551615, 18446744073709551615]`), 1.8446744073709552e19},
		// 2^53 + 1 and 2^53 + 3: the exact mean 2^53 + 2 is a float64.
		{arrayjson.MustParse(datatype.Int64, `[9007199254740993, 9007199254740995]`), 9007199254740994},
	} {
		keys := make([]int64, c.v.Len())
		out, err := GroupBy(decimalRecord(t, keys, c.v), []string{"k"}, []Aggregate{{Func: AggMean, Column: "v"}})
		require.NoError(t, err)
		require.Equal(t, c.want, out.Column(1).(*array.Float64).Value(0), c.v.String())
		m, err := Mean(c.v)
		require.NoError(t, err)
		require.Equal(t, c.want, m.Value, c.v.String())
	}
}

// TestGroupByMinMaxZeros: group-by min and max order -0 before +0, as
// Min and Max do, whichever comes first.
func TestGroupByMinMaxZeros(t *testing.T) {
	for _, dt := range []datatype.DataType{datatype.Float64, datatype.Float32, datatype.Float16Type} {
		for _, lit := range []string{`[0.0, -0.0]`, `[-0.0, 0.0]`, `[0.0, null, -0.0, 0.0]`} {
			v := arrayjson.MustParse(dt, lit)
			out, err := GroupBy(decimalRecord(t, make([]int64, v.Len()), v), []string{"k"}, []Aggregate{{Func: AggMin, Column: "v"}, Aggregate{Func: AggMax, Column: "v"}})
			require.NoError(t, err)
			mn, _, _ := sortKeyFloat(out.Column(1), 0)
			mx, _, _ := sortKeyFloat(out.Column(2), 0)
			require.True(t, math.Signbit(mn), "%s %s: group min %v", dt, lit, mn)
			require.False(t, math.Signbit(mx), "%s %s: group max %v", dt, lit, mx)
			lo, hi, err := MinMax(v)
			require.NoError(t, err)
			l, h := scalarFloat(lo), scalarFloat(hi)
			require.True(t, math.Signbit(l) && !math.Signbit(h), "%s %s: Min %v Max %v", dt, lit, l, h)
		}
	}
}

// sortKeyFloat is slot i of a float array of any width as a float64.
func sortKeyFloat(a array.Array, i int) (float64, bool, error) {
	switch x := a.(type) {
	case *array.Float64:
		return x.Value(i), true, nil
	case *array.Float32:
		return float64(x.Value(i)), true, nil
	case *array.Float16:
		return float64(x.Value(i).Float32()), true, nil
	}
	return 0, false, fmt.Errorf("not a float: %s", a.DataType())
}

// scalarFloat is a float scalar of any width as a float64.
func scalarFloat(s Scalar) float64 {
	switch v := s.Value.(type) {
	case float32:
		return float64(v)
	case datatype.Float16:
		return float64(v.Float32())
	}
	return s.Value.(float64)
}
