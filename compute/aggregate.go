package compute

import (
	"math"
	"math/bits"
	"unsafe"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/simd"
)

// Signed is the set of signed integer value types.
type Signed interface {
	~int8 | ~int16 | ~int32 | ~int64
}

// Unsigned is the set of unsigned integer value types.
type Unsigned interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Integer is the set of integer value types.
type Integer interface{ Signed | Unsigned }

// Float is the set of floating-point value types (float16 is not a Go
// type; it has its own paths).
type Float interface{ ~float32 | ~float64 }

// Number is every integer and float value type.
type Number interface{ Integer | Float }

// CountValid returns the number of non-null slots of a. Unions and
// run-end encoded arrays, which have no validity bitmap of their own,
// count the slots whose child value is null; a dictionary slot is null
// when its index is (the dictionary values are not looked at).
func CountValid(a array.Array) int { return a.Len() - CountNull(a) }

// CountNull returns the number of null slots of a (see [CountValid]).
func CountNull(a array.Array) int {
	switch datatype.StorageOf(a.DataType()).Kind() {
	case datatype.KindSparseUnion, datatype.KindDenseUnion, datatype.KindRunEndEncoded:
		n := 0
		for i := range a.Len() {
			if a.IsNull(i) {
				n++
			}
		}
		return n
	}
	return a.NullN()
}

// CountValidChunked is [CountValid] over every chunk of c.
func CountValidChunked(c *alkaid.Chunked) int { return c.Len() - CountNullChunked(c) }

// CountNullChunked is [CountNull] over every chunk of c.
func CountNullChunked(c *alkaid.Chunked) int {
	n := 0
	for _, a := range c.Chunks() {
		n += CountNull(a)
	}
	return n
}

// Sum returns the sum of the non-null values of a, an integer, float or
// decimal array: an int64 scalar for signed integers, uint64 for
// unsigned ones, float64 for floats (float16 included), and for decimals
// of scale s a decimal128(38, s) (decimal256(76, s) for decimal256)
// holding a datatype.Decimal128 (Decimal256). Null slots never
// contribute, whatever they hold. An empty or all-null array gives the
// null scalar.
//
// Integer sums wrap around (two's complement modulo 2^64); use
// [SumChecked] to get an error instead. Decimal sums are exact and
// never wrap: one beyond the result's precision is an error wrapping
// [ErrOverflow]. Float sums accumulate in float64
// in an order that depends on the SIMD level, so the last bits may vary
// between machines; a NaN, or +Inf together with -Inf, gives NaN.
func Sum(a array.Array) (Scalar, error) { return sumChunks(a.DataType(), []array.Array{a}, false) }

// SumChecked is [Sum] that returns an error wrapping [ErrOverflow] when
// the exact sum of an integer array does not fit int64 (uint64 for
// unsigned types). Intermediate sums may overflow: only the exact result
// counts. Float sums are as in [Sum].
func SumChecked(a array.Array) (Scalar, error) {
	return sumChunks(a.DataType(), []array.Array{a}, true)
}

// SumChunked is [Sum] over every chunk of c.
func SumChunked(c *alkaid.Chunked) (Scalar, error) { return sumChunks(c.DataType(), c.Chunks(), false) }

// SumCheckedChunked is [SumChecked] over every chunk of c.
func SumCheckedChunked(c *alkaid.Chunked) (Scalar, error) {
	return sumChunks(c.DataType(), c.Chunks(), true)
}

// Mean returns the arithmetic mean of the non-null values of a, an
// integer or float array, as a float64 scalar (null when there are no
// values). Integer means are the exact sum divided by the count, rounded
// once, so they do not suffer from wraparound. The mean of decimals is a
// scalar of a's type: the exact quotient rounded half away from zero to
// a's scale.
func Mean(a array.Array) (Scalar, error) { return meanChunks(a.DataType(), []array.Array{a}) }

// MeanChunked is [Mean] over every chunk of c.
func MeanChunked(c *alkaid.Chunked) (Scalar, error) { return meanChunks(c.DataType(), c.Chunks()) }

