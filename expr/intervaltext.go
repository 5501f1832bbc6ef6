package expr

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// Intervals as text: read (INTERVAL '…', CAST(text AS INTERVAL)) and
// printed (CAST(interval AS VARCHAR)) as DuckDB writes them.

// parseInterval reads interval text as DuckDB writes it: numbers with
// units ("1 year 2 months -3 days", "1.5 hours", units as interval('…')
// takes them, and nanosecond; see scaleIntervalRat for fractions), and a
// time of day with an optional sign and fraction ("-01:02:03.5",
// "1:30"); a lone number is seconds.
func parseInterval(text string) (interval, error) {
	f := strings.Fields(text)
	if len(f) == 0 {
		return interval{}, fmt.Errorf("interval %q is empty: %w", text, datatype.ErrInvalid)
	}
	var iv interval
	for k := 0; k < len(f); k++ {
		var add interval
		if strings.Contains(f[k], ":") {
			n, err := parseClock(f[k])
			if err != nil {
				return interval{}, fmt.Errorf("interval %q: %v: %w", text, err, datatype.ErrInvalid)
			}
			add.Nanoseconds = n
		} else {
			num, ok := new(big.Rat).SetString(f[k])
			if !ok || strings.ContainsAny(f[k], "/eE") {
				return interval{}, fmt.Errorf("interval %q: %q is not a number: %w", text, f[k], datatype.ErrInvalid)
			}
			one := interval{Nanoseconds: 1e9}
			if k+1 < len(f) {
				k++
				u := strings.ToLower(f[k])
				if alias, ok := diffAliases[u]; ok {
					u = alias
				}
				var ok bool
				if one, ok = intervalUnits[u]; !ok && u != "nanosecond" {
					return interval{}, fmt.Errorf("interval %q: unknown unit %q: %w", text, f[k], datatype.ErrInvalid)
				} else if !ok {
					one = interval{Nanoseconds: 1}
				}
			}
			var ok2 bool
			if add, ok2 = scaleIntervalRat(one, num); !ok2 {
				return interval{}, fmt.Errorf("interval %q is out of range: %w", text, datatype.ErrLimit)
			}
		}
		var err error
		if iv, err = addIntervals(iv, add, 1); err != nil {
			return interval{}, fmt.Errorf("interval %q is out of range: %w", text, datatype.ErrLimit)
		}
	}
	return iv, nil
}

// scaleIntervalRat is one·r, the fractions of months spilled into days
// of 30, of days into nanoseconds, as DuckDB's interval text does ("1.5
// days" is 1 day 12 hours); finer than a nanosecond is truncated. ok is
// false out of range.
func scaleIntervalRat(one interval, r *big.Rat) (interval, bool) {
	whole := func(x *big.Rat) (*big.Int, *big.Rat) {
		q := new(big.Int).Quo(x.Num(), x.Denom())
		return q, new(big.Rat).Sub(x, new(big.Rat).SetInt(q))
	}
	months, rest := whole(new(big.Rat).Mul(r, big.NewRat(int64(one.Months), 1)))
	d := new(big.Rat).Mul(r, big.NewRat(int64(one.Days), 1))
	days, rest := whole(d.Add(d, rest.Mul(rest, big.NewRat(30, 1))))
	n := new(big.Rat).Mul(r, big.NewRat(one.Nanoseconds, 1))
	nanos, _ := whole(n.Add(n, rest.Mul(rest, big.NewRat(86400e9, 1))))
	if !months.IsInt64() || !days.IsInt64() || !nanos.IsInt64() ||
		months.Int64() != int64(int32(months.Int64())) || days.Int64() != int64(int32(days.Int64())) {
		return interval{}, false
	}
	return interval{Months: int32(months.Int64()), Days: int32(days.Int64()), Nanoseconds: nanos.Int64()}, true
}

