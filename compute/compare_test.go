package compute

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/stretchr/testify/require"
)

// refCompare compares two Go slot values: c is -1, 0 or 1; unordered
// when a float NaN is involved.
func refCompare(x, y any) (c int, unordered bool) {
	switch x := x.(type) {
	case bool:
		y := y.(bool)
		switch {
		case x == y:
			return 0, false
		case !x:
			return -1, false
		}
		return 1, false
	case []byte:
		return bytes.Compare(x, y.([]byte)), false
	case datatype.Decimal128:
		return x.BigInt().Cmp(y.(datatype.Decimal128).BigInt()), false
	case datatype.Decimal256:
		return x.BigInt().Cmp(y.(datatype.Decimal256).BigInt()), false
	case datatype.Float16:
		return refCompare(float64(x.Float32()), float64(y.(datatype.Float16).Float32()))
	}
	vx, vy := reflect.ValueOf(x), reflect.ValueOf(y)
	switch vx.Kind() {
	case reflect.Float32, reflect.Float64:
		fx, fy := vx.Float(), vy.Float()
		switch {
		case math.IsNaN(fx) || math.IsNaN(fy):
			return 0, true
		case fx < fy:
			return -1, false
		case fx > fy:
			return 1, false
		}
		return 0, false
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return new(big.Int).SetUint64(vx.Uint()).Cmp(new(big.Int).SetUint64(vy.Uint())), false
	}
	return big.NewInt(vx.Int()).Cmp(big.NewInt(vy.Int())), false
}

func refHolds(op CompareOp, c int, unordered bool) bool {
	if unordered {
		return op == Ne
	}
	return holds(op, c)
}

var compareTypes = []datatype.DataType{
	datatype.Bool, datatype.String, datatype.Binary, datatype.LargeString, datatype.LargeBinary,
	datatype.StringView, datatype.BinaryView, must(datatype.NewFixedSizeBinary(3)),
	datatype.Date32Type, datatype.Date64Type, must(datatype.NewTime(datatype.Second)), must(datatype.NewTime(datatype.Microsecond)),
	must(datatype.NewTimestamp(datatype.Nanosecond, "")), must(datatype.NewTimestamp(datatype.Millisecond, "UTC")),
	must(datatype.NewDuration(datatype.Microsecond)),
	must(datatype.NewDecimal(32, 7, 2)), must(datatype.NewDecimal(64, 15, 2)), must(datatype.NewDecimal(128, 30, 2)), must(datatype.NewDecimal(256, 50, 2)),
}

// mixed returns an array of a's type where about 40% of the slots repeat
// a's slot (so that equality is common) and the rest come from other.
func mixed(t *testing.T, r *rand.Rand, a, other array.Array) array.Array {
	t.Helper()
	both, err := array.Concatenate(a, other)
	require.NoError(t, err)
	idx := make([]int, a.Len())
	for i := range idx {
		idx[i] = a.Len() + i
		if r.Float64() < 0.4 {
			idx[i] = i
		}
	}
	out, err := Take(both, indexArray(t, datatype.Int64, idx))
	require.NoError(t, err)
	return out
}

func TestCompareRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	all := append(append(append([]datatype.DataType{}, intTypes...), floatTypes...), compareTypes...)
	for ti, dt := range all {
		va := variants(t, uint64(ti), dt, testRows)
		vo := variants(t, uint64(ti+1000), dt, testRows)
		for _, sh := range [][2]string{{"plain", "plain"}, {"nulls", "offset"}, {"offset", "plain"}} {
			a := va[sh[0]]
			b := mixed(t, r, vo[sh[1]], a)
			if sh[1] == "offset" {
				b = mixed(t, r, a, vo[sh[1]]) // the other way round
			}
			var scalar any
			for i := range a.Len() {
				if a.IsValid(i) {
					scalar = refValue(a, i)
					break
				}
			}
			for op := Eq; op <= Ge; op++ {
				name := fmt.Sprintf("%s/%s×%s/%s", dt, sh[0], sh[1], op)
				got, err := Compare(op, a, b)
				require.NoError(t, err, name)
				require.NoError(t, array.Validate(got.Data(), array.ValidateFull), name)
				gs, err := CompareScalar(op, a, scalar)
				require.NoError(t, err, name)
				for i := range a.Len() {
					null := a.IsNull(i) || b.IsNull(i)
					require.Equal(t, null, got.IsNull(i), "%s: slot %d", name, i)
					if !null {
						c, u := refCompare(refValue(a, i), refValue(b, i))
						require.Equal(t, refHolds(op, c, u), got.Value(i), "%s: slot %d: %v vs %v", name, i, refValue(a, i), refValue(b, i))
					}
					require.Equal(t, a.IsNull(i), gs.IsNull(i), "%s: scalar slot %d", name, i)
					if a.IsValid(i) {
						c, u := refCompare(refValue(a, i), scalar)
						require.Equal(t, refHolds(op, c, u), gs.Value(i), "%s: slot %d vs scalar %v", name, i, scalar)
					}
				}
				// The null scalar nulls everything.
				gn, err := CompareScalar(op, a, Scalar{Type: dt})
				require.NoError(t, err)
				require.Equal(t, a.Len(), gn.NullN())
			}
		}
	}
}

