package compute

import (
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/simd"
)

// kernels are the per-type kernels of one value type: generic functions
// instantiated for the Go type that holds the type's values, built once
// into the dispatch table. A nil kernel means the operation is not defined
// for the type (or, for radix and group, that the type takes the general
// path: comparison sort, hashing by [array.AppendKey]). Each takes arrays
// of its own type only (the callers check that both sides have one type),
// so the type assertions inside cannot fail.
type kernels struct {
	// arith computes a op b (b of a's type); arithS a op s; unary -a or
	// |a|.
	arith  func(op binOp, a, b array.Array, checked bool) (array.Array, error)
	arithS func(op binOp, a array.Array, s any, checked bool) (array.Array, error)
	unary  func(abs bool, a array.Array, checked bool) (array.Array, error)
	// compare sets bit i of dst (zeroed) to a[i] op b[i], or a[i] op s
	// when b is nil.
	compare func(op CompareOp, dst []byte, a, b array.Array, s any) error
	// sum returns the sum of the valid values of a, to be merged into a
	// running one (a pointer to that through a function value would move
	// it to the heap). f is the running float sum, which float kernels
	// continue from, so that values are added in the same order however
	// the input is chunked.
	sum func(a array.Array, exact bool, f float64) sumAcc
	// groupSum adds each group's valid values of a (the group of row i
	// is ids[i]) and counts them into counts: a []int64, []uint64 or
	// []float64 of sums as [sum] accumulates them, or with exact (and
	// always for decimals) a []wideSum of exact sums.
	groupSum func(a array.Array, ids []int32, counts []int64, exact bool, c *config) any
	// minMax is the min and max of chunks of type t (want: wantMin,
	// wantMax or both).
	minMax func(t datatype.DataType, chunks []array.Array, want int) (lo, hi Scalar, err error)
	// order is the comparator of a's values, and its NaN test for float
	// types.
	order func(a array.Array) (cmpFn, nanFn)
	// radix writes order-preserving uint64 sort keys of a's values (see
	// [keyFill]).
	radix keyFill
	// group numbers the distinct values of a by their bits (see
	// [groupIDs]).
	group func(a array.Array, wantIDs bool, c *config) *groups
	// cast converts a number or boolean array to another number type (see
	// [castNumbers]).
	cast func(a array.Array, to datatype.DataType, c *config) (array.Array, error)
}

// dispatch holds the kernels of every kind, indexed by kind; kinds
// without any kernel (nested types, most intervals) have the zero entry.
// It is the only place where compute maps a type to its kernels: sums,
// grouped sums, min/max, comparison, order, sort keys, hashing and
// numeric casts all look their kernel up here, and a type gains an
// operation by a kernel in its entry. Dictionaries, run-end encoded and
// extension arrays are orderable through their values (see [orderOf]).
// It is filled by init: the min/max kernels of the orderable types
// compare through [orderOf], which looks kernels up here.
var dispatch [datatype.KindExtension + 1]kernels

