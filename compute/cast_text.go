package compute

import (
	"encoding/binary"
	"math"
	"math/big"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
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

// formatterOf returns how a's values print, or nil.
func formatterOf(a array.Array) formatter {
	switch x := a.(type) {
	case *array.Boolean:
		return func(dst []byte, i int) []byte { return strconv.AppendBool(dst, x.Value(i)) }
	case *array.Float16:
		return func(dst []byte, i int) []byte {
			return strconv.AppendFloat(dst, float64(x.Value(i).Float32()), 'g', -1, 32)
		}
	case *array.Float32:
		return func(dst []byte, i int) []byte { return strconv.AppendFloat(dst, float64(x.Value(i)), 'g', -1, 32) }
	case *array.Float64:
		return func(dst []byte, i int) []byte { return strconv.AppendFloat(dst, x.Value(i), 'g', -1, 64) }
	case *array.Date32:
		return func(dst []byte, i int) []byte { return x.Value(i).Time().AppendFormat(dst, time.DateOnly) }
	case *array.Date64:
		return func(dst []byte, i int) []byte { return x.Value(i).Time().AppendFormat(dst, time.DateOnly) }
	case *array.Time32, *array.Time64:
		v := readTemporal(a)
		unit := nanosPerUnit(a.DataType())
		return func(dst []byte, i int) []byte {
			return time.Unix(0, v[i]*unit).UTC().AppendFormat(dst, "15:04:05.999999999")
		}
	case *array.Timestamp:
		t := a.DataType().(*datatype.TimestampType)
		loc, _ := time.LoadLocation(t.TimeZone)
		layout := "2006-01-02 15:04:05.999999999"
		if t.TimeZone != "" {
			layout += "Z07:00"
		}
		return func(dst []byte, i int) []byte {
			tm := x.Value(i).Time(t.Unit)
			if loc != nil {
				tm = tm.In(loc)
			}
			return tm.AppendFormat(dst, layout)
		}
	case *array.Duration:
		return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(x.Value(i)), 10) }
	}
	k := a.DataType().Kind()
	switch {
	case isDecimal(k):
		b := readDecimals(a)
		return func(dst []byte, i int) []byte { return append(dst, datatype.FormatDecimal(b.v[i], b.scale)...) }
	case k >= datatype.KindInt8 && k <= datatype.KindInt64:
		v, _ := castNumbers(a, datatype.Int64, &castConfig{})
		x := v.(*array.Int64).Values()
		return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, x[i], 10) }
	case k >= datatype.KindUint8 && k <= datatype.KindUint64:
		v, _ := castNumbers(a, datatype.Uint64, &castConfig{})
		x := v.(*array.Uint64).Values()
		return func(dst []byte, i int) []byte { return strconv.AppendUint(dst, x[i], 10) }
	case isText(k):
		v := a.(byteValuer)
		return func(dst []byte, i int) []byte { return append(dst, v.Value(i)...) }
	}
	return nil
}

// toText formats a's values (or copies its bytes) into a string or
// binary array.
func (c *castConfig) toText(a array.Array, to datatype.DataType) (array.Array, error) {
	f := formatterOf(a)
	if f == nil {
		return nil, c.unsupported(a.DataType(), to)
	}
	checkUTF8 := isStringKind(to.Kind()) && !isStringKind(a.DataType().Kind()) && isText(a.DataType().Kind())
	b := array.NewBuilder(to).(byteAppender)
	var buf []byte
	for i := range a.Len() {
		if a.IsNull(i) {
			b.AppendNull()
			continue
		}
		buf = f(buf[:0], i)
		if checkUTF8 && !utf8.Valid(buf) {
			return nil, castFailure(ErrInvalid, a.DataType(), to, i, strconv.Quote(string(buf))+" (not UTF-8)")
		}
		b.Append(buf)
	}
	return b.NewArray(), nil
}

