package expr

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

func init() {
	parts := map[string]func(days, nanos int64) int64{
		"millisecond": func(_, n int64) int64 { return n % 60e9 / 1e6 },
		"microsecond": func(_, n int64) int64 { return n % 60e9 / 1e3 },
		"nanosecond":  func(_, n int64) int64 { return n % 60e9 },
		"isodow": func(d, _ int64) int64 {
			_, w := floorDiv(d+3, 7)
			return w + 1
		},
		"week":     func(d, _ int64) int64 { _, w := isoWeek(d); return w },
		"isoyear":  func(d, _ int64) int64 { y, _ := isoWeek(d); return y },
		"yearweek": func(d, _ int64) int64 { y, w := isoWeek(d); return y*100 + w },
		// Arrow's day_of_week (its default options): Monday 0 … Sunday 6.
		"day_of_week": func(d, _ int64) int64 { _, w := floorDiv(d+3, 7); return w },
		"decade":      func(d, _ int64) int64 { y, _, _ := civil(d); return y / 10 },
		"century":     func(d, _ int64) int64 { return yearGroup(d, 100) },
		"millennium":  func(d, _ int64) int64 { return yearGroup(d, 1000) },
	}
	parts["weekofyear"] = parts["week"]
	for name, f := range parts {
		register(name, 1, 1, func(e *Expr, args []*node) (*node, error) {
			if isInterval(args[0].typ) {
				return bindIntervalPart(e, name, args[0])
			}
			return bindPart(e, args[0], f)
		})
	}
	register("epoch", 1, 1, func(e *Expr, args []*node) (*node, error) {
		if isInterval(args[0].typ) {
			return bindIntervalPart(e, "epoch", args[0])
		}
		return bindEpoch(e, args[0])
	})
	register("date_diff", 3, 3, bindDateDiff)
	register("datediff", 3, 3, bindDateDiff)
	register("timezone", 2, 2, bindTimezone)
}

// yearGroup is the century (size 100) or millennium (1000) of a day
// number, as DuckDB counts them: 2000 is in the 20th century, 2001 in
// the 21st; year 0 (1 BC) and the 99 years before it in century -1.
func yearGroup(days, size int64) int64 {
	y, _, _ := civil(days)
	if y > 0 {
		return (y-1)/size + 1
	}
	return y/size - 1
}

// isoWeek is the ISO 8601 year and week of a day number: weeks start on
// Monday and week 1 is the one with the year's first Thursday.
func isoWeek(days int64) (year, week int64) {
	_, dow := floorDiv(days+3, 7) // days since Monday
	thu := days - dow + 3
	year, _, _ = civil(thu)
	return year, (thu-daysFromCivil(year, 1, 1))/7 + 1
}

// bindPart binds a part of a date or timestamp computed by f from the
// local day number and the nanoseconds into that day.
func bindPart(e *Expr, a *node, f func(days, nanos int64) int64) (*node, error) {
	return bindLocal(e, a, datatype.Int64, func(days, nanos int64) (int64, error) { return f(days, nanos), nil })
}

// bindLocal binds a value of type typ (int64 or a temporal type stored
// as int64) computed by f from the local day number and the nanoseconds
// into that day of each row of the date or timestamp a; an error of f
// names the row.
func bindLocal(e *Expr, a *node, typ datatype.DataType, f func(days, nanos int64) (int64, error)) (*node, error) {
	src, err := timeArg(e, a)
	if err != nil {
		return nil, err
	}
	return &node{typ: typ, src: e, eval: func(c *batch) (array.Array, error) {
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
			if out[i], err = f(src.local(z, src.value(x, i))); err != nil {
				return nil, evalErr(e, fmt.Errorf("row %d: %w", i, err))
			}
		}
		if typ.Kind() == datatype.KindInt64 {
			return int64Array(out, x), nil
		}
		return timeArray(typ, out, x)
	}}, nil
}

// diffUnits are date_diff's parts and, for the fixed ones, their length
// in nanoseconds.
var diffUnits = map[string]int64{
	"year": 0, "quarter": 0, "month": 0, "decade": 0, "century": 0, "millennium": 0,
	"week": 7 * 86400e9, "day": 86400e9, "hour": 3600e9, "minute": 60e9, "second": 1e9,
	"millisecond": 1e6, "microsecond": 1e3, "nanosecond": 1,
}

