package compute

import (
	"math"
	"math/big"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// bigs is a column of exact numbers: unscaled values at a scale, nil for
// nulls.
type bigs struct {
	v     []*big.Int
	scale int32
}

func pow10Big(n int32) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// readDecimals reads a decimal array exactly.
func readDecimals(a array.Array) bigs {
	t := a.DataType().(*datatype.DecimalType)
	out := bigs{v: make([]*big.Int, a.Len()), scale: t.Scale}
	for i := range out.v {
		if a.IsNull(i) {
			continue
		}
		switch x := a.(type) {
		case *array.Decimal32:
			out.v[i] = big.NewInt(int64(x.Value(i)))
		case *array.Decimal64:
			out.v[i] = big.NewInt(int64(x.Value(i)))
		case *array.Decimal128:
			out.v[i] = x.Value(i).BigInt()
		case *array.Decimal256:
			out.v[i] = x.Value(i).BigInt()
		}
	}
	return out
}

// rescale brings every value to scale, checking for lost digits.
func (c *config) rescale(b bigs, scale int32, from, to datatype.DataType) (bigs, error) {
	out := bigs{v: make([]*big.Int, len(b.v)), scale: scale}
	switch {
	case scale >= b.scale:
		m := pow10Big(scale - b.scale)
		for i, x := range b.v {
			if x != nil {
				out.v[i] = new(big.Int).Mul(x, m)
			}
		}
	default:
		d := pow10Big(b.scale - scale)
		for i, x := range b.v {
			if x == nil {
				continue
			}
			q, r := new(big.Int).QuoRem(x, d, new(big.Int))
			if r.Sign() != 0 && !c.truncate {
				return bigs{}, castFailure(ErrTruncation, from, to, i, datatype.FormatDecimal(x, b.scale))
			}
			out.v[i] = q
		}
	}
	return out, nil
}

// writeDecimals builds a decimal array of t from values at t's scale,
// checking the precision.
func (c *config) writeDecimals(b bigs, t *datatype.DecimalType, from datatype.DataType) (array.Array, error) {
	limit := pow10Big(t.Precision)
	bld := array.NewBuilder(t)
	for i, x := range b.v {
		if x == nil {
			bld.AppendNull()
			continue
		}
		if !c.overflow && new(big.Int).Abs(x).Cmp(limit) >= 0 {
			return nil, castFailure(ErrOverflow, from, t, i, datatype.FormatDecimal(x, b.scale))
		}
		switch bb := bld.(type) {
		case *array.PrimitiveBuilder[datatype.Decimal32]:
			bb.Append(datatype.Decimal32(x.Int64()))
		case *array.PrimitiveBuilder[datatype.Decimal64]:
			bb.Append(datatype.Decimal64(x.Int64()))
		case *array.PrimitiveBuilder[datatype.Decimal128]:
			bb.Append(datatype.Decimal128FromBig(x))
		case *array.PrimitiveBuilder[datatype.Decimal256]:
			bb.Append(datatype.Decimal256FromBig(x))
		}
	}
	return bld.NewArray(), nil
}

// decimal casts decimals to decimals and numbers, and numbers to
// decimals.
func (c *config) decimal(a array.Array, to datatype.DataType) (array.Array, error) {
	from := a.DataType()
	fk, tk := from.Kind(), to.Kind()
	dt, toDec := to.(*datatype.DecimalType)
	switch {
	case isDecimal(fk) && toDec:
		b, err := c.rescale(readDecimals(a), dt.Scale, from, to)
		if err != nil {
			return nil, err
		}
		return c.writeDecimals(b, dt, from)
	case isDecimal(fk) && (tk == datatype.KindFloat16 || tk == datatype.KindFloat32 || tk == datatype.KindFloat64):
		b := readDecimals(a)
		den := new(big.Rat).SetInt(pow10Big(b.scale))
		f := make([]float64, len(b.v))
		for i, x := range b.v {
			if x != nil {
				f[i], _ = new(big.Rat).Quo(new(big.Rat).SetInt(x), den).Float64()
			}
		}
		d := a.Data()
		valid, off := bitmapOf(d)
		return numSlice(f, valid, off, d.NullCount, from, to, c)
	case isDecimal(fk) && tk == datatype.KindBool:
		b := readDecimals(a)
		out := array.NewBooleanBuilder(datatype.Bool)
		for _, x := range b.v {
			if x == nil {
				out.AppendNull()
			} else {
				out.Append(x.Sign() != 0)
			}
		}
		return out.NewArray(), nil
	case isDecimal(fk) && isNumeric(tk):
		b, err := c.rescale(readDecimals(a), 0, from, to)
		if err != nil {
			return nil, err
		}
		v := make([]int64, len(b.v))
		for i, x := range b.v {
			if x == nil {
				continue
			}
			if !x.IsInt64() && !c.overflow {
				return nil, castFailure(ErrOverflow, from, to, i, x)
			}
			v[i] = x.Int64()
		}
		d := a.Data()
		valid, off := bitmapOf(d)
		return numSlice(v, valid, off, d.NullCount, from, to, c)
	case isNumeric(fk) && toDec:
		return c.numberToDecimal(a, dt)
	}
	return nil, c.unsupported(from, to)
}

func (c *config) numberToDecimal(a array.Array, t *datatype.DecimalType) (array.Array, error) {
	from := a.DataType()
	b := bigs{v: make([]*big.Int, a.Len()), scale: t.Scale}
	k := from.Kind()
	if k == datatype.KindFloat16 || k == datatype.KindFloat32 || k == datatype.KindFloat64 {
		f, err := castNumbers(a, datatype.Float64, c)
		if err != nil {
			return nil, err
		}
		m := new(big.Rat).SetInt(pow10Big(t.Scale))
		for i, x := range f.(*array.Float64).Values() {
			if f.IsNull(i) {
				continue
			}
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, castFailure(ErrOverflow, from, t, i, x)
			}
			r := new(big.Rat).Mul(new(big.Rat).SetFloat64(x), m)
			if !r.IsInt() && !c.truncate {
				return nil, castFailure(ErrTruncation, from, t, i, x)
			}
			b.v[i] = new(big.Int).Quo(r.Num(), r.Denom())
		}
		return c.writeDecimals(b, t, from)
	}
	signed := k != datatype.KindUint64
	target := datatype.Int64
	if !signed {
		target = datatype.Uint64
	}
	ints, err := castNumbers(a, target, c)
	if err != nil {
		return nil, err
	}
	m := pow10Big(t.Scale)
	for i := range b.v {
		if ints.IsNull(i) {
			continue
		}
		if signed {
			b.v[i] = big.NewInt(ints.(*array.Int64).Value(i))
		} else {
			b.v[i] = new(big.Int).SetUint64(ints.(*array.Uint64).Value(i))
		}
		if t.Scale >= 0 {
			b.v[i].Mul(b.v[i], m)
		}
	}
	if t.Scale < 0 {
		return nil, c.unsupported(from, t)
	}
	return c.writeDecimals(b, t, from)
}
