package expr

import (
	"fmt"
	"math"
	"strings"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

func init() {
	for _, mode := range []string{"floor", "ceil", "round"} {
		register(mode+"_temporal", 2, 3, func(e *Expr, args []*node) (*node, error) { return bindTemporal(e, mode, args) })
	}
}

// roundUnits are the units of floor_temporal, ceil_temporal and
// round_temporal, and the length of the fixed ones in nanoseconds.
var roundUnits = map[string]int64{
	"year": 0, "quarter": 0, "month": 0, "week": 0, "day": 0,
	"hour": 3600e9, "minute": 60e9, "second": 1e9, "millisecond": 1e6, "microsecond": 1e3, "nanosecond": 1,
}

// bindTemporal binds floor_temporal(t, unit [, multiple]) and its ceil
// and round siblings (Arrow's names): t brought down (up, to the nearer;
// halfway goes up) to a multiple of multiple units (default 1) counted
// from 1970-01-01 00:00 in the local time of t's zone: weeks start on
// Monday (1969-12-29), months, quarters and years count from January
// 1970. A wall-clock result skipped by a DST change takes the offset
// before it, a repeated one the later instant (as timezone) unless that
// would put a floor after t.
func bindTemporal(e *Expr, mode string, args []*node) (*node, error) {
	a := args[0]
	src, err := timeArg(e, a)
	if err != nil {
		return nil, err
	}
	unit, err := constString(e, args[1], "the unit")
	if err != nil {
		return nil, err
	}
	unit = strings.ToLower(unit)
	if alias, ok := diffAliases[unit]; ok {
		unit = alias
	}
	if _, ok := roundUnits[unit]; !ok {
		return nil, errAt(e, datatype.ErrInvalid, "unknown %s unit %q", e.fn, unit)
	}
	mult := int64(1)
	if len(args) == 3 {
		m := args[2]
		if m.lit == nil || !isInt(m.typ) || !m.lit.Valid {
			return nil, errAt(e, datatype.ErrInvalid, "the multiple must be a constant integer, not %s", m.src)
		}
		s, err := castScalar(*m.lit, datatype.Int64)
		if err != nil {
			return nil, errAt(e, datatype.ErrInvalid, "multiple: %v", err)
		}
		if mult = s.Value.(int64); mult < 1 || mult > 1e9 {
			return nil, errAt(e, datatype.ErrInvalid, "the multiple must be 1 to 1e9, not %d", mult)
		}
	}
	per := int64(0)
	if !src.date {
		per = 1e9 / src.unit
	}
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
			days, nanos := src.local(z, v)
			fd, fn, ok := floorLocal(days, nanos, unit, mult)
			var r int64
			if ok {
				r, ok = src.fromLocal(z, fd, fn, per, false)
				if ok && r > v {
					// A repeated wall-clock time: the floor is the earlier one.
					r, ok = src.fromLocal(z, fd, fn, per, true)
				}
			}
			if ok && mode != "floor" && r != v {
				cd, cn, ok2 := nextLocal(fd, fn, unit, mult)
				c, ok3 := src.fromLocal(z, cd, cn, per, false)
				ok = ok2 && ok3
				if mode == "ceil" || v-r >= c-v {
					r = c
				}
			}
			if !ok {
				return nil, evalErr(e, fmt.Errorf("row %d: %s out of range: %w", i, valueText(x, i), datatype.ErrLimit))
			}
			out[i] = r
		}
		return timeArray(src.typ, out, x)
	}}, nil
}

// floorLocal is local day and nanoseconds brought down to a multiple of
// m units from the epoch.
func floorLocal(days, nanos int64, unit string, m int64) (int64, int64, bool) {
	switch unit {
	case "year", "quarter", "month":
		y, mo, d := civil(days)
		if unit == "month" && m == 1 {
			return days - d + 1, 0, true
		}
		k := monthsPer(unit) * m
		months := floorQ((y-1970)*12+mo-1, k) * k
		yy, mm := floorDiv(months, 12)
		return daysFromCivil(yy+1970, mm+1, 1), 0, true
	case "week":
		return floorQ(days+3, 7*m)*7*m - 3, 0, true
	case "day":
		return floorQ(days, m) * m, 0, true
	}
	step := roundUnits[unit]
	if step > math.MaxInt64/m {
		return 0, 0, false
	}
	step *= m
	if step < 86400e9 && 86400e9%step == 0 {
		return days, floorQ(nanos, step) * step, true
	}
	// A step that does not divide a day: count from the epoch.
	if days > math.MaxInt64/nsPerDay-1 || days < math.MinInt64/nsPerDay+1 {
		return 0, 0, false
	}
	t := floorQ(days*86400e9+nanos, step) * step
	d, n := floorDiv(t, 86400e9)
	return d, n, true
}

// nextLocal is the local time one step of m units after a floor.
func nextLocal(days, nanos int64, unit string, m int64) (int64, int64, bool) {
	switch unit {
	case "year", "quarter", "month":
		y, mo, _ := civil(days)
		k := monthsPer(unit) * m
		months := (y-1970)*12 + mo - 1 + k
		yy, mm := floorDiv(months, 12)
		return daysFromCivil(yy+1970, mm+1, 1), 0, true
	case "week":
		return days + 7*m, 0, true
	case "day":
		return days + m, 0, true
	}
	step := roundUnits[unit] * m
	d, n := floorDiv(nanos+step, 86400e9)
	return days + d, n, true
}

// fromLocal is the value of src's type at local day and nanoseconds.
// A repeated wall-clock time is the later instant, or the earlier one if
// earlier is set.
func (src *timeSource) fromLocal(z *zoneCache, days, nanos, per int64, earlier bool) (int64, bool) {
	if src.date {
		if src.unit == 86400e9 {
			return days, days >= math.MinInt32 && days <= math.MaxInt32
		}
		if days > math.MaxInt64/msPerDay || days < math.MinInt64/msPerDay {
			return 0, false
		}
		return days * 86400e3, true
	}
	if days > math.MaxInt64/86400-1 || days < math.MinInt64/86400+1 {
		return 0, false
	}
	sec, sub := floorDiv(nanos, 1e9)
	local := days*86400 + sec
	utc := local
	if src.loc != nil {
		utc = utcOfLocal(z, local)
		if before := local - z.offset(local-86400); earlier && before < utc && z.offset(before) == local-before {
			utc = before
		}
	}
	if utc > math.MaxInt64/per-1 || utc < math.MinInt64/per+1 {
		return 0, false
	}
	return utc*per + sub/src.unit, true
}

const (
	nsPerDay int64 = 86400e9
	msPerDay int64 = 86400e3
)

func monthsPer(unit string) int64 {
	switch unit {
	case "year":
		return 12
	case "quarter":
		return 3
	}
	return 1
}
