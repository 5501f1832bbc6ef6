package datatype

import (
	"math"
	"math/big"
	"strconv"
	"time"
)

// Go value types of the fixed-width logical types. Each is a named type
// over its physical representation, so one generic array serves them all.
type (
	// Date32 is days since the Unix epoch.
	Date32 int32
	// Date64 is milliseconds since the Unix epoch.
	Date64 int64
	// Time32 is a time of day in seconds or milliseconds.
	Time32 int32
	// Time64 is a time of day in microseconds or nanoseconds.
	Time64 int64
	// Timestamp is a count of units since the Unix epoch.
	Timestamp int64
	// Duration is a length of time in units.
	Duration int64
	// MonthInterval is a number of months.
	MonthInterval int32
	// Decimal32 is the unscaled value of a 32-bit decimal.
	Decimal32 int32
	// Decimal64 is the unscaled value of a 64-bit decimal.
	Decimal64 int64
)

// DayTimeInterval is a number of days and milliseconds.
type DayTimeInterval struct {
	Days         int32
	Milliseconds int32
}

// MonthDayNanoInterval is a number of months, days and nanoseconds.
type MonthDayNanoInterval struct {
	Months      int32
	Days        int32
	Nanoseconds int64
}

// Decimal128 is the unscaled value of a 128-bit decimal, two's complement,
// stored as little-endian 64-bit words (Lo first, as on the wire).
type Decimal128 struct {
	Lo uint64
	Hi int64
}

// Decimal256 is the unscaled value of a 256-bit decimal, two's complement,
// little-endian 64-bit words (word 0 least significant, as on the wire).
type Decimal256 [4]uint64

// Time converts a timestamp in unit to a time.Time in UTC. Check
// [Timestamp.InTimeRange] first for values from outside: a count of
// seconds past the last time.Time wraps around.
func (t Timestamp) Time(unit TimeUnit) time.Time {
	switch unit {
	case Second:
		return time.Unix(int64(t), 0).UTC()
	case Millisecond:
		return time.UnixMilli(int64(t)).UTC()
	case Microsecond:
		return time.UnixMicro(int64(t)).UTC()
	}
	return time.Unix(0, int64(t)).UTC()
}

// InTimeRange reports whether t in unit is an instant that time.Time can
// hold, so that [Timestamp.Time] is exact: every value is but a count of
// seconds past 292277026596-12-04T15:30:07Z (time.Time counts seconds
// from year 1 in an int64).
func (t Timestamp) InTimeRange(unit TimeUnit) bool {
	return unit != Second || int64(t) <= math.MaxInt64-secondsFromYear1To1970
}

// secondsFromYear1To1970 is the offset of the Unix epoch in time.Time's
// internal count of seconds.
const secondsFromYear1To1970 = 62135596800

// TimestampOf converts t to a count of units since the epoch (the
// instant: t's location does not matter). In nanoseconds, instants
// outside the years 1678 to 2262 do not fit and wrap around, as
// time.Time.UnixNano does.
func TimestampOf(t time.Time, unit TimeUnit) Timestamp {
	switch unit {
	case Second:
		return Timestamp(t.Unix())
	case Millisecond:
		return Timestamp(t.UnixMilli())
	case Microsecond:
		return Timestamp(t.UnixMicro())
	}
	return Timestamp(t.UnixNano())
}

// Date32Of is the calendar day t falls on in its location (t.Date(); call
// it with t.UTC() for the day in UTC), as days since the epoch. Days
// outside Date32's range (years -5877641 to 5881580) wrap around.
func Date32Of(t time.Time) Date32 { return Date32(daysOf(t)) }

// Date64Of is the calendar day t falls on in its location, as the
// milliseconds since the epoch of its midnight UTC (a whole number of
// days, as the format asks of date64 values).
func Date64Of(t time.Time) Date64 { return Date64(daysOf(t) * 86_400_000) }

// daysOf counts the days from the epoch to the calendar day of t.
func daysOf(t time.Time) int64 {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400
}

// Time converts the date to midnight UTC of that day.
func (d Date32) Time() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// Time converts the date to a time.Time in UTC.
func (d Date64) Time() time.Time { return time.UnixMilli(int64(d)).UTC() }

