package compute

import (
	"bytes"
	"cmp"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/simd"
	"github.com/alkaid-go/alkaid/memory"
)

// CompareOp is a comparison predicate.
type CompareOp uint8

// The comparison predicates.
const (
	Eq CompareOp = iota // ==
	Ne                  // !=
	Lt                  // <
	Le                  // <=
	Gt                  // >
	Ge                  // >=
)

var cmpNames = [...]string{"==", "!=", "<", "<=", ">", ">="}

// String is the Go operator: "==", "<", …
func (op CompareOp) String() string {
	if int(op) < len(cmpNames) {
		return cmpNames[op]
	}
	return "CompareOp(?)"
}

// Compare returns the Boolean array a[i] op b[i]; slot i is null when a
// or b is null there. Dictionaries compare by value, and numbers of two
// types in the type that holds both (float64 when either is a float, else
// int64, else float64). Otherwise a and b must have the same length and
// type: any
// integer or float type (float16 included), boolean (false < true),
// binary, utf8 and their large and view variants (bytewise order),
// fixed-size binary, dates, times, durations, decimals of the same
// precision and scale, and timestamps of the same unit (whose time zones
// may differ, as long as both or neither have one). Floats compare as in
// Go: NaN is unequal to everything, itself included, and unordered; -0
// equals +0.
func Compare(op CompareOp, a, b array.Array) (*array.Boolean, error) {
	if op > Ge {
		return nil, errf(ErrInvalid, "comparison %d", op)
	}
	if err := checkSameLen("compare", a, b); err != nil {
		return nil, err
	}
	a, b, err := promotePair(a, b)
	if err != nil {
		return nil, err
	}
	if err := comparableTypes(a.DataType(), b.DataType()); err != nil {
		return nil, err
	}
	return compare(op, a, b, nil)
}

// CompareScalar returns the Boolean array a[i] op s. s is a Go value of
// a's kind (a number for numeric arrays: an integer array against a float
// such as 2.5 compares as numbers do, a NaN equals nothing), the
// array's value type for temporal and decimal arrays, bool, string or
// []byte), a [Scalar], or nil, the null scalar, which makes every slot
// null.
func CompareScalar(op CompareOp, a array.Array, s any) (*array.Boolean, error) {
	if op > Ge {
		return nil, errf(ErrInvalid, "comparison %d", op)
	}
	if sc, ok := s.(Scalar); ok {
		if !sc.Valid {
			s = nil
		} else {
			s = sc.Value
		}
	}
	if s == nil {
		n := a.Len()
		return boolOut(n, memory.Allocate(nil, bitutil.BytesForBits(n)), memory.Allocate(nil, bitutil.BytesForBits(n)), n), nil
	}
	a, err := byValue(a)
	if err != nil {
		return nil, err
	}
	if out, handled, err := compareIntFloat(op, a, s); handled {
		return out, err
	}
	return compare(op, a, nil, s)
}

func comparableTypes(ta, tb datatype.DataType) error {
	if x, ok := ta.(*datatype.TimestampType); ok {
		if y, ok := tb.(*datatype.TimestampType); ok && x.Unit == y.Unit && (x.TimeZone == "") == (y.TimeZone == "") {
			return nil
		}
	} else if datatype.Equal(ta, tb, datatype.IgnoreMetadata()) {
		return nil
	}
	return errf(ErrInvalid, "compare %s with %s", ta, tb)
}

func boolOut(n int, vals, valid *memory.Buffer, nulls int) *array.Boolean {
	if nulls == 0 {
		valid = nil
	}
	return array.MustMake(array.NewData(datatype.Bool, n, []*memory.Buffer{valid, vals}, nil, nulls, 0)).(*array.Boolean)
}

