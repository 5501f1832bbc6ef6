package expr

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// Intervals (month_day_nano_interval) as values of columns: arithmetic
// with dates, timestamps, intervals and integers, comparisons, parts,
// casts from and to text. The arithmetic with times is in timeadd.go.

type interval = datatype.MonthDayNanoInterval

func init() {
	toInterval := func(name string, one interval) {
		register(name, 1, 1, func(e *Expr, args []*node) (*node, error) {
			n, err := intArg(e, args[0])
			if err != nil {
				return nil, err
			}
			return mapIntervals(e, []*node{n}, func(v []int64, _ []interval) (interval, error) {
				return scaleInterval(one, v[0])
			})
		})
	}
	toInterval("to_years", interval{Months: 12})
	toInterval("to_months", interval{Months: 1})
	toInterval("to_weeks", interval{Days: 7})
	toInterval("to_days", interval{Days: 1})
	toInterval("to_hours", interval{Nanoseconds: 3600e9})
	toInterval("to_minutes", interval{Nanoseconds: 60e9})
	toInterval("to_seconds", interval{Nanoseconds: 1e9})
	toInterval("to_milliseconds", interval{Nanoseconds: 1e6})
	toInterval("to_microseconds", interval{Nanoseconds: 1e3})
	register("date_part", 2, 2, bindDatePart)
}

func isInterval(t datatype.DataType) bool { return t.Kind() == datatype.KindMonthDayNanoInterval }

var errIntervalRange = fmt.Errorf("interval out of range: %w", compute.ErrOverflow)

// addIntervals is x + sign·y, part by part; an overflowing part is an
// error.
func addIntervals(x, y interval, sign int64) (interval, error) {
	m := int64(x.Months) + sign*int64(y.Months)
	d := int64(x.Days) + sign*int64(y.Days)
	n, ok := addInt64(x.Nanoseconds, sign*y.Nanoseconds)
	if !ok || y.Nanoseconds == math.MinInt64 && sign < 0 || m != int64(int32(m)) || d != int64(int32(d)) {
		return interval{}, errIntervalRange
	}
	return interval{Months: int32(m), Days: int32(d), Nanoseconds: n}, nil
}

// scaleInterval is x·k, part by part; an overflowing part is an error.
func scaleInterval(x interval, k int64) (interval, error) {
	m, ok1 := mulInt64(int64(x.Months), k)
	d, ok2 := mulInt64(int64(x.Days), k)
	n, ok3 := mulInt64(x.Nanoseconds, k)
	if !ok1 || !ok2 || !ok3 || m != int64(int32(m)) || d != int64(int32(d)) {
		return interval{}, errIntervalRange
	}
	return interval{Months: int32(m), Days: int32(d), Nanoseconds: n}, nil
}

func addInt64(a, b int64) (int64, bool) {
	r := a + b
	return r, (b >= 0) == (r >= a)
}

func mulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	r := a * b
	return r, r/b == a && !(a == -1 && b == math.MinInt64) && !(b == -1 && a == math.MinInt64)
}

// normInterval is x as DuckDB orders it: whole 30-day months of the days
// and nanoseconds moved to the months, whole days of the nanoseconds to
// the days (each part keeping its sign); intervals compare by these
// three numbers in turn.
func normInterval(x interval) [3]int64 {
	const month, day = 30 * 86400e9, 86400e9
	n := x.Nanoseconds
	m := int64(x.Months) + int64(x.Days)/30 + n/month
	n %= month
	d := int64(x.Days)%30 + n/day
	return [3]int64{m, d, n % day}
}

func compareIntervals(x, y interval) int {
	a, b := normInterval(x), normInterval(y)
	for k := range a {
		switch {
		case a[k] < b[k]:
			return -1
		case a[k] > b[k]:
			return 1
		}
	}
	return 0
}

