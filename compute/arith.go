package compute

import (
	"math"
	"math/bits"
	"unsafe"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/simd"
	"github.com/alkaid-go/alkaid/memory"
)

// Elementwise arithmetic over arrays of one integer or float type
// (int8…uint64, float32, float64). The result is a new array of the same
// type and length, starting at offset 0; slot i is null when an input
// slot i is null (the AND of the validity bitmaps), and null slots hold
// unspecified values.
//
// The plain functions wrap integer results around (two's complement);
// the Checked variants return an error wrapping [ErrOverflow] instead
// when a non-null slot overflows. Integer division by zero in a non-null
// slot is an error wrapping [ErrDivideByZero] in both variants (there is
// no value to wrap to); math.MinInt/-1 wraps to math.MinInt unless
// checked. Floats follow IEEE 754 (x/0 is ±Inf or NaN), except that the
// Checked variants report a division by zero as an error too.
//
// The array–scalar forms take s as a Go number, a [Scalar], or nil (the
// null scalar: every result slot is null). An integer array needs a
// scalar that its type represents exactly; a float array takes any
// number, rounded. The scalar is always the right operand (a - s, a / s).

type binOp uint8

const (
	opAdd binOp = iota
	opSub
	opMul
	opDiv
)

var opNames = [...]string{"add", "subtract", "multiply", "divide"}

// Add returns a + b elementwise (wrapping integers).
func Add(a, b array.Array) (array.Array, error) { return arith(opAdd, a, b, false) }

// AddChecked returns a + b elementwise, or an error on integer overflow.
func AddChecked(a, b array.Array) (array.Array, error) { return arith(opAdd, a, b, true) }

// Sub returns a - b elementwise (wrapping integers).
func Sub(a, b array.Array) (array.Array, error) { return arith(opSub, a, b, false) }

// SubChecked returns a - b elementwise, or an error on integer overflow.
func SubChecked(a, b array.Array) (array.Array, error) { return arith(opSub, a, b, true) }

// Mul returns a * b elementwise (wrapping integers).
func Mul(a, b array.Array) (array.Array, error) { return arith(opMul, a, b, false) }

// MulChecked returns a * b elementwise, or an error on integer overflow.
func MulChecked(a, b array.Array) (array.Array, error) { return arith(opMul, a, b, true) }

// Div returns a / b elementwise: integer division truncates toward zero;
// an integer division by zero is an error.
func Div(a, b array.Array) (array.Array, error) { return arith(opDiv, a, b, false) }

// DivChecked is [Div] that also reports integer overflow (MinInt / -1)
// and float division by zero as errors.
func DivChecked(a, b array.Array) (array.Array, error) { return arith(opDiv, a, b, true) }

// AddScalar returns a + s for every slot of a.
func AddScalar(a array.Array, s any) (array.Array, error) { return arithS(opAdd, a, s, false) }

// AddScalarChecked is [AddScalar] with overflow checks.
func AddScalarChecked(a array.Array, s any) (array.Array, error) {
	return arithS(opAdd, a, s, true)
}

// SubScalar returns a - s for every slot of a.
func SubScalar(a array.Array, s any) (array.Array, error) { return arithS(opSub, a, s, false) }

// SubScalarChecked is [SubScalar] with overflow checks.
func SubScalarChecked(a array.Array, s any) (array.Array, error) {
	return arithS(opSub, a, s, true)
}

// MulScalar returns a * s for every slot of a.
func MulScalar(a array.Array, s any) (array.Array, error) { return arithS(opMul, a, s, false) }

// MulScalarChecked is [MulScalar] with overflow checks.
func MulScalarChecked(a array.Array, s any) (array.Array, error) {
	return arithS(opMul, a, s, true)
}

// DivScalar returns a / s for every slot of a.
func DivScalar(a array.Array, s any) (array.Array, error) { return arithS(opDiv, a, s, false) }

// DivScalarChecked is [DivScalar] with the checks of [DivChecked].
func DivScalarChecked(a array.Array, s any) (array.Array, error) {
	return arithS(opDiv, a, s, true)
}

// Negate returns -a for a signed integer or float array (wrapping:
// -MinInt is MinInt). Unsigned arrays are not supported.
func Negate(a array.Array) (array.Array, error) { return unary(false, a, false) }

// NegateChecked is [Negate] returning an error for -MinInt.
func NegateChecked(a array.Array) (array.Array, error) { return unary(false, a, true) }

