package grammar

import (
	"encoding/binary"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unsafe"

	"github.com/alkaid-go/alkaid/datatype"
)

// Options change what the parsers accept.
type Options struct {
	// TrimSpace makes a parser drop ASCII spaces and tabs around the
	// text first; by default they make the text invalid.
	TrimSpace bool
	// Truncate makes a parser drop digits finer than its type holds (a
	// fraction of an integer, digits past a decimal's scale or a time
	// unit, the time of day of a date) instead of failing with
	// ErrTruncation. Integers and decimals truncate toward zero, times
	// toward the past.
	Truncate bool
}

func str(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// trim drops ASCII spaces and tabs around b when o asks for it.
func (o Options) trim(b []byte) []byte {
	if !o.TrimSpace {
		return b
	}
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// number is a lexed number: sign, digits before and after the point, and
// the exponent (clamped to ±maxExp: past it every nonzero value is out
// of range anyway).
type number struct {
	neg        bool
	int, frac  []byte
	exp        int64
	hasFracExp bool // a point or an exponent was written
}

const maxExp = 1 << 20

// scan lexes [+-] (digits [. digits*] | . digits) [(e|E) [+-] digits].
func scan(b []byte) (number, bool) {
	var n number
	i := 0
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		n.neg, i = b[0] == '-', 1
	}
	s := i
	for i < len(b) && b[i]-'0' <= 9 {
		i++
	}
	n.int = b[s:i]
	if i < len(b) && b[i] == '.' {
		n.hasFracExp = true
		i++
		s = i
		for i < len(b) && b[i]-'0' <= 9 {
			i++
		}
		n.frac = b[s:i]
	}
	if len(n.int)+len(n.frac) == 0 {
		return n, false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		n.hasFracExp = true
		i++
		neg := false
		if i < len(b) && (b[i] == '-' || b[i] == '+') {
			neg, i = b[i] == '-', i+1
		}
		s = i
		for i < len(b) && b[i]-'0' <= 9 {
			if n.exp < maxExp {
				n.exp = n.exp*10 + int64(b[i]-'0')
			}
			i++
		}
		if i == s {
			return n, false
		}
		if neg {
			n.exp = -n.exp
		}
	}
	return n, i == len(b)
}

// ParseInt reads an integer in the number grammar (see the package doc)
// that fits int64. Plain digits take a fast path, eight at a time.
func ParseInt(b []byte, o Options) (int64, error) {
	b = o.trim(b)
	s := b
	neg := false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 19 {
		return parseIntSlow(b, o)
	}
	var v uint64
	head := len(s) % 8
	for _, ch := range s[:head] {
		d := ch - '0'
		if d > 9 {
			return parseIntSlow(b, o)
		}
		v = v*10 + uint64(d)
	}
	for s = s[head:]; len(s) >= 8; s = s[8:] {
		x, ok := eightDigits(s)
		if !ok {
			return parseIntSlow(b, o)
		}
		v = v*1e8 + x
	}
	switch {
	case neg && v <= 1<<63:
		return int64(-v), nil
	case !neg && v <= math.MaxInt64:
		return int64(v), nil
	}
	return 0, ErrRange
}

// parseIntSlow reads what the fast path does not: exponents, fractions
// of zeros, long digit strings.
func parseIntSlow(b []byte, o Options) (int64, error) {
	n, ok := scan(b)
	if !ok {
		return 0, ErrSyntax
	}
	v, bi, err := n.unscaled(0, 40, o.Truncate)
	if err != nil {
		return 0, err
	}
	if bi != nil {
		if !bi.IsInt64() {
			return 0, ErrRange
		}
		return bi.Int64(), nil
	}
	return v, nil
}

// ParseUint reads an integer in the number grammar that fits uint64.
// Values up to MaxInt64 take ParseInt's fast path.
func ParseUint(b []byte, o Options) (uint64, error) {
	b = o.trim(b)
	if len(b) > 0 && b[0] != '-' {
		if v, err := ParseInt(b, o); err == nil {
			return uint64(v), nil // up to MaxInt64, on ParseInt's fast path
		}
	}
	n, ok := scan(b)
	if !ok {
		return 0, ErrSyntax
	}
	v, bi, err := n.unscaled(0, 40, o.Truncate)
	if err != nil {
		return 0, err
	}
	if bi == nil {
		bi = big.NewInt(v)
	}
	if bi.Sign() < 0 || !bi.IsUint64() {
		return 0, ErrRange
	}
	return bi.Uint64(), nil
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

// unscaled returns n times 10^scale as an integer of at most precision
// digits: small values in v, the others in bi. Digits below the unit are
// ErrTruncation unless truncate (then dropped: toward zero).
func (n number) unscaled(scale int32, precision int32, truncate bool) (v int64, bi *big.Int, err error) {
	digs := n.int
	// The value is digits(int ++ frac) * 10^shift.
	shift := n.exp - int64(len(n.frac)) + int64(scale)
	var buf [64]byte
	all := buf[:0]
	if len(n.frac) > 0 {
		all = append(append(all, n.int...), n.frac...)
		digs = all
	}
	for len(digs) > 0 && digs[0] == '0' {
		digs = digs[1:]
	}
	if shift < 0 {
		cut := int64(len(digs)) + shift // digits kept
		if cut < 0 {
			cut = 0
		}
		for _, c := range digs[cut:] {
			if c != '0' && !truncate {
				return 0, nil, ErrTruncation
			}
		}
		digs = digs[:cut]
		shift = 0
	}
	if len(digs) == 0 {
		return 0, nil, nil
	}
	if int64(len(digs))+shift > int64(precision) {
		return 0, nil, ErrRange
	}
	if len(digs)+int(shift) <= 18 {
		for _, c := range digs {
			v = v*10 + int64(c-'0')
		}
		for range shift {
			v *= 10
		}
		if n.neg {
			v = -v
		}
		return v, nil, nil
	}
	t := make([]byte, 0, len(digs)+int(shift)+1)
	if n.neg {
		t = append(t, '-')
	}
	t = append(t, digs...)
	for range shift {
		t = append(t, '0')
	}
	bi, _ = new(big.Int).SetString(string(t), 10)
	return 0, bi, nil
}

// ParseDecimal reads a number in the number grammar as the unscaled
// value of a decimal(precision, scale): small values (at most 18 digits)
// in v, the others in bi. Digits past the scale are ErrTruncation (unless
// o.Truncate), more than precision digits ErrRange.
func ParseDecimal(b []byte, precision, scale int32, o Options) (v int64, bi *big.Int, err error) {
	n, ok := scan(o.trim(b))
	if !ok {
		return 0, nil, ErrSyntax
	}
	return n.unscaled(scale, precision, o.Truncate)
}

// nonFinite returns the value of a NaN or infinity spelling: NaN, Inf,
// Infinity in any case, the infinities with an optional sign.
func nonFinite(b []byte) (float64, bool) {
	if len(b) < 3 || len(b) > 9 {
		return 0, false
	}
	s := str(b)
	if strings.EqualFold(s, "nan") {
		return math.NaN(), true
	}
	sign := 1
	if s[0] == '+' || s[0] == '-' {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	if strings.EqualFold(s, "inf") || strings.EqualFold(s, "infinity") {
		return math.Inf(sign), true
	}
	return 0, false
}

// ParseFloat reads a number in the number grammar, or a NaN or infinity
// spelling, as the nearest float of bitSize bits (16, 32 or 64; the
// 16-bit result is exact in a float32 too). A finite number past the
// largest float, or a nonzero one that would round to zero, is ErrRange:
// neither would read back as written.
func ParseFloat(b []byte, bitSize int, o Options) (float64, error) {
	b = o.trim(b)
	if bitSize == 64 {
		if f, ok := fastFloat64(b); ok {
			return f, nil
		}
	}
	if f, ok := nonFinite(b); ok {
		return f, nil
	}
	n, ok := scan(b)
	if !ok {
		return 0, ErrSyntax
	}
	bits := bitSize
	if bits == 16 {
		bits = 32
	}
	f, err := strconv.ParseFloat(str(b), bits)
	if err != nil {
		return 0, ErrRange
	}
	if bitSize == 16 {
		if math.Abs(f) > 65504 {
			return 0, ErrRange
		}
		f = float64(datatype.Float16From(float32(f)).Float32())
	}
	if f == 0 && !n.zero() {
		return 0, ErrRange
	}
	return f, nil
}

// zero reports whether every digit of n is 0.
func (n number) zero() bool {
	for _, c := range n.int {
		if c != '0' {
			return false
		}
	}
	for _, c := range n.frac {
		if c != '0' {
			return false
		}
	}
	return true
}
