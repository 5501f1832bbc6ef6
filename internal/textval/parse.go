package textval

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// Errors of this package; the callers wrap them with their own sentinels
// and the position of the cell. ErrValue is a [datatype.ErrInvalid],
// ErrNoText a [datatype.ErrNotSupported].
var (
	// ErrValue: a cell's text is not a value of its column's type.
	ErrValue = datatype.Refine(datatype.ErrInvalid, "invalid value")
	// ErrNoText: the type has no text form here.
	ErrNoText = datatype.Refine(datatype.ErrNotSupported, "type has no text form")
)

// Options configure how cells are parsed.
type Options struct {
	// True and False are the spellings of the booleans (compared exactly).
	True, False []string
	// RawBinary makes binary columns take the cell's bytes as they are,
	// instead of base64 text.
	RawBinary bool
	// KnownUTF8 says that every cell is valid UTF-8 already (the caller
	// checked the whole input), so string cells are not checked again.
	KnownUTF8 bool
	// Layouts are extra time.Parse layouts for timestamps, tried after
	// ISO-8601.
	Layouts []string
}

// DefaultTrue and DefaultFalse are the boolean spellings used when
// Options leaves them empty.
var (
	DefaultTrue  = []string{"true", "True", "TRUE"}
	DefaultFalse = []string{"false", "False", "FALSE"}
)

// Appender parses cells into a builder of one type.
type Appender struct {
	b     array.Builder
	parse func(cell []byte) error
}

// Append parses cell and appends its value.
func (a *Appender) Append(cell []byte) error { return a.parse(cell) }

// AppendNull appends a null.
func (a *Appender) AppendNull() { a.b.AppendNull() }

// Reserve makes room for n more values.
func (a *Appender) Reserve(n int) { a.b.Reserve(n) }

// ReserveBytes makes room for n more bytes of values in binary and string
// builders (other builders ignore it).
func (a *Appender) ReserveBytes(n int) {
	if n > math.MaxInt32/2 {
		return // appends check the 32-bit offset limit; reserve no more
	}
	if b, ok := a.b.(interface{ ReserveData(int) }); ok {
		b.ReserveData(n)
	}
}

// Len is the number of values appended.
func (a *Appender) Len() int { return a.b.Len() }

// NewArray returns the values appended so far and resets the appender.
func (a *Appender) NewArray() array.Array { return a.b.NewArray() }

