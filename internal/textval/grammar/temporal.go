package grammar

import (
	"math"
	"math/big"
)

// digits parses exactly len(b) ASCII digits.
func digits(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c-'0' > 9 {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// parseDate reads YYYY-MM-DD as days since the epoch.
func parseDate(b []byte) (int64, bool) {
	if len(b) != 10 || b[4] != '-' || b[7] != '-' {
		return 0, false
	}
	y, ok1 := digits(b[0:4])
	m, ok2 := digits(b[5:7])
	d, ok3 := digits(b[8:10])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return 0, false
	}
	return daysFromCivil(y, m, d), true
}

// Clock is a parsed time of day.
type Clock struct {
	// Nanos are the nanoseconds since midnight.
	Nanos int64
	// FracDigits is the number of fractional digits written.
	FracDigits int
	// finer: a nonzero digit below the nanosecond was written.
	finer bool
}

// parseClock reads hh:mm:ss[.f+].
func parseClock(b []byte) (Clock, bool) {
	if len(b) < 8 || b[2] != ':' || b[5] != ':' {
		return Clock{}, false
	}
	h, ok1 := digits(b[0:2])
	mi, ok2 := digits(b[3:5])
	s, ok3 := digits(b[6:8])
	if !ok1 || !ok2 || !ok3 || h > 23 || mi > 59 || s > 59 {
		return Clock{}, false
	}
	c := Clock{Nanos: ((h*60+mi)*60 + s) * 1e9}
	if len(b) == 8 {
		return c, true
	}
	frac := b[9:]
	if b[8] != '.' || len(frac) == 0 {
		return Clock{}, false
	}
	c.FracDigits = len(frac)
	if len(frac) > 9 {
		for _, d := range frac[9:] {
			switch {
			case d-'0' > 9:
				return Clock{}, false
			case d != '0':
				c.finer = true
			}
		}
		frac = frac[:9]
	}
	f, ok := digits(frac)
	if !ok {
		return Clock{}, false
	}
	for range 9 - len(frac) {
		f *= 10
	}
	c.Nanos += f
	return c, true
}

// Stamp is a parsed ISO-8601 timestamp.
type Stamp struct {
	// Days since the epoch of the written date.
	Days int64
	// Clock is the written time of day.
	Clock Clock
	// Zoned: a zone (Z or an offset) was written.
	Zoned bool
	// OffsetS is the written offset, in seconds east of UTC.
	OffsetS int64
}

// ParseStamp reads YYYY-MM-DD[T ]hh:mm:ss[.f][Z|±hh:mm|±hhmm|±hh].
func ParseStamp(b []byte) (Stamp, bool) {
	if len(b) < 19 || (b[10] != 'T' && b[10] != ' ') {
		return Stamp{}, false
	}
	days, ok := parseDate(b[:10])
	if !ok {
		return Stamp{}, false
	}
	rest := b[11:]
	end := len(rest)
	st := Stamp{Days: days}
	switch {
	case rest[end-1] == 'Z':
		st.Zoned = true
		end--
	default:
		for i := 8; i < end; i++ {
			if rest[i] == '+' || rest[i] == '-' {
				off, ok := parseOffset(rest[i:])
				if !ok {
					return Stamp{}, false
				}
				st.Zoned, st.OffsetS, end = true, off, i
				break
			}
		}
	}
	c, ok := parseClock(rest[:end])
	if !ok {
		return Stamp{}, false
	}
	st.Clock = c
	return st, true
}

// ParseClock reads hh:mm:ss[.f].
func ParseClock(b []byte) (Clock, bool) { return parseClock(b) }

// IsDate reports whether b is a date of the form YYYY-MM-DD.
func IsDate(b []byte) bool {
	_, ok := parseDate(b)
	return ok
}

func parseOffset(b []byte) (int64, bool) {
	sign := int64(1)
	if b[0] == '-' {
		sign = -1
	}
	b = b[1:]
	var h, m int64
	var ok1, ok2 bool
	switch len(b) {
	case 2:
		h, ok1 = digits(b)
		ok2 = true
	case 4:
		h, ok1 = digits(b[:2])
		m, ok2 = digits(b[2:])
	case 5:
		if b[2] != ':' {
			return 0, false
		}
		h, ok1 = digits(b[:2])
		m, ok2 = digits(b[3:])
	default:
		return 0, false
	}
	if !ok1 || !ok2 || h > 23 || m > 59 {
		return 0, false
	}
	return sign * (h*3600 + m*60), true
}

// count reads a plain count of units: an optional sign and digits.
func count(b []byte) (int64, bool, error) {
	s := b
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if len(s) == 0 {
		return 0, false, nil
	}
	for _, c := range s {
		if c-'0' > 9 {
			return 0, false, nil
		}
	}
	v, err := ParseInt(b, Options{})
	return v, true, err
}

// ParseDate reads a date as days since the epoch: YYYY-MM-DD, a
// timestamp (its written date: the offset, if any, does not move it; a
// time of day other than midnight is ErrTruncation unless o.Truncate), or
// a count of days.
func ParseDate(b []byte, o Options) (int64, error) {
	b = o.trim(b)
	if d, ok := parseDate(b); ok {
		return d, nil
	}
	if st, ok := ParseStamp(b); ok {
		if (st.Clock.Nanos != 0 || st.Clock.finer) && !o.Truncate {
			return 0, ErrTruncation
		}
		return st.Days, nil
	}
	if v, ok, err := count(b); ok {
		return v, err
	}
	return 0, ErrSyntax
}

// ParseTimeOfDay reads hh:mm:ss[.f] (or a count of units in [0, 24h)) as
// units of 1/per second since midnight. Digits finer than the unit are
// ErrTruncation unless o.Truncate.
func ParseTimeOfDay(b []byte, per int64, o Options) (int64, error) {
	b = o.trim(b)
	if c, ok := parseClock(b); ok {
		step := int64(1e9) / per
		if (c.Nanos%step != 0 || c.finer) && !o.Truncate {
			return 0, ErrTruncation
		}
		return c.Nanos / step, nil
	}
	if v, ok, err := count(b); ok {
		if err == nil && (v < 0 || v >= 86400*per) {
			err = ErrRange
		}
		return v, err
	}
	return 0, ErrSyntax
}

// ParseTimestamp reads an ISO-8601 timestamp (YYYY-MM-DD[T ]hh:mm:ss[.f]
// with an optional zone: Z, ±hh:mm, ±hhmm or ±hh; without one the time is
// UTC), a date alone (its midnight, UTC), or a count of units since the
// epoch, as units of 1/per second since the epoch. Digits finer than the
// unit are ErrTruncation unless o.Truncate (then the time is floored).
func ParseTimestamp(b []byte, per int64, o Options) (int64, error) {
	b = o.trim(b)
	if st, ok := ParseStamp(b); ok {
		return stampUnits(st.Days*86400-st.OffsetS, st.Clock, per, o)
	}
	if d, ok := parseDate(b); ok {
		return stampUnits(d*86400, Clock{}, per, o)
	}
	if v, ok, err := count(b); ok {
		return v, err
	}
	return 0, ErrSyntax
}

// StampUnits returns secs seconds and c's nanoseconds after the epoch in
// units of 1/per second (see ParseTimestamp for the truncation rule).
func StampUnits(secs int64, nanos int64, per int64, o Options) (int64, error) {
	return stampUnits(secs, Clock{Nanos: nanos}, per, o)
}

func stampUnits(secs int64, c Clock, per int64, o Options) (int64, error) {
	step := int64(1e9) / per
	nanos := c.Nanos
	if (nanos%step != 0 || c.finer) && !o.Truncate {
		return 0, ErrTruncation
	}
	if secs > math.MaxInt64/per-1 || secs < math.MinInt64/per+1 {
		// Near the ends of int64: check exactly.
		v := new(big.Int).Mul(big.NewInt(secs), big.NewInt(per))
		v.Add(v, big.NewInt(nanos/step))
		if !v.IsInt64() {
			return 0, ErrRange
		}
		return v.Int64(), nil
	}
	return secs*per + nanos/step, nil
}