// Min returns the smallest non-null value of a, as a scalar of a's type
// holding a's Go value type (int8, float32, datatype.Timestamp, …); null
// when a is empty or all null. It accepts every integer and float type,
// dates, times, timestamps, durations and decimals (ordered by their
// unscaled value), booleans, strings and binary of every layout (bytewise:
// the value is a string or a []byte) and dictionaries of those (by value).
// Floats: NaN is ignored unless every valid value
// is NaN (the result is then NaN), and -0 orders before +0.
func Min(a array.Array) (Scalar, error) {
	lo, _, err := minMaxChunks(a.DataType(), []array.Array{a}, wantMin)
	return lo, err
}

// Max is [Min] for the largest value (+0 orders after -0).
func Max(a array.Array) (Scalar, error) {
	_, hi, err := minMaxChunks(a.DataType(), []array.Array{a}, wantMax)
	return hi, err
}

// MinMax returns [Min] and [Max] together.
func MinMax(a array.Array) (lo, hi Scalar, err error) {
	return minMaxChunks(a.DataType(), []array.Array{a}, wantMin|wantMax)
}

// MinChunked is [Min] over every chunk of c.
func MinChunked(c *alkaid.Chunked) (Scalar, error) {
	lo, _, err := minMaxChunks(c.DataType(), c.Chunks(), wantMin)
	return lo, err
}

// MaxChunked is [Max] over every chunk of c.
func MaxChunked(c *alkaid.Chunked) (Scalar, error) {
	_, hi, err := minMaxChunks(c.DataType(), c.Chunks(), wantMax)
	return hi, err
}

// MinMaxChunked is [MinMax] over every chunk of c.
func MinMaxChunked(c *alkaid.Chunked) (lo, hi Scalar, err error) {
	return minMaxChunks(c.DataType(), c.Chunks(), wantMin|wantMax)
}

// SumInts is the typed form of [Sum] for a signed integer array: the
// wrapping int64 sum of the non-null values and their number.
func SumInts[T Signed](a *array.Primitive[T]) (sum int64, count int) {
	valid, off := bitmapOf(a.Data())
	var acc sumAcc
	sumSigned(&acc, a.Values(), valid, off, false)
	return int64(acc.lo), acc.count
}

// SumUints is the typed form of [Sum] for an unsigned integer array: the
// wrapping uint64 sum of the non-null values and their number.
func SumUints[T Unsigned](a *array.Primitive[T]) (sum uint64, count int) {
	valid, off := bitmapOf(a.Data())
	var acc sumAcc
	sumUnsigned(&acc, a.Values(), valid, off, false)
	return acc.lo, acc.count
}

// SumFloats is the typed form of [Sum] for a float32 or float64 array:
// the float64 sum of the non-null values and their number.
func SumFloats[T Float](a *array.Primitive[T]) (sum float64, count int) {
	valid, off := bitmapOf(a.Data())
	return simd.SumFloatMasked(a.Values(), valid, off)
}

type numClass uint8

const (
	classSigned numClass = iota + 1
	classUnsigned
	classFloat
	classDecimal
)

// sumAcc accumulates a sum over chunks. Integer sums are kept as 128-bit
// two's-complement numbers (lo, hi); hi is only exact when the chunks were
// added with exact set (the wrapping sum is lo either way).
type sumAcc struct {
	class  numClass
	count  int
	lo, hi uint64
	f      float64
	dec    wideSum // decimals: the exact sum of the unscaled values
}

// merge adds the sum p of another chunk (of the same class), whose float
// sum continued from s.f.
func (s *sumAcc) merge(p sumAcc) {
	s.class = p.class
	s.add128(p.lo, p.hi)
	if p.class == classFloat {
		s.f = p.f
	}
	if p.class == classDecimal {
		s.dec.add(p.dec)
	}
	s.count += p.count
}

func (s *sumAcc) add128(lo, hi uint64) {
	var c uint64
	s.lo, c = bits.Add64(s.lo, lo, 0)
	s.hi += hi + c
}