// Abs returns |a| (wrapping: |MinInt| is MinInt; unsigned arrays are
// returned as a copy; floats lose their sign bit, NaN included).
func Abs(a array.Array) (array.Array, error) { return unary(true, a, false) }

// AbsChecked is [Abs] returning an error for |MinInt|.
func AbsChecked(a array.Array) (array.Array, error) { return unary(true, a, true) }

func arith(op binOp, a, b array.Array, checked bool) (array.Array, error) {
	if err := checkSameType(opNames[op], a, b); err != nil {
		return nil, err
	}
	if err := checkSameLen(opNames[op], a, b); err != nil {
		return nil, err
	}
	if k := kernelsOf(a.DataType()).arith; k != nil {
		return k(op, a, b, checked)
	}
	return nil, errf(ErrNotSupported, "%s %s", opNames[op], a.DataType())
}

func arithS(op binOp, a array.Array, s any, checked bool) (array.Array, error) {
	if k := kernelsOf(a.DataType()).arithS; k != nil {
		return k(op, a, s, checked)
	}
	return nil, errf(ErrNotSupported, "%s %s and a scalar", opNames[op], a.DataType())
}

func unary(abs bool, a array.Array, checked bool) (array.Array, error) {
	if k := kernelsOf(a.DataType()).unary; k != nil {
		return k(abs, a, checked)
	}
	name := "negate"
	if abs {
		name = "abs"
	}
	return nil, errf(ErrNotSupported, "%s %s", name, a.DataType())
}

// traits of a value type, computed once per call outside the loops.
type traits struct {
	isFloat, signed bool
	size            uintptr
}

func traitsOf[T Number]() traits {
	var one T = 1
	var zero T
	return traits{isFloat: one/2 != 0, signed: zero-one < 0, size: unsafe.Sizeof(zero)}
}

func castSlice[U, T any](x []T) []U {
	return unsafe.Slice((*U)(unsafe.Pointer(unsafe.SliceData(x))), len(x))
}

func castVal[U, T any](v T) U { return *(*U)(unsafe.Pointer(&v)) }

// simdArith runs add, sub or mul through the SIMD kernels when T has one
// (32- and 64-bit types; unsigned ones wrap like their signed twins);
// it reports whether it did. With b == nil the scalar s is used.
func simdArith[T Number](op binOp, tr traits, dst, a, b []T, s T) bool {
	if op == opDiv || tr.size < 4 {
		return false
	}
	switch {
	case tr.isFloat && tr.size == 4:
		elemOp(op, castSlice[float32](dst), castSlice[float32](a), castSlice[float32](b), b == nil, castVal[float32](s))
	case tr.isFloat:
		elemOp(op, castSlice[float64](dst), castSlice[float64](a), castSlice[float64](b), b == nil, castVal[float64](s))
	case tr.size == 4:
		elemOp(op, castSlice[int32](dst), castSlice[int32](a), castSlice[int32](b), b == nil, castVal[int32](s))
	default:
		elemOp(op, castSlice[int64](dst), castSlice[int64](a), castSlice[int64](b), b == nil, castVal[int64](s))
	}
	return true
}

func elemOp[E int32 | int64 | float32 | float64](op binOp, dst, a, b []E, scalar bool, s E) {
	switch {
	case scalar && op == opAdd:
		simd.AddScalar(dst, a, s)
	case scalar && op == opSub:
		simd.SubScalar(dst, a, s)
	case scalar:
		simd.MulScalar(dst, a, s)
	case op == opAdd:
		simd.Add(dst, a, b)
	case op == opSub:
		simd.Sub(dst, a, b)
	default:
		simd.Mul(dst, a, b)
	}
}

// loopArith is the plain-Go kernel: dst = a op b (or a op s when b is
// nil). Integer division skips zero divisors (the slot stays 0).
func loopArith[T Number](op binOp, tr traits, dst, a, b []T, s T) {
	a = a[:len(dst)]
	if b != nil {
		b = b[:len(dst)]
		switch op {
		case opAdd:
			for i := range dst {
				dst[i] = a[i] + b[i]
			}
		case opSub:
			for i := range dst {
				dst[i] = a[i] - b[i]
			}
		case opMul:
			for i := range dst {
				dst[i] = a[i] * b[i]
			}
		default:
			if tr.isFloat {
				for i := range dst {
					dst[i] = a[i] / b[i]
				}
				return
			}
			for i := range dst {
				dst[i] = 0 // slots that divide by zero are null or an error
				if b[i] != 0 {
					dst[i] = a[i] / b[i]
				}
			}
		}
		return
	}
	switch op {
	case opAdd:
		for i := range dst {
			dst[i] = a[i] + s
		}
	case opSub:
		for i := range dst {
			dst[i] = a[i] - s
		}
	case opMul:
		for i := range dst {
			dst[i] = a[i] * s
		}
	default:
		if !tr.isFloat && s == 0 {
			clear(dst) // every slot divides by zero
			return
		}
		for i := range dst {
			dst[i] = a[i] / s
		}
	}
}

