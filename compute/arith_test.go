package compute

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/stretchr/testify/require"
)

// refArith is the reference of one slot: the wrapped (or IEEE) result,
// whether the exact integer result overflows T, whether the divisor is 0.
func refArith[T Number](op binOp, x, y T) (r T, overflow, divZero bool) {
	tr := traitsOf[T]()
	if tr.isFloat {
		switch op {
		case opAdd:
			r = x + y
		case opSub:
			r = x - y
		case opMul:
			r = x * y
		default:
			r = x / y
		}
		return r, false, op == opDiv && y == 0
	}
	big64 := func(v T) *big.Int {
		if tr.signed {
			return big.NewInt(int64(v))
		}
		return new(big.Int).SetUint64(uint64(v))
	}
	bx, by := big64(x), big64(y)
	e := new(big.Int)
	switch op {
	case opAdd:
		e.Add(bx, by)
	case opSub:
		e.Sub(bx, by)
	case opMul:
		e.Mul(bx, by)
	default:
		if y == 0 {
			return 0, false, true
		}
		e.Quo(bx, by)
	}
	bitsN := uint(8 * tr.size)
	lo, hi := new(big.Int), new(big.Int).Lsh(big.NewInt(1), bitsN)
	if tr.signed {
		lo.Neg(new(big.Int).Lsh(big.NewInt(1), bitsN-1))
		hi.Lsh(big.NewInt(1), bitsN-1)
	}
	overflow = e.Cmp(lo) < 0 || e.Cmp(hi) >= 0
	return T(wrap64(e)), overflow, false
}

func sameNum[T Number](x, y T) bool { return x == y || x != x && y != y }

var arithFuncs = map[[2]int]func(a, b array.Array) (array.Array, error){
	{int(opAdd), 0}: Add, {int(opAdd), 1}: AddChecked,
	{int(opSub), 0}: Sub, {int(opSub), 1}: SubChecked,
	{int(opMul), 0}: Mul, {int(opMul), 1}: MulChecked,
	{int(opDiv), 0}: Div, {int(opDiv), 1}: DivChecked,
}

var arithScalarFuncs = map[[2]int]func(a array.Array, s any) (array.Array, error){
	{int(opAdd), 0}: AddScalar, {int(opAdd), 1}: AddScalarChecked,
	{int(opSub), 0}: SubScalar, {int(opSub), 1}: SubScalarChecked,
	{int(opMul), 0}: MulScalar, {int(opMul), 1}: MulScalarChecked,
	{int(opDiv), 0}: DivScalar, {int(opDiv), 1}: DivScalarChecked,
}

// checkArith compares one result (or error) with the reference.
func checkArith[T Number](t *testing.T, name string, op binOp, checked bool, a array.Array, b array.Array, s *T, got array.Array, err error) {
	t.Helper()
	tr := traitsOf[T]()
	x := a.(*array.Primitive[T])
	var wantErr error
	for i := range a.Len() {
		if a.IsNull(i) || b != nil && b.IsNull(i) {
			continue
		}
		y := *sOr(s, b, i)
		_, ovf, dz := refArith(op, x.Value(i), y)
		switch {
		case dz && (!tr.isFloat || checked):
			wantErr = ErrDivideByZero
		case ovf && checked:
			wantErr = ErrOverflow
		}
		if wantErr != nil {
			break
		}
	}
	if wantErr != nil {
		require.ErrorIs(t, err, wantErr, name)
		return
	}
	require.NoError(t, err, name)
	require.NoError(t, array.Validate(got.Data(), array.ValidateFull), name)
	require.Equal(t, a.Len(), got.Len(), name)
	g := got.(*array.Primitive[T])
	for i := range a.Len() {
		null := a.IsNull(i) || b != nil && b.IsNull(i)
		require.Equal(t, null, got.IsNull(i), "%s: slot %d", name, i)
		if !null {
			want, _, _ := refArith(op, x.Value(i), *sOr(s, b, i))
			if !sameNum(want, g.Value(i)) {
				t.Fatalf("%s: slot %d: %v %s %v = %v, want %v", name, i, x.Value(i), opNames[op], *sOr(s, b, i), g.Value(i), want)
			}
		}
	}
}

func sOr[T Number](s *T, b array.Array, i int) *T {
	if s != nil {
		return s
	}
	v := b.(*array.Primitive[T]).Value(i)
	return &v
}

