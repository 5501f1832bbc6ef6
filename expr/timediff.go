package expr

import (
	"fmt"
	"math"
	"time"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// bindTimeDiff binds a - b of dates and timestamps. Two dates give the
// days from b to a (int64, as DuckDB's BIGINT). With a timestamp, both
// are brought to their common timestamp type and the result is an
// interval of days and time, no months, as DuckDB's: without a zone (or
// in UTC) whole 24-hour days and the rest; in a zone, the whole days
// from b to a in local time (b moved by days as date_add moves it), then
// the rest as elapsed time, negated when a is before b (DuckDB's ICU).
func bindTimeDiff(e *Expr, a, b *node) (*node, error) {
	isDate := func(x *node) bool {
		return x.typ.Kind() == datatype.KindDate32 || x.typ.Kind() == datatype.KindDate64
	}
	if isDate(a) && isDate(b) {
		sa, err := timeArg(e, a)
		if err != nil {
			return nil, err
		}
		sb, err := timeArg(e, b)
		if err != nil {
			return nil, err
		}
		return &node{typ: datatype.Int64, src: e, eval: func(c *batch) (array.Array, error) {
			x, err := a.array(c)
			if err != nil {
				return nil, err
			}
			y, err := b.array(c)
			if err != nil {
				return nil, err
			}
			out := make([]int64, c.n)
			valid := make([]bool, c.n)
			for i := range out {
				if x.IsNull(i) || y.IsNull(i) {
					continue
				}
				dx, _ := sa.local(nil, sa.value(x, i))
				dy, _ := sb.local(nil, sb.value(y, i))
				out[i], valid[i] = dx-dy, true
			}
			bld := array.NewPrimitiveBuilder[int64](datatype.Int64)
			bld.AppendValues(out, valid)
			return bld.NewArray(), nil
		}}, nil
	}
	t, ok := commonType(a.typ, b.typ, false, false)
	if !ok {
		return nil, errAt(e, datatype.ErrInvalid, "%s of %s and %s", e.fn, a.typ, b.typ)
	}
	x, err := castNode(a, t)
	if err != nil {
		return nil, err
	}
	y, err := castNode(b, t)
	if err != nil {
		return nil, err
	}
	src, err := timeArg(e, x)
	if err != nil {
		return nil, err
	}
	return &node{typ: datatype.MonthDayNanoIntervalType, src: e, eval: func(c *batch) (array.Array, error) {
		xa, err := x.array(c)
		if err != nil {
			return nil, err
		}
		ya, err := y.array(c)
		if err != nil {
			return nil, err
		}
		z := &zoneCache{loc: src.loc}
		bld := array.NewPrimitiveBuilder[interval](datatype.MonthDayNanoIntervalType)
		bld.Reserve(c.n)
		for i := range c.n {
			if xa.IsNull(i) || ya.IsNull(i) {
				bld.AppendNull()
				continue
			}
			iv, ok := timeDiff(src, z, src.value(xa, i), src.value(ya, i))
			if !ok {
				return nil, evalErr(e, fmt.Errorf("row %d: %s minus %s is out of an interval's range: %w",
					i, valueText(xa, i), valueText(ya, i), datatype.ErrLimit))
			}
			bld.Append(iv)
		}
		return bld.NewArray(), nil
	}}, nil
}

// timeDiff is the interval from timestamp y to timestamp x (see
// bindTimeDiff); ok is false when its days pass int32 or the time
// passes int64 nanoseconds.
func timeDiff(src *timeSource, z *zoneCache, x, y int64) (interval, bool) {
	perDay := 86400e9 / src.unit
	if src.loc == nil || src.loc == time.UTC {
		d := x - y
		if (y > 0 && d > x) || (y < 0 && d < x) {
			// The difference passes int64 units: split it into days first.
			dx, rx := x/perDay, x%perDay
			dy, ry := y/perDay, y%perDay
			days, rest := dx-dy, rx-ry
			return intervalOf(days+rest/perDay, rest%perDay*src.unit)
		}
		return intervalOf(d/perDay, d%perDay*src.unit)
	}
	if x < y {
		iv, ok := timeDiff(src, z, y, x)
		if !ok || iv.Nanoseconds == math.MinInt64 {
			return interval{}, false
		}
		return interval{Days: -iv.Days, Nanoseconds: -iv.Nanoseconds}, true
	}
	dx, _ := src.local(z, x)
	dy, _ := src.local(z, y)
	per := 1e9 / src.unit
	for days := dx - dy; days >= 0; days-- {
		at, ok := addDaysZoned(z, y, days, per)
		if !ok {
			return interval{}, false
		}
		if at <= x {
			rest := x - at
			if rest > math.MaxInt64/src.unit {
				return interval{}, false
			}
			return intervalOf(days, rest*src.unit)
		}
	}
	return intervalOf(0, (x-y)*src.unit)
}

// intervalOf is an interval of days and nanoseconds; ok is false when
// days do not fit int32.
func intervalOf(days, nanos int64) (interval, bool) {
	if days != int64(int32(days)) {
		return interval{}, false
	}
	return interval{Days: int32(days), Nanoseconds: nanos}, true
}
