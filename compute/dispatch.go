package compute

import (
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/simd"
)

// kernels are the per-type kernels of one value type: generic functions
// instantiated for the Go type that holds the type's values, built once
// into the dispatch table. A nil kernel means the operation is not defined
// for the type. Each takes arrays of its own type only (the callers check
// that both sides have one type), so the type assertions inside cannot
// fail.
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
	// minMax is the min and max of chunks of type t (want: wantMin,
	// wantMax or both).
	minMax func(t datatype.DataType, chunks []array.Array, want int) (lo, hi Scalar, err error)
	// order is the comparator of a's values, and its NaN test for float
	// types.
	order func(a array.Array) (cmpFn, nanFn)
}

// dispatch holds the kernels of every kind, indexed by kind; kinds
// without any kernel (nested types, intervals, dictionaries, extensions)
// have the zero entry. It is the only place where compute maps a type to
// its kernels.
var dispatch = [datatype.KindExtension + 1]kernels{
	datatype.KindNull:   {order: nullOrder},
	datatype.KindBool:   {compare: compareBool, order: boolOrder},
	datatype.KindInt8:   signedKernels[int8](compareLoop[int8]),
	datatype.KindInt16:  signedKernels[int16](compareLoop[int16]),
	datatype.KindInt32:  signedKernels[int32](compareSIMD[int32]),
	datatype.KindInt64:  signedKernels[int64](compareSIMD[int64]),
	datatype.KindUint8:  unsignedKernels[uint8](compareLoop[uint8]),
	datatype.KindUint16: unsignedKernels[uint16](compareLoop[uint16]),
	datatype.KindUint32: unsignedKernels[uint32](compareLoop[uint32]),
	datatype.KindUint64: unsignedKernels[uint64](compareLoop[uint64]),
	datatype.KindFloat16: {compare: compareHalf, sum: sumHalfArray,
		minMax: minMaxWith(halfKernels()), order: half},
	datatype.KindFloat32:         floatKernelsOf[float32](),
	datatype.KindFloat64:         floatKernelsOf[float64](),
	datatype.KindDecimal32:       withDecimalSum(orderedKernels[datatype.Decimal32](compareSIMD[datatype.Decimal32])),
	datatype.KindDecimal64:       withDecimalSum(orderedKernels[datatype.Decimal64](compareSIMD[datatype.Decimal64])),
	datatype.KindDecimal128:      withDecimalSum(kernels{compare: compareWith(cmpDec128), order: orderWith(cmpDec128)}),
	datatype.KindDecimal256:      withDecimalSum(kernels{compare: compareWith(cmpDec256), order: orderWith(cmpDec256)}),
	datatype.KindDate32:          orderedKernels[datatype.Date32](compareSIMD[datatype.Date32]),
	datatype.KindDate64:          orderedKernels[datatype.Date64](compareSIMD[datatype.Date64]),
	datatype.KindTime32:          orderedKernels[datatype.Time32](compareSIMD[datatype.Time32]),
	datatype.KindTime64:          orderedKernels[datatype.Time64](compareSIMD[datatype.Time64]),
	datatype.KindTimestamp:       orderedKernels[datatype.Timestamp](compareSIMD[datatype.Timestamp]),
	datatype.KindDuration:        orderedKernels[datatype.Duration](compareSIMD[datatype.Duration]),
	datatype.KindFixedSizeBinary: {compare: compareBytes[*array.FixedSizeBinary], order: bytesOrder[*array.FixedSizeBinary]},
	datatype.KindBinary:          {compare: compareBytes[*array.BinaryArray], order: bytesOrder[*array.BinaryArray]},
	datatype.KindString:          {compare: compareBytes[*array.BinaryArray], order: bytesOrder[*array.BinaryArray]},
	datatype.KindLargeBinary:     {compare: compareBytes[*array.LargeBinaryArray], order: bytesOrder[*array.LargeBinaryArray]},
	datatype.KindLargeString:     {compare: compareBytes[*array.LargeBinaryArray], order: bytesOrder[*array.LargeBinaryArray]},
	datatype.KindBinaryView:      {compare: compareBytes[*array.BinaryView], order: bytesOrder[*array.BinaryView]},
	datatype.KindStringView:      {compare: compareBytes[*array.BinaryView], order: bytesOrder[*array.BinaryView]},
}

// kernelsOf returns the kernels of t's kind (not of an extension type's
// storage: an extension array is not its storage array).
func kernelsOf(t datatype.DataType) *kernels {
	if k := t.Kind(); int(k) < len(dispatch) {
		return &dispatch[k]
	}
	return &kernels{}
}

// numericKernels are the arithmetic, min/max and order kernels of a
// number type; cmp is its comparison (SIMD for 32- and 64-bit types).
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
	}
}

func signedKernels[T Signed](cmp func(CompareOp, []byte, array.Array, array.Array, any) error) kernels {
	k := numericKernels(cmp, intKernels[T]())
	k.sum = func(a array.Array, exact bool, _ float64) (acc sumAcc) {
		valid, off := bitmapOf(a.Data())
		sumSigned(&acc, a.(*array.Primitive[T]).Values(), valid, off, exact)
		return acc
	}
	return k
}

func unsignedKernels[T Unsigned](cmp func(CompareOp, []byte, array.Array, array.Array, any) error) kernels {
	k := numericKernels(cmp, uintKernels[T]())
	k.sum = func(a array.Array, exact bool, _ float64) (acc sumAcc) {
		valid, off := bitmapOf(a.Data())
		sumUnsigned(&acc, a.(*array.Primitive[T]).Values(), valid, off, exact)
		return acc
	}
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
	k.order = floats[T]
	return k
}

// orderedKernels are those of the integer-backed logical types (dates,
// times, timestamps, durations, small decimals): comparison, min/max and
// order, no arithmetic or sum.
func orderedKernels[T Signed](cmp func(CompareOp, []byte, array.Array, array.Array, any) error) kernels {
	return kernels{compare: cmp, minMax: minMaxWith(intKernels[T]()), order: ordered[T]}
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

// withDecimalSum adds the exact sum kernel of decimals to k.
func withDecimalSum(k kernels) kernels {
	k.sum = func(a array.Array, _ bool, _ float64) (acc sumAcc) {
		acc.class = classDecimal
		acc.count = sumDecimals(&acc.dec, a)
		return acc
	}
	return k
}

func sumHalfArray(a array.Array, _ bool, f float64) (acc sumAcc) {
	acc.f = f
	valid, off := bitmapOf(a.Data())
	sumHalf(&acc, a.(*array.Float16).Values(), valid, off)
	return acc
}
