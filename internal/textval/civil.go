package textval

// daysFromCivil returns the days since 1970-01-01 of the proleptic
// Gregorian date y-m-d (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays is the inverse of daysFromCivil.
func civilFromDays(z int64) (y, m, d int64) {
	z += 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era = (z - 146096) / 146097
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

func daysIn(y, m int64) int64 {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// digits parses exactly len(b) ASCII digits.
func digits(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
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

// clock is a parsed time of day: nanoseconds since midnight and the
// number of fractional digits written.
type clock struct {
	nanos     int64
	fracDigit int
}

// parseClock reads hh:mm:ss[.fffffffff].
func parseClock(b []byte) (clock, bool) {
	if len(b) < 8 || b[2] != ':' || b[5] != ':' {
		return clock{}, false
	}
	h, ok1 := digits(b[0:2])
	mi, ok2 := digits(b[3:5])
	s, ok3 := digits(b[6:8])
	if !ok1 || !ok2 || !ok3 || h > 23 || mi > 59 || s > 59 {
		return clock{}, false
	}
	c := clock{nanos: ((h*60+mi)*60 + s) * 1e9}
	if len(b) == 8 {
		return c, true
	}
	if b[8] != '.' || len(b) == 9 || len(b) > 18 {
		return clock{}, false
	}
	f, ok := digits(b[9:])
	if !ok {
		return clock{}, false
	}
	c.fracDigit = len(b) - 9
	for range 9 - c.fracDigit {
		f *= 10
	}
	c.nanos += f
	return c, true
}

// stamp is a parsed ISO-8601 timestamp.
type stamp struct {
	days    int64
	clock   clock
	zoned   bool
	offsetS int64 // seconds east of UTC
}

// parseStamp reads YYYY-MM-DD[T ]hh:mm:ss[.f][Z|±hh:mm|±hhmm|±hh].
func parseStamp(b []byte) (stamp, bool) {
	if len(b) < 19 || (b[10] != 'T' && b[10] != ' ') {
		return stamp{}, false
	}
	days, ok := parseDate(b[:10])
	if !ok {
		return stamp{}, false
	}
	rest := b[11:]
	end := len(rest)
	st := stamp{days: days}
	switch {
	case rest[end-1] == 'Z':
		st.zoned = true
		end--
	default:
		for i := 8; i < end; i++ {
			if rest[i] == '+' || rest[i] == '-' {
				off, ok := parseOffset(rest[i:])
				if !ok {
					return stamp{}, false
				}
				st.zoned, st.offsetS, end = true, off, i
				break
			}
		}
	}
	c, ok := parseClock(rest[:end])
	if !ok {
		return stamp{}, false
	}
	st.clock = c
	return st, true
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

// appendDate writes days since the epoch as YYYY-MM-DD; ok is false when
// the year is outside 0000-9999 (the callers then write the count).
func appendDate(dst []byte, days int64) ([]byte, bool) {
	if days < -719528 || days > 2932896 {
		return dst, false
	}
	y, m, d := civilFromDays(days)
	return append(dst, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10)), true
}

// appendClock writes nanoseconds since midnight as hh:mm:ss with at most
// frac fractional digits (trailing zeros dropped).
func appendClock(dst []byte, nanos int64, frac int) []byte {
	s := nanos / 1e9
	h, mi, se := s/3600, s/60%60, s%60
	dst = append(dst, byte('0'+h/10), byte('0'+h%10), ':', byte('0'+mi/10), byte('0'+mi%10), ':', byte('0'+se/10), byte('0'+se%10))
	if frac > 0 {
		f := nanos % 1e9
		for range 9 - frac {
			f /= 10
		}
		var buf [9]byte
		for i := frac - 1; i >= 0; i-- {
			buf[i] = byte('0' + f%10)
			f /= 10
		}
		for frac > 0 && buf[frac-1] == '0' {
			frac-- // trailing zeros say nothing
		}
		if frac > 0 {
			dst = append(dst, '.')
			dst = append(dst, buf[:frac]...)
		}
	}
	return dst
}
