package compute

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/memory"
	"github.com/stretchr/testify/require"
)

var (
	intTypes   = []datatype.DataType{datatype.Int8, datatype.Int16, datatype.Int32, datatype.Int64, datatype.Uint8, datatype.Uint16, datatype.Uint32, datatype.Uint64}
	floatTypes = []datatype.DataType{datatype.Float16Type, datatype.Float32, datatype.Float64}
	// orderedTypes have a min and max but no sum.
	orderedTypes = []datatype.DataType{datatype.Date32Type, datatype.Date64Type, must(datatype.NewTime(datatype.Millisecond)),
		must(datatype.NewTime(datatype.Nanosecond)), must(datatype.NewTimestamp(datatype.Microsecond, "UTC")),
		must(datatype.NewDuration(datatype.Second))}
)

// refValue returns slot i's Go value.
func refValue(a array.Array, i int) any {
	return reflect.ValueOf(a).MethodByName("Value").Call([]reflect.Value{reflect.ValueOf(i)})[0].Interface()
}

// refNum returns slot i exactly: an integer, or a float (isFloat).
func refNum(a array.Array, i int) (n *big.Int, f float64, isFloat bool) {
	if h, ok := a.(*array.Float16); ok {
		return nil, float64(h.Value(i).Float32()), true
	}
	v := reflect.ValueOf(refValue(a, i))
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return nil, v.Float(), true
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return new(big.Int).SetUint64(v.Uint()), 0, false
	}
	return big.NewInt(v.Int()), 0, false
}

type refAgg struct {
	count       int
	isFloat     bool
	sum         *big.Int
	fsum, fabs  float64
	argMin, arg int // slots of the min and max, -1 when none
	argMax      int
}

func reference(a array.Array) refAgg {
	r := refAgg{sum: new(big.Int), argMin: -1, argMax: -1}
	type num struct {
		n *big.Int
		f float64
	}
	nums := make([]num, a.Len())
	for i := range nums {
		if a.IsValid(i) {
			nums[i].n, nums[i].f, r.isFloat = refNum(a, i)
		}
	}
	isNaN := func(i int) bool { return r.isFloat && math.IsNaN(nums[i].f) }
	less := func(i, j int) bool { // slot i < slot j, ignoring NaN
		if r.isFloat {
			x, y := nums[i].f, nums[j].f
			return x < y || x == 0 && y == 0 && math.Signbit(x) && !math.Signbit(y)
		}
		return nums[i].n.Cmp(nums[j].n) < 0
	}
	for i := range a.Len() {
		if a.IsNull(i) {
			continue
		}
		r.count++
		if r.isFloat {
			r.fsum += nums[i].f
			r.fabs += math.Abs(nums[i].f)
		} else {
			r.sum.Add(r.sum, nums[i].n)
		}
		// NaN wins only over nothing or over NaN.
		if r.argMin < 0 || isNaN(r.argMin) && !isNaN(i) || !isNaN(i) && less(i, r.argMin) {
			r.argMin = i
		}
		if r.argMax < 0 || isNaN(r.argMax) && !isNaN(i) || !isNaN(i) && less(r.argMax, i) {
			r.argMax = i
		}
	}
	return r
}

func fitsInt64(v *big.Int) bool  { return v.IsInt64() }
func fitsUint64(v *big.Int) bool { return v.IsUint64() }

func wrap64(v *big.Int) uint64 {
	m := new(big.Int).Lsh(big.NewInt(1), 64)
	return new(big.Int).Mod(v, m).Uint64()
}