// smallOf maps the values of a into [-4, 4] (unsigned: [0, 8]), nulls
// kept, so that checked operations succeed and divisors are often 0.
func smallOf(t *testing.T, a array.Array) array.Array {
	t.Helper()
	lit := `[-4, -3, -2, -1, 0, 1, 2, 3, 4]`
	if !a.DataType().Kind().IsSignedInteger() && !a.DataType().Kind().IsFloat() {
		lit = `[0, 1, 2, 3, 4, 5, 6, 7, 8]`
	}
	idx := make([]int, a.Len())
	for i := range idx {
		idx[i] = (i*5 + i/9) % 9
		if a.IsNull(i) {
			idx[i] = -1
		}
	}
	out, err := Take(arrayjson.MustParse(a.DataType(), lit), indexArray(t, datatype.Int32, idx))
	require.NoError(t, err)
	return out
}

// nonZero replaces 0 by 1 in the valid slots of a small array.
func nonZero[T Number](t *testing.T, a array.Array) array.Array {
	b := array.NewPrimitiveBuilder[T](a.DataType())
	p := a.(*array.Primitive[T])
	for i := range a.Len() {
		switch {
		case a.IsNull(i):
			b.AppendNull()
		case p.Value(i) == 0:
			b.Append(1)
		default:
			b.Append(p.Value(i))
		}
	}
	return b.NewArray()
}

func testArithType[T Number](t *testing.T, dt datatype.DataType, seed uint64) {
	va := variants(t, seed, dt, testRows)
	vb := variants(t, seed+1, dt, testRows)
	type pair struct {
		name string
		a, b array.Array
	}
	pairs := []pair{
		{"plain", va["plain"], vb["plain"]},
		{"nulls×offset", va["nulls"], vb["offset"]},
		{"offset×plain", va["offset"], vb["plain"]},
		{"small", smallOf(t, va["offset"]), smallOf(t, vb["nulls"])},
		{"small-nonzero", smallOf(t, va["plain"]), nonZero[T](t, smallOf(t, vb["offset"]))},
	}
	for _, p := range pairs {
		for op := opAdd; op <= opDiv; op++ {
			for c := range 2 {
				name := fmt.Sprintf("%s/%s/%s/checked=%d", dt, p.name, opNames[op], c)
				got, err := arithFuncs[[2]int{int(op), c}](p.a, p.b)
				checkArith[T](t, name, op, c == 1, p.a, p.b, nil, got, err)

				// Scalars: a value of b, zero, one.
				for k, s := range []T{0, 1, p.b.(*array.Primitive[T]).Value(3)} {
					got, err := arithScalarFuncs[[2]int{int(op), c}](p.a, s)
					checkArith[T](t, fmt.Sprintf("%s/scalar%d", name, k), op, c == 1, p.a, nil, &s, got, err)
				}
				// The null scalar nulls everything.
				got, err = arithScalarFuncs[[2]int{int(op), c}](p.a, nil)
				require.NoError(t, err)
				require.Equal(t, p.a.Len(), got.NullN(), name)
				require.NoError(t, array.Validate(got.Data(), array.ValidateFull))
			}
		}
		// Negate and Abs.
		for _, abs := range []bool{false, true} {
			for _, checked := range []bool{false, true} {
				got, err := unary(abs, p.a, checked)
				tr := traitsOf[T]()
				if !abs && !tr.signed {
					require.ErrorIs(t, err, ErrNotSupported)
					continue
				}
				x := p.a.(*array.Primitive[T])
				overflow := false
				for i := range p.a.Len() {
					if p.a.IsValid(i) && tr.signed && !tr.isFloat && int64(x.Value(i)) == minInt(tr.size) {
						overflow = true
					}
				}
				if checked && overflow {
					require.ErrorIs(t, err, ErrOverflow)
					continue
				}
				require.NoError(t, err)
				g := got.(*array.Primitive[T])
				for i := range p.a.Len() {
					require.Equal(t, p.a.IsNull(i), got.IsNull(i))
					if p.a.IsNull(i) {
						continue
					}
					v := x.Value(i)
					want := -v
					if abs {
						want = v
						if v < 0 || tr.isFloat && math.Signbit(float64(v)) {
							want = -v
						}
					}
					require.True(t, sameNum(want, g.Value(i)), "%s abs=%v slot %d: %v → %v", dt, abs, i, v, g.Value(i))
				}
			}
		}
	}
}