// parseClock reads [-+]h:mm[:ss[.fffffffff]] as nanoseconds.
func parseClock(s string) (int64, error) {
	sign := int64(1)
	switch {
	case strings.HasPrefix(s, "-"):
		sign, s = -1, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	hms := strings.Split(s, ":")
	if len(hms) > 3 {
		return 0, fmt.Errorf("%q is not a time", s)
	}
	frac := int64(0)
	if last := hms[len(hms)-1]; len(hms) == 3 && strings.Contains(last, ".") {
		whole, digits, _ := strings.Cut(last, ".")
		if len(digits) == 0 || len(digits) > 9 {
			return 0, fmt.Errorf("%q: a fraction of 1 to 9 digits", s)
		}
		v, err := strconv.ParseUint(digits, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%q is not a time", s)
		}
		frac = int64(v) * int64(math.Pow10(9-len(digits)))
		hms[2] = whole
	}
	total := int64(0)
	for k, part := range hms {
		v, err := strconv.ParseUint(part, 10, 32)
		if err != nil || k > 0 && (len(part) != 2 || v > 59) {
			return 0, fmt.Errorf("%q is not a time", s)
		}
		total = total*60 + int64(v)
	}
	if len(hms) == 2 {
		total *= 60 // h:mm
	}
	if total > math.MaxInt64/1_000_000_000-1 {
		return 0, fmt.Errorf("%q is out of range", s)
	}
	return sign * (total*1e9 + frac), nil
}

// formatInterval is x as DuckDB prints an INTERVAL: years, months and
// days with their units, then the time as [-]hh:mm:ss[.ffffff…]
// (fraction digits up to the nanosecond, trailing zeros dropped);
// "00:00:00" for zero.
func formatInterval(dst []byte, x interval) []byte {
	start := len(dst)
	unit := func(n int64, name string) {
		if n == 0 {
			return
		}
		if len(dst) > start {
			dst = append(dst, ' ')
		}
		dst = strconv.AppendInt(dst, n, 10)
		dst = append(dst, ' ')
		dst = append(dst, name...)
		if n != 1 && n != -1 {
			dst = append(dst, 's')
		}
	}
	unit(int64(x.Months)/12, "year")
	unit(int64(x.Months)%12, "month")
	unit(int64(x.Days), "day")
	if x.Nanoseconds == 0 && len(dst) > start {
		return dst
	}
	if len(dst) > start {
		dst = append(dst, ' ')
	}
	n := x.Nanoseconds
	u := uint64(n)
	if n < 0 {
		dst = append(dst, '-')
		u = uint64(-n) // -MinInt64 is its own two's complement: right as uint64
	}
	h, rest := u/3600e9, u%3600e9
	if h < 10 {
		dst = append(dst, '0')
	}
	dst = strconv.AppendUint(dst, h, 10)
	dst = append(dst, ':', byte('0'+rest/600e9), byte('0'+rest/60e9%10), ':',
		byte('0'+rest%60e9/10e9), byte('0'+rest%10e9/1e9))
	if frac := rest % 1e9; frac != 0 {
		digits := []byte(fmt.Sprintf(".%09d", frac))
		for digits[len(digits)-1] == '0' {
			digits = digits[:len(digits)-1]
		}
		dst = append(dst, digits...)
	}
	return dst
}

// bindIntervalCast binds CAST(x AS INTERVAL) of a string (read as
// parseInterval reads it; text that is no interval is an error naming
// the row) and CAST(x AS VARCHAR) of an interval (formatInterval). ok is
// false for other casts.
func bindIntervalCast(e *Expr, a *node) (n *node, ok bool, err error) {
	switch {
	case isInterval(e.typ) && (isInterval(a.typ) || isNull(a.typ)):
		n, err = castNodeAs(a, e.typ, e)
		return n, true, err
	case isInterval(e.typ) && isStringy(a.typ):
		return &node{typ: e.typ, src: e, eval: func(c *batch) (array.Array, error) {
			ss, err := evalStrings(e, c, []*node{a})
			if err != nil {
				return nil, err
			}
			s := ss[0]
			b := array.NewPrimitiveBuilder[interval](e.typ)
			b.Reserve(c.n)
			for i := range c.n {
				j := slot(s, i)
				if s.IsNull(j) {
					b.AppendNull()
					continue
				}
				iv, err := parseInterval(string(s.Value(j)))
				if err != nil {
					return nil, evalErr(e, fmt.Errorf("row %d: %w", i, err))
				}
				b.Append(iv)
			}
			return b.NewArray(), nil
		}}, true, nil
	case isInterval(e.typ):
		return nil, true, errAt(e, datatype.ErrNotSupported, "CAST of %s to INTERVAL", a.typ)
	case isInterval(a.typ) && (e.typ.Kind() == datatype.KindString || e.typ.Kind() == datatype.KindLargeString):
		return &node{typ: e.typ, src: e, eval: func(c *batch) (array.Array, error) {
			get, err := intervalValues(c, a)
			if err != nil {
				return nil, err
			}
			b := array.NewBinaryBuilder[int32](datatype.String)
			b.Reserve(c.n)
			var buf []byte
			for i := range c.n {
				x, ok := get(i)
				if !ok {
					b.AppendNull()
					continue
				}
				buf = formatInterval(buf[:0], x)
				b.Append(buf)
			}
			out := b.NewArray()
			if e.typ.Kind() == datatype.KindString {
				return out, nil
			}
			return compute.Cast(out, e.typ)
		}}, true, nil
	case isInterval(a.typ):
		return nil, true, errAt(e, datatype.ErrNotSupported, "CAST of an interval to %s", typeName(e.typ))
	}
	return nil, false, nil
}