func checkAggregates(t *testing.T, name string, a array.Array, sums bool) {
	t.Helper()
	ref := reference(a)
	require.Equal(t, ref.count, CountValid(a), name)
	require.Equal(t, a.Len()-ref.count, CountNull(a), name)

	lo, hi, err := MinMax(a)
	require.NoError(t, err, name)
	mn, err := Min(a)
	require.NoError(t, err, name)
	mx, err := Max(a)
	require.NoError(t, err, name)
	require.Equal(t, lo, mn, name)
	require.Equal(t, hi, mx, name)
	if ref.count == 0 {
		require.False(t, lo.Valid, name)
		require.False(t, hi.Valid, name)
	} else {
		require.True(t, lo.Valid && hi.Valid, name)
		require.Equal(t, refValue(a, ref.argMin), lo.Value, "%s: min", name)
		require.Equal(t, refValue(a, ref.argMax), hi.Value, "%s: max", name)
		require.True(t, datatype.Equal(a.DataType(), lo.Type), name)
	}
	if !sums {
		_, err := Sum(a)
		require.ErrorIs(t, err, ErrNotSupported, name)
		return
	}
	s, err := Sum(a)
	require.NoError(t, err, name)
	sc, cerr := SumChecked(a)
	m, err := Mean(a)
	require.NoError(t, err, name)
	if ref.count == 0 {
		require.False(t, s.Valid, name)
		require.False(t, m.Valid, name)
		require.NoError(t, cerr)
		require.False(t, sc.Valid, name)
		return
	}
	signed := a.DataType().Kind().IsSignedInteger()
	switch {
	case ref.isFloat:
		v, ok := s.Float64()
		require.True(t, ok, name)
		require.InDelta(t, ref.fsum, v, 1e-9*ref.fabs+1e-12, name)
		require.NoError(t, cerr, name)
		require.Equal(t, s, sc, name)
		mv, _ := m.Float64()
		require.InDelta(t, ref.fsum/float64(ref.count), mv, (1e-9*ref.fabs+1e-12)/float64(ref.count), name)
	case signed:
		v, ok := s.Int64()
		require.True(t, ok, name)
		require.Equal(t, int64(wrap64(ref.sum)), v, name)
		if fitsInt64(ref.sum) {
			require.NoError(t, cerr, name)
			require.Equal(t, s, sc, name)
		} else {
			require.ErrorIs(t, cerr, ErrOverflow, name)
		}
	default:
		v, ok := s.Uint64()
		require.True(t, ok, name)
		require.Equal(t, wrap64(ref.sum), v, name)
		if fitsUint64(ref.sum) {
			require.NoError(t, cerr, name)
		} else {
			require.ErrorIs(t, cerr, ErrOverflow, name)
		}
	}
	if !ref.isFloat {
		want, _ := new(big.Float).Quo(new(big.Float).SetInt(ref.sum), big.NewFloat(float64(ref.count))).Float64()
		mv, _ := m.Float64()
		require.InEpsilon(t, want, mv, 1e-12, name)
	}

	// The same over chunks (one of them empty) gives the same answers.
	n := a.Len()
	c, err := alkaid.NewChunked(a.DataType(), []array.Array{array.Slice(a, 0, n/3), array.Slice(a, n/3, n/3),
		array.Slice(a, n/3, n/2), array.Slice(a, n/2, n)})
	require.NoError(t, err)
	cs, err := SumChunked(c)
	require.NoError(t, err)
	if ref.isFloat {
		v, _ := cs.Float64()
		require.InDelta(t, ref.fsum, v, 1e-9*ref.fabs+1e-12, name)
	} else {
		require.Equal(t, s, cs, name)
	}
	ccs, ccerr := SumCheckedChunked(c)
	require.Equal(t, cerr != nil, ccerr != nil, name)
	if cerr == nil && !ref.isFloat {
		require.Equal(t, sc, ccs, name)
	}
	cm, err := MeanChunked(c)
	require.NoError(t, err)
	require.InEpsilon(t, m.Value.(float64), cm.Value.(float64), 1e-9, name)
	clo, chi, err := MinMaxChunked(c)
	require.NoError(t, err)
	require.Equal(t, lo, clo, name)
	require.Equal(t, hi, chi, name)
	cmn, _ := MinChunked(c)
	cmx, _ := MaxChunked(c)
	require.Equal(t, lo, cmn, name)
	require.Equal(t, hi, cmx, name)
	require.Equal(t, ref.count, CountValidChunked(c), name)
	require.Equal(t, n-ref.count, CountNullChunked(c), name)
}