// compare dispatches once on the type; b == nil means the scalar s.
func compare(op CompareOp, a, b array.Array, s any) (*array.Boolean, error) {
	n := a.Len()
	var valid *memory.Buffer
	var nulls int
	if b != nil {
		valid, nulls = andValidity(n, a.Data(), b.Data())
	} else {
		valid, nulls = andValidity(n, a.Data())
	}
	vals := memory.Allocate(nil, bitutil.BytesForBits(n))
	dst := vals.Bytes()
	k := kernelsOf(a.DataType()).compare
	if k == nil {
		return nil, errf(ErrNotSupported, "compare %s", a.DataType())
	}
	if err := k(op, dst, a, b, s); err != nil {
		return nil, err
	}
	return boolOut(n, vals, valid, nulls), nil
}

// simdCmp is every value type with SIMD comparison kernels: the 32- and
// 64-bit ones but unsigned integers.
type simdCmp interface {
	int32 | int64 | float32 | float64 | datatype.Date32 | datatype.Date64 | datatype.Time32 |
		datatype.Time64 | datatype.Timestamp | datatype.Duration | datatype.Decimal32 | datatype.Decimal64
}

// cmpSIMD runs the SIMD comparison kernels (32- and 64-bit types).
func cmpSIMD[T simdCmp](op CompareOp, dst []byte, a *array.Primitive[T], b array.Array, s any) error {
	x := a.Values()
	if b != nil {
		y := b.(*array.Primitive[T]).Values()
		[...]func([]byte, []T, []T){simd.Eq[T], simd.Ne[T], simd.Lt[T], simd.Le[T], simd.Gt[T], simd.Ge[T]}[op](dst, x, y)
		return nil
	}
	v, err := scalarOf[T](s, a.DataType())
	if err != nil {
		return err
	}
	[...]func([]byte, []T, T){simd.EqScalar[T], simd.NeScalar[T], simd.LtScalar[T], simd.LeScalar[T],
		simd.GtScalar[T], simd.GeScalar[T]}[op](dst, x, v)
	return nil
}

// scalarOf converts a comparison scalar: numbers as for arithmetic, the
// named value types (datatype.Timestamp, …) as themselves.
func scalarOf[T Number](s any, t datatype.DataType) (T, error) {
	if v, ok := s.(T); ok {
		return v, nil
	}
	v, _, err := scalarAs[T](s, t)
	return v, err
}

func cmpPrim[T Number](op CompareOp, dst []byte, a *array.Primitive[T], b array.Array, s any) error {
	x := a.Values()
	if b != nil {
		cmpLoop(op, dst, x, b.(*array.Primitive[T]).Values(), 0)
		return nil
	}
	v, err := scalarOf[T](s, a.DataType())
	if err != nil {
		return err
	}
	cmpLoop(op, dst, x, nil, v)
	return nil
}

// cmpLoop sets bit i of dst (zeroed) to a[i] op b[i], or a[i] op s when b
// is nil.
func cmpLoop[T cmp.Ordered](op CompareOp, dst []byte, a, b []T, s T) {
	for i, x := range a {
		y := s
		if b != nil {
			y = b[i]
		}
		var r bool
		switch op {
		case Eq:
			r = x == y
		case Ne:
			r = x != y
		case Lt:
			r = x < y
		case Le:
			r = x <= y
		case Gt:
			r = x > y
		default:
			r = x >= y
		}
		if r {
			dst[i>>3] |= 1 << (i & 7)
		}
	}
}

func cmpHalf(op CompareOp, dst []byte, a *array.Float16, b array.Array, s any) error {
	x := make([]float32, a.Len())
	for i, v := range a.Values() {
		x[i] = v.Float32()
	}
	if b != nil {
		y := make([]float32, a.Len())
		for i, v := range b.(*array.Float16).Values() {
			y[i] = v.Float32()
		}
		cmpLoop(op, dst, x, y, 0)
		return nil
	}
	var v float32
	switch h := s.(type) {
	case datatype.Float16:
		v = h.Float32()
	default:
		f, _, err := scalarAs[float32](s, a.DataType())
		if err != nil {
			return err
		}
		v = f
	}
	cmpLoop(op, dst, x, nil, v)
	return nil
}