// str views b as a string without copying; the string must not outlive b.
func str(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

func valueErr(t datatype.DataType, cell []byte, why string) error {
	v := cell
	if len(v) > 64 {
		v = v[:64]
	}
	if why != "" {
		why = ": " + why
	}
	return fmt.Errorf("%w %q for %s%s", ErrValue, v, t, why)
}

// Supported reports whether t has a text form (nil) or why not.
func Supported(t datatype.DataType) error {
	switch t.Kind() {
	case datatype.KindMonthInterval, datatype.KindDayTimeInterval, datatype.KindMonthDayNanoInterval,
		datatype.KindFixedSizeList, datatype.KindList, datatype.KindLargeList, datatype.KindListView,
		datatype.KindLargeListView, datatype.KindStruct, datatype.KindMap, datatype.KindSparseUnion,
		datatype.KindDenseUnion, datatype.KindDictionary, datatype.KindRunEndEncoded, datatype.KindExtension:
		return fmt.Errorf("%w: %s", ErrNoText, t)
	}
	return nil
}

// NewAppender returns an appender of cells of type t (a scalar type: see
// Supported).
func NewAppender(t datatype.DataType, o *Options) (*Appender, error) {
	if err := Supported(t); err != nil {
		return nil, err
	}
	b, err := array.TryNewBuilder(t)
	if err != nil {
		return nil, err
	}
	return Bind(b, o)
}

// Bind returns an appender of cells into b, a builder of a scalar type
// (see Supported), e.g. a child of a list or struct builder.
func Bind(b array.Builder, o *Options) (*Appender, error) {
	t := b.Type()
	if err := Supported(t); err != nil {
		return nil, err
	}
	a := &Appender{b: b}
	bad := func(cell []byte, why string) error { return valueErr(t, cell, why) }
	switch bb := b.(type) {
	case *array.NullBuilder:
		a.parse = func(cell []byte) error { return bad(cell, "a null column holds only empty cells") }
	case *array.BooleanBuilder:
		tr, fa := o.True, o.False
		if len(tr) == 0 {
			tr = DefaultTrue
		}
		if len(fa) == 0 {
			fa = DefaultFalse
		}
		a.parse = func(cell []byte) error {
			s := str(cell)
			for _, v := range tr {
				if s == v {
					bb.Append(true)
					return nil
				}
			}
			for _, v := range fa {
				if s == v {
					bb.Append(false)
					return nil
				}
			}
			return bad(cell, "")
		}
	case *array.Int8Builder:
		a.parse = intParser(bb, math.MinInt8, math.MaxInt8, bad)
	case *array.Int16Builder:
		a.parse = intParser(bb, math.MinInt16, math.MaxInt16, bad)
	case *array.Int32Builder:
		a.parse = intParser(bb, math.MinInt32, math.MaxInt32, bad)
	case *array.Int64Builder:
		a.parse = intParser(bb, math.MinInt64, math.MaxInt64, bad)
	case *array.Uint8Builder:
		a.parse = uintParser(bb, math.MaxUint8, bad)
	case *array.Uint16Builder:
		a.parse = uintParser(bb, math.MaxUint16, bad)
	case *array.Uint32Builder:
		a.parse = uintParser(bb, math.MaxUint32, bad)
	case *array.Uint64Builder:
		a.parse = uintParser(bb, math.MaxUint64, bad)
	case *array.Float16Builder:
		a.parse = func(cell []byte) error {
			f, err := strconv.ParseFloat(str(cell), 32)
			if err != nil || (!math.IsInf(f, 0) && math.Abs(f) > 65504) {
				return bad(cell, "out of range or not a number")
			}
			bb.Append(datatype.Float16From(float32(f)))
			return nil
		}
	case *array.Float32Builder:
		a.parse = func(cell []byte) error {
			f, err := strconv.ParseFloat(str(cell), 32)
			if err != nil {
				return bad(cell, "out of range or not a number")
			}
			bb.Append(float32(f))
			return nil
		}
	case *array.Float64Builder:
		a.parse = func(cell []byte) error {
			if f, ok := fastFloat64(cell); ok {
				bb.Append(f)
				return nil
			}
			f, err := strconv.ParseFloat(str(cell), 64)
			if err != nil {
				return bad(cell, "out of range or not a number")
			}
			bb.Append(f)
			return nil
		}
	case *array.Decimal32Builder:
		dt := t.(*datatype.DecimalType)
		a.parse = func(cell []byte) error {
			v, _, err := parseDecimal(cell, dt)
			if err != nil {
				return bad(cell, err.Error())
			}
			bb.Append(datatype.Decimal32(v))
			return nil
		}
	case *array.Decimal64Builder:
		dt := t.(*datatype.DecimalType)
		a.parse = func(cell []byte) error {
			v, _, err := parseDecimal(cell, dt)
			if err != nil {
				return bad(cell, err.Error())
			}
			bb.Append(datatype.Decimal64(v))
			return nil
		}
	case *array.Decimal128Builder:
		dt := t.(*datatype.DecimalType)
		a.parse = func(cell []byte) error {
			v, bi, err := parseDecimal(cell, dt)
			if err != nil {
				return bad(cell, err.Error())
			}
			if bi == nil {
				bb.Append(datatype.Decimal128{Lo: uint64(v), Hi: v >> 63})
			} else {
				bb.Append(datatype.Decimal128FromBig(bi))
			}
			return nil
		}
	case *array.Decimal256Builder:
		dt := t.(*datatype.DecimalType)
		a.parse = func(cell []byte) error {
			v, bi, err := parseDecimal(cell, dt)
			if err != nil {
				return bad(cell, err.Error())
			}
			if bi == nil {
				bi = big.NewInt(v)
			}
			bb.Append(datatype.Decimal256FromBig(bi))
			return nil
		}
	case *array.Date32Builder:
		a.parse = func(cell []byte) error {
			if d, ok := parseDate(cell); ok && d >= math.MinInt32 && d <= math.MaxInt32 {
				bb.Append(datatype.Date32(d))
				return nil
			}
			v, err := strconv.ParseInt(str(cell), 10, 32)
			if err != nil {
				return bad(cell, "want YYYY-MM-DD or a count of days")
			}
			bb.Append(datatype.Date32(v))
			return nil
		}
	case *array.Date64Builder:
		a.parse = func(cell []byte) error {
			if d, ok := parseDate(cell); ok {
				bb.Append(datatype.Date64(d * 86400000))
				return nil
			}
			v, err := strconv.ParseInt(str(cell), 10, 64)
			if err != nil {
				return bad(cell, "want YYYY-MM-DD or a count of milliseconds")
			}
			bb.Append(datatype.Date64(v))
			return nil
		}
	case *array.Time32Builder:
		unit := t.(*datatype.TimeType).Unit
		a.parse = func(cell []byte) error {
			v, err := parseTime(cell, unit, 32)
			if err != nil {
				return bad(cell, err.Error())
			}
			bb.Append(datatype.Time32(v))
			return nil
		}
	case *array.Time64Builder:
		unit := t.(*datatype.TimeType).Unit
		a.parse = func(cell []byte) error {
			v, err := parseTime(cell, unit, 64)
			if err != nil {
				return bad(cell, err.Error())
			}
			bb.Append(datatype.Time64(v))
			return nil
		}
	case *array.TimestampBuilder:
		unit := t.(*datatype.TimestampType).Unit
		a.parse = func(cell []byte) error {
			v, err := parseTimestamp(cell, unit, o.Layouts)
			if err != nil {
				return bad(cell, err.Error())
			}
			bb.Append(datatype.Timestamp(v))
			return nil
		}
	case *array.DurationBuilder:
		a.parse = func(cell []byte) error {
			v, ok := parseInt(cell)
			if !ok {
				return bad(cell, "want an integer count of units")
			}
			bb.Append(datatype.Duration(v))
			return nil
		}
	case *array.FixedSizeBinaryBuilder:
		w := t.(*datatype.FixedSizeBinaryType).ByteWidth
		a.parse = func(cell []byte) error {
			v, err := binaryValue(cell, o.RawBinary)
			if err != nil {
				return bad(cell, err.Error())
			}
			if len(v) != w {
				return bad(cell, fmt.Sprintf("%d bytes, want %d", len(v), w))
			}
			bb.Append(v)
			return nil
		}
	default:
		isString := t.Kind() == datatype.KindString || t.Kind() == datatype.KindLargeString || t.Kind() == datatype.KindStringView
		addBytes := bytesAdder(b)
		// 32-bit offsets address 2 GiB of values: past that, an error
		// (the builder would panic).
		limit, total := math.MaxInt64, 0
		if _, small := b.(*array.BinaryBuilder[int32]); small {
			limit = math.MaxInt32
		}
		add := func(v []byte) error {
			if total += len(v); total > limit {
				return fmt.Errorf("%w: the %s values of one batch exceed 2 GiB: use smaller batches or a large type", ErrValue, t)
			}
			addBytes(v)
			return nil
		}
		if isString {
			check := !o.KnownUTF8
			a.parse = func(cell []byte) error {
				if check && !utf8.Valid(cell) {
					return fmt.Errorf("%w: invalid UTF-8 at byte %d of a %s value", ErrValue, invalidAt(cell)+1, t)
				}
				return add(cell)
			}
		} else {
			a.parse = func(cell []byte) error {
				v, err := binaryValue(cell, o.RawBinary)
				if err != nil {
					return bad(cell, err.Error())
				}
				return add(v)
			}
		}
	}
	return a, nil
}

// bytesAdder returns the Append of a binary-like builder.
func bytesAdder(b array.Builder) func([]byte) {
	switch bb := b.(type) {
	case *array.BinaryBuilder[int32]:
		return bb.Append
	case *array.BinaryBuilder[int64]:
		return bb.Append
	case *array.BinaryViewBuilder:
		return bb.Append
	}
	panic(fmt.Sprintf("textval: no byte appender for %T", b)) // programmer error: Supported lets no other type through
}

// InvalidUTF8At returns the index of the first byte of b that is not
// part of valid UTF-8 (or -1).
func InvalidUTF8At(b []byte) int { return invalidAt(b) }

func invalidAt(b []byte) int {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

func binaryValue(cell []byte, raw bool) ([]byte, error) {
	if raw {
		return cell, nil
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(cell)))
	n, err := base64.StdEncoding.Decode(out, cell)
	if err != nil {
		return nil, errors.New("not base64")
	}
	return out[:n], nil
}

// parseInt reads an optionally signed decimal integer that fits int64.
func parseInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var u uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
	}
	if len(b) == 19 && u > 1<<63 { // 19 digits cannot wrap uint64
		return 0, false
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

func intParser[T int8 | int16 | int32 | int64](b *array.PrimitiveBuilder[T], lo, hi int64, bad func([]byte, string) error) func([]byte) error {
	return func(cell []byte) error {
		v, ok := parseInt(cell)
		if !ok || v < lo || v > hi {
			return bad(cell, "not an integer in range")
		}
		b.Append(T(v))
		return nil
	}
}

func uintParser[T uint8 | uint16 | uint32 | uint64](b *array.PrimitiveBuilder[T], hi uint64, bad func([]byte, string) error) func([]byte) error {
	return func(cell []byte) error {
		v, err := strconv.ParseUint(str(cell), 10, 64)
		if err != nil || v > hi {
			return bad(cell, "not an integer in range")
		}
		b.Append(T(v))
		return nil
	}
}

// parseDecimal reads a plain decimal number (no exponent) as the unscaled
// value of dt: small values in v, the others in bi.
func parseDecimal(cell []byte, dt *datatype.DecimalType) (v int64, bi *big.Int, err error) {
	b := cell
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	intPart, frac := b, []byte(nil)
	for i, c := range b {
		if c == '.' {
			intPart, frac = b[:i], b[i+1:]
			break
		}
	}
	if len(intPart)+len(frac) == 0 {
		return 0, nil, errors.New("no digits")
	}
	scale := int(dt.Scale)
	for len(frac) > scale && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	if len(frac) > scale {
		return 0, nil, fmt.Errorf("more than %d fractional digits", scale)
	}
	for len(intPart) > 1 && intPart[0] == '0' {
		intPart = intPart[1:]
	}
	if len(intPart) == 1 && intPart[0] == '0' {
		intPart = intPart[:0]
	}
	if len(intPart)+scale > int(dt.Precision) {
		return 0, nil, fmt.Errorf("more than %d digits", dt.Precision)
	}
	n := len(intPart) + scale
	if n <= 18 {
		for _, c := range intPart {
			if c < '0' || c > '9' {
				return 0, nil, errors.New("not a decimal number")
			}
			v = v*10 + int64(c-'0')
		}
		for i := range scale {
			v *= 10
			if i < len(frac) {
				c := frac[i]
				if c < '0' || c > '9' {
					return 0, nil, errors.New("not a decimal number")
				}
				v += int64(c - '0')
			}
		}
		if neg {
			v = -v
		}
		return v, nil, nil
	}
	digs := make([]byte, 0, n+1)
	if neg {
		digs = append(digs, '-')
	}
	digs = append(digs, intPart...)
	digs = append(digs, frac...)
	for range scale - len(frac) {
		digs = append(digs, '0')
	}
	bi, ok := new(big.Int).SetString(string(digs), 10)
	if !ok {
		return 0, nil, errors.New("not a decimal number")
	}
	return 0, bi, nil
}

// parseTime reads hh:mm:ss[.f] (or a count of units) as a time of day.
func parseTime(cell []byte, unit datatype.TimeUnit, bits int) (int64, error) {
	per := unit.PerSecond()
	if c, ok := parseClock(cell); ok {
		step := int64(1e9) / per
		if c.nanos%step != 0 {
			return 0, fmt.Errorf("more fractional digits than %s", unit)
		}
		return c.nanos / step, nil
	}
	v, err := strconv.ParseInt(str(cell), 10, bits)
	if err != nil {
		return 0, errors.New("want hh:mm:ss[.f] or a count of units")
	}
	return v, nil
}

// parseTimestamp reads ISO-8601 (zone or not; without one, UTC), a
// layout of layouts, or a count of units since the epoch.
func parseTimestamp(cell []byte, unit datatype.TimeUnit, layouts []string) (int64, error) {
	per := unit.PerSecond()
	if st, ok := parseStamp(cell); ok {
		return stampUnits(st.days*86400-st.offsetS, st.clock.nanos, per, unit)
	}
	if v, ok := parseInt(cell); ok {
		return v, nil
	}
	for _, l := range layouts {
		if tm, err := time.Parse(l, str(cell)); err == nil {
			return stampUnits(tm.Unix(), int64(tm.Nanosecond()), per, unit)
		}
	}
	return 0, errors.New("want an ISO-8601 timestamp or a count of units")
}

func stampUnits(secs, nanos, per int64, unit datatype.TimeUnit) (int64, error) {
	step := int64(1e9) / per
	if nanos%step != 0 {
		return 0, fmt.Errorf("more fractional digits than %s", unit)
	}
	if secs > math.MaxInt64/per-1 || secs < math.MinInt64/per+1 {
		// Near the ends of int64: check exactly.
		v := new(big.Int).Mul(big.NewInt(secs), big.NewInt(per))
		v.Add(v, big.NewInt(nanos/step))
		if !v.IsInt64() {
			return 0, fmt.Errorf("out of range for %s", unit)
		}
		return v.Int64(), nil
	}
	return secs*per + nanos/step, nil
}
