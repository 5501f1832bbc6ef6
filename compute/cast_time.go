package compute

import (
	"math"
	"math/bits"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/textval/grammar"
)

// nanosPerUnit is the length of one unit of a temporal type in
// nanoseconds (a day for date32).
func nanosPerUnit(t datatype.DataType) int64 {
	switch x := t.(type) {
	case *datatype.TimeType:
		return 1e9 / x.Unit.PerSecond()
	case *datatype.TimestampType:
		return 1e9 / x.Unit.PerSecond()
	case *datatype.DurationType:
		return 1e9 / x.Unit.PerSecond()
	}
	if t.Kind() == datatype.KindDate32 {
		return 86400e9
	}
	return 1e6 // date64: milliseconds
}

// temporalFamily groups the types whose values convert by units: dates
// and timestamps (instants), times of day, durations.
func temporalFamily(k datatype.Kind) int {
	switch k {
	case datatype.KindDate32, datatype.KindDate64, datatype.KindTimestamp:
		return 1
	case datatype.KindTime32, datatype.KindTime64:
		return 2
	case datatype.KindDuration:
		return 3
	}
	return 0
}

// is32 reports whether the temporal kind is stored in 32 bits.
func is32(k datatype.Kind) bool { return k == datatype.KindDate32 || k == datatype.KindTime32 }

// readTemporal returns the values of a temporal array as int64 counts.
func readTemporal(a array.Array) []int64 {
	switch x := a.(type) {
	case *array.Date32:
		return widen(x.Values())
	case *array.Time32:
		return widen(x.Values())
	case *array.Date64:
		return widen(x.Values())
	case *array.Time64:
		return widen(x.Values())
	case *array.Timestamp:
		return widen(x.Values())
	case *array.Duration:
		return widen(x.Values())
	}
	return make([]int64, a.Len())
}

func widen[T ~int32 | ~int64](v []T) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// reinterpret gives the values of a fixed-width array another type of
// the same width.
func reinterpret(a array.Array, to datatype.DataType) (array.Array, error) {
	d := *a.Data()
	d.Type = to
	out, err := array.Make(&d)
	if err != nil {
		return nil, errf(ErrInvalid, "cast %s to %s: %v", a.DataType(), to, err)
	}
	return out, nil
}

// temporal casts between temporal types and to and from integers.
func (c *config) temporal(a array.Array, to datatype.DataType) (array.Array, error) {
	from := a.DataType()
	fk, tk := from.Kind(), to.Kind()
	switch {
	case isTemporal(fk) && tk >= datatype.KindInt8 && tk <= datatype.KindUint64:
		same := datatype.Int64
		if is32(fk) {
			same = datatype.Int32
		}
		ints, err := reinterpret(a, same)
		if err != nil {
			return nil, err
		}
		return castNumbers(ints, to, c)
	case isTemporal(tk) && fk >= datatype.KindInt8 && fk <= datatype.KindUint64:
		same := datatype.Int64
		if is32(tk) {
			same = datatype.Int32
		}
		ints, err := castNumbers(a, same, c)
		if err != nil {
			return nil, err
		}
		out, err := reinterpret(ints, to)
		if err != nil {
			return nil, err
		}
		return c.checkDomain(out, from)
	case fk == datatype.KindTimestamp && (tk == datatype.KindDate32 || tk == datatype.KindDate64) && from.(*datatype.TimestampType).TimeZone != "":
		return c.zonedDates(a, to)
	case tk == datatype.KindDate64 && fk != datatype.KindDate64 && temporalFamily(fk) == 1:
		// Through days: a date64 holds whole days in milliseconds.
		days, err := c.convertUnits(a, datatype.Date32Type)
		if err != nil {
			return nil, err
		}
		return c.convertUnits(days, to)
	case isTemporal(fk) && isTemporal(tk) && temporalFamily(fk) == temporalFamily(tk):
		return c.convertUnits(a, to)
	}
	return nil, c.unsupported(from, to)
}

