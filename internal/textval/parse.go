package textval

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"math/big"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/quote"
	"github.com/alkaid-go/alkaid/internal/textval/grammar"
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
	// TrimSpace makes numbers, dates, times and timestamps drop spaces and
	// tabs around them; by default a cell such as " 12" is not a number.
	TrimSpace bool
}

// trimSpace drops ASCII spaces and tabs around b.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// grammar returns the grammar options of o.
func (o *Options) grammar() grammar.Options { return grammar.Options{TrimSpace: o.TrimSpace} }

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

// NewCustomAppender returns an appender into b that appends a cell with
// parse, for a type whose text form a format defines itself (csv reads a
// nested value's JSON text with it).
func NewCustomAppender(b array.Builder, parse func(cell []byte) error) *Appender {
	return &Appender{b: b, parse: parse}
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

// valueErr says why cell is not a value of t, quoting at most
// quote.Max bytes of it.
func valueErr(t datatype.DataType, cell []byte, why string) error {
	if why != "" {
		why = ": " + why
	}
	return fmt.Errorf("%w %s for %s%s", ErrValue, quote.Bytes(cell), t, why)
}

// grammarErr is valueErr for a grammar error, which it wraps too (so
// callers can tell grammar.ErrRange and grammar.ErrTruncation apart).
func grammarErr(t datatype.DataType, cell []byte, err error) error {
	return fmt.Errorf("%w %s for %s: %w", ErrValue, quote.Bytes(cell), t, err)
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
	g := o.grammar()
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
		trim := o.TrimSpace
		a.parse = func(cell []byte) error {
			s := str(cell)
			if trim {
				s = str(trimSpace(cell))
			}
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
		a.parse = intParser(bb, math.MinInt8, math.MaxInt8, g, t)
	case *array.Int16Builder:
		a.parse = intParser(bb, math.MinInt16, math.MaxInt16, g, t)
	case *array.Int32Builder:
		a.parse = intParser(bb, math.MinInt32, math.MaxInt32, g, t)
	case *array.Int64Builder:
		a.parse = intParser(bb, math.MinInt64, math.MaxInt64, g, t)
	case *array.Uint8Builder:
		a.parse = uintParser(bb, math.MaxUint8, g, t)
	case *array.Uint16Builder:
		a.parse = uintParser(bb, math.MaxUint16, g, t)
	case *array.Uint32Builder:
		a.parse = uintParser(bb, math.MaxUint32, g, t)
	case *array.Uint64Builder:
		a.parse = uintParser(bb, math.MaxUint64, g, t)
	case *array.Float16Builder:
		a.parse = func(cell []byte) error {
			f, err := grammar.ParseFloat(cell, 16, g)
			if err != nil {
				return grammarErr(t, cell, err)
			}
			bb.Append(datatype.Float16From(float32(f)))
			return nil
		}
	case *array.Float32Builder:
		a.parse = func(cell []byte) error {
			f, err := grammar.ParseFloat(cell, 32, g)
			if err != nil {
				return grammarErr(t, cell, err)
			}
			bb.Append(float32(f))
			return nil
		}
	case *array.Float64Builder:
		a.parse = func(cell []byte) error {
			f, err := grammar.ParseFloat(cell, 64, g)
			if err != nil {
				return grammarErr(t, cell, err)
			}
			bb.Append(f)
			return nil
		}
	case *array.Decimal32Builder:
		dt := t.(*datatype.DecimalType)
		a.parse = func(cell []byte) error {
			v, _, err := grammar.ParseDecimal(cell, dt.Precision, dt.Scale, g)
			if err != nil {
				return grammarErr(t, cell, err)
			}
			bb.Append(datatype.Decimal32(v))
			return nil
		}
	case *array.Decimal64Builder:
		dt := t.(*datatype.DecimalType)
		a.parse = func(cell []byte) error {
			v, _, err := grammar.ParseDecimal(cell, dt.Precision, dt.Scale, g)
			if err != nil {
				return grammarErr(t, cell, err)
			}
			bb.Append(datatype.Decimal64(v))
			return nil
		}
	case *array.Decimal128Builder:
		dt := t.(*datatype.DecimalType)
		a.parse = func(cell []byte) error {
			v, bi, err := grammar.ParseDecimal(cell, dt.Precision, dt.Scale, g)
			if err != nil {
				return grammarErr(t, cell, err)
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
			v, bi, err := grammar.ParseDecimal(cell, dt.Precision, dt.Scale, g)
			if err != nil {
				return grammarErr(t, cell, err)
			}
			if bi == nil {
				bi = big.NewInt(v)
			}
			bb.Append(datatype.Decimal256FromBig(bi))
			return nil
		}
	case *array.Date32Builder:
		a.parse = func(cell []byte) error {
			d, err := grammar.ParseDate(cell, g)
			if err == nil && (d < math.MinInt32 || d > math.MaxInt32) {
				err = grammar.ErrRange
			}
			if err != nil {
				return grammarErr(t, cell, err)
			}
			bb.Append(datatype.Date32(d))
			return nil
		}
	case *array.Date64Builder:
		a.parse = func(cell []byte) error {
			d, err := grammar.ParseDate(cell, g)
			if err == nil && (d < math.MinInt64/86400000 || d > math.MaxInt64/86400000) {
				err = grammar.ErrRange
			}
			if err != nil {
				return grammarErr(t, cell, err)
			}
			bb.Append(datatype.Date64(d * 86400000))
			return nil
		}
	case *array.Time32Builder:
		per := t.(*datatype.TimeType).Unit.PerSecond()
		a.parse = func(cell []byte) error {
			v, err := grammar.ParseTimeOfDay(cell, per, g)
			if err != nil {
				return grammarErr(t, cell, err)
			}
			bb.Append(datatype.Time32(v))
			return nil
		}
	case *array.Time64Builder:
		per := t.(*datatype.TimeType).Unit.PerSecond()
		a.parse = func(cell []byte) error {
			v, err := grammar.ParseTimeOfDay(cell, per, g)
			if err != nil {
				return grammarErr(t, cell, err)
			}
			bb.Append(datatype.Time64(v))
			return nil
		}
	case *array.TimestampBuilder:
		per := t.(*datatype.TimestampType).Unit.PerSecond()
		a.parse = func(cell []byte) error {
			v, err := grammar.ParseTimestamp(cell, per, g)
			if errors.Is(err, grammar.ErrSyntax) && len(o.Layouts) > 0 {
				v, err = layoutStamp(cell, per, o.Layouts, g)
			}
			if err != nil {
				return grammarErr(t, cell, err)
			}
			bb.Append(datatype.Timestamp(v))
			return nil
		}
	case *array.DurationBuilder:
		a.parse = func(cell []byte) error {
			v, err := grammar.ParseInt(cell, g)
			if err != nil {
				return grammarErr(t, cell, err)
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

func intParser[T int8 | int16 | int32 | int64](b *array.PrimitiveBuilder[T], lo, hi int64, g grammar.Options, t datatype.DataType) func([]byte) error {
	return func(cell []byte) error {
		v, err := grammar.ParseInt(cell, g)
		if err == nil && (v < lo || v > hi) {
			err = grammar.ErrRange
		}
		if err != nil {
			return grammarErr(t, cell, err)
		}
		b.Append(T(v))
		return nil
	}
}

func uintParser[T uint8 | uint16 | uint32 | uint64](b *array.PrimitiveBuilder[T], hi uint64, g grammar.Options, t datatype.DataType) func([]byte) error {
	return func(cell []byte) error {
		v, err := grammar.ParseUint(cell, g)
		if err == nil && v > hi {
			err = grammar.ErrRange
		}
		if err != nil {
			return grammarErr(t, cell, err)
		}
		b.Append(T(v))
		return nil
	}
}

// layoutStamp reads a timestamp with the first of layouts (time.Parse)
// that matches.
func layoutStamp(cell []byte, per int64, layouts []string, g grammar.Options) (int64, error) {
	for _, l := range layouts {
		if tm, err := time.Parse(l, str(cell)); err == nil {
			return grammar.StampUnits(tm.Unix(), int64(tm.Nanosecond()), per, g)
		}
	}
	return 0, grammar.ErrSyntax
}