func TestAggregatesRandom(t *testing.T) {
	all := append(append(append([]datatype.DataType{}, intTypes...), floatTypes...), orderedTypes...)
	for ti, dt := range all {
		sums := dt.Kind().IsInteger() || dt.Kind().IsFloat()
		for _, n := range []int{testRows, 700} {
			for shape, a := range variants(t, uint64(ti*7+n), dt, n) {
				checkAggregates(t, fmt.Sprintf("%s/%d/%s", dt, n, shape), a, sums)
			}
		}
		// Small values: integer sums that do not overflow.
		for shape, a := range variants(t, uint64(ti), dt, testRows) {
			if dt.Kind().IsInteger() {
				small, err := Take(arrayjson.MustParse(dt, `[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]`), smallIndices(t, a))
				require.NoError(t, err)
				checkAggregates(t, fmt.Sprintf("%s/small/%s", dt, shape), small, sums)
			}
		}
		// Empty and all null.
		g := randdata.New(1)
		g.NullFraction = 1
		checkAggregates(t, dt.String()+"/empty", g.Array(dt, 0, true), sums)
		checkAggregates(t, dt.String()+"/allnull", g.Array(dt, 40, true), sums)
	}
}

// smallIndices returns, for each slot of a, a small index (null where a
// is null).
func smallIndices(t *testing.T, a array.Array) array.Array {
	idx := make([]int, a.Len())
	for i := range idx {
		idx[i] = (i * 7) % 12
		if a.IsNull(i) {
			idx[i] = -1
		}
	}
	return indexArray(t, datatype.Int32, idx)
}

func TestSumOverflow(t *testing.T) {
	for _, c := range []struct {
		dt      datatype.DataType
		json    string
		wrapped any
		ok      bool
	}{
		{datatype.Int64, `[9223372036854775807, 1]`, int64(math.MinInt64), false},
		{datatype.Int64, `[9223372036854775807, 1, -1]`, int64(math.MaxInt64), true}, // only the exact result counts
		{datatype.Int64, `[-9223372036854775808, -1]`, int64(math.MaxInt64), false},
		{datatype.Uint64, `[18446744073709551615, 1]`, uint64(0), false},
		{datatype.Uint64, `[18446744073709551615, null]`, uint64(math.MaxUint64), true},
		{datatype.Int8, `[127, 127, 127]`, int64(381), true}, // narrow types sum in 64 bits
	} {
		a := arrayjson.MustParse(c.dt, c.json)
		s, err := Sum(a)
		require.NoError(t, err)
		require.Equal(t, c.wrapped, s.Value, c.json)
		_, err = SumChecked(a)
		if c.ok {
			require.NoError(t, err, c.json)
		} else {
			require.ErrorIs(t, err, ErrOverflow, c.json)
		}
	}
	m, err := Mean(arrayjson.MustParse(datatype.Int64, `[9223372036854775807, 9223372036854775807]`))
	require.NoError(t, err)
	require.Equal(t, float64(math.MaxInt64), m.Value)
}

// floatArray builds a float64 array from values and a validity mask
// (nil: all valid), keeping the values of null slots.
func floatArray(vals []float64, valid []bool) array.Array {
	var vb *memory.Buffer
	nulls := 0
	if valid != nil {
		b := make([]byte, bitutil.BytesForBits(len(vals)))
		for i, v := range valid {
			bitutil.SetBitTo(b, i, v)
			if !v {
				nulls++
			}
		}
		vb = memory.NewBuffer(b)
	}
	return array.MustMake(array.NewData(datatype.Float64, len(vals), []*memory.Buffer{vb, memory.FromSlice(vals)}, nil, nulls, 0))
}