// badElem reports whether x op y is an error: division by zero (integer,
// or any when checked) or, when checked, integer overflow.
func badElem[T Number](op binOp, tr traits, checked bool, x, y T) bool {
	if tr.isFloat {
		return checked && op == opDiv && y == 0
	}
	if op == opDiv && y == 0 {
		return true
	}
	if !checked {
		return false
	}
	if tr.signed {
		return signedOverflows(op, tr.size, int64(x), int64(y))
	}
	return unsignedOverflows(op, tr.size, uint64(x), uint64(y))
}

// minInt is the smallest signed integer of size bytes.
func minInt(size uintptr) int64 { return -1 << (8*size - 1) }

// signedOverflows reports whether x op y overflows a signed integer of
// size bytes (x and y are values of that type).
func signedOverflows(op binOp, size uintptr, x, y int64) bool {
	if size < 8 && op != opDiv {
		var r int64
		switch op {
		case opAdd:
			r = x + y
		case opSub:
			r = x - y
		default:
			r = x * y // |x|, |y| ≤ 2^31: no 64-bit overflow
		}
		return r < minInt(size) || r > -1-minInt(size)
	}
	switch op {
	case opAdd:
		r := x + y
		return (x^r)&(y^r) < 0
	case opSub:
		r := x - y
		return (x^y)&(x^r) < 0
	case opMul:
		if x == 0 || y == 0 {
			return false
		}
		if (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) {
			return true
		}
		return (x*y)/y != x
	}
	return y == -1 && x == minInt(size)
}

// unsignedOverflows is [signedOverflows] for unsigned integers.
func unsignedOverflows(op binOp, size uintptr, x, y uint64) bool {
	switch op {
	case opAdd:
		r := x + y
		return r < x || (size < 8 && r>>(8*size) != 0)
	case opSub:
		return x < y
	case opMul:
		hi, lo := bits.Mul64(x, y)
		return hi != 0 || (size < 8 && lo>>(8*size) != 0)
	}
	return false
}

// firstBad returns an error for the first valid slot i whose x op y is
// bad, or nil. valid (from bit 0) may be nil.
func firstBad[T Number](op binOp, tr traits, checked bool, a, b []T, s T, valid []byte) error {
	for i := range a {
		y := s
		if b != nil {
			y = b[i]
		}
		if !badElem(op, tr, checked, a[i], y) || valid != nil && !bitutil.GetBit(valid, i) {
			continue
		}
		if op == opDiv && y == 0 {
			return errf(ErrDivideByZero, "%s: slot %d", opNames[op], i)
		}
		return errf(ErrOverflow, "%s: slot %d: %v and %v", opNames[op], i, a[i], y)
	}
	return nil
}

// mayFail reports whether some slot of the operation can be an error, a
// cheap test before the exact scan.
func mayFail[T Number](op binOp, tr traits, checked bool, b []T, s T) bool {
	if tr.isFloat && !(checked && op == opDiv) {
		return false
	}
	if !tr.isFloat && !checked && op != opDiv {
		return false
	}
	if b == nil && op == opDiv && !checked {
		return s == 0
	}
	return true
}

func arithPrim[T Number](op binOp, x, y *array.Primitive[T], _ []byte, checked bool) (array.Array, error) {
	n := x.Len()
	valid, nulls := andValidity(n, x.Data(), y.Data())
	tr := traitsOf[T]()
	buf, dst := newValues[T](n)
	if !simdArith(op, tr, dst, x.Values(), y.Values(), 0) {
		loopArith(op, tr, dst, x.Values(), y.Values(), 0)
	}
	if mayFail(op, tr, checked, y.Values(), 0) && !surelyFine(op, tr, checked, dst, x.Values(), y.Values(), 0) {
		if err := firstBad(op, tr, checked, x.Values(), y.Values(), 0, valid.Bytes()); err != nil {
			return nil, err
		}
	}
	return primitiveOut(x.DataType(), n, valid, nulls, buf), nil
}