func init() {
	dispatch = [datatype.KindExtension + 1]kernels{
		datatype.KindNull:   {sum: sumNull, minMax: minMaxNull, order: nullOrder},
		datatype.KindBool:   {compare: compareBool, minMax: minMaxByOrder, order: boolOrder, cast: castBool},
		datatype.KindInt8:   signedKernels[int8](compareLoop[int8]),
		datatype.KindInt16:  signedKernels[int16](compareLoop[int16]),
		datatype.KindInt32:  signedKernels[int32](compareSIMD[int32]),
		datatype.KindInt64:  signedKernels[int64](compareSIMD[int64]),
		datatype.KindUint8:  unsignedKernels[uint8](compareLoop[uint8]),
		datatype.KindUint16: unsignedKernels[uint16](compareLoop[uint16]),
		datatype.KindUint32: unsignedKernels[uint32](compareLoop[uint32]),
		datatype.KindUint64: unsignedKernels[uint64](compareLoop[uint64]),
		datatype.KindFloat16: {compare: compareHalf, sum: sumHalfArray, groupSum: groupSumHalf,
			minMax: minMaxWith(halfKernels()), order: half, group: groupFixed[datatype.Float16](), cast: castHalf},
		datatype.KindFloat32:         floatKernelsOf[float32](),
		datatype.KindFloat64:         floatKernelsOf[float64](),
		datatype.KindDecimal32:       withDecimalSum(orderedKernels[datatype.Decimal32](compareSIMD[datatype.Decimal32]), wideInt[datatype.Decimal32]),
		datatype.KindDecimal64:       withDecimalSum(orderedKernels[datatype.Decimal64](compareSIMD[datatype.Decimal64]), wideInt[datatype.Decimal64]),
		datatype.KindDecimal128:      withDecimalSum(wideKernels(cmpDec128), wideDec128),
		datatype.KindDecimal256:      withDecimalSum(wideKernels(cmpDec256), wideDec256),
		datatype.KindDate32:          orderedKernels[datatype.Date32](compareSIMD[datatype.Date32]),
		datatype.KindDate64:          orderedKernels[datatype.Date64](compareSIMD[datatype.Date64]),
		datatype.KindTime32:          orderedKernels[datatype.Time32](compareSIMD[datatype.Time32]),
		datatype.KindTime64:          orderedKernels[datatype.Time64](compareSIMD[datatype.Time64]),
		datatype.KindTimestamp:       orderedKernels[datatype.Timestamp](compareSIMD[datatype.Timestamp]),
		datatype.KindDuration:        orderedKernels[datatype.Duration](compareSIMD[datatype.Duration]),
		datatype.KindMonthInterval:   {group: groupFixed[datatype.MonthInterval]()},
		datatype.KindFixedSizeBinary: bytesKernels[*array.FixedSizeBinary](nil),
		datatype.KindBinary:          bytesKernels[*array.BinaryArray](prefixKeys),
		datatype.KindString:          bytesKernels[*array.BinaryArray](prefixKeys),
		datatype.KindLargeBinary:     bytesKernels[*array.LargeBinaryArray](prefixKeys),
		datatype.KindLargeString:     bytesKernels[*array.LargeBinaryArray](prefixKeys),
		datatype.KindBinaryView:      bytesKernels[*array.BinaryView](prefixKeys),
		datatype.KindStringView:      bytesKernels[*array.BinaryView](prefixKeys),
		datatype.KindDictionary:      {minMax: minMaxByOrder},
		datatype.KindRunEndEncoded:   {minMax: minMaxByOrder},
		datatype.KindExtension:       {minMax: minMaxByOrder},
	}
}

// kernelsOf returns the kernels of t's kind (not of an extension type's
// storage: an extension array is not its storage array).
func kernelsOf(t datatype.DataType) *kernels {
	if k := t.Kind(); int(k) < len(dispatch) {
		return &dispatch[k]
	}
	return &kernels{}
}

// numericKernels are the kernels every number type has: arithmetic,
// comparison (cmp: SIMD for 32- and 64-bit types), min/max, order,
// hashing, numeric casts.
func numericKernels[T Number](cmp func(CompareOp, []byte, array.Array, array.Array, any) error, mm mmKernels[T]) kernels {
	return kernels{
		arith: func(op binOp, a, b array.Array, checked bool) (array.Array, error) {
			return arithPrim(op, a.(*array.Primitive[T]), b.(*array.Primitive[T]), nil, checked)
		},
		arithS: func(op binOp, a array.Array, s any, checked bool) (array.Array, error) {
			return arithScalar(op, a.(*array.Primitive[T]), s, checked)
		},
		unary: func(abs bool, a array.Array, checked bool) (array.Array, error) {
			return unaryPrim(abs, a.(*array.Primitive[T]), checked)
		},
		compare: cmp,
		minMax:  minMaxWith(mm),
		order:   ordered[T],
		group:   groupFixed[T](),
		cast:    castFrom[T],
	}
}

func signedKernels[T Signed](cmp func(CompareOp, []byte, array.Array, array.Array, any) error) kernels {
	k := numericKernels(cmp, intKernels[T]())
	k.sum = func(a array.Array, exact bool, _ float64) (acc sumAcc) {
		valid, off := bitmapOf(a.Data())
		sumSigned(&acc, a.(*array.Primitive[T]).Values(), valid, off, exact)
		return acc
	}
	k.groupSum = sumsByGroup[T, int64](wideInt[T])
	k.radix = signedKeys[T]
	return k
}

func unsignedKernels[T Unsigned](cmp func(CompareOp, []byte, array.Array, array.Array, any) error) kernels {
	k := numericKernels(cmp, uintKernels[T]())
	k.sum = func(a array.Array, exact bool, _ float64) (acc sumAcc) {
		valid, off := bitmapOf(a.Data())
		sumUnsigned(&acc, a.(*array.Primitive[T]).Values(), valid, off, exact)
		return acc
	}
	k.groupSum = sumsByGroup[T, uint64](wideUint[T])
	k.radix = unsignedKeys[T]
	return k
}

func floatKernelsOf[T float32 | float64]() kernels {
	k := numericKernels(compareSIMD[T], floatKernels[T]())
	k.sum = func(a array.Array, _ bool, f float64) (acc sumAcc) {
		valid, off := bitmapOf(a.Data())
		s, c := simd.SumFloatMasked(a.(*array.Primitive[T]).Values(), valid, off)
		acc.class, acc.f, acc.count = classFloat, f+s, c
		return acc
	}
	k.groupSum = sumsByGroup[T, float64](nil)
	k.order = floats[T]
	k.radix = floatKeys[T]
	return k
}