func TestFloatSemantics(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	// Null slots never contribute, NaN included.
	a := floatArray([]float64{1, nan, 2, inf}, []bool{true, false, true, false})
	s, _ := Sum(a)
	require.Equal(t, 3.0, s.Value)
	lo, hi, _ := MinMax(a)
	require.Equal(t, 1.0, lo.Value)
	require.Equal(t, 2.0, hi.Value)
	// NaN in a valid slot makes the sum NaN, not the min or max.
	a = floatArray([]float64{nan, 1, nan, 5}, nil)
	s, _ = Sum(a)
	require.True(t, math.IsNaN(s.Value.(float64)))
	lo, hi, _ = MinMax(a)
	require.Equal(t, 1.0, lo.Value)
	require.Equal(t, 5.0, hi.Value)
	// All NaN: NaN.
	lo, _, _ = MinMax(floatArray([]float64{nan, nan}, nil))
	require.True(t, math.IsNaN(lo.Value.(float64)))
	// -0 orders before +0.
	lo, hi, _ = MinMax(floatArray([]float64{0, math.Copysign(0, -1)}, nil))
	require.True(t, math.Signbit(lo.Value.(float64)))
	require.False(t, math.Signbit(hi.Value.(float64)))
	s, _ = Sum(floatArray([]float64{inf, -inf}, nil))
	require.True(t, math.IsNaN(s.Value.(float64)))
	// Chunks: one all-NaN chunk does not hide the others.
	c, err := alkaid.NewChunked(datatype.Float64, []array.Array{floatArray([]float64{nan}, nil), floatArray([]float64{3, 2}, nil), floatArray([]float64{nan}, nil)})
	require.NoError(t, err)
	lo, hi, _ = MinMaxChunked(c)
	require.Equal(t, 2.0, lo.Value)
	require.Equal(t, 3.0, hi.Value)
}

func TestAggregateTypesAndCounts(t *testing.T) {
	_, err := Sum(arrayjson.MustParse(datatype.String, `["a"]`))
	require.ErrorIs(t, err, ErrNotSupported)
	_, err = Min(arrayjson.MustParse(datatype.ListOf(datatype.Int8), `[[1]]`))
	require.ErrorIs(t, err, ErrNotSupported)
	s, err := Sum(array.NewNull(3))
	require.NoError(t, err)
	require.False(t, s.Valid)
	require.Equal(t, "null", s.String())
	c, err := alkaid.NewChunked(datatype.Int32, nil)
	require.NoError(t, err)
	lo, err := MinChunked(c)
	require.NoError(t, err)
	require.False(t, lo.Valid)
	s, err = SumChunked(c)
	require.NoError(t, err)
	require.Equal(t, NullScalar(datatype.Int64), s)

	// Unions and run-end encoded arrays count their children's nulls.
	g := randdata.New(3)
	g.NullFraction = 0.3
	for _, f := range randdata.AllTypes().Fields() {
		a := array.Slice(g.Array(f.Type, 60, true), 5, 55)
		want := 0
		for i := range a.Len() {
			if a.IsNull(i) {
				want++
			}
		}
		require.Equal(t, want, CountNull(a), f.Name)
		require.Equal(t, a.Len()-want, CountValid(a), f.Name)
	}

	// Typed helpers.
	i64 := arrayjson.MustParse(datatype.Int64, `[1, null, 3]`).(*array.Int64)
	si, n := SumInts(i64)
	require.Equal(t, int64(4), si)
	require.Equal(t, 2, n)
	su, _ := SumUints(arrayjson.MustParse(datatype.Uint8, `[200, 100]`).(*array.Uint8))
	require.Equal(t, uint64(300), su)
	sf, _ := SumFloats(arrayjson.MustParse(datatype.Float32, `[0.5, 0.25]`).(*array.Float32))
	require.Equal(t, 0.75, sf)
}