func arithScalar[T Number](op binOp, x *array.Primitive[T], s any, checked bool) (array.Array, error) {
	n := x.Len()
	v, null, err := scalarAs[T](s, x.DataType())
	if err != nil {
		return nil, err
	}
	if null {
		return allNull(x.DataType(), n), nil
	}
	valid, nulls := andValidity(n, x.Data())
	tr := traitsOf[T]()
	buf, dst := newValues[T](n)
	if !simdArith(op, tr, dst, x.Values(), nil, v) {
		loopArith(op, tr, dst, x.Values(), nil, v)
	}
	if mayFail(op, tr, checked, nil, v) && !surelyFine(op, tr, checked, dst, x.Values(), nil, v) {
		if err := firstBad(op, tr, checked, x.Values(), nil, v, valid.Bytes()); err != nil {
			return nil, err
		}
	}
	return primitiveOut(x.DataType(), n, valid, nulls, buf), nil
}

// surelyFine is a fast scan, ignoring validity, of the computed results
// r = a op b (or a op s): true means no slot can be an error; false
// means [firstBad] must look closer.
func surelyFine[T Number](op binOp, tr traits, checked bool, r, a, b []T, s T) bool {
	if op == opDiv {
		if b == nil {
			return s != 0 && !(checked && tr.signed && s+1 == 0)
		}
		for _, y := range b {
			if y == 0 || checked && tr.signed && y+1 == 0 {
				return false
			}
		}
		return true
	}
	if op == opMul && tr.size == 8 {
		return false // no cheap test; firstBad checks every slot
	}
	switch {
	case tr.signed && tr.size == 1:
		return noOverflowS(op, castSlice[int8](r), castSlice[int8](a), castSlice[int8](b), castVal[int8](s))
	case tr.signed && tr.size == 2:
		return noOverflowS(op, castSlice[int16](r), castSlice[int16](a), castSlice[int16](b), castVal[int16](s))
	case tr.signed && tr.size == 4:
		return noOverflowS(op, castSlice[int32](r), castSlice[int32](a), castSlice[int32](b), castVal[int32](s))
	case tr.signed:
		return noOverflowS(op, castSlice[int64](r), castSlice[int64](a), castSlice[int64](b), castVal[int64](s))
	case tr.size == 1:
		return noOverflowU(op, castSlice[uint8](r), castSlice[uint8](a), castSlice[uint8](b), castVal[uint8](s))
	case tr.size == 2:
		return noOverflowU(op, castSlice[uint16](r), castSlice[uint16](a), castSlice[uint16](b), castVal[uint16](s))
	case tr.size == 4:
		return noOverflowU(op, castSlice[uint32](r), castSlice[uint32](a), castSlice[uint32](b), castVal[uint32](s))
	}
	return noOverflowU(op, castSlice[uint64](r), castSlice[uint64](a), castSlice[uint64](b), castVal[uint64](s))
}

// noOverflowS reports whether no wrapped signed result r = a op b (add,
// sub; mul of types narrower than 64 bits) overflowed.
func noOverflowS[S Signed](op binOp, r, a, b []S, s S) bool {
	var acc S
	a = a[:len(r)]
	switch {
	case op == opAdd && b == nil:
		for i, x := range a {
			acc |= (x ^ r[i]) & (s ^ r[i])
		}
	case op == opAdd:
		b = b[:len(r)]
		for i, x := range a {
			acc |= (x ^ r[i]) & (b[i] ^ r[i])
		}
	case op == opSub && b == nil:
		for i, x := range a {
			acc |= (x ^ s) & (x ^ r[i])
		}
	case op == opSub:
		b = b[:len(r)]
		for i, x := range a {
			acc |= (x ^ b[i]) & (x ^ r[i])
		}
	default: // narrow multiply: the exact product fits int64
		for i, x := range a {
			y := s
			if b != nil {
				y = b[i]
			}
			if int64(x)*int64(y) != int64(r[i]) {
				return false
			}
		}
	}
	return acc >= 0
}

