package expr

import (
	"strings"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// The parts of intervals, and date_part of dates, timestamps and
// intervals.

// intervalParts are the parts of an interval date_part and the named
// functions give, as DuckDB computes them (each part truncated toward
// zero, keeping its sign).
var intervalParts = map[string]func(x interval) int64{
	"year":        func(x interval) int64 { return int64(x.Months) / 12 },
	"quarter":     func(x interval) int64 { return int64(x.Months)%12/3 + 1 },
	"month":       func(x interval) int64 { return int64(x.Months) % 12 },
	"day":         func(x interval) int64 { return int64(x.Days) },
	"decade":      func(x interval) int64 { return int64(x.Months) / 120 },
	"century":     func(x interval) int64 { return int64(x.Months) / 1200 },
	"millennium":  func(x interval) int64 { return int64(x.Months) / 12000 },
	"hour":        func(x interval) int64 { return x.Nanoseconds / 3600e9 },
	"minute":      func(x interval) int64 { return x.Nanoseconds % 3600e9 / 60e9 },
	"second":      func(x interval) int64 { return x.Nanoseconds % 60e9 / 1e9 },
	"millisecond": func(x interval) int64 { return x.Nanoseconds % 60e9 / 1e6 },
	"microsecond": func(x interval) int64 { return x.Nanoseconds % 60e9 / 1e3 },
	"nanosecond":  func(x interval) int64 { return x.Nanoseconds % 60e9 },
}

// bindIntervalPart binds a part of an interval (see intervalParts), or
// its epoch: seconds in all, a year 365.25 days and a month 30, as
// DuckDB's (float64).
func bindIntervalPart(e *Expr, part string, a *node) (*node, error) {
	if part == "epoch" {
		return &node{typ: datatype.Float64, src: e, eval: func(c *batch) (array.Array, error) {
			get, err := intervalValues(c, a)
			if err != nil {
				return nil, err
			}
			out := make([]float64, c.n)
			valid := make([]bool, c.n)
			for i := range out {
				x, ok := get(i)
				if !ok {
					continue
				}
				years, months := int64(x.Months)/12, int64(x.Months)%12
				days := 365*years + 30*months + int64(x.Days)
				out[i] = float64(days*86400+years*86400/4) + float64(x.Nanoseconds)/1e9
				valid[i] = true
			}
			b := array.NewPrimitiveBuilder[float64](datatype.Float64)
			b.AppendValues(out, valid)
			return b.NewArray(), nil
		}}, nil
	}
	f, ok := intervalParts[part]
	if !ok {
		return nil, errAt(e, datatype.ErrInvalid, "an interval has no part %q", part)
	}
	return &node{typ: datatype.Int64, src: e, eval: func(c *batch) (array.Array, error) {
		get, err := intervalValues(c, a)
		if err != nil {
			return nil, err
		}
		out := make([]int64, c.n)
		valid := make([]bool, c.n)
		for i := range out {
			if x, ok := get(i); ok {
				out[i], valid[i] = f(x), true
			}
		}
		b := array.NewPrimitiveBuilder[int64](datatype.Int64)
		b.AppendValues(out, valid)
		return b.NewArray(), nil
	}}, nil
}

// partAliases are the other names date_part takes for a part.
var partAliases = map[string]string{
	"dow": "dayofweek", "weekday": "dayofweek", "doy": "dayofyear", "dayofmonth": "day",
	"w": "week", "mil": "millennium", "millenniums": "millennium", "cent": "century", "dec": "decade",
}

// bindDatePart binds date_part(part, x): the part (a constant string:
// year, month, …, as the functions of those names, epoch, and for
// intervals also decade, century and millennium) of a date, timestamp or
// interval.
func bindDatePart(e *Expr, args []*node) (*node, error) {
	part, err := constString(e, args[0], "the part")
	if err != nil {
		return nil, err
	}
	p := strings.ToLower(part)
	if alias, ok := diffAliases[p]; ok {
		p = alias
	}
	if alias, ok := partAliases[p]; ok {
		p = alias
	}
	x := args[1]
	if isInterval(x.typ) {
		return bindIntervalPart(e, p, x)
	}
	if p == "epoch" {
		return bindEpoch(e, x)
	}
	if _, isPart := intervalParts[p]; isPart || timeParts[p] {
		if f, ok := functions[p]; ok {
			return f.bind(e, []*node{x})
		}
	}
	return nil, errAt(e, datatype.ErrInvalid, "date_part of %q of %s", part, x.typ)
}

// bindEpoch binds date_part('epoch', t) of a date or timestamp: the
// seconds since 1970-01-01 00:00 UTC (of the wall-clock time, for a
// timestamp without a zone), as float64.
func bindEpoch(e *Expr, a *node) (*node, error) {
	src, err := timeArg(e, a)
	if err != nil {
		return nil, err
	}
	return unary(e, a, datatype.Float64, func(x array.Array) (array.Array, error) {
		out := make([]float64, x.Len())
		for i := range out {
			if x.IsValid(i) {
				if v := float64(src.value(x, i)); src.unit >= 1e9 {
					out[i] = v * float64(src.unit/1e9)
				} else {
					out[i] = v / float64(1e9/src.unit)
				}
			}
		}
		return float64Array(out, x), nil
	}), nil
}

// timeParts are the parts of dates and timestamps date_part takes
// besides those of intervals.
var timeParts = map[string]bool{"dayofweek": true, "dayofyear": true, "isodow": true, "week": true,
	"isoyear": true, "yearweek": true}