// narrowChunk bounds the elements per kernel call so that sums of values
// narrower than 64 bits stay exact in 64 bits.
const narrowChunk = 1 << 31

func sumSigned[T Signed](acc *sumAcc, x []T, valid []byte, off int, exact bool) {
	acc.class = classSigned
	if unsafe.Sizeof(T(0)) == 8 && exact {
		lo, hi := sumExactSigned64(x, valid, off)
		acc.add128(lo, hi)
		acc.count += len(x)
		if valid != nil {
			acc.count -= len(x) - countBits(valid, off, len(x))
		}
		return
	}
	for len(x) > 0 {
		m := min(len(x), narrowChunk)
		s, c := simd.SumIntMasked(x[:m], valid, off)
		acc.add128(uint64(s), uint64(s>>63))
		acc.count += c
		x, off = x[m:], off+m
	}
}

func sumUnsigned[T Unsigned](acc *sumAcc, x []T, valid []byte, off int, exact bool) {
	acc.class = classUnsigned
	if unsafe.Sizeof(T(0)) == 8 && exact {
		lo, hi := sumExactUnsigned64(x, valid, off)
		acc.add128(lo, hi)
		acc.count += len(x)
		if valid != nil {
			acc.count -= len(x) - countBits(valid, off, len(x))
		}
		return
	}
	for len(x) > 0 {
		m := min(len(x), narrowChunk)
		s, c := simd.SumUintMasked(x[:m], valid, off)
		acc.add128(s, 0)
		acc.count += c
		x, off = x[m:], off+m
	}
}

// sumExactSigned64 returns the exact sum of the valid elements of x as a
// 128-bit two's-complement number.
func sumExactSigned64[T Signed](x []T, valid []byte, off int) (lo, hi uint64) {
	var c uint64
	for base := 0; base < len(x); base += 64 {
		blk := x[base:min(base+64, len(x))]
		w := ^uint64(0)
		if valid != nil {
			w = loadBits(valid, off+base, len(blk))
		}
		if w == ^uint64(0) {
			for _, v := range blk {
				v := int64(v)
				lo, c = bits.Add64(lo, uint64(v), 0)
				hi += uint64(v>>63) + c
			}
			continue
		}
		for j, v := range blk {
			v := int64(v) & -int64(w>>uint(j)&1)
			lo, c = bits.Add64(lo, uint64(v), 0)
			hi += uint64(v>>63) + c
		}
	}
	return lo, hi
}

func sumExactUnsigned64[T Unsigned](x []T, valid []byte, off int) (lo, hi uint64) {
	var c uint64
	for base := 0; base < len(x); base += 64 {
		blk := x[base:min(base+64, len(x))]
		w := ^uint64(0)
		if valid != nil {
			w = loadBits(valid, off+base, len(blk))
		}
		if w == ^uint64(0) {
			for _, v := range blk {
				lo, c = bits.Add64(lo, uint64(v), 0)
				hi += c
			}
			continue
		}
		for j, v := range blk {
			v := uint64(v) & -(w >> uint(j) & 1)
			lo, c = bits.Add64(lo, v, 0)
			hi += c
		}
	}
	return lo, hi
}

// countBits counts the set bits of [off, off+n) of b.
func countBits(b []byte, off, n int) int {
	c := 0
	for base := 0; base < n; base += 64 {
		c += bits.OnesCount64(loadBits(b, off+base, min(64, n-base)))
	}
	return c
}

func sumHalf(acc *sumAcc, x []datatype.Float16, valid []byte, off int) {
	acc.class = classFloat
	for i, v := range x {
		if valid == nil || valid[(off+i)>>3]>>((off+i)&7)&1 != 0 {
			acc.f += float64(v.Float32())
			acc.count++
		}
	}
}

// sumClass returns the class of the sums of type t (0: not summable).
func sumClass(t datatype.DataType) numClass {
	switch k := t.Kind(); {
	case k.IsSignedInteger():
		return classSigned
	case k.IsInteger():
		return classUnsigned
	case k.IsFloat():
		return classFloat
	}
	if isDecimal(t.Kind()) {
		return classDecimal
	}
	return 0
}

