package expr

import (
	"fmt"
	"math"
	"time"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

func init() {
	register("monthname", 1, 1, func(e *Expr, args []*node) (*node, error) {
		return bindPartName(e, args[0], func(days int64) string {
			_, m, _ := civil(days)
			return time.Month(m).String()
		})
	})
	register("dayname", 1, 1, func(e *Expr, args []*node) (*node, error) {
		return bindPartName(e, args[0], func(days int64) string {
			_, w := floorDiv(days+4, 7)
			return time.Weekday(w).String()
		})
	})
	register("last_day", 1, 1, bindLastDay)
	register("make_date", 3, 3, bindMakeDate)
	for name, unit := range map[string]int64{"epoch_ms": 1e6, "epoch_us": 1e3, "epoch_ns": 1} {
		register(name, 1, 1, func(e *Expr, args []*node) (*node, error) {
			if name == "epoch_ms" && (isInt(args[0].typ) || isNull(args[0].typ)) {
				return bindFromEpochMs(e, args[0])
			}
			return bindEpochUnits(e, args[0], unit)
		})
	}
	register("to_timestamp", 1, 1, bindToTimestamp)
	register("date_sub", 3, 3, bindDateSub)
	register("datesub", 3, 3, bindDateSub)
}

// bindPartName binds monthname or dayname: the English name f gives of
// the local day of a date or timestamp.
func bindPartName(e *Expr, a *node, f func(days int64) string) (*node, error) {
	src, err := timeArg(e, a)
	if err != nil {
		return nil, err
	}
	return &node{typ: datatype.String, src: e, eval: func(c *batch) (array.Array, error) {
		x, err := a.array(c)
		if err != nil {
			return nil, err
		}
		b := array.NewBinaryBuilder[int32](datatype.String)
		b.Reserve(x.Len())
		z := &zoneCache{loc: src.loc}
		for i := range x.Len() {
			if x.IsNull(i) {
				b.AppendNull()
				continue
			}
			days, _ := src.local(z, src.value(x, i))
			b.AppendString(f(days))
		}
		return b.NewArray(), nil
	}}, nil
}

// bindLastDay binds last_day(t): the date of the last day of the month
// of t (its local date), as DuckDB's.
func bindLastDay(e *Expr, args []*node) (*node, error) {
	return bindLocal(e, args[0], datatype.Date32Type, func(days, _ int64) (int64, error) {
		y, m, _ := civil(days)
		if m == 12 {
			y, m = y+1, 0
		}
		last := daysFromCivil(y, m+1, 1) - 1
		if last > math.MaxInt32 {
			return 0, fmt.Errorf("the month's last day is past the dates of date32: %w", datatype.ErrInvalid)
		}
		return last, nil
	})
}

// bindMakeDate binds make_date(year, month, day): a date32; a month or
// day that does not exist (2024-02-30) is an error naming the row, as in
// DuckDB.
func bindMakeDate(e *Expr, args []*node) (*node, error) {
	ns := make([]*node, 3)
	for i, a := range args {
		var err error
		if ns[i], err = intArg(e, a); err != nil {
			return nil, err
		}
	}
	return &node{typ: datatype.Date32Type, src: e, eval: func(c *batch) (array.Array, error) {
		var v [3]*array.Int64
		for k, a := range ns {
			x, err := a.array(c)
			if err != nil {
				return nil, err
			}
			v[k] = x.(*array.Int64)
		}
		b := array.NewPrimitiveBuilder[datatype.Date32](datatype.Date32Type)
		for i := range c.n {
			if v[0].IsNull(i) || v[1].IsNull(i) || v[2].IsNull(i) {
				b.AppendNull()
				continue
			}
			y, m, d := v[0].Value(i), v[1].Value(i), v[2].Value(i)
			if m < 1 || m > 12 || d < 1 || d > monthDays(y, m) || y < -5877641 || y > 5881580 {
				return nil, evalErr(e, fmt.Errorf("row %d: no date %d-%d-%d: %w", i, y, m, d, datatype.ErrInvalid))
			}
			days := daysFromCivil(y, m, d)
			if days < math.MinInt32 || days > math.MaxInt32 {
				return nil, evalErr(e, fmt.Errorf("row %d: %d-%d-%d is past the dates of date32: %w", i, y, m, d, datatype.ErrInvalid))
			}
			b.Append(datatype.Date32(days))
		}
		return b.NewArray(), nil
	}}, nil
}

// monthDays is the number of days of month m of year y.
func monthDays(y, m int64) int64 {
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

// bindEpochUnits binds epoch_ms, epoch_us and epoch_ns of a date or
// timestamp: the instant in units of unit nanoseconds since
// 1970-01-01 UTC, truncated toward zero as DuckDB's; one past int64 is
// an error naming the row.
func bindEpochUnits(e *Expr, a *node, unit int64) (*node, error) {
	src, err := timeArg(e, a)
	if err != nil {
		return nil, err
	}
	return &node{typ: datatype.Int64, src: e, eval: func(c *batch) (array.Array, error) {
		x, err := a.array(c)
		if err != nil {
			return nil, err
		}
		out := make([]int64, x.Len())
		for i := range out {
			if x.IsNull(i) {
				continue
			}
			v := src.value(x, i)
			if src.unit < unit {
				out[i] = v / (unit / src.unit)
				continue
			}
			k := src.unit / unit
			if v > math.MaxInt64/k || v < math.MinInt64/k {
				return nil, evalErr(e, fmt.Errorf("row %d: %d units of %d ns pass int64 units of %d ns: %w", i, v, src.unit, unit, datatype.ErrInvalid))
			}
			out[i] = v * k
		}
		return int64Array(out, x), nil
	}}, nil
}

// bindFromEpochMs binds epoch_ms(n) of an integer: the timestamp[us]
// (no zone) n milliseconds after 1970-01-01, as DuckDB's.
func bindFromEpochMs(e *Expr, a *node) (*node, error) {
	a, err := intArg(e, a)
	if err != nil {
		return nil, err
	}
	t, _ := datatype.NewTimestamp(datatype.Microsecond, "")
	return &node{typ: t, src: e, eval: func(c *batch) (array.Array, error) {
		x, err := a.array(c)
		if err != nil {
			return nil, err
		}
		ms := x.(*array.Int64)
		out := make([]int64, x.Len())
		for i := range out {
			if ms.IsNull(i) {
				continue
			}
			v := ms.Value(i)
			if v > math.MaxInt64/1000 || v < math.MinInt64/1000 {
				return nil, evalErr(e, fmt.Errorf("row %d: %d ms is past the timestamps of microseconds: %w", i, v, datatype.ErrInvalid))
			}
			out[i] = v * 1000
		}
		return timeArray(t, out, x)
	}}, nil
}

// bindToTimestamp binds to_timestamp(seconds): the timestamp[us, UTC]
// that many seconds (a float64) after 1970-01-01 UTC, rounded to the
// microsecond (halves to even, as DuckDB rounds); NaN, infinities and seconds past
// int64 microseconds are errors naming the row, as in DuckDB.
func bindToTimestamp(e *Expr, args []*node) (*node, error) {
	a := args[0]
	if !isNum(a.typ) && !isNull(a.typ) {
		return nil, errAt(e, datatype.ErrInvalid, "to_timestamp needs a number of seconds, not %s (%s)", a.typ, a.src)
	}
	a, err := castNode(a, datatype.Float64)
	if err != nil {
		return nil, err
	}
	t, _ := datatype.NewTimestamp(datatype.Microsecond, "UTC")
	return &node{typ: t, src: e, eval: func(c *batch) (array.Array, error) {
		x, err := a.array(c)
		if err != nil {
			return nil, err
		}
		secs := x.(*array.Float64)
		out := make([]int64, x.Len())
		for i := range out {
			if secs.IsNull(i) {
				continue
			}
			us := math.RoundToEven(secs.Value(i) * 1e6)
			if !(us > math.MinInt64 && us < math.MaxInt64) {
				return nil, evalErr(e, fmt.Errorf("row %d: %v seconds is past the timestamps of microseconds: %w", i, secs.Value(i), datatype.ErrInvalid))
			}
			out[i] = int64(us)
		}
		return timeArray(t, out, x)
	}}, nil
}

// bindDateSub binds date_sub(part, a, b): the number of whole parts from
// a to b, as DuckDB's (negative when b is before a; truncated toward
// zero). Calendar parts (year, quarter, month, decade, century,
// millennium) count whole months of the local dates and times, a start
// day past the end of a month that b ends on moved back to its last day
// (January 31 to February 29 is one month); week and day count whole
// days (and weeks of them); hour and finer the elapsed units. A
// timestamp with a zone is not supported: DuckDB counts those with ICU,
// whose results this does not reproduce.
func bindDateSub(e *Expr, args []*node) (*node, error) {
	part, err := unitName(e, args[0], diffUnits)
	if err != nil {
		return nil, err
	}
	a, b, src, err := timePair(e, args[1], args[2])
	if err != nil {
		return nil, err
	}
	if src.loc != nil {
		return nil, errAt(e, datatype.ErrNotSupported, "date_sub of a timestamp with a zone (%s)", a.typ)
	}
	step := diffUnits[part]
	monthsPer := map[string]int64{"year": 12, "quarter": 3, "month": 1, "decade": 120, "century": 1200, "millennium": 12000}[part]
	return pairToInt64(e, a, b, src, func(i int, za, zb *zoneCache, va, vb int64) (int64, error) {
		switch {
		case step == 0:
			da, na := src.local(za, va)
			db, nb := src.local(zb, vb)
			return wholeMonths(da, na, db, nb) / monthsPer, nil
		case step >= 86400e9:
			da, na := src.local(za, va)
			db, nb := src.local(zb, vb)
			days := db - da
			if days > 0 && nb < na {
				days--
			} else if days < 0 && nb > na {
				days++
			}
			return days / (step / 86400e9), nil
		}
		d := vb - va
		if (vb >= va) != (d >= 0) {
			return 0, evalErr(e, fmt.Errorf("row %d: the difference passes int64: %w", i, datatype.ErrInvalid))
		}
		if src.unit < step {
			return d / (step / src.unit), nil
		}
		k := src.unit / step
		if d > math.MaxInt64/k || d < math.MinInt64/k {
			return 0, evalErr(e, fmt.Errorf("row %d: the difference in %ss passes int64: %w", i, part, datatype.ErrInvalid))
		}
		return d * k, nil
	}), nil
}

// wholeMonths is the number of whole months from local day da, time na
// to day db, time nb, as DuckDB's date_sub counts them.
func wholeMonths(da, na, db, nb int64) int64 {
	if da > db || da == db && na > nb {
		return -wholeMonths(db, nb, da, na)
	}
	ys, ms, ds := civil(da)
	ye, me, de := civil(db)
	if last := monthDays(ye, me); de == last && ds > last {
		ds = last
	}
	months := (ye-ys)*12 + me - ms
	if de < ds || de == ds && nb < na {
		months--
	}
	return months
}
