package compute

import (
	"errors"
	"math"
	"math/big"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/quote"
	"github.com/alkaid-go/alkaid/internal/textval"
	"github.com/alkaid-go/alkaid/internal/textval/grammar"
	"github.com/alkaid-go/alkaid/memory"
)

type byteValuer interface{ Value(int) []byte }

type byteAppender interface {
	Append([]byte)
	AppendNull()
	NewArray() array.Array
}

func isStringKind(k datatype.Kind) bool {
	return k == datatype.KindString || k == datatype.KindLargeString || k == datatype.KindStringView
}

// formatter appends the text of valid slot i.
type formatter func(dst []byte, i int) []byte

// formatterOf returns how a's values print (the text grammar's forms,
// see internal/textval/grammar), or nil. Binary values are copied as
// they are.
func formatterOf(a array.Array) formatter {
	if k := a.DataType().Kind(); isText(k) || k == datatype.KindFixedSizeBinary {
		v := a.(byteValuer)
		return func(dst []byte, i int) []byte { return append(dst, v.Value(i)...) }
	}
	if a.DataType().Kind() == datatype.KindNull {
		return nil
	}
	f, err := textval.NewFormatter(a, textval.FormatOptions{})
	if err != nil {
		return nil
	}
	return formatter(f)
}

// toText formats a's values (or copies its bytes, of a binary or
// fixed-size binary) into a string or binary array.
func (c *config) toText(a array.Array, to datatype.DataType) (array.Array, error) {
	f := formatterOf(a)
	if f == nil {
		return nil, c.unsupported(a.DataType(), to)
	}
	fk := a.DataType().Kind()
	checkUTF8 := isStringKind(to.Kind()) && !isStringKind(fk) && (isText(fk) || fk == datatype.KindFixedSizeBinary)
	b := array.NewBuilder(to).(byteAppender)
	var buf []byte
	for i := range a.Len() {
		if a.IsNull(i) {
			b.AppendNull()
			continue
		}
		buf = f(buf[:0], i)
		if checkUTF8 && !utf8.Valid(buf) {
			return nil, castFailure(ErrInvalid, a.DataType(), to, i, quote.Bytes(buf)+" (not UTF-8)")
		}
		b.Append(buf)
	}
	return b.NewArray(), nil
}

// fromText parses strings into numbers, booleans, decimals and temporal
// values, in the text grammar (see internal/textval/grammar).
func (c *config) fromText(a array.Array, to datatype.DataType) (array.Array, error) {
	from := a.DataType()
	v := a.(byteValuer)
	n := a.Len()
	d := a.Data()
	g := grammar.Options{TrimSpace: c.trimSpace, Truncate: c.truncate}
	fail := func(i int, err error) error {
		kind := ErrInvalid
		switch {
		case errors.Is(err, grammar.ErrRange):
			kind = ErrOverflow
		case errors.Is(err, grammar.ErrTruncation):
			kind = ErrTruncation
		}
		return castFailure(kind, from, to, i, quote.Bytes(v.Value(i))+" ("+err.Error()+")")
	}
	tk := to.Kind()
	switch {
	case tk >= datatype.KindInt8 && tk <= datatype.KindInt64 || tk == datatype.KindDuration:
		buf, out := newValues[int64](n)
		var row int
		switch x := a.(type) {
		case *array.BinaryArray:
			row = parseInts(x.Offsets(), x.ValueBytes(), out, d, g, c)
		case *array.LargeBinaryArray:
			row = parseInts(x.Offsets(), x.ValueBytes(), out, d, g, c)
		default:
			row = -1
			for i := range out {
				out[i] = 0
				if a.IsNull(i) {
					continue
				}
				x, err := grammar.ParseInt(v.Value(i), g)
				if err != nil {
					row = i
					break
				}
				out[i] = x
			}
		}
		if row >= 0 {
			_, err := grammar.ParseInt(v.Value(row), g)
			return nil, fail(row, err)
		}
		if tk == datatype.KindInt64 || tk == datatype.KindDuration {
			return primitiveOut(to, n, copyValidity(bitmapOf2(a)), d.NullCount, buf), nil
		}
		valid, off := bitmapOf(d)
		return numSlice(out, valid, off, d.NullCount, from, to, c)
	case tk >= datatype.KindUint8 && tk <= datatype.KindUint64:
		out := make([]uint64, n)
		for i := range out {
			if a.IsNull(i) {
				continue
			}
			x, err := grammar.ParseUint(v.Value(i), g)
			if err != nil {
				return nil, fail(i, err)
			}
			out[i] = x
		}
		valid, off := bitmapOf(d)
		return numSlice(out, valid, off, d.NullCount, from, to, c)
	case tk == datatype.KindFloat16 || tk == datatype.KindFloat32 || tk == datatype.KindFloat64:
		bits := 8 * datatype.ByteWidth(to)
		out := make([]float64, n)
		for i := range out {
			if a.IsNull(i) {
				continue
			}
			x, err := grammar.ParseFloat(v.Value(i), bits, g)
			if err != nil {
				return nil, fail(i, err)
			}
			out[i] = x
		}
		valid, off := bitmapOf(d)
		return numSlice(out, valid, off, d.NullCount, from, to, c)
	case tk == datatype.KindBool:
		b := array.NewBooleanBuilder(datatype.Bool)
		for i := range n {
			if a.IsNull(i) {
				b.AppendNull()
				continue
			}
			x, ok := parseBool(v.Value(i), c.trimSpace)
			if !ok {
				return nil, fail(i, grammar.ErrSyntax)
			}
			b.Append(x)
		}
		return b.NewArray(), nil
	case isDecimal(tk):
		t := to.(*datatype.DecimalType)
		b := bigs{v: make([]*big.Int, n), scale: t.Scale}
		prec := t.Precision
		if c.overflow {
			// AllowOverflow: writeDecimals keeps the low bits of what does
			// not fit; past 2*76 digits the text is out of range anyway
			// (no allocation out of proportion to "1e999999").
			prec = max(prec, 2*76)
		}
		for i := range n {
			if a.IsNull(i) {
				continue
			}
			x, bi, err := grammar.ParseDecimal(v.Value(i), prec, t.Scale, g)
			if err != nil {
				return nil, fail(i, err)
			}
			if bi == nil {
				bi = big.NewInt(x)
			}
			b.v[i] = bi
		}
		return c.writeDecimals(b, t, from)
	case isTemporal(tk):
		return c.parseTemporal(a, to, g, fail)
	}
	return nil, c.unsupported(from, to)
}