func cmpDec128(a, b datatype.Decimal128) int {
	if c := cmp.Compare(a.Hi, b.Hi); c != 0 {
		return c
	}
	return cmp.Compare(a.Lo, b.Lo)
}

func cmpDec256(a, b datatype.Decimal256) int {
	if c := cmp.Compare(int64(a[3]), int64(b[3])); c != 0 {
		return c
	}
	for i := 2; i >= 0; i-- {
		if c := cmp.Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

// holds reports whether a three-way comparison result c satisfies op.
func holds(op CompareOp, c int) bool {
	switch op {
	case Eq:
		return c == 0
	case Ne:
		return c != 0
	case Lt:
		return c < 0
	case Le:
		return c <= 0
	case Gt:
		return c > 0
	}
	return c >= 0
}

func cmpWith[T array.FixedWidth](op CompareOp, dst []byte, a *array.Primitive[T], b array.Array, s any, c func(x, y T) int) error {
	x := a.Values()
	var y []T
	var v T
	if b != nil {
		y = b.(*array.Primitive[T]).Values()
	} else {
		var ok bool
		if v, ok = s.(T); !ok {
			return errf(ErrInvalid, "scalar %v (%T) for %s", s, s, a.DataType())
		}
	}
	for i := range x {
		w := v
		if y != nil {
			w = y[i]
		}
		if holds(op, c(x[i], w)) {
			dst[i>>3] |= 1 << (i & 7)
		}
	}
	return nil
}

// byteValued is every array whose slots are byte strings.
type byteValued interface {
	array.Array
	Value(i int) []byte
}

func cmpBytes(op CompareOp, dst []byte, a byteValued, b array.Array, s any) error {
	var v []byte
	if b == nil {
		switch x := s.(type) {
		case string:
			v = []byte(x)
		case []byte:
			v = x
		default:
			return errf(ErrInvalid, "scalar %v (%T) for %s", s, s, a.DataType())
		}
	}
	var y byteValued
	if b != nil {
		y = b.(byteValued)
	}
	for i := range a.Len() {
		w := v
		if y != nil {
			w = y.Value(i)
		}
		if holds(op, bytes.Compare(a.Value(i), w)) {
			dst[i>>3] |= 1 << (i & 7)
		}
	}
	return nil
}

func cmpBool(op CompareOp, dst []byte, a *array.Boolean, b array.Array, s any) error {
	n := a.Len()
	x, xo := a.Bitmap()
	if b == nil {
		v, ok := s.(bool)
		if !ok {
			return errf(ErrInvalid, "scalar %v (%T) for bool", s, s)
		}
		// a op true / a op false as bit operations on a.
		type how uint8
		const (
			copyA how = iota
			notA
			ones
			zeros
		)
		tbl := [2][6]how{
			{notA, copyA, zeros, notA, copyA, ones}, // against false
			{copyA, notA, notA, ones, zeros, copyA}, // against true
		}
		k := 0
		if v {
			k = 1
		}
		switch tbl[k][op] {
		case copyA:
			bitutil.CopyBits(dst, 0, x, xo, n)
		case notA:
			bitutil.Not(dst, 0, x, xo, n)
		case ones:
			bitutil.SetBitsTo(dst, 0, n, true)
		}
		return nil
	}
	y, yo := b.(*array.Boolean).Bitmap()
	switch op {
	case Eq:
		bitutil.Xor(dst, 0, x, xo, y, yo, n)
		bitutil.Not(dst, 0, dst, 0, n)
	case Ne:
		bitutil.Xor(dst, 0, x, xo, y, yo, n)
	case Lt:
		bitutil.AndNot(dst, 0, y, yo, x, xo, n)
	case Le:
		bitutil.AndNot(dst, 0, x, xo, y, yo, n)
		bitutil.Not(dst, 0, dst, 0, n)
	case Gt:
		bitutil.AndNot(dst, 0, x, xo, y, yo, n)
	default:
		bitutil.AndNot(dst, 0, y, yo, x, xo, n)
		bitutil.Not(dst, 0, dst, 0, n)
	}
	return nil
}