// intervalArg brings a to an interval: an interval, a null, or a string
// literal read as interval text.
func intervalArg(e *Expr, a *node) (*node, error) {
	switch {
	case isInterval(a.typ):
		return a, nil
	case isNull(a.typ):
		return castNode(a, datatype.MonthDayNanoIntervalType)
	case isStringy(a.typ) && isLit(a) && a.lit.Valid:
		iv, err := parseInterval(a.lit.Value.(string))
		if err != nil {
			return nil, &exprError{e: a.src, err: err}
		}
		return constant(a.src, compute.Scalar{Type: datatype.MonthDayNanoIntervalType, Valid: true, Value: iv}), nil
	}
	return nil, errAt(e, datatype.ErrInvalid, "%s needs an interval, not %s (%s)", e.fn, a.typ, a.src)
}

// bindIntervalCompare binds a comparison of two intervals (a null or a
// string literal on one side is taken as one), as DuckDB orders them:
// see normInterval.
func bindIntervalCompare(e *Expr, op compute.CompareOp, a, b *node) (*node, error) {
	x, err := intervalArg(e, a)
	if err != nil {
		return nil, err
	}
	y, err := intervalArg(e, b)
	if err != nil {
		return nil, err
	}
	test := [...]func(int) bool{
		compute.Eq: func(c int) bool { return c == 0 }, compute.Ne: func(c int) bool { return c != 0 },
		compute.Lt: func(c int) bool { return c < 0 }, compute.Le: func(c int) bool { return c <= 0 },
		compute.Gt: func(c int) bool { return c > 0 }, compute.Ge: func(c int) bool { return c >= 0 },
	}[op]
	return &node{typ: datatype.Bool, src: e, cols: unionCols([]*node{x, y}), eval: func(c *batch) (array.Array, error) {
		xs, err := intervalValues(c, x)
		if err != nil {
			return nil, err
		}
		ys, err := intervalValues(c, y)
		if err != nil {
			return nil, err
		}
		b := array.NewBooleanBuilder(datatype.Bool)
		b.Reserve(c.n)
		for i := range c.n {
			u, uok := xs(i)
			v, vok := ys(i)
			if !uok || !vok {
				b.AppendNull()
				continue
			}
			b.Append(test(compareIntervals(u, v)))
		}
		return b.NewArray(), nil
	}}, nil
}