// fromText parses strings into numbers, booleans, decimals and temporal
// values.
func (c *castConfig) fromText(a array.Array, to datatype.DataType) (array.Array, error) {
	from := a.DataType()
	v := a.(byteValuer)
	n := a.Len()
	d := a.Data()
	bad := func(i int, what string) error {
		return castFailure(ErrInvalid, from, to, i, strconv.Quote(string(v.Value(i)))+" ("+what+")")
	}
	tk := to.Kind()
	switch {
	case tk >= datatype.KindInt8 && tk <= datatype.KindInt64:
		buf, out := newValues[int64](n)
		var row int
		switch x := a.(type) {
		case *array.BinaryArray:
			row = parseInts(x.Offsets(), x.ValueBytes(), out, d)
		case *array.LargeBinaryArray:
			row = parseInts(x.Offsets(), x.ValueBytes(), out, d)
		default:
			row = -1
			for i := range out {
				out[i] = 0
				if a.IsNull(i) {
					continue
				}
				x, ok := parseInt(v.Value(i))
				if !ok {
					row = i
					break
				}
				out[i] = x
			}
		}
		if row >= 0 {
			return nil, bad(row, "not an integer in range")
		}
		if tk == datatype.KindInt64 {
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
			x, err := strconv.ParseUint(strings.TrimSpace(unsafeString(v.Value(i))), 10, 64)
			if err != nil {
				return nil, bad(i, "not an unsigned integer in range")
			}
			out[i] = x
		}
		valid, off := bitmapOf(d)
		return numSlice(out, valid, off, d.NullCount, from, to, c)
	case tk == datatype.KindFloat16 || tk == datatype.KindFloat32 || tk == datatype.KindFloat64:
		out := make([]float64, n)
		for i := range out {
			if a.IsNull(i) {
				continue
			}
			x, err := strconv.ParseFloat(strings.TrimSpace(unsafeString(v.Value(i))), 64)
			if err != nil {
				return nil, bad(i, "not a number")
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
			x, err := strconv.ParseBool(strings.TrimSpace(unsafeString(v.Value(i))))
			if err != nil {
				return nil, bad(i, "not a boolean")
			}
			b.Append(x)
		}
		return b.NewArray(), nil
	case isDecimal(tk):
		t := to.(*datatype.DecimalType)
		b := bigs{v: make([]*big.Int, n), scale: t.Scale}
		for i := range n {
			if a.IsNull(i) {
				continue
			}
			r, ok := new(big.Rat).SetString(strings.TrimSpace(string(v.Value(i))))
			if !ok {
				return nil, bad(i, "not a decimal")
			}
			r.Mul(r, new(big.Rat).SetInt(pow10Big(max(t.Scale, 0))))
			if !r.IsInt() && !c.truncate {
				return nil, castFailure(ErrTruncation, from, to, i, strconv.Quote(string(v.Value(i))))
			}
			b.v[i] = new(big.Int).Quo(r.Num(), r.Denom())
		}
		return c.writeDecimals(b, t, from)
	case isTemporal(tk) && tk != datatype.KindDuration:
		return c.parseTemporal(a, to, bad)
	case tk == datatype.KindDuration:
		ints, err := c.fromText(a, datatype.Int64)
		if err != nil {
			return nil, err
		}
		return reinterpret(ints, to)
	}
	return nil, c.unsupported(from, to)
}

func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// parseInt parses a base-10 int64 (an optional sign, then digits),
// eight digits at a time for up to 19 digits; anything else (spaces,
// longer digit strings) goes through strconv.
func parseInt(b []byte) (int64, bool) {
	s := b
	neg := false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 19 {
		return parseIntSlow(b)
	}
	var v uint64
	head := len(s) % 8
	for _, ch := range s[:head] {
		d := ch - '0'
		if d > 9 {
			return parseIntSlow(b)
		}
		v = v*10 + uint64(d)
	}
	for s = s[head:]; len(s) >= 8; s = s[8:] {
		x, ok := eightDigits(s)
		if !ok {
			return parseIntSlow(b)
		}
		v = v*1e8 + x
	}
	switch {
	case neg && v <= 1<<63:
		return int64(-v), true
	case !neg && v <= math.MaxInt64:
		return int64(v), true
	}
	return 0, false
}

func parseIntSlow(b []byte) (int64, bool) {
	x, err := strconv.ParseInt(strings.TrimSpace(unsafeString(b)), 10, 64)
	return x, err == nil
}

// eightDigits reads s[:8] as eight decimal digits; ok is false when one
// is not a digit. The bytes are loaded as one little-endian word (the
// first digit lowest), checked all at once, then combined pairwise: two
// digits, four, eight.
func eightDigits(s []byte) (uint64, bool) {
	w := binary.LittleEndian.Uint64(s)
	// Every byte is 0x30..0x39: its high nibble is 3, and adding 6 does
	// not carry into the high nibble.
	if w&0xF0F0F0F0F0F0F0F0|(w+0x0606060606060606)&0xF0F0F0F0F0F0F0F0>>4 != 0x3333333333333333 {
		return 0, false
	}
	w &= 0x0F0F0F0F0F0F0F0F
	w = (w * (10<<8 + 1)) >> 8 // each even byte: 10*first + second
	w &= 0x00FF00FF00FF00FF
	w = (w * (100<<16 + 1)) >> 16 // each even 16 bits: four digits
	w &= 0x0000FFFF0000FFFF
	return (w * (10000<<32 + 1)) >> 32, true
}

var instantLayouts = []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", time.DateOnly}

// parseTemporal parses dates, times of day and timestamps.
func (c *castConfig) parseTemporal(a array.Array, to datatype.DataType, bad func(int, string) error) (array.Array, error) {
	v := a.(byteValuer)
	n := a.Len()
	out := make([]int64, n)
	unit := nanosPerUnit(to)
	var loc *time.Location = time.UTC
	if ts, ok := to.(*datatype.TimestampType); ok && ts.TimeZone != "" {
		l, err := time.LoadLocation(ts.TimeZone)
		if err == nil {
			loc = l
		}
	}
	isTime := temporalFamily(to.Kind()) == 2
	for i := range out {
		if a.IsNull(i) {
			continue
		}
		s := strings.TrimSpace(string(v.Value(i)))
		var tm time.Time
		var err error
		if isTime {
			tm, err = time.ParseInLocation("15:04:05.999999999", s, time.UTC)
			if err == nil {
				tm = tm.AddDate(1970, 0, 0)
			}
		} else {
			for _, l := range instantLayouts {
				if tm, err = time.ParseInLocation(l, s, loc); err == nil {
					break
				}
			}
		}
		if err != nil {
			return nil, bad(i, "not a "+to.Kind().String())
		}
		var x int64
		switch {
		case isTime:
			x = int64(tm.Sub(time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)))
		case unit >= 86400e9:
			x = floorDiv(tm.Unix(), 86400)
		case unit >= 1e9:
			x = tm.Unix()
		default:
			x = tm.Unix()*(1e9/unit) + int64(tm.Nanosecond())/unit
		}
		if isTime {
			if x%unit != 0 && !c.truncate {
				return nil, castFailure(ErrTruncation, a.DataType(), to, i, strconv.Quote(s))
			}
			x /= unit
		} else if unit == 1e6 && to.Kind() == datatype.KindDate64 {
			x = floorDiv(tm.Unix(), 86400) * 86400e3
		} else if unit >= 1e9 && unit < 86400e9 && tm.Nanosecond() != 0 && !c.truncate {
			return nil, castFailure(ErrTruncation, a.DataType(), to, i, strconv.Quote(s))
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

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// parseInts parses every valid slot of a binary array (its offsets and
// bytes) into out; it returns the first row that is not an integer, or
// -1.
func parseInts[O array.Offset](offsets []O, data []byte, out []int64, d *array.Data) int {
	valid, off := bitmapOf(d)
	n := len(out)
	if n < parallelMin || runtime.GOMAXPROCS(0) < 2 {
		return parseIntRange(offsets, data, out, valid, off, 0, n)
	}
	// Parsing is CPU-bound: the halves go on two cores, and the first bad
	// row of the first half comes before any of the second's.
	m := n / 2
	second := -1
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		second = parseIntRange(offsets, data, out, valid, off, m, n)
	}()
	first := parseIntRange(offsets, data, out, valid, off, 0, m)
	wg.Wait()
	if first >= 0 {
		return first
	}
	return second
}

// parseIntRange parses rows [lo, hi) into out; it returns the first row
// that is not an integer in range, or -1.
func parseIntRange[O array.Offset](offsets []O, data []byte, out []int64, valid []byte, off, lo, hi int) int {
	for i := lo; i < hi; i++ {
		if valid != nil && !bitutil.GetBit(valid, off+i) {
			out[i] = 0
			continue
		}
		x, ok := parseInt(data[offsets[i]:offsets[i+1]])
		if !ok {
			return i
		}
		out[i] = x
	}
	return -1
}
