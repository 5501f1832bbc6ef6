package expr

import (
	"fmt"
	"math"
	"strings"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// Intervals (month_day_nano_interval) as values of columns: arithmetic
// with intervals and integers, comparisons, the to_* constructors. The
// arithmetic with dates and timestamps is in timeadd.go and timediff.go,
// the parts in intervalpart.go, text in intervaltext.go.

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
	toInterval("to_quarters", interval{Months: 3})
	toInterval("to_decades", interval{Months: 120})
	toInterval("to_centuries", interval{Months: 1200})
	toInterval("to_millennia", interval{Months: 12000})
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

// numValues is intervalValues for an int64 or float64 node.
func numValues[T int64 | float64](c *batch, n *node) (func(i int) (T, bool), error) {
	if n.lit != nil {
		v, ok := n.lit.Value.(T)
		return func(int) (T, bool) { return v, ok && n.lit.Valid }, nil
	}
	x, err := n.array(c)
	if err != nil {
		return nil, err
	}
	a, ok := x.(*array.Primitive[T])
	if !ok {
		return nil, fmt.Errorf("expr: %s is not a %T array: %w", x.DataType(), *new(T), datatype.ErrInvalid)
	}
	return func(i int) (T, bool) { return a.Value(i), a.IsValid(i) }, nil
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
			if getInt[k], err = numValues[int64](c, n); err != nil {
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
// and with numbers: interval ± interval, interval · integer, integer ·
// interval (each part checked), interval · float and float · interval
// (bindIntervalFloat).
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
		if isFloat(b.typ) {
			return bindIntervalFloat(e, a, b, false)
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