// noOverflowU is [noOverflowS] for unsigned types.
func noOverflowU[U Unsigned](op binOp, r, a, b []U, s U) bool {
	a = a[:len(r)]
	switch {
	case op == opAdd:
		for i, x := range a {
			if r[i] < x {
				return false
			}
		}
	case op == opSub && b == nil:
		for _, x := range a {
			if x < s {
				return false
			}
		}
	case op == opSub:
		b = b[:len(r)]
		for i, x := range a {
			if x < b[i] {
				return false
			}
		}
	default: // narrow multiply
		for i, x := range a {
			y := s
			if b != nil {
				y = b[i]
			}
			if uint64(x)*uint64(y) != uint64(r[i]) {
				return false
			}
		}
	}
	return true
}

// allNull returns n null slots of the fixed-width type t.
func allNull(t datatype.DataType, n int) array.Array {
	vals := memory.Allocate(nil, n*datatype.ByteWidth(t))
	return primitiveOut(t, n, memory.Allocate(nil, bitutil.BytesForBits(n)), n, vals)
}

func unaryPrim[T Number](abs bool, x *array.Primitive[T], checked bool) (array.Array, error) {
	n := x.Len()
	tr := traitsOf[T]()
	name := "negate"
	if abs {
		name = "abs"
	}
	if !tr.signed && !abs {
		return nil, errf(ErrNotSupported, "negate %s", x.DataType())
	}
	valid, nulls := andValidity(n, x.Data())
	src := x.Values()
	if checked && tr.signed && !tr.isFloat {
		m := minInt(tr.size)
		for i, v := range src {
			if int64(v) == m && (valid == nil || bitutil.GetBit(valid.Bytes(), i)) {
				return nil, errf(ErrOverflow, "%s: slot %d: %v", name, i, v)
			}
		}
	}
	buf, dst := newValues[T](n)
	switch {
	case abs && !tr.signed:
		copy(dst, src)
	case abs && tr.isFloat:
		for i, v := range src {
			dst[i] = T(math.Abs(float64(v)))
		}
	case abs:
		for i, v := range src {
			dst[i] = v
			if v < 0 {
				dst[i] = -v
			}
		}
	default:
		for i, v := range src {
			dst[i] = -v
		}
	}
	return primitiveOut(x.DataType(), n, valid, nulls, buf), nil
}

// scalarAs converts a scalar argument to T; null reports the null scalar.
func scalarAs[T Number](s any, t datatype.DataType) (v T, null bool, err error) {
	tr := traitsOf[T]()
	switch x := s.(type) {
	case nil:
		return v, true, nil
	case Scalar:
		if !x.Valid {
			return v, true, nil
		}
		return scalarAs[T](x.Value, t)
	case T:
		return x, false, nil
	case int:
		return fromInt[T](int64(x), tr, t)
	case int8:
		return fromInt[T](int64(x), tr, t)
	case int16:
		return fromInt[T](int64(x), tr, t)
	case int32:
		return fromInt[T](int64(x), tr, t)
	case int64:
		return fromInt[T](x, tr, t)
	case uint:
		return fromUint[T](uint64(x), tr, t)
	case uint8:
		return fromUint[T](uint64(x), tr, t)
	case uint16:
		return fromUint[T](uint64(x), tr, t)
	case uint32:
		return fromUint[T](uint64(x), tr, t)
	case uint64:
		return fromUint[T](x, tr, t)
	case float32:
		return fromFloat[T](float64(x), tr, t)
	case float64:
		return fromFloat[T](x, tr, t)
	}
	return v, false, errf(ErrInvalid, "scalar %v (%T) for %s", s, s, t)
}

func fromInt[T Number](x int64, tr traits, t datatype.DataType) (T, bool, error) {
	v := T(x)
	if !tr.isFloat && (int64(v) != x || (v < 0) != (x < 0)) {
		return 0, false, errf(ErrInvalid, "scalar %d does not fit %s", x, t)
	}
	return v, false, nil
}

func fromUint[T Number](x uint64, tr traits, t datatype.DataType) (T, bool, error) {
	v := T(x)
	if !tr.isFloat && (uint64(v) != x || v < 0) {
		return 0, false, errf(ErrInvalid, "scalar %d does not fit %s", x, t)
	}
	return v, false, nil
}

func fromFloat[T Number](x float64, tr traits, t datatype.DataType) (T, bool, error) {
	if tr.isFloat {
		return T(x), false, nil
	}
	if x != math.Trunc(x) || x < -0x1p63 || x >= 0x1p64 {
		return 0, false, errf(ErrInvalid, "scalar %v does not fit %s", x, t)
	}
	if x < 0 {
		return fromInt[T](int64(x), tr, t)
	}
	return fromUint[T](uint64(x), tr, t)
}