// BigInt returns the value as a big integer.
func (d Decimal128) BigInt() *big.Int {
	v := new(big.Int).SetInt64(d.Hi)
	v.Lsh(v, 64)
	return v.Or(v, new(big.Int).SetUint64(d.Lo))
}

// Decimal128FromBig converts v, truncating to 128 bits.
func Decimal128FromBig(v *big.Int) Decimal128 {
	w := toWords(v, 2)
	return Decimal128{Lo: w[0], Hi: int64(w[1])}
}

// BigInt returns the value as a big integer.
func (d Decimal256) BigInt() *big.Int {
	v := new(big.Int).SetInt64(int64(d[3]))
	for i := 2; i >= 0; i-- {
		v.Lsh(v, 64)
		v.Or(v, new(big.Int).SetUint64(d[i]))
	}
	return v
}

// Decimal256FromBig converts v, truncating to 256 bits.
func Decimal256FromBig(v *big.Int) Decimal256 {
	w := toWords(v, 4)
	return Decimal256{w[0], w[1], w[2], w[3]}
}

// toWords returns the low n 64-bit words of v in two's complement.
func toWords(v *big.Int, n int) []uint64 {
	mod := new(big.Int).Lsh(big.NewInt(1), uint(64*n))
	u := new(big.Int).Mod(v, mod) // non-negative representative
	words := make([]uint64, n)
	mask := new(big.Int).SetUint64(math.MaxUint64)
	for i := range words {
		words[i] = new(big.Int).And(u, mask).Uint64()
		u.Rsh(u, 64)
	}
	return words
}

// FormatDecimal renders an unscaled integer with the scale: 12345 at
// scale 2 is "123.45"; a negative scale appends zeros.
func FormatDecimal(unscaled *big.Int, scale int32) string {
	s := new(big.Int).Abs(unscaled).String()
	neg := unscaled.Sign() < 0
	switch {
	case scale <= 0:
		for range -scale {
			s += "0"
		}
	default:
		for len(s) <= int(scale) {
			s = "0" + s
		}
		s = s[:len(s)-int(scale)] + "." + s[len(s)-int(scale):]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// Float16 is an IEEE 754 half-precision number, stored as its bits.
type Float16 uint16

// Float32 converts to float32 exactly.
func (f Float16) Float32() float32 {
	sign := uint32(f>>15) << 31
	exp := uint32(f>>10) & 0x1f
	frac := uint32(f) & 0x3ff
	switch {
	case exp == 0x1f: // Inf or NaN
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: normalise
		e := uint32(127 - 15 + 1)
		for frac&0x400 == 0 {
			frac <<= 1
			e--
		}
		return math.Float32frombits(sign | e<<23 | (frac&0x3ff)<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
}

// Float16From converts f to the nearest half-precision value (ties to
// even); out-of-range magnitudes become infinities and NaN stays NaN.
func Float16From(f float32) Float16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xff
	frac := b & 0x7fffff
	if exp == 0xff {
		if frac != 0 {
			return Float16(sign | 0x7e00)
		}
		return Float16(sign | 0x7c00)
	}
	e := exp - 127 + 15
	if e >= 0x1f {
		return Float16(sign | 0x7c00)
	}
	if e <= 0 {
		if e < -10 {
			return Float16(sign)
		}
		m := frac | 0x800000
		shift := uint32(14 - e)
		half := uint32(1) << (shift - 1)
		r := m >> shift
		rem := m & (1<<shift - 1)
		if rem > half || (rem == half && r&1 == 1) {
			r++
		}
		return Float16(sign | uint16(r))
	}
	r := uint32(e)<<10 | frac>>13
	rem := frac & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && r&1 == 1) {
		r++ // may carry into the exponent, which is right
	}
	return Float16(sign | uint16(r))
}

// String formats the value like a float32.
func (f Float16) String() string { return formatFloat(float64(f.Float32()), 32) }

func formatFloat(f float64, bits int) string { return strconv.FormatFloat(f, 'g', -1, bits) }
