package expr

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

func init() {
	for _, part := range []string{"year", "month", "day", "hour", "minute", "second", "quarter", "dayofweek", "dayofyear"} {
		register(part, 1, 1, func(e *Expr, args []*node) (*node, error) { return bindExtract(e, part, args[0]) })
	}
	register("date_trunc", 2, 2, bindDateTrunc)
	register("strftime", 2, 2, bindStrftime)
}

// instant is one time value: seconds and nanoseconds since the epoch in
// UTC, and the zone it is shown in.
type timeSource struct {
	loc   *time.Location // nil: UTC wall clock (no zone, or a date)
	unit  int64          // nanoseconds per unit of the values
	date  bool           // date32: days; date64: milliseconds
	typ   datatype.DataType
	value func(a array.Array, i int) int64
}

// zoneOf loads a timestamp's zone: "" is none, "UTC" and offsets like
// "+01:00" are fixed, other names are IANA zones of the system's database.
func zoneOf(e *Expr, tz string) (*time.Location, error) {
	switch {
	case tz == "":
		return nil, nil
	case strings.EqualFold(tz, "UTC") || tz == "Z":
		return time.UTC, nil
	case len(tz) == 6 && (tz[0] == '+' || tz[0] == '-') && tz[3] == ':':
		h, err1 := strconv.Atoi(tz[1:3])
		m, err2 := strconv.Atoi(tz[4:6])
		if err1 == nil && err2 == nil && h < 24 && m < 60 {
			off := h*3600 + m*60
			if tz[0] == '-' {
				off = -off
			}
			return time.FixedZone(tz, off), nil
		}
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return nil, errAt(e, datatype.ErrInvalid, "unknown time zone %q: %v", tz, err)
	}
	return loc, nil
}

var unitNanos = [...]int64{1e9, 1e6, 1e3, 1}

func timeArg(e *Expr, a *node) (*timeSource, error) {
	switch t := a.typ.(type) {
	case *datatype.TimestampType:
		loc, err := zoneOf(e, t.TimeZone)
		if err != nil {
			return nil, err
		}
		return &timeSource{loc: loc, unit: unitNanos[t.Unit], typ: t, value: func(a array.Array, i int) int64 {
			return int64(a.(*array.Timestamp).Value(i))
		}}, nil
	}
	switch a.typ.Kind() {
	case datatype.KindDate32:
		return &timeSource{unit: 86400e9, date: true, typ: a.typ, value: func(a array.Array, i int) int64 {
			return int64(a.(*array.Date32).Value(i))
		}}, nil
	case datatype.KindDate64:
		return &timeSource{unit: 1e6, date: true, typ: a.typ, value: func(a array.Array, i int) int64 {
			return int64(a.(*array.Date64).Value(i))
		}}, nil
	}
	return nil, errAt(e, datatype.ErrInvalid, "%s needs a date or timestamp, not %s (%s)", e.fn, a.typ, a.src)
}

func floorDiv(a, b int64) (q, r int64) {
	q, r = a/b, a%b
	if r < 0 {
		q--
		r += b
	}
	return q, r
}

// zoneCache remembers the zone periods looked up: the last one, and all
// of them sorted, so that values in random order cost a binary search,
// not a lookup in the zone database.
type zoneCache struct {
	loc        *time.Location
	start, end int64 // the period [start, end) in Unix seconds
	off        int64
	periods    []zonePeriod
}

type zonePeriod struct{ start, end, off int64 }

func (z *zoneCache) offset(sec int64) int64 {
	if z.loc == nil || z.loc == time.UTC {
		return 0
	}
	if sec >= z.start && sec < z.end {
		return z.off
	}
	k, _ := slices.BinarySearchFunc(z.periods, sec, func(p zonePeriod, s int64) int { return cmp.Compare(p.start, s) })
	if k > 0 && sec < z.periods[k-1].end {
		p := z.periods[k-1]
		z.start, z.end, z.off = p.start, p.end, p.off
		return z.off
	}
	t := time.Unix(sec, 0).In(z.loc)
	_, off := t.Zone()
	s, e := t.ZoneBounds()
	z.start, z.end, z.off = math.MinInt64, math.MaxInt64, int64(off)
	if !s.IsZero() {
		z.start = s.Unix()
	}
	if !e.IsZero() {
		z.end = e.Unix()
	}
	if len(z.periods) < 4096 {
		z.periods = slices.Insert(z.periods, k, zonePeriod{z.start, z.end, z.off})
	}
	return z.off
}