// zonedDates casts timestamps with a time zone to the dates of their
// instants in that zone (the date a clock there shows).
func (c *config) zonedDates(a array.Array, to datatype.DataType) (array.Array, error) {
	t := a.DataType().(*datatype.TimestampType)
	z, err := grammar.ParseZone(t.TimeZone)
	if err != nil {
		return nil, errf(ErrInvalid, "cast %s to %s: unknown time zone %q", t, to, t.TimeZone)
	}
	per := t.Unit.PerSecond()
	v := readTemporal(a)
	for i, x := range v {
		if a.IsNull(i) {
			v[i] = 0
			continue
		}
		v[i] = grammar.LocalDays(x, per, z)
	}
	days := numbersOut(datatype.Int64, v, copyValidity(bitmapOf2(a)), a.NullN())
	if days, err = castNumbers(days, datatype.Int32, c); err != nil {
		return nil, err
	}
	days, err = reinterpret(days, datatype.Date32Type)
	if err != nil || to.Kind() == datatype.KindDate32 {
		return days, err
	}
	return c.convertUnits(days, to)
}

// msPerDay is the length of a day in date64's unit.
const msPerDay = 86400000

// checkDomain refuses counts that out's type cannot hold although they fit
// its width: a date64 that is not a whole number of days (floored to the
// day when truncation is allowed), a time of day outside [0, 24h).
func (c *config) checkDomain(out array.Array, from datatype.DataType) (array.Array, error) {
	to := out.DataType()
	v := readTemporal(out)
	switch to.Kind() {
	case datatype.KindDate64:
		floored := false
		for i, x := range v {
			if out.IsNull(i) || x%msPerDay == 0 {
				continue
			}
			if !c.truncate {
				return nil, castFailure(ErrTruncation, from, to, i, x)
			}
			v[i] = x - (x%msPerDay+msPerDay)%msPerDay
			floored = true
		}
		if floored {
			ints := numbersOut(datatype.Int64, v, copyValidity(bitmapOf2(out)), out.NullN())
			return reinterpret(ints, to)
		}
	case datatype.KindTime32, datatype.KindTime64:
		perDay := 86400e9 / nanosPerUnit(to)
		for i, x := range v {
			if !out.IsNull(i) && (x < 0 || x >= perDay) {
				return nil, castFailure(ErrOverflow, from, to, i, x)
			}
		}
	}
	return out, nil
}

// convertUnits rescales temporal counts from a's unit to to's: finer
// units multiply (checked for overflow), coarser ones divide (checked
// for a remainder, except from timestamps to dates, which take the day
// the instant falls in).
func (c *config) convertUnits(a array.Array, to datatype.DataType) (array.Array, error) {
	from := a.DataType()
	v := readTemporal(a)
	fu, tu := nanosPerUnit(from), nanosPerUnit(to)
	toDate := to.Kind() == datatype.KindDate32 || to.Kind() == datatype.KindDate64
	fromDate := from.Kind() == datatype.KindDate32 || from.Kind() == datatype.KindDate64
	for i, x := range v {
		if a.IsNull(i) {
			v[i] = 0
			continue
		}
		var y int64
		switch {
		case fu >= tu:
			m := fu / tu
			hi, lo := bits.Mul64(uint64(abs64(x)), uint64(m))
			if (hi != 0 || lo > math.MaxInt64) && !c.overflow {
				return nil, castFailure(ErrOverflow, from, to, i, x)
			}
			y = x * m
		default:
			d := tu / fu
			y = x / d
			if r := x % d; r != 0 {
				if !c.truncate && !(toDate && !fromDate) {
					return nil, castFailure(ErrTruncation, from, to, i, x)
				}
				if r < 0 {
					y-- // floor: the day (or unit) the instant falls in
				}
			}
		}
		if is32(to.Kind()) && int64(int32(y)) != y && !c.overflow {
			return nil, castFailure(ErrOverflow, from, to, i, x)
		}
		v[i] = y
	}
	ints := numbersOut(datatype.Int64, v, copyValidity(bitmapOf2(a)), a.NullN())
	if is32(to.Kind()) {
		var err error
		if ints, err = castNumbers(ints, datatype.Int32, &config{overflow: true, workers: c.workers}); err != nil {
			return nil, err
		}
	}
	return reinterpret(ints, to)
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// bitmapOf2 is bitmapOf of a's data with its length and null count, for
// copyValidity.
func bitmapOf2(a array.Array) ([]byte, int, int, int) {
	b, off := bitmapOf(a.Data())
	return b, off, a.Len(), a.NullN()
}