// bindIntervalIn binds x IN (values…) of an interval: x = v OR …, the
// intervals compared as bindIntervalCompare compares them.
func bindIntervalIn(e *Expr, x *node, values []*node) (*node, error) {
	var in *node
	for _, v := range values {
		eq, err := bindIntervalCompare(e, compute.Eq, x, v)
		if err != nil {
			return nil, err
		}
		if in == nil {
			in = eq
		} else if in, err = bindKleene(e, false, in, eq); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// intervalValues evaluates n (an interval) over c: row i's value, and
// false where it is null.
func intervalValues(c *batch, n *node) (func(i int) (interval, bool), error) {
	if n.lit != nil {
		v, ok := n.lit.Value.(interval)
		return func(int) (interval, bool) { return v, ok && n.lit.Valid }, nil
	}
	x, err := n.array(c)
	if err != nil {
		return nil, err
	}
	a, ok := x.(*array.MonthDayNano)
	if !ok {
		return nil, fmt.Errorf("expr: %s is not an interval array: %w", x.DataType(), datatype.ErrInvalid)
	}
	return func(i int) (interval, bool) { return a.Value(i), a.IsValid(i) }, nil
}

// int64Values is intervalValues for an int64 node.
func int64Values(c *batch, n *node) (func(i int) (int64, bool), error) {
	if n.lit != nil {
		v, ok := n.lit.Value.(int64)
		return func(int) (int64, bool) { return v, ok && n.lit.Valid }, nil
	}
	x, err := n.array(c)
	if err != nil {
		return nil, err
	}
	a, ok := x.(*array.Int64)
	if !ok {
		return nil, fmt.Errorf("expr: %s is not an int64 array: %w", x.DataType(), datatype.ErrInvalid)
	}
	return func(i int) (int64, bool) { return a.Value(i), a.IsValid(i) }, nil
}

// mapIntervals is f of the values of ints (int64 nodes) and ivs
// (interval nodes), row by row, as an interval array: null where one is;
// an error of f names the row.
func mapIntervals(e *Expr, ints []*node, f func(v []int64, iv []interval) (interval, error), ivs ...*node) (*node, error) {
	return &node{typ: datatype.MonthDayNanoIntervalType, src: e, cols: unionCols(append(append([]*node(nil), ints...), ivs...)), eval: func(c *batch) (array.Array, error) {
		getInt := make([]func(int) (int64, bool), len(ints))
		getIv := make([]func(int) (interval, bool), len(ivs))
		for k, n := range ints {
			var err error
			if getInt[k], err = int64Values(c, n); err != nil {
				return nil, err
			}
		}
		for k, n := range ivs {
			var err error
			if getIv[k], err = intervalValues(c, n); err != nil {
				return nil, err
			}
		}
		b := array.NewPrimitiveBuilder[interval](datatype.MonthDayNanoIntervalType)
		b.Reserve(c.n)
		v, w := make([]int64, len(ints)), make([]interval, len(ivs))
	rows:
		for i := range c.n {
			for k, g := range getInt {
				var ok bool
				if v[k], ok = g(i); !ok {
					b.AppendNull()
					continue rows
				}
			}
			for k, g := range getIv {
				var ok bool
				if w[k], ok = g(i); !ok {
					b.AppendNull()
					continue rows
				}
			}
			r, err := f(v, w)
			if err != nil {
				return nil, evalErr(e, fmt.Errorf("row %d: %w", i, err))
			}
			b.Append(r)
		}
		return b.NewArray(), nil
	}}, nil
}

// bindIntervalOnly binds the arithmetic of intervals with each other
// and with integers: interval ± interval, interval · integer, integer ·
// interval (each part checked). ok is false when neither a nor b is an
// interval.
func bindIntervalOnly(e *Expr, a, b *node) (*node, error) {
	switch e.fn {
	case "add", "add_checked", "subtract", "subtract_checked":
		x, err := intervalArg(e, a)
		if err != nil {
			return nil, err
		}
		y, err := intervalArg(e, b)
		if err != nil {
			return nil, err
		}
		sign := int64(1)
		if strings.HasPrefix(e.fn, "subtract") {
			sign = -1
		}
		return mapIntervals(e, nil, func(_ []int64, iv []interval) (interval, error) {
			return addIntervals(iv[0], iv[1], sign)
		}, x, y)
	case "multiply", "multiply_checked":
		if isInterval(b.typ) {
			a, b = b, a
		}
		if !isInterval(a.typ) {
			return nil, errAt(e, datatype.ErrInvalid, "%s of %s and %s", e.fn, a.typ, b.typ)
		}
		k, err := intArg(e, b)
		if err != nil {
			return nil, err
		}
		return mapIntervals(e, []*node{k}, func(v []int64, iv []interval) (interval, error) {
			return scaleInterval(iv[0], v[0])
		}, a)
	}
	return nil, errAt(e, datatype.ErrInvalid, "%s of %s and %s", e.fn, a.typ, b.typ)
}

// bindIntervalNeg binds -x of an interval (each part negated, checked).
func bindIntervalNeg(e *Expr, a *node) (*node, error) {
	return mapIntervals(e, nil, func(_ []int64, iv []interval) (interval, error) {
		return addIntervals(interval{}, iv[0], -1)
	}, a)
}

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

// parseInterval reads interval text as DuckDB writes it: numbers with
// units ("1 year 2 months -3 days", "1.5 hours", units as interval('…')
// takes them, and nanosecond; see scaleIntervalRat for fractions), and a
// time of day with an optional sign and fraction ("-01:02:03.5",
// "1:30"); a lone number is seconds.
func parseInterval(text string) (interval, error) {
	f := strings.Fields(text)
	if len(f) == 0 {
		return interval{}, fmt.Errorf("interval %q is empty: %w", text, datatype.ErrInvalid)
	}
	var iv interval
	for k := 0; k < len(f); k++ {
		var add interval
		if strings.Contains(f[k], ":") {
			n, err := parseClock(f[k])
			if err != nil {
				return interval{}, fmt.Errorf("interval %q: %v: %w", text, err, datatype.ErrInvalid)
			}
			add.Nanoseconds = n
		} else {
			num, ok := new(big.Rat).SetString(f[k])
			if !ok || strings.ContainsAny(f[k], "/eE") {
				return interval{}, fmt.Errorf("interval %q: %q is not a number: %w", text, f[k], datatype.ErrInvalid)
			}
			one := interval{Nanoseconds: 1e9}
			if k+1 < len(f) {
				k++
				u := strings.ToLower(f[k])
				if alias, ok := diffAliases[u]; ok {
					u = alias
				}
				var ok bool
				if one, ok = intervalUnits[u]; !ok && u != "nanosecond" {
					return interval{}, fmt.Errorf("interval %q: unknown unit %q: %w", text, f[k], datatype.ErrInvalid)
				} else if !ok {
					one = interval{Nanoseconds: 1}
				}
			}
			var ok2 bool
			if add, ok2 = scaleIntervalRat(one, num); !ok2 {
				return interval{}, fmt.Errorf("interval %q is out of range: %w", text, datatype.ErrLimit)
			}
		}
		var err error
		if iv, err = addIntervals(iv, add, 1); err != nil {
			return interval{}, fmt.Errorf("interval %q is out of range: %w", text, datatype.ErrLimit)
		}
	}
	return iv, nil
}

// scaleIntervalRat is one·r, the fractions of months spilled into days
// of 30, of days into nanoseconds, as DuckDB's interval text does ("1.5
// days" is 1 day 12 hours); finer than a nanosecond is truncated. ok is
// false out of range.
func scaleIntervalRat(one interval, r *big.Rat) (interval, bool) {
	whole := func(x *big.Rat) (*big.Int, *big.Rat) {
		q := new(big.Int).Quo(x.Num(), x.Denom())
		return q, new(big.Rat).Sub(x, new(big.Rat).SetInt(q))
	}
	months, rest := whole(new(big.Rat).Mul(r, big.NewRat(int64(one.Months), 1)))
	d := new(big.Rat).Mul(r, big.NewRat(int64(one.Days), 1))
	days, rest := whole(d.Add(d, rest.Mul(rest, big.NewRat(30, 1))))
	n := new(big.Rat).Mul(r, big.NewRat(one.Nanoseconds, 1))
	nanos, _ := whole(n.Add(n, rest.Mul(rest, big.NewRat(86400e9, 1))))
	if !months.IsInt64() || !days.IsInt64() || !nanos.IsInt64() ||
		months.Int64() != int64(int32(months.Int64())) || days.Int64() != int64(int32(days.Int64())) {
		return interval{}, false
	}
	return interval{Months: int32(months.Int64()), Days: int32(days.Int64()), Nanoseconds: nanos.Int64()}, true
}

// parseClock reads [-+]h:mm[:ss[.fffffffff]] as nanoseconds.
func parseClock(s string) (int64, error) {
	sign := int64(1)
	switch {
	case strings.HasPrefix(s, "-"):
		sign, s = -1, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	hms := strings.Split(s, ":")
	if len(hms) > 3 {
		return 0, fmt.Errorf("%q is not a time", s)
	}
	frac := int64(0)
	if last := hms[len(hms)-1]; len(hms) == 3 && strings.Contains(last, ".") {
		whole, digits, _ := strings.Cut(last, ".")
		if len(digits) == 0 || len(digits) > 9 {
			return 0, fmt.Errorf("%q: a fraction of 1 to 9 digits", s)
		}
		v, err := strconv.ParseUint(digits, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%q is not a time", s)
		}
		frac = int64(v) * int64(math.Pow10(9-len(digits)))
		hms[2] = whole
	}
	total := int64(0)
	for k, part := range hms {
		v, err := strconv.ParseUint(part, 10, 32)
		if err != nil || k > 0 && (len(part) != 2 || v > 59) {
			return 0, fmt.Errorf("%q is not a time", s)
		}
		total = total*60 + int64(v)
	}
	if len(hms) == 2 {
		total *= 60 // h:mm
	}
	if total > math.MaxInt64/1_000_000_000-1 {
		return 0, fmt.Errorf("%q is out of range", s)
	}
	return sign * (total*1e9 + frac), nil
}

// formatInterval is x as DuckDB prints an INTERVAL: years, months and
// days with their units, then the time as [-]hh:mm:ss[.ffffff…]
// (fraction digits up to the nanosecond, trailing zeros dropped);
// "00:00:00" for zero.
func formatInterval(dst []byte, x interval) []byte {
	start := len(dst)
	unit := func(n int64, name string) {
		if n == 0 {
			return
		}
		if len(dst) > start {
			dst = append(dst, ' ')
		}
		dst = strconv.AppendInt(dst, n, 10)
		dst = append(dst, ' ')
		dst = append(dst, name...)
		if n != 1 && n != -1 {
			dst = append(dst, 's')
		}
	}
	unit(int64(x.Months)/12, "year")
	unit(int64(x.Months)%12, "month")
	unit(int64(x.Days), "day")
	if x.Nanoseconds == 0 && len(dst) > start {
		return dst
	}
	if len(dst) > start {
		dst = append(dst, ' ')
	}
	n := x.Nanoseconds
	u := uint64(n)
	if n < 0 {
		dst = append(dst, '-')
		u = uint64(-n) // -MinInt64 is its own two's complement: right as uint64
	}
	h, rest := u/3600e9, u%3600e9
	if h < 10 {
		dst = append(dst, '0')
	}
	dst = strconv.AppendUint(dst, h, 10)
	dst = append(dst, ':', byte('0'+rest/600e9), byte('0'+rest/60e9%10), ':',
		byte('0'+rest%60e9/10e9), byte('0'+rest%10e9/1e9))
	if frac := rest % 1e9; frac != 0 {
		digits := []byte(fmt.Sprintf(".%09d", frac))
		for digits[len(digits)-1] == '0' {
			digits = digits[:len(digits)-1]
		}
		dst = append(dst, digits...)
	}
	return dst
}

// bindIntervalCast binds CAST(x AS INTERVAL) of a string (read as
// parseInterval reads it; text that is no interval is an error naming
// the row) and CAST(x AS VARCHAR) of an interval (formatInterval). ok is
// false for other casts.
func bindIntervalCast(e *Expr, a *node) (n *node, ok bool, err error) {
	switch {
	case isInterval(e.typ) && (isInterval(a.typ) || isNull(a.typ)):
		n, err = castNodeAs(a, e.typ, e)
		return n, true, err
	case isInterval(e.typ) && isStringy(a.typ):
		return &node{typ: e.typ, src: e, eval: func(c *batch) (array.Array, error) {
			ss, err := evalStrings(e, c, []*node{a})
			if err != nil {
				return nil, err
			}
			s := ss[0]
			b := array.NewPrimitiveBuilder[interval](e.typ)
			b.Reserve(c.n)
			for i := range c.n {
				j := slot(s, i)
				if s.IsNull(j) {
					b.AppendNull()
					continue
				}
				iv, err := parseInterval(string(s.Value(j)))
				if err != nil {
					return nil, evalErr(e, fmt.Errorf("row %d: %w", i, err))
				}
				b.Append(iv)
			}
			return b.NewArray(), nil
		}}, true, nil
	case isInterval(e.typ):
		return nil, true, errAt(e, datatype.ErrNotSupported, "CAST of %s to INTERVAL", a.typ)
	case isInterval(a.typ) && (e.typ.Kind() == datatype.KindString || e.typ.Kind() == datatype.KindLargeString):
		return &node{typ: e.typ, src: e, eval: func(c *batch) (array.Array, error) {
			get, err := intervalValues(c, a)
			if err != nil {
				return nil, err
			}
			b := array.NewBinaryBuilder[int32](datatype.String)
			b.Reserve(c.n)
			var buf []byte
			for i := range c.n {
				x, ok := get(i)
				if !ok {
					b.AppendNull()
					continue
				}
				buf = formatInterval(buf[:0], x)
				b.Append(buf)
			}
			out := b.NewArray()
			if e.typ.Kind() == datatype.KindString {
				return out, nil
			}
			return compute.Cast(out, e.typ)
		}}, true, nil
	case isInterval(a.typ):
		return nil, true, errAt(e, datatype.ErrNotSupported, "CAST of an interval to %s", typeName(e.typ))
	}
	return nil, false, nil
}