// civil is the proleptic Gregorian date of a day number (days since
// 1970-01-01).
func civil(days int64) (y, m, d int64) {
	z := days + 719468
	era, doe := floorDiv(z, 146097)
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	if mp < 10 {
		m = mp + 3
	} else {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

// local splits value v of src into the local day number and the
// nanoseconds into that day.
func (src *timeSource) local(z *zoneCache, v int64) (days, nanos int64) {
	if src.date {
		if src.unit == 86400e9 {
			return v, 0
		}
		days, ms := floorDiv(v, 86400e3)
		return days, ms * 1e6
	}
	sec, sub := floorDiv(v, 1e9/src.unit)
	sec += z.offset(sec)
	days, s := floorDiv(sec, 86400)
	return days, s*1e9 + sub*src.unit
}

func bindExtract(e *Expr, part string, a *node) (*node, error) {
	if isInterval(a.typ) {
		return bindIntervalPart(e, part, a)
	}
	src, err := timeArg(e, a)
	if err != nil {
		return nil, err
	}
	return &node{typ: datatype.Int64, src: e, eval: func(c *batch) (array.Array, error) {
		x, err := a.array(c)
		if err != nil {
			return nil, err
		}
		n := x.Len()
		out := make([]int64, n)
		z := &zoneCache{loc: src.loc}
		for i := range n {
			if x.IsNull(i) {
				continue
			}
			days, nanos := src.local(z, src.value(x, i))
			switch part {
			case "year":
				out[i], _, _ = civil(days)
			case "month":
				_, out[i], _ = civil(days)
			case "day":
				_, _, out[i] = civil(days)
			case "quarter":
				_, m, _ := civil(days)
				out[i] = (m + 2) / 3
			case "hour":
				out[i] = nanos / 3600e9
			case "minute":
				out[i] = nanos / 60e9 % 60
			case "second":
				out[i] = nanos / 1e9 % 60
			case "dayofweek": // Sunday 0 … Saturday 6, as DuckDB's dayofweek
				_, w := floorDiv(days+4, 7)
				out[i] = w
			case "dayofyear":
				y, _, _ := civil(days)
				out[i] = days - daysFromCivil(y, 1, 1) + 1
			}
		}
		return int64Array(out, x), nil
	}}, nil
}

// daysFromCivil is the day number of y-m-d.
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era, yoe := floorDiv(y, 400)
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// int64Array is vals with the nulls of like.
func int64Array(vals []int64, like array.Array) array.Array {
	return fixedOut(datatype.Int64, memory.FromSlice(vals), like)
}

var truncParts = map[string]bool{"millennium": true, "century": true, "decade": true, "year": true, "quarter": true,
	"month": true, "week": true, "day": true, "hour": true, "minute": true, "second": true,
	"millisecond": true, "microsecond": true}

func bindDateTrunc(e *Expr, args []*node) (*node, error) {
	part, err := constString(e, args[0], "the part")
	if err != nil {
		return nil, err
	}
	part = strings.ToLower(part)
	if !truncParts[part] {
		return nil, errAt(e, datatype.ErrInvalid, "unknown date_trunc part %q", part)
	}
	a := args[1]
	src, err := timeArg(e, a)
	if err != nil {
		return nil, err
	}
	loc := src.loc
	if loc == nil {
		loc = time.UTC
	}
	return &node{typ: a.typ, src: e, eval: func(c *batch) (array.Array, error) {
		x, err := a.array(c)
		if err != nil {
			return nil, err
		}
		n := x.Len()
		out := make([]int64, n)
		z := &zoneCache{loc: src.loc}
		for i := range n {
			if x.IsNull(i) {
				continue
			}
			v := src.value(x, i)
			days, nanos := src.local(z, v)
			y, m, d := civil(days)
			h, mi, s := nanos/3600e9, nanos/60e9%60, nanos/1e9%60
			switch part {
			case "millisecond", "microsecond":
				step := int64(1e6)
				if part == "microsecond" {
					step = 1e3
				}
				if src.date || step <= src.unit {
					out[i] = v
					continue
				}
				q, _ := floorDiv(v, step/src.unit)
				out[i] = q * (step / src.unit)
				continue
			case "second":
				// Zone offsets are whole seconds: truncate in UTC.
				if src.date || src.unit >= 1e9 {
					out[i] = v
					continue
				}
				q, _ := floorDiv(v, 1e9/src.unit)
				out[i] = q * (1e9 / src.unit)
				continue
			case "minute":
				s = 0
			case "hour":
				mi, s = 0, 0
			case "day":
				h, mi, s = 0, 0, 0
			case "week":
				_, dow := floorDiv(days+3, 7) // days since Monday
				y, m, d = civil(days - dow)
				h, mi, s = 0, 0, 0
			case "month":
				d, h, mi, s = 1, 0, 0, 0
			case "quarter":
				m, d, h, mi, s = (m-1)/3*3+1, 1, 0, 0, 0
			case "year", "decade", "century", "millennium":
				switch part {
				case "decade":
					y, _ = floorDiv(y, 10)
					y *= 10
				case "century":
					q, _ := floorDiv(y-1, 100)
					y = q*100 + 1
				case "millennium":
					q, _ := floorDiv(y-1, 1000)
					y = q*1000 + 1
				}
				m, d, h, mi, s = 1, 1, 0, 0, 0
			}
			if src.date {
				dd := daysFromCivil(y, m, d)
				if src.unit == 86400e9 {
					out[i] = dd
				} else {
					out[i] = dd * 86400e3
				}
				continue
			}
			t := time.Date(int(y), time.Month(m), int(d), int(h), int(mi), int(s), 0, loc)
			sec, f := t.Unix(), 1e9/src.unit
			if sec > math.MaxInt64/f || sec < math.MinInt64/f {
				return nil, evalErr(e, fmt.Errorf("row %d: %s truncated to the %s is out of range: %w",
					i, valueText(x, i), part, datatype.ErrLimit))
			}
			out[i] = sec * f
		}
		return timeArray(src.typ, out, x)
	}}, nil
}

// timeArray is vals as an array of type t with the nulls of like.
func timeArray(t datatype.DataType, vals []int64, like array.Array) (array.Array, error) {
	var valid []bool
	if like.NullN() > 0 {
		valid = make([]bool, len(vals))
		for i := range valid {
			valid[i] = like.IsValid(i)
		}
	}
	switch t.Kind() {
	case datatype.KindTimestamp:
		b := array.NewPrimitiveBuilder[datatype.Timestamp](t)
		b.AppendValues(castInts[datatype.Timestamp](vals), valid)
		return b.NewArray(), nil
	case datatype.KindDate32:
		b := array.NewPrimitiveBuilder[datatype.Date32](t)
		vs := make([]datatype.Date32, len(vals))
		for i, v := range vals {
			vs[i] = datatype.Date32(v)
		}
		b.AppendValues(vs, valid)
		return b.NewArray(), nil
	case datatype.KindDate64:
		b := array.NewPrimitiveBuilder[datatype.Date64](t)
		b.AppendValues(castInts[datatype.Date64](vals), valid)
		return b.NewArray(), nil
	}
	return nil, fmt.Errorf("expr: time values of %s: %w", t, datatype.ErrNotSupported)
}

func castInts[T ~int64](vals []int64) []T {
	out := make([]T, len(vals))
	for i, v := range vals {
		out[i] = T(v)
	}
	return out
}
