package grammar

import (
	"math/big"
	"strconv"
	"time"
)

// AppendFloat writes f in the shortest form that reads back to the same
// float of bitSize bits (16 and 32 read back through a float32): digits
// with a point and exponent as needed, NaN, +Inf, -Inf.
func AppendFloat(dst []byte, f float64, bitSize int) []byte {
	if bitSize == 16 {
		bitSize = 32
	}
	return strconv.AppendFloat(dst, f, 'g', -1, bitSize)
}

// AppendDecimal writes an unscaled decimal value (v, or bi when not nil)
// with scale fractional digits (a negative scale appends zeros).
func AppendDecimal(dst []byte, v int64, bi *big.Int, scale int32) []byte {
	var digs []byte
	var tmp [24]byte
	neg := false
	if bi != nil {
		neg = bi.Sign() < 0
		digs = new(big.Int).Abs(bi).Append(tmp[:0], 10)
	} else {
		neg = v < 0
		u := uint64(v)
		if neg {
			u = -u
		}
		digs = strconv.AppendUint(tmp[:0], u, 10)
	}
	if neg {
		dst = append(dst, '-')
	}
	if scale <= 0 {
		dst = append(dst, digs...)
		if len(digs) == 1 && digs[0] == '0' {
			return dst
		}
		for range -scale {
			dst = append(dst, '0')
		}
		return dst
	}
	s := int(scale)
	if len(digs) <= s {
		dst = append(dst, '0', '.')
		for range s - len(digs) {
			dst = append(dst, '0')
		}
		return append(dst, digs...)
	}
	dst = append(dst, digs[:len(digs)-s]...)
	dst = append(dst, '.')
	return append(dst, digs[len(digs)-s:]...)
}

// fracDigits is the number of fractional digits of a unit of 1/per
// second.
func fracDigits(per int64) int {
	switch per {
	case 1:
		return 0
	case 1000:
		return 3
	case 1000000:
		return 6
	}
	return 9
}

// AppendDate writes days since the epoch as YYYY-MM-DD, or as the count
// when the year is outside 0000-9999 (ParseDate reads both).
func AppendDate(dst []byte, days int64) []byte {
	if out, ok := appendDate(dst, days); ok {
		return out
	}
	return strconv.AppendInt(dst, days, 10)
}

// AppendTimeOfDay writes v units of 1/per second since midnight as
// hh:mm:ss[.f] (fractional digits up to the unit's, trailing zeros
// dropped), or as the count when it is outside a day.
func AppendTimeOfDay(dst []byte, v, per int64) []byte {
	if v < 0 || v >= 86400*per {
		return strconv.AppendInt(dst, v, 10)
	}
	return appendClock(dst, v*(1e9/per), fracDigits(per))
}

// AppendTimestamp writes v units of 1/per second since the epoch as
// YYYY-MM-DDThh:mm:ss[.f]: without a zone (z nil) as it is, in UTC with
// a Z, in another zone as its wall time there and the offset (±hh:mm;
// Z where the offset is zero or has seconds).
// Outside the years 0000-9999 it writes the count.
func AppendTimestamp(dst []byte, v, per int64, z *Zone) []byte {
	secs, sub := v/per, v%per
	if sub < 0 {
		secs--
		sub += per
	}
	var off int64
	if z != nil {
		off = z.Offset(secs)
		if off%60 != 0 {
			off = 0 // a historical offset with seconds: ISO 8601 has no form for it, write UTC
		}
	}
	local := secs + off
	days, sod := local/86400, local%86400
	if sod < 0 {
		days--
		sod += 86400
	}
	out, ok := appendDate(dst, days)
	if !ok {
		return strconv.AppendInt(dst, v, 10)
	}
	out = append(out, 'T')
	out = appendClock(out, sod*1e9+sub*(1e9/per), fracDigits(per))
	switch {
	case z == nil:
	case off == 0:
		out = append(out, 'Z')
	default:
		sign := byte('+')
		if off < 0 {
			sign, off = '-', -off
		}
		h, m := off/3600, off/60%60
		out = append(out, sign, byte('0'+h/10), byte('0'+h%10), ':', byte('0'+m/10), byte('0'+m%10))
	}
	return out
}

// Zone is a timestamp type's time zone: UTC, a fixed offset, or a
// location of the time zone database.
type Zone struct {
	fixed int64 // seconds east of UTC, when loc is nil
	loc   *time.Location
}

// UTC is the zone "UTC".
var UTC = &Zone{}

// ParseZone returns the zone named tz ("" is no zone: nil). UTC, Z and
// Etc/UTC are UTC; ±hh:mm, ±hhmm and ±hh fixed offsets; other names are
// looked up in the time zone database. An unknown name is ErrSyntax.
func ParseZone(tz string) (*Zone, error) {
	switch tz {
	case "":
		return nil, nil
	case "UTC", "Z", "Etc/UTC", "utc":
		return UTC, nil
	}
	if tz[0] == '+' || tz[0] == '-' {
		off, ok := parseOffset([]byte(tz))
		if !ok {
			return nil, ErrSyntax
		}
		return &Zone{fixed: off}, nil
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return nil, ErrSyntax
	}
	return &Zone{loc: loc}, nil
}

// Offset returns the zone's offset from UTC, in seconds east, at the
// instant secs seconds after the epoch.
func (z *Zone) Offset(secs int64) int64 {
	if z.loc == nil {
		return z.fixed
	}
	_, off := time.Unix(secs, 0).In(z.loc).Zone()
	return int64(off)
}

// LocalDays returns the date (days since the epoch) of the instant v
// units of 1/per second after the epoch, in zone z (nil: UTC).
func LocalDays(v, per int64, z *Zone) int64 {
	secs := v / per
	if v%per < 0 {
		secs--
	}
	if z != nil {
		secs += z.Offset(secs)
	}
	d := secs / 86400
	if secs%86400 < 0 {
		d--
	}
	return d
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
