package expr

import (
	"fmt"
	"math"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// An interval times or divided by a float, as DuckDB computes it
// (PostgreSQL's interval_mul): each part multiplied, the fraction of the
// months carried to days (30 a month), the fractions of the days to time
// (86400 s a day), both rounded to the microsecond; the time part is
// then x.Nanoseconds·f plus the carried time, rounded half to even to
// the nanosecond (DuckDB rounds to the microsecond).

// scaleIntervalFloat is x·f. A part out of range, or an f that is not
// finite, is an error. The products are converted explicitly so that the
// compiler does not fuse them with the sums (a fused multiply-add rounds
// differently from DuckDB's code).
func scaleIntervalFloat(x interval, f float64) (interval, error) {
	const daysPerMonth, secsPerDay = 30, 86400
	inInt32 := func(v float64) bool { return !math.IsNaN(v) && v >= math.MinInt32 && v <= math.MaxInt32 }
	m := float64(float64(x.Months) * f)
	d := float64(float64(x.Days) * f)
	if !inInt32(m) || !inInt32(d) {
		return interval{}, errIntervalRange
	}
	months, days := int64(m), int64(d)
	monthRem := microRound(float64((m - float64(months)) * daysPerMonth))
	dayRem := int64(monthRem)
	sec := microRound(float64((d - float64(days) + monthRem - float64(dayRem)) * secsPerDay))
	if math.Abs(sec) >= secsPerDay {
		k := int64(sec / secsPerDay)
		days += k
		sec -= float64(float64(k) * secsPerDay)
	}
	days += dayRem
	n := math.RoundToEven(float64(float64(x.Nanoseconds)*f) + float64(sec*1e9))
	if days != int64(int32(days)) || !(n >= math.MinInt64 && n < math.MaxInt64) {
		return interval{}, errIntervalRange
	}
	return interval{Months: int32(months), Days: int32(days), Nanoseconds: int64(n)}, nil
}

// microRound is x (seconds, or days) rounded half to even to its sixth
// decimal, as PostgreSQL's TSROUND and DuckDB round.
func microRound(x float64) float64 { return math.RoundToEven(float64(x*1e6)) / 1e6 }

// bindIntervalFloat binds iv · k (or iv / k when divide) for a number k
// as a float64: DuckDB's INTERVAL * DOUBLE and INTERVAL / DOUBLE. A
// division by zero is null, as in DuckDB; an error names the row.
func bindIntervalFloat(e *Expr, iv, k *node, divide bool) (*node, error) {
	if !isInterval(iv.typ) {
		return nil, errAt(e, datatype.ErrInvalid, "%s of %s and %s", e.fn, iv.typ, k.typ)
	}
	f, err := floatArg(e, k)
	if err != nil {
		return nil, err
	}
	return &node{typ: datatype.MonthDayNanoIntervalType, src: e, cols: unionCols([]*node{iv, f}), eval: func(c *batch) (array.Array, error) {
		xs, err := intervalValues(c, iv)
		if err != nil {
			return nil, err
		}
		fs, err := numValues[float64](c, f)
		if err != nil {
			return nil, err
		}
		b := array.NewPrimitiveBuilder[interval](datatype.MonthDayNanoIntervalType)
		b.Reserve(c.n)
		for i := range c.n {
			x, xok := xs(i)
			y, yok := fs(i)
			if !xok || !yok || divide && y == 0 {
				b.AppendNull()
				continue
			}
			if divide {
				y = 1 / y
			}
			r, err := scaleIntervalFloat(x, y)
			if err != nil {
				return nil, evalErr(e, fmt.Errorf("row %d: %w", i, err))
			}
			b.Append(r)
		}
		return b.NewArray(), nil
	}}, nil
}