var diffAliases = map[string]string{
	"years": "year", "y": "year", "yr": "year", "yrs": "year", "quarters": "quarter",
	"months": "month", "mon": "month", "mons": "month", "weeks": "week", "w": "week",
	"days": "day", "d": "day", "hours": "hour", "h": "hour", "hr": "hour", "hrs": "hour",
	"minutes": "minute", "min": "minute", "mins": "minute", "m": "minute",
	"seconds": "second", "s": "second", "sec": "second", "secs": "second",
	"milliseconds": "millisecond", "ms": "millisecond", "msec": "millisecond",
	"microseconds": "microsecond", "us": "microsecond", "usec": "microsecond",
	"nanoseconds": "nanosecond", "ns": "nanosecond", "decades": "decade", "centuries": "century",
	"millennia": "millennium",
}

func unitName(e *Expr, a *node, known map[string]int64) (string, error) {
	p, err := constString(e, a, "the part")
	if err != nil {
		return "", err
	}
	p = strings.ToLower(p)
	if alias, ok := diffAliases[p]; ok {
		p = alias
	}
	if _, ok := known[p]; !ok {
		return "", errAt(e, datatype.ErrInvalid, "unknown %s part %q", e.fn, p)
	}
	return p, nil
}

// timePair brings a and b, dates or timestamps, to their common type.
func timePair(e *Expr, a, b *node) (*node, *node, *timeSource, error) {
	if !datatype.Equal(a.typ, b.typ) {
		t, ok := commonType(a.typ, b.typ, a.lit != nil, b.lit != nil)
		if !ok {
			return nil, nil, nil, errAt(e, datatype.ErrInvalid, "%s of %s and %s", e.fn, a.typ, b.typ)
		}
		var err error
		if a, err = castNode(a, t); err != nil {
			return nil, nil, nil, err
		}
		if b, err = castNode(b, t); err != nil {
			return nil, nil, nil, err
		}
	}
	src, err := timeArg(e, a)
	return a, b, src, err
}

// bindDateDiff binds date_diff(part, a, b): the number of part
// boundaries crossed from a to b, in the local time of the values' zone
// (calendar parts: years, quarters, months of the local dates, decades,
// centuries and millennia as year/10, year/100, year/1000 truncated as
// DuckDB does (so 1999 to 2000 is a century); week,
// day: local days, week: whole weeks of those days, truncated toward
// zero (DuckDB's count, not Monday boundaries); hour and finer: elapsed
// units, floored).
func bindDateDiff(e *Expr, args []*node) (*node, error) {
	part, err := unitName(e, args[0], diffUnits)
	if err != nil {
		return nil, err
	}
	a, b, src, err := timePair(e, args[1], args[2])
	if err != nil {
		return nil, err
	}
	step := diffUnits[part]
	return pairToInt64(e, a, b, src, func(i int, za, zb *zoneCache, va, vb int64) (int64, error) {
		da, _ := src.local(za, va)
		db, _ := src.local(zb, vb)
		switch part {
		case "year", "quarter", "month", "decade", "century", "millennium":
			ya, ma, _ := civil(da)
			yb, mb, _ := civil(db)
			switch part {
			case "year":
				return yb - ya, nil
			case "decade":
				return yb/10 - ya/10, nil // truncated, as DuckDB
			case "century":
				return yb/100 - ya/100, nil
			case "millennium":
				return yb/1000 - ya/1000, nil
			case "quarter":
				return yb*4 + (mb-1)/3 - ya*4 - (ma-1)/3, nil
			default:
				return yb*12 + mb - ya*12 - ma, nil
			}
		case "week":
			return (db - da) / 7, nil // whole weeks of days, as DuckDB
		case "day":
			return db - da, nil
		default:
			if src.date {
				k, d := nsPerDay/step, db-da
				if d > math.MaxInt64/k || d < math.MinInt64/k {
					return 0, evalErr(e, fmt.Errorf("row %d: date_diff in %ss overflows: %w", i, part, datatype.ErrLimit))
				}
				return d * k, nil
			}
			// Elapsed time: the zone does not matter.
			d, ok := elapsed(va, vb, src.unit, step)
			if !ok {
				return 0, evalErr(e, fmt.Errorf("row %d: date_diff in %ss overflows: %w", i, part, datatype.ErrLimit))
			}
			return d, nil
		}
	}), nil
}

