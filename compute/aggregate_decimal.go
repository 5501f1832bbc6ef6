package compute

import (
	"math/big"
	"math/bits"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// wideSum is an exact sum of integers or decimals' unscaled values: a
// 320-bit two's-complement number, least significant word first. Values
// of up to 256 bits added up to 2^63 times cannot overflow it.
type wideSum [5]uint64

// addInt adds v.
func (s *wideSum) addInt(v int64) {
	e := uint64(v >> 63)
	var c uint64
	s[0], c = bits.Add64(s[0], uint64(v), 0)
	s[1], c = bits.Add64(s[1], e, c)
	s[2], c = bits.Add64(s[2], e, c)
	s[3], c = bits.Add64(s[3], e, c)
	s[4] += e + c
}

// addUint adds v.
func (s *wideSum) addUint(v uint64) {
	var c uint64
	s[0], c = bits.Add64(s[0], v, 0)
	s[1], c = bits.Add64(s[1], 0, c)
	s[2], c = bits.Add64(s[2], 0, c)
	s[3], c = bits.Add64(s[3], 0, c)
	s[4] += c
}

// addWords adds the two's-complement number w (least significant word
// first, 1 to 4 words), sign-extended.
func (s *wideSum) addWords(w ...uint64) {
	e := uint64(int64(w[len(w)-1]) >> 63)
	var c uint64
	for i := range s {
		x := e
		if i < len(w) {
			x = w[i]
		}
		s[i], c = bits.Add64(s[i], x, c)
	}
}

// add adds another sum.
func (s *wideSum) add(t wideSum) { s.addWords(t[:]...) }

// big returns the sum as a big.Int.
func (s wideSum) big() *big.Int {
	neg := int64(s[4]) < 0
	if neg {
		var b uint64
		for i := range s {
			s[i], b = bits.Sub64(0, s[i], b)
		}
	}
	words := make([]big.Word, 0, 10)
	for _, w := range s {
		if bits.UintSize == 64 {
			words = append(words, big.Word(w))
		} else {
			words = append(words, big.Word(uint32(w)), big.Word(w>>32))
		}
	}
	v := new(big.Int).SetBits(words)
	if neg {
		v.Neg(v)
	}
	return v
}

// small returns the sum as an int64 when it fits within ±2^53 (where a
// float64 holds it exactly).
func (s wideSum) small() (int64, bool) {
	ext := uint64(int64(s[0]) >> 63)
	if s[1] != ext || s[2] != ext || s[3] != ext || s[4] != ext {
		return 0, false
	}
	v := int64(s[0])
	return v, v >= -1<<53 && v <= 1<<53
}

// meanFloat is the float64 nearest to s / count (count > 0): one
// rounding of the exact quotient.
func (s wideSum) meanFloat(count int64) float64 {
	if v, ok := s.small(); ok && count <= 1<<53 {
		return float64(v) / float64(count)
	}
	q := new(big.Float).SetPrec(53)
	q.Quo(new(big.Float).SetInt(s.big()), new(big.Float).SetInt64(count))
	f, _ := q.Float64()
	return f
}

// meanRounded is s / count (count > 0) rounded half away from zero.
func (s wideSum) meanRounded(count int64) *big.Int {
	q, r := new(big.Int).QuoRem(s.big(), big.NewInt(count), new(big.Int))
	if r.Sign() == 0 {
		return q
	}
	neg := r.Sign() < 0
	if r.Abs(r).Lsh(r, 1).Cmp(big.NewInt(count)) >= 0 {
		if neg {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

// sumWide adds the valid values of a exactly into s (add adds one) and
// returns how many there were: the sum of integers and decimals without
// wraparound.
func sumWide[T array.FixedWidth](s *wideSum, a *array.Primitive[T], add func(*wideSum, T)) int {
	valid, off := bitmapOf(a.Data())
	count := 0
	for i, v := range a.Values() {
		if valid == nil || valid[(off+i)>>3]>>((off+i)&7)&1 != 0 {
			add(s, v)
			count++
		}
	}
	return count
}

// decimalSumType is the type of the sum of decimals of type t:
// decimal128(38, scale) for 32-, 64- and 128-bit decimals and
// decimal256(76, scale) for 256-bit ones.
func decimalSumType(t *datatype.DecimalType) *datatype.DecimalType {
	if t.BitWidth == 256 {
		return &datatype.DecimalType{BitWidth: 256, Precision: 76, Scale: t.Scale}
	}
	return &datatype.DecimalType{BitWidth: 128, Precision: 38, Scale: t.Scale}
}

// pow10 is 10^n.
func pow10(n int32) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// decimalValue converts v to the Go value of a decimal of type t,
// reporting an error wrapping ErrOverflow when v has more digits than t's
// precision.
func decimalValue(v *big.Int, t *datatype.DecimalType, what string) (any, error) {
	if new(big.Int).Abs(v).Cmp(pow10(t.Precision)) >= 0 {
		return nil, errf(ErrOverflow, "%s does not fit %s", what, t)
	}
	switch t.BitWidth {
	case 32:
		return datatype.Decimal32(v.Int64()), nil
	case 64:
		return datatype.Decimal64(v.Int64()), nil
	case 128:
		return datatype.Decimal128FromBig(v), nil
	}
	return datatype.Decimal256FromBig(v), nil
}

// decimalMean is the mean of count decimals of type t adding up to s,
// rounded half away from zero to t's scale, as a value of t (it fits
// unless the values had more digits than t's precision: no mean is
// further from zero than the values).
func decimalMean(s wideSum, count int64, t *datatype.DecimalType) (any, error) {
	return decimalValue(s.meanRounded(count), t, "mean")
}