// sumAll is the sum of the valid values of chunks, of type t, by t's
// sum kernel: the one path of [Sum], [SumChecked] and [Mean] in every
// form.
func sumAll(t datatype.DataType, chunks []array.Array, exact bool) (sumAcc, error) {
	acc := sumAcc{class: sumClass(t)}
	k := kernelsOf(t).sum
	if k == nil {
		return acc, errf(ErrNotSupported, "sum of %s", t)
	}
	for _, c := range chunks {
		acc.merge(k(c, exact, acc.f))
	}
	return acc, nil
}

func sumChunks(t datatype.DataType, chunks []array.Array, checked bool) (Scalar, error) {
	acc, err := sumAll(t, chunks, checked)
	if err != nil {
		return Scalar{}, err
	}
	switch {
	case acc.class == classDecimal:
		st := decimalSumType(t.(*datatype.DecimalType))
		if acc.count == 0 {
			return NullScalar(st), nil
		}
		v, err := decimalValue(acc.dec.big(), st, "sum of "+t.String())
		if err != nil {
			return Scalar{}, err
		}
		return Scalar{Type: st, Valid: true, Value: v}, nil
	case acc.count == 0:
		return NullScalar(sumType(acc.class)), nil
	case acc.class == classSigned:
		if checked && acc.hi != uint64(int64(acc.lo)>>63) {
			return Scalar{}, errf(ErrOverflow, "sum of %s does not fit int64", t)
		}
		return Scalar{Type: datatype.Int64, Valid: true, Value: int64(acc.lo)}, nil
	case acc.class == classUnsigned:
		if checked && acc.hi != 0 {
			return Scalar{}, errf(ErrOverflow, "sum of %s does not fit uint64", t)
		}
		return Scalar{Type: datatype.Uint64, Valid: true, Value: acc.lo}, nil
	}
	return Scalar{Type: datatype.Float64, Valid: true, Value: acc.f}, nil
}

func sumType(c numClass) datatype.DataType {
	switch c {
	case classSigned:
		return datatype.Int64
	case classUnsigned:
		return datatype.Uint64
	case classFloat:
		return datatype.Float64
	}
	return datatype.Null
}

func meanChunks(t datatype.DataType, chunks []array.Array) (Scalar, error) {
	acc, err := sumAll(t, chunks, true)
	if err != nil {
		return Scalar{}, err
	}
	if acc.class == classDecimal {
		if acc.count == 0 {
			return NullScalar(t), nil
		}
		v, err := decimalMean(acc.dec, int64(acc.count), t.(*datatype.DecimalType))
		if err != nil {
			return Scalar{}, err
		}
		return Scalar{Type: t, Valid: true, Value: v}, nil
	}
	if acc.count == 0 {
		return NullScalar(datatype.Float64), nil
	}
	var m float64
	var exact wideSum
	switch acc.class {
	case classSigned:
		exact.addWords(acc.lo, acc.hi)
		m = exact.meanFloat(int64(acc.count))
	case classUnsigned:
		exact.addWords(acc.lo, acc.hi, 0)
		m = exact.meanFloat(int64(acc.count))
	default:
		m = acc.f / float64(acc.count)
	}
	return Scalar{Type: datatype.Float64, Valid: true, Value: m}, nil
}

// minMaxChunks is the min and max of chunks, of type t, by t's min/max
// kernel: the one path of [Min], [Max] and [MinMax] in every form.
func minMaxChunks(t datatype.DataType, chunks []array.Array, want int) (lo, hi Scalar, err error) {
	k := kernelsOf(t).minMax
	if k == nil {
		return lo, hi, errf(ErrNotSupported, "min/max of %s", t)
	}
	if len(chunks) == 0 {
		b, err := array.TryNewBuilder(t)
		if err != nil {
			return lo, hi, errf(ErrNotSupported, "min/max of %s", t)
		}
		chunks = []array.Array{b.NewArray()}
	}
	return k(t, chunks, want)
}