func TestCompareSpecial(t *testing.T) {
	nan := math.NaN()
	a := floatArray([]float64{nan, 1, 0, nan}, nil)
	b := floatArray([]float64{1, nan, math.Copysign(0, -1), nan}, nil)
	want := map[CompareOp]string{
		Eq: "[false false true false]", Ne: "[true true false true]", Lt: "[false false false false]",
		Le: "[false false true false]", Gt: "[false false false false]", Ge: "[false false true false]",
	}
	for op, w := range want {
		got, err := Compare(op, a, b)
		require.NoError(t, err)
		require.Equal(t, w, got.String(), op.String())
	}
	got, err := CompareScalar(Ne, a, nan)
	require.NoError(t, err)
	require.Equal(t, "[true true true true]", got.String())

	ts := func(unit datatype.TimeUnit, tz string) array.Array {
		return arrayjson.MustParse(must(datatype.NewTimestamp(unit, tz)), `[1, 2]`)
	}
	_, err = Compare(Eq, ts(datatype.Second, "UTC"), ts(datatype.Second, "Asia/Tokyo"))
	require.NoError(t, err, "time zones may differ")
	_, err = Compare(Eq, ts(datatype.Second, "UTC"), ts(datatype.Millisecond, "UTC"))
	require.ErrorIs(t, err, ErrInvalid)
	_, err = Compare(Eq, ts(datatype.Second, "UTC"), ts(datatype.Second, ""))
	require.ErrorIs(t, err, ErrInvalid)
	_, err = Compare(Eq, arrayjson.MustParse(datatype.Int32, `[1]`), arrayjson.MustParse(datatype.String, `["1"]`))
	require.ErrorIs(t, err, ErrInvalid)
	_, err = Compare(Eq, arrayjson.MustParse(datatype.Int32, `[1]`), arrayjson.MustParse(datatype.Int32, `[1, 2]`))
	require.ErrorIs(t, err, ErrInvalid)
	_, err = CompareScalar(Lt, arrayjson.MustParse(datatype.String, `["a"]`), 1)
	require.ErrorIs(t, err, ErrInvalid)
	_, err = CompareScalar(Lt, arrayjson.MustParse(datatype.Bool, `[true]`), "x")
	require.ErrorIs(t, err, ErrInvalid)
	_, err = Compare(CompareOp(9), a, b)
	require.ErrorIs(t, err, ErrInvalid)
	l := arrayjson.MustParse(datatype.ListOf(datatype.Int8), `[[1]]`)
	_, err = Compare(Eq, l, l)
	require.ErrorIs(t, err, ErrNotSupported)
	got, err = CompareScalar(Ge, arrayjson.MustParse(datatype.String, `["b", "a", "c", null]`), "b")
	require.NoError(t, err)
	require.Equal(t, "[true false true (null)]", got.String())
}

// kleeneRef is three-valued logic: v is the value, ok false for null.
type tri struct{ v, ok bool }

func triOf(a *array.Boolean, i int) tri { return tri{a.IsValid(i) && a.Value(i), a.IsValid(i)} }

func TestBooleanKleene(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for round := range 6 {
		n := testRows + round*40
		a := randomMask(r, n, 0.5, round%3 != 0)
		b := randomMask(r, n, 0.5, round%2 == 0)
		and, err := And(a, b)
		require.NoError(t, err)
		or, err := Or(a, b)
		require.NoError(t, err)
		xor, err := Xor(a, b)
		require.NoError(t, err)
		not := Not(a)
		for _, x := range []*array.Boolean{and, or, xor, not} {
			require.NoError(t, array.Validate(x.Data(), array.ValidateFull))
		}
		for i := range n {
			x, y := triOf(a, i), triOf(b, i)
			var wand, wor tri
			switch {
			case x.ok && !x.v || y.ok && !y.v:
				wand = tri{false, true}
			case x.ok && y.ok:
				wand = tri{true, true}
			}
			switch {
			case x.ok && x.v || y.ok && y.v:
				wor = tri{true, true}
			case x.ok && y.ok:
				wor = tri{false, true}
			}
			wxor := tri{x.v != y.v && x.ok && y.ok, x.ok && y.ok}
			wnot := tri{!x.v && x.ok, x.ok}
			require.Equal(t, wand, triOf(and, i), "and slot %d: %v %v", i, x, y)
			require.Equal(t, wor, triOf(or, i), "or slot %d: %v %v", i, x, y)
			require.Equal(t, wxor, triOf(xor, i), "xor slot %d", i)
			require.Equal(t, wnot, triOf(not, i), "not slot %d", i)
		}
	}
	_, err := And(randomMask(r, 3, 0.5, false), randomMask(r, 4, 0.5, false))
	require.ErrorIs(t, err, ErrInvalid)
	_, err = Xor(randomMask(r, 3, 0.5, false), randomMask(r, 4, 0.5, false))
	require.ErrorIs(t, err, ErrInvalid)
	got, err := And(arrayjson.MustParse(datatype.Bool, `[false, true, null, null]`).(*array.Boolean),
		arrayjson.MustParse(datatype.Bool, `[null, null, false, null]`).(*array.Boolean))
	require.NoError(t, err)
	require.Equal(t, "[false (null) false (null)]", got.String())
}
