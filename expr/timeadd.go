package expr

import (
	"fmt"
	"math"
	"strconv"
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
// in the text syntax): a constant month_day_nano_interval. Units are
// year, quarter, month, week, day, hour, minute, second, millisecond and
// microsecond, singular or plural or abbreviated as date_diff's.
func bindInterval(e *Expr, args []*node) (*node, error) {
	text, err := constString(e, args[0], "the interval")
	if err != nil {
		return nil, err
	}
	f := strings.Fields(text)
	if len(f) == 0 || len(f)%2 != 0 {
		return nil, errAt(e, datatype.ErrInvalid, "interval %q is not 'number unit …'", text)
	}
	var iv datatype.MonthDayNanoInterval
	for k := 0; k < len(f); k += 2 {
		n, err := strconv.ParseInt(f[k], 10, 32)
		if err != nil {
			return nil, errAt(e, datatype.ErrInvalid, "interval %q: %q is not an integer", text, f[k])
		}
		u := strings.ToLower(f[k+1])
		if alias, ok := diffAliases[u]; ok {
			u = alias
		}
		one, ok := intervalUnits[u]
		if !ok {
			return nil, errAt(e, datatype.ErrInvalid, "interval %q: unknown unit %q", text, f[k+1])
		}
		m, d := int64(iv.Months)+n*int64(one.Months), int64(iv.Days)+n*int64(one.Days)
		if m > math.MaxInt32 || m < math.MinInt32 || d > math.MaxInt32 || d < math.MinInt32 {
			return nil, errAt(e, datatype.ErrLimit, "interval %q is out of range", text)
		}
		iv.Months, iv.Days, iv.Nanoseconds = int32(m), int32(d), iv.Nanoseconds+n*one.Nanoseconds
	}
	return constant(e, compute.Scalar{Type: datatype.MonthDayNanoIntervalType, Valid: true, Value: iv}), nil
}

// bindIntervalArith binds t + interval, interval + t and t - interval
// (add, subtract and their checked forms, date_add), as DuckDB: months
// first (the day kept, or the month's last day when it has fewer), then
// days, in local time of t's zone, then the rest as elapsed time. A date
// becomes timestamp[us]. ok is false when neither side is an interval.
func bindIntervalArith(e *Expr, a, b *node) (n *node, ok bool, err error) {
	isIv := func(x *node) bool { return x.typ.Kind() == datatype.KindMonthDayNanoInterval }
	if !isIv(a) && !isIv(b) {
		return nil, false, nil
	}
	sign := int64(1)
	switch e.fn {
	case "add", "add_checked", "date_add":
		if isIv(a) {
			a, b = b, a
		}
	case "subtract", "subtract_checked":
		sign = -1
	default:
		return nil, true, errAt(e, datatype.ErrInvalid, "%s of %s and %s", e.fn, a.typ, b.typ)
	}
	if !isIv(b) || isIv(a) {
		return nil, true, errAt(e, datatype.ErrInvalid, "%s of %s and %s", e.fn, a.typ, b.typ)
	}
	if b.lit == nil {
		return nil, true, errAt(e, datatype.ErrInvalid, "the interval must be a constant")
	}
	if a.typ.Kind() == datatype.KindDate32 || a.typ.Kind() == datatype.KindDate64 {
		t, _ := datatype.NewTimestamp(datatype.Microsecond, "")
		if a, err = castNode(a, t); err != nil {
			return nil, true, err
		}
	}
	if _, isTs := a.typ.(*datatype.TimestampType); !isTs {
		return nil, true, errAt(e, datatype.ErrInvalid, "%s of %s and an interval", e.fn, a.typ)
	}
	src, err := timeArg(e, a)
	if err != nil {
		return nil, true, err
	}
	if !b.lit.Valid {
		return constant(e, compute.NullScalar(a.typ)), true, nil
	}
	iv := b.lit.Value.(datatype.MonthDayNanoInterval)
	months, days, nanos := sign*int64(iv.Months), sign*int64(iv.Days), sign*iv.Nanoseconds
	per := 1e9 / src.unit
	return &node{typ: a.typ, src: e, eval: func(c *batch) (array.Array, error) {
		x, err := a.array(c)
		if err != nil {
			return nil, err
		}
		out := make([]int64, x.Len())
		z := &zoneCache{loc: src.loc}
		for i := range out {
			if x.IsNull(i) {
				continue
			}
			v := src.value(x, i)
			r, ok := addInterval(src, z, v, per, months, days, nanos)
			if !ok {
				return nil, evalErr(e, fmt.Errorf("row %d: %s plus the interval is out of range: %w", i, valueText(x, i), datatype.ErrLimit))
			}
			out[i] = r
		}
		return timeArray(src.typ, out, x)
	}}, true, nil
}

func addInterval(src *timeSource, z *zoneCache, v, per, months, days, nanos int64) (int64, bool) {
	if months != 0 || days != 0 {
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
		ld = daysFromCivil(y, m, d) + days
		var ok bool
		if v, ok = src.fromLocal(z, ld, ln, per, false); !ok {
			return 0, false
		}
	}
	if nanos == 0 {
		return v, true
	}
	step := nanos / src.unit // the interval in the values' unit (finer parts dropped)
	r := v + step
	if (step > 0 && r < v) || (step < 0 && r > v) {
		return 0, false
	}
	return r, true
}