// pairToInt64 is the node of an int64 function of two temporal values
// of src: f is called for each row where both are valid, with a zone
// cache per side, and its error ends the evaluation.
func pairToInt64(e *Expr, a, b *node, src *timeSource, f func(i int, za, zb *zoneCache, va, vb int64) (int64, error)) *node {
	return &node{typ: datatype.Int64, src: e, eval: func(c *batch) (array.Array, error) {
		x, err := a.array(c)
		if err != nil {
			return nil, err
		}
		y, err := b.array(c)
		if err != nil {
			return nil, err
		}
		out := make([]int64, x.Len())
		valid := make([]bool, x.Len())
		za, zb := &zoneCache{loc: src.loc}, &zoneCache{loc: src.loc}
		for i := range out {
			if x.IsNull(i) || y.IsNull(i) {
				continue
			}
			v, err := f(i, za, zb, src.value(x, i), src.value(y, i))
			if err != nil {
				return nil, err
			}
			out[i], valid[i] = v, true
		}
		return int64Valid(out, valid), nil
	}}
}

func floorQ(a, b int64) int64 { q, _ := floorDiv(a, b); return q }

// elapsed is floor(vb/step) - floor(va/step) for values of unit ns each.
func elapsed(va, vb, unit, step int64) (int64, bool) {
	if step >= unit {
		k := step / unit
		return floorQ(vb, k) - floorQ(va, k), true
	}
	k := unit / step
	d := vb - va
	if (vb >= va) != (d >= 0) || d > math.MaxInt64/k || d < math.MinInt64/k {
		return 0, false
	}
	return d * k, true
}

// int64Valid is vals with nulls where valid is false.
func int64Valid(vals []int64, valid []bool) array.Array {
	b := array.NewPrimitiveBuilder[int64](datatype.Int64)
	b.AppendValues(vals, valid)
	return b.NewArray()
}

// bindTimezone binds timezone(zone, t), DuckDB's AT TIME ZONE: a
// timestamp without a zone is read as wall-clock time in zone and becomes
// a timestamp with that zone (the same instant); a timestamp with a zone
// becomes the wall-clock time in zone, without a zone. A wall-clock time
// skipped by a DST change is read with the offset before the change; one
// that occurs twice, as the later instant (both as DuckDB's ICU does).
func bindTimezone(e *Expr, args []*node) (*node, error) {
	zone, err := constString(e, args[0], "the zone")
	if err != nil {
		return nil, err
	}
	loc, err := zoneOf(e, zone)
	if err != nil {
		return nil, err
	}
	if loc == nil {
		return nil, errAt(e, datatype.ErrInvalid, "unknown time zone %q", zone)
	}
	a := args[1]
	ts, ok := a.typ.(*datatype.TimestampType)
	if !ok {
		if a.typ.Kind() != datatype.KindDate32 && a.typ.Kind() != datatype.KindDate64 {
			return nil, errAt(e, datatype.ErrInvalid, "timezone needs a timestamp, not %s (%s)", a.typ, a.src)
		}
		t, _ := datatype.NewTimestamp(datatype.Microsecond, "")
		if a, err = castNode(a, t); err != nil {
			return nil, err
		}
		ts = t
	}
	src, err := timeArg(e, a)
	if err != nil {
		return nil, err
	}
	toZone := ts.TimeZone == ""
	out, _ := datatype.NewTimestamp(ts.Unit, "")
	if toZone {
		out, _ = datatype.NewTimestamp(ts.Unit, zone)
	}
	per := 1e9 / src.unit
	return &node{typ: out, src: e, eval: func(c *batch) (array.Array, error) {
		x, err := a.array(c)
		if err != nil {
			return nil, err
		}
		vals := make([]int64, x.Len())
		z := &zoneCache{loc: loc}
		for i := range vals {
			if x.IsNull(i) {
				continue
			}
			v := src.value(x, i)
			sec, sub := floorDiv(v, per)
			if toZone {
				sec = utcOfLocal(z, sec)
			} else {
				sec += z.offset(sec) // the instant as wall clock in zone
			}
			if sec > math.MaxInt64/per-1 || sec < math.MinInt64/per+1 {
				return nil, evalErr(e, fmt.Errorf("row %d: %s out of range in %s: %w", i, valueText(x, i), zone, datatype.ErrLimit))
			}
			vals[i] = sec*per + sub
		}
		return timeArray(out, vals, x)
	}}, nil
}

// utcOfLocal is the instant of the wall-clock second local in z's zone:
// the later one when it occurs twice, with the offset before the change
// when a change skipped it.
func utcOfLocal(z *zoneCache, local int64) int64 {
	if z.loc == nil || z.loc == time.UTC {
		return local
	}
	// Well inside the period last looked up (a day from either end, farther
	// than any change of offset moves a wall clock): the offset is that one.
	if u := local - z.off; u > z.start+86400 && u < z.end-86400 {
		return u
	}
	before, after := z.offset(local-86400), z.offset(local+86400)
	if u := local - after; z.offset(u) == after {
		return u
	}
	if u := local - before; z.offset(u) == before {
		return u
	}
	return local - before
}