// parseBool reads the boolean spellings of the text grammar: true, True,
// TRUE, false, False, FALSE.
func parseBool(b []byte, trim bool) (bool, bool) {
	s := unsafeString(b)
	if trim {
		s = strings.Trim(s, " \t")
	}
	switch s {
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	}
	return false, false
}

func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// parseTemporal parses dates, times of day and timestamps.
func (c *config) parseTemporal(a array.Array, to datatype.DataType, g grammar.Options, fail func(int, error) error) (array.Array, error) {
	v := a.(byteValuer)
	n := a.Len()
	out := make([]int64, n)
	var parse func([]byte) (int64, error)
	switch t := to.(type) {
	case *datatype.TimeType:
		per := t.Unit.PerSecond()
		parse = func(b []byte) (int64, error) { return grammar.ParseTimeOfDay(b, per, g) }
	case *datatype.TimestampType:
		per := t.Unit.PerSecond()
		parse = func(b []byte) (int64, error) { return grammar.ParseTimestamp(b, per, g) }
	default:
		ms := to.Kind() == datatype.KindDate64
		parse = func(b []byte) (int64, error) {
			d, err := grammar.ParseDate(b, g)
			switch {
			case err != nil:
			case ms && (d < math.MinInt64/msPerDay || d > math.MaxInt64/msPerDay):
				err = grammar.ErrRange
			case ms:
				d *= msPerDay
			}
			return d, err
		}
	}
	for i := range out {
		if a.IsNull(i) {
			continue
		}
		x, err := parse(v.Value(i))
		if err != nil {
			return nil, fail(i, err)
		}
		out[i] = x
	}
	ints := primitiveOut(datatype.Int64, n, copyValidity(bitmapOf2(a)), a.NullN(), memory.FromSlice(out))
	if is32(to.Kind()) {
		var err error
		if ints, err = castNumbers(ints, datatype.Int32, c); err != nil {
			return nil, err
		}
	}
	return reinterpret(ints, to)
}

// parseInts parses every valid slot of a binary array (its offsets and
// bytes) into out; it returns the first row that is not an integer, or
// -1.
func parseInts[O array.Offset](offsets []O, data []byte, out []int64, d *array.Data, g grammar.Options, c *config) int {
	valid, off := bitmapOf(d)
	n := len(out)
	if !c.parallel(n) {
		return parseIntRange(offsets, data, out, valid, off, 0, n, g)
	}
	// Parsing is CPU-bound: the halves go on two cores, and the first bad
	// row of the first half comes before any of the second's.
	m := n / 2
	second := -1
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		second = parseIntRange(offsets, data, out, valid, off, m, n, g)
	}()
	first := parseIntRange(offsets, data, out, valid, off, 0, m, g)
	wg.Wait()
	if first >= 0 {
		return first
	}
	return second
}

// parseIntRange parses rows [lo, hi) into out; it returns the first row
// that is not an integer in range, or -1.
func parseIntRange[O array.Offset](offsets []O, data []byte, out []int64, valid []byte, off, lo, hi int, g grammar.Options) int {
	for i := lo; i < hi; i++ {
		if valid != nil && !bitutil.GetBit(valid, off+i) {
			out[i] = 0
			continue
		}
		x, err := grammar.ParseInt(data[offsets[i]:offsets[i+1]], g)
		if err != nil {
			return i
		}
		out[i] = x
	}
	return -1
}