// orderedKernels are those of the integer-backed logical types (dates,
// times, timestamps, durations, small decimals): comparison, min/max,
// order, sort keys and hashing; no arithmetic or sum.
func orderedKernels[T Signed](cmp func(CompareOp, []byte, array.Array, array.Array, any) error) kernels {
	return kernels{compare: cmp, minMax: minMaxWith(intKernels[T]()), order: ordered[T],
		radix: signedKeys[T], group: groupFixed[T]()}
}

// wideKernels are those of the 128- and 256-bit decimals: comparison,
// order and min/max by c.
func wideKernels[T array.FixedWidth](c func(x, y T) int) kernels {
	return kernels{compare: compareWith(c), order: orderWith(c), minMax: minMaxByOrder}
}

// bytesKernels are those of binary and string layouts: bytewise
// comparison and order, radix keys from a prefix (nil: none).
func bytesKernels[A byteValued](radix keyFill) kernels {
	return kernels{compare: compareBytes[A], order: bytesOrder[A], minMax: minMaxByOrder, radix: radix}
}

func minMaxWith[T array.FixedWidth](mm mmKernels[T]) func(datatype.DataType, []array.Array, int) (Scalar, Scalar, error) {
	return func(t datatype.DataType, chunks []array.Array, want int) (Scalar, Scalar, error) {
		return minMaxOrdered(t, chunks, want, mm)
	}
}

func compareSIMD[T simdCmp](op CompareOp, dst []byte, a, b array.Array, s any) error {
	return cmpSIMD(op, dst, a.(*array.Primitive[T]), b, s)
}

func compareLoop[T Number](op CompareOp, dst []byte, a, b array.Array, s any) error {
	return cmpPrim(op, dst, a.(*array.Primitive[T]), b, s)
}

func compareHalf(op CompareOp, dst []byte, a, b array.Array, s any) error {
	return cmpHalf(op, dst, a.(*array.Float16), b, s)
}

func compareBool(op CompareOp, dst []byte, a, b array.Array, s any) error {
	return cmpBool(op, dst, a.(*array.Boolean), b, s)
}

func compareBytes[A byteValued](op CompareOp, dst []byte, a, b array.Array, s any) error {
	return cmpBytes(op, dst, a.(A), b, s)
}

func compareWith[T array.FixedWidth](c func(x, y T) int) func(CompareOp, []byte, array.Array, array.Array, any) error {
	return func(op CompareOp, dst []byte, a, b array.Array, s any) error {
		return cmpWith(op, dst, a.(*array.Primitive[T]), b, s, c)
	}
}

func orderWith[T array.FixedWidth](c func(x, y T) int) func(array.Array) (cmpFn, nanFn) {
	return func(a array.Array) (cmpFn, nanFn) {
		v := a.(*array.Primitive[T]).Values()
		return func(i, j int) int { return c(v[i], v[j]) }, nil
	}
}

// withDecimalSum adds the exact sum kernels of decimals to k; add adds
// one unscaled value to an exact sum.
func withDecimalSum[T array.FixedWidth](k kernels, add func(*wideSum, T)) kernels {
	k.sum = func(a array.Array, _ bool, _ float64) (acc sumAcc) {
		acc.class = classDecimal
		acc.count = sumWide(&acc.dec, a.(*array.Primitive[T]), add)
		return acc
	}
	k.groupSum = func(a array.Array, ids []int32, counts []int64, _ bool, _ *config) any {
		return wideGroupSums(a.(*array.Primitive[T]), ids, counts, add)
	}
	return k
}

func sumHalfArray(a array.Array, _ bool, f float64) (acc sumAcc) {
	acc.f = f
	valid, off := bitmapOf(a.Data())
	sumHalf(&acc, a.(*array.Float16).Values(), valid, off)
	return acc
}

// sumNull is the sum of a null array: no values, of no class.
func sumNull(array.Array, bool, float64) sumAcc { return sumAcc{} }

// minMaxNull is the min and max of a null array: null.
func minMaxNull(t datatype.DataType, _ []array.Array, _ int) (Scalar, Scalar, error) {
	return NullScalar(t), NullScalar(t), nil
}

// The exact additions of one value of each sum type.
func wideInt[T Signed](s *wideSum, v T)    { s.addInt(int64(v)) }
func wideUint[T Unsigned](s *wideSum, v T) { s.addUint(uint64(v)) }
func wideDec128(s *wideSum, v datatype.Decimal128) {
	s.addWords(v.Lo, uint64(v.Hi))
}
func wideDec256(s *wideSum, v datatype.Decimal256) { s.addWords(v[:]...) }
