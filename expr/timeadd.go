package expr

import (
	"fmt"
	"math"
	"strings"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

func init() {
	register("interval", 1, 1, bindInterval)
	register("date_add", 2, 2, func(e *Expr, args []*node) (*node, error) {
		if n, ok, err := bindIntervalArith(e, args[0], args[1]); ok {
			return n, err
		}
		return nil, errAt(e, datatype.ErrInvalid, "date_add needs a date or timestamp and an interval, not %s and %s", args[0].typ, args[1].typ)
	})
}

// intervalUnits are the units of an interval's text and what one is.
var intervalUnits = map[string]datatype.MonthDayNanoInterval{
	"year": {Months: 12}, "quarter": {Months: 3}, "month": {Months: 1}, "week": {Days: 7}, "day": {Days: 1},
	"hour": {Nanoseconds: 3600e9}, "minute": {Nanoseconds: 60e9}, "second": {Nanoseconds: 1e9},
	"millisecond": {Nanoseconds: 1e6}, "microsecond": {Nanoseconds: 1e3},
}

// bindInterval binds interval('n unit [n unit …]') (INTERVAL '3 days'
// in the text syntax): a constant month_day_nano_interval, the text read
// by parseInterval. Units are year, quarter, month, week, day, hour,
// minute, second, millisecond, microsecond and nanosecond, singular or
// plural or abbreviated as date_diff's.
func bindInterval(e *Expr, args []*node) (*node, error) {
	text, err := constString(e, args[0], "the interval")
	if err != nil {
		return nil, err
	}
	iv, err := parseInterval(text)
	if err != nil {
		return nil, &exprError{e: e, err: err}
	}
	return constant(e, compute.Scalar{Type: datatype.MonthDayNanoIntervalType, Valid: true, Value: iv}), nil
}

// bindIntervalArith binds the arithmetic of dates, timestamps and
// intervals (add, subtract, their checked forms, multiply, date_add):
// t ± interval and interval + t, as DuckDB: months first (the day kept,
// or the month's last day when it has fewer), then days, in local time
// of t's zone, then the rest as elapsed time (a date becomes
// timestamp[us]); the arithmetic of intervals (bindIntervalOnly); and
// the differences of dates (days) and timestamps (bindTimeDiff). ok is
// false when none of these applies.
func bindIntervalArith(e *Expr, a, b *node) (n *node, ok bool, err error) {
	isIv := func(x *node) bool { return isInterval(x.typ) }
	isTime := func(x *node) bool {
		k := x.typ.Kind()
		return k == datatype.KindDate32 || k == datatype.KindDate64 || k == datatype.KindTimestamp
	}
	if !isIv(a) && !isIv(b) {
		if isTime(a) && isTime(b) && strings.HasPrefix(e.fn, "subtract") {
			n, err := bindTimeDiff(e, a, b)
			return n, true, err
		}
		return nil, false, nil
	}
	sign := int64(1)
	switch e.fn {
	case "add", "add_checked", "date_add":
		if isIv(a) && !isTime(b) {
			n, err := bindIntervalOnly(e, a, b)
			return n, true, err
		}
		if isIv(a) {
			a, b = b, a
		}
	case "subtract", "subtract_checked":
		sign = -1
		if !isTime(a) {
			n, err := bindIntervalOnly(e, a, b)
			return n, true, err
		}
	default:
		n, err := bindIntervalOnly(e, a, b)
		return n, true, err
	}
	if !isIv(b) || !isTime(a) {
		return nil, true, errAt(e, datatype.ErrInvalid, "%s of %s and %s", e.fn, a.typ, b.typ)
	}
	if a.typ.Kind() == datatype.KindDate32 || a.typ.Kind() == datatype.KindDate64 {
		t, _ := datatype.NewTimestamp(datatype.Microsecond, "")
		if a, err = castNode(a, t); err != nil {
			return nil, true, err
		}
	}
	src, err := timeArg(e, a)
	if err != nil {
		return nil, true, err
	}
	if b.lit != nil && !b.lit.Valid {
		return constant(e, compute.NullScalar(a.typ)), true, nil
	}
	per := 1e9 / src.unit
	return &node{typ: a.typ, src: e, eval: func(c *batch) (array.Array, error) {
		x, err := a.array(c)
		if err != nil {
			return nil, err
		}
		ivs, err := intervalValues(c, b)
		if err != nil {
			return nil, err
		}
		out := make([]int64, x.Len())
		valid := make([]bool, x.Len())
		z := &zoneCache{loc: src.loc}
		for i := range out {
			iv, ok := ivs(i)
			if x.IsNull(i) || !ok {
				continue
			}
			v := src.value(x, i)
			months, days, nanos := sign*int64(iv.Months), sign*int64(iv.Days), iv.Nanoseconds
			if sign < 0 {
				if nanos == math.MinInt64 {
					return nil, evalErr(e, fmt.Errorf("row %d: %s minus the interval is out of range: %w", i, valueText(x, i), datatype.ErrLimit))
				}
				nanos = -nanos
			}
			r, ok := addInterval(src, z, v, per, months, days, nanos)
			if !ok {
				return nil, evalErr(e, fmt.Errorf("row %d: %s plus the interval is out of range: %w", i, valueText(x, i), datatype.ErrLimit))
			}
			out[i], valid[i] = r, true
		}
		return timeArrayValid(src.typ, out, valid)
	}}, true, nil
}

// timeArrayValid is an array of t (a timestamp type) of vals, null where
// valid is false.
func timeArrayValid(t datatype.DataType, vals []int64, valid []bool) (array.Array, error) {
	b := array.NewPrimitiveBuilder[datatype.Timestamp](t)
	b.AppendValues(castInts[datatype.Timestamp](vals), valid)
	return b.NewArray(), nil
}

// addInterval is v (of src's unit) plus months, days and nanos. Without
// a zone: months (the day clamped to the month's last), then days, then
// nanos as elapsed time. With a zone (UTC included), as DuckDB's ICU: when a part is
// negative nanos come first, else last; months keep the local wall-clock
// time (see fromLocal), days keep it too where the day has it (see
// addDaysZoned). ok is false out of range.
func addInterval(src *timeSource, z *zoneCache, v, per, months, days, nanos int64) (int64, bool) {
	zoned := src.loc != nil  // UTC too: DuckDB's TIMESTAMPTZ goes through ICU in any zone
	step := nanos / src.unit // the interval in the values' unit (finer parts dropped)
	elapsed := func(v int64) (int64, bool) {
		r := v + step
		return r, !(step > 0 && r < v) && !(step < 0 && r > v)
	}
	timeFirst := zoned && (months < 0 || days < 0 || nanos < 0)
	var ok bool
	if timeFirst {
		if v, ok = elapsed(v); !ok {
			return 0, false
		}
	}
	if months != 0 || days != 0 && !zoned {
		ld, ln := src.local(z, v)
		y, m, d := civil(ld)
		if months != 0 {
			mm := (m - 1) + months
			q, r := floorDiv(mm, 12)
			y, m = y+q, r+1
			last := daysFromCivil(y, m+1, 1) - daysFromCivil(y, m, 1)
			if m == 12 {
				last = 31
			}
			d = min(d, last)
		}
		ld = daysFromCivil(y, m, d)
		if !zoned {
			ld += days
		}
		if v, ok = src.fromLocal(z, ld, ln, per, false); !ok {
			return 0, false
		}
	}
	if days != 0 && zoned {
		if v, ok = addDaysZoned(z, v, days, per); !ok {
			return 0, false
		}
	}
	if timeFirst {
		return v, true
	}
	return elapsed(v)
}

// addDaysZoned is v (per units a second) plus days in z's zone, as ICU
// adds days: days of 24 hours, then moved by the change of the zone's
// offset so that the wall-clock time stays; where that time does not
// exist on the day reached (a gap) and the move is backwards, not moved.
// ok is false out of range.
func addDaysZoned(z *zoneCache, v, days, per int64) (int64, bool) {
	sec, sub := floorDiv(v, per)
	if days > math.MaxInt32 || days < math.MinInt32 || sec > math.MaxInt64/4 || sec < math.MinInt64/4 {
		return 0, false
	}
	prev := z.offset(sec)
	t := sec + days*86400
	if next := z.offset(t); next != prev {
		adj := prev - next
		moved := t + adj
		_, wallBefore := floorDiv(sec+prev, 86400)
		_, wallAfter := floorDiv(moved+z.offset(moved), 86400)
		if wallAfter == wallBefore || adj > 0 {
			t = moved
		}
	}
	if t > math.MaxInt64/per-1 || t < math.MinInt64/per+1 {
		return 0, false
	}
	return t*per + sub, true
}