func TestArithRandom(t *testing.T) {
	testArithType[int8](t, datatype.Int8, 1)
	testArithType[int16](t, datatype.Int16, 2)
	testArithType[int32](t, datatype.Int32, 3)
	testArithType[int64](t, datatype.Int64, 4)
	testArithType[uint8](t, datatype.Uint8, 5)
	testArithType[uint16](t, datatype.Uint16, 6)
	testArithType[uint32](t, datatype.Uint32, 7)
	testArithType[uint64](t, datatype.Uint64, 8)
	testArithType[float32](t, datatype.Float32, 9)
	testArithType[float64](t, datatype.Float64, 10)
}

func TestArithEdges(t *testing.T) {
	i64 := func(s string) array.Array { return arrayjson.MustParse(datatype.Int64, s) }
	// Errors in null slots do not count.
	got, err := DivChecked(i64(`[1, 5, -9223372036854775808]`), i64(`[null, 2, null]`))
	require.NoError(t, err)
	require.Equal(t, "[(null) 2 (null)]", got.String())
	_, err = Div(i64(`[1]`), i64(`[0]`))
	require.ErrorIs(t, err, ErrDivideByZero)
	got, err = Div(i64(`[-9223372036854775808]`), i64(`[-1]`))
	require.NoError(t, err)
	require.Equal(t, "[-9223372036854775808]", got.String())
	_, err = DivChecked(i64(`[-9223372036854775808]`), i64(`[-1]`))
	require.ErrorIs(t, err, ErrOverflow)
	_, err = MulChecked(i64(`[-9223372036854775808]`), i64(`[-1]`))
	require.ErrorIs(t, err, ErrOverflow)
	_, err = DivScalar(i64(`[1, 2]`), 0)
	require.ErrorIs(t, err, ErrDivideByZero)
	got, err = DivScalar(i64(`[null]`), 0)
	require.NoError(t, err, "division by zero of nulls only")
	require.Equal(t, 1, got.NullN())
	f := arrayjson.MustParse(datatype.Float64, `[1, -1, 0]`)
	got, err = DivScalar(f, 0)
	require.NoError(t, err)
	v := got.(*array.Float64).Values()
	require.True(t, math.IsInf(v[0], 1) && math.IsInf(v[1], -1) && math.IsNaN(v[2]))
	_, err = DivScalarChecked(f, 0.0)
	require.ErrorIs(t, err, ErrDivideByZero)

	// Scalars.
	_, err = AddScalar(arrayjson.MustParse(datatype.Int8, `[1]`), 300)
	require.ErrorIs(t, err, ErrInvalid)
	_, err = AddScalar(arrayjson.MustParse(datatype.Uint8, `[1]`), -1)
	require.ErrorIs(t, err, ErrInvalid)
	_, err = AddScalar(arrayjson.MustParse(datatype.Int64, `[1]`), 1.5)
	require.ErrorIs(t, err, ErrInvalid)
	_, err = AddScalar(arrayjson.MustParse(datatype.Int64, `[1]`), uint64(math.MaxUint64))
	require.ErrorIs(t, err, ErrInvalid)
	_, err = AddScalar(arrayjson.MustParse(datatype.Int64, `[1]`), "1")
	require.ErrorIs(t, err, ErrInvalid)
	got, err = AddScalar(arrayjson.MustParse(datatype.Int64, `[1]`), Scalar{Type: datatype.Int64, Valid: true, Value: int64(2)})
	require.NoError(t, err)
	require.Equal(t, "[3]", got.String())
	got, err = MulScalar(arrayjson.MustParse(datatype.Float32, `[2]`), 0.5)
	require.NoError(t, err)
	require.Equal(t, "[1]", got.String())
	got, err = AddScalar(arrayjson.MustParse(datatype.Uint64, `[1]`), 3.0)
	require.NoError(t, err)
	require.Equal(t, "[4]", got.String())

	// Mismatches and unsupported types.
	_, err = Add(i64(`[1]`), arrayjson.MustParse(datatype.Int32, `[1]`))
	require.ErrorIs(t, err, ErrInvalid)
	_, err = Add(i64(`[1]`), i64(`[1, 2]`))
	require.ErrorIs(t, err, ErrInvalid)
	s := arrayjson.MustParse(datatype.String, `["a"]`)
	for _, err := range []error{second(Add(s, s)), second(AddScalar(s, 1)), second(Negate(s)), second(Abs(s))} {
		require.True(t, errors.Is(err, ErrNotSupported), "%v", err)
	}
}

func second[T any](_ T, err error) error { return err }