// mmKernels are the min and max of one value type over a slice with a
// validity bitmap, and the order used to merge chunk results.
type mmKernels[T array.FixedWidth] struct {
	min, max func(x []T, valid []byte, off int) (T, bool)
	less     func(a, b T) bool // strict order; for floats NaN is greatest for min, least for max
	isNaN    func(T) bool
}

func intKernels[T Signed]() mmKernels[T] {
	return mmKernels[T]{min: simd.MinIntMasked[T], max: simd.MaxIntMasked[T],
		less: func(a, b T) bool { return a < b }, isNaN: func(T) bool { return false }}
}

func uintKernels[T Unsigned]() mmKernels[T] {
	return mmKernels[T]{min: simd.MinUintMasked[T], max: simd.MaxUintMasked[T],
		less: func(a, b T) bool { return a < b }, isNaN: func(T) bool { return false }}
}

// floatLess orders -0 before +0; NaN compares false both ways.
func floatLess(a, b float64) bool {
	return a < b || a == 0 && b == 0 && math.Signbit(a) && !math.Signbit(b)
}

func floatKernels[T Float]() mmKernels[T] {
	return mmKernels[T]{min: simd.MinFloatMasked[T], max: simd.MaxFloatMasked[T],
		less:  func(a, b T) bool { return floatLess(float64(a), float64(b)) },
		isNaN: func(v T) bool { return v != v }}
}

func halfKernels() mmKernels[datatype.Float16] {
	less := func(a, b datatype.Float16) bool { return floatLess(float64(a.Float32()), float64(b.Float32())) }
	isNaN := func(v datatype.Float16) bool { f := v.Float32(); return f != f }
	scan := func(isMax bool) func([]datatype.Float16, []byte, int) (datatype.Float16, bool) {
		return func(x []datatype.Float16, valid []byte, off int) (datatype.Float16, bool) {
			var best datatype.Float16
			found, anyValid := false, false
			for i, v := range x {
				if valid != nil && valid[(off+i)>>3]>>((off+i)&7)&1 == 0 {
					continue
				}
				anyValid = true
				if isNaN(v) {
					if !found {
						best = v
					}
					continue
				}
				if !found || isNaN(best) || (isMax && less(best, v)) || (!isMax && less(v, best)) {
					best, found = v, true
				}
			}
			return best, anyValid
		}
	}
	return mmKernels[datatype.Float16]{min: scan(false), max: scan(true), less: less, isNaN: isNaN}
}

// Which of min and max to compute.
const (
	wantMin = 1 << iota
	wantMax
)

func minMaxOrdered[T array.FixedWidth](t datatype.DataType, chunks []array.Array, want int, k mmKernels[T]) (lo, hi Scalar, err error) {
	var mn, mx T
	found := false
	for _, c := range chunks {
		p, ok := c.(*array.Primitive[T])
		if !ok {
			return lo, hi, errf(ErrInvalid, "min/max: chunk of type %s, want %s", c.DataType(), t)
		}
		if p.Len() == p.NullN() {
			continue
		}
		valid, off := bitmapOf(p.Data())
		var a, b T
		if want&wantMin != 0 {
			a, _ = k.min(p.Values(), valid, off)
		}
		if want&wantMax != 0 {
			b, _ = k.max(p.Values(), valid, off)
		}
		if !found {
			mn, mx, found = a, b, true
			continue
		}
		// NaN is a chunk's answer only when all its values are NaN.
		if k.isNaN(mn) || !k.isNaN(a) && k.less(a, mn) {
			mn = a
		}
		if k.isNaN(mx) || !k.isNaN(b) && k.less(mx, b) {
			mx = b
		}
	}
	if !found {
		return NullScalar(t), NullScalar(t), nil
	}
	return Scalar{Type: t, Valid: true, Value: mn}, Scalar{Type: t, Valid: true, Value: mx}, nil
}
