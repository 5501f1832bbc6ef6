package expr

import (
	"fmt"
	"math"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

func init() {
	register("make_timestamp", 1, 6, bindMakeTimestamp)
}

// DuckDB's range of TIMESTAMP microseconds (290309-12-22 BC to
// 294247-01-10).
const minTimestampUS, maxTimestampUS = -9223372022400000000, math.MaxInt64 - 1

// bindMakeTimestamp binds make_timestamp(micros) (the timestamp[us]
// micros after 1970-01-01) and make_timestamp(year, month, day, hour,
// minute, seconds) (seconds a float), as DuckDB's: whole seconds rounded
// half to even (up to 60: 60.5 is a minute and half a second on, 60.7
// an error), the rest rounded half to even to the microsecond; hour 24
// with nothing after it is the next midnight; a date or time out of
// range is an error naming the row.
func bindMakeTimestamp(e *Expr, args []*node) (*node, error) {
	t, _ := datatype.NewTimestamp(datatype.Microsecond, "")
	if len(args) != 1 && len(args) != 6 {
		return nil, errAt(e, datatype.ErrInvalid, "make_timestamp takes 1 or 6 arguments, not %d", len(args))
	}
	ints := make([]*node, 0, 5)
	for _, a := range args[:min(len(args), 5)] {
		n, err := intArg(e, a)
		if err != nil {
			return nil, err
		}
		ints = append(ints, n)
	}
	var sec *node
	if len(args) == 6 {
		if !isNum(args[5].typ) && !isNull(args[5].typ) {
			return nil, errAt(e, datatype.ErrInvalid, "make_timestamp needs a number of seconds, not %s (%s)", args[5].typ, args[5].src)
		}
		var err error
		if sec, err = castNode(args[5], datatype.Float64); err != nil {
			return nil, err
		}
	}
	return &node{typ: t, src: e, eval: func(c *batch) (array.Array, error) {
		v := make([]*array.Int64, len(ints))
		for k, a := range ints {
			x, err := a.array(c)
			if err != nil {
				return nil, err
			}
			v[k] = x.(*array.Int64)
		}
		var s *array.Float64
		if sec != nil {
			x, err := sec.array(c)
			if err != nil {
				return nil, err
			}
			s = x.(*array.Float64)
		}
		b := array.NewPrimitiveBuilder[datatype.Timestamp](t)
	rows:
		for i := range c.n {
			for _, x := range v {
				if x.IsNull(i) {
					b.AppendNull()
					continue rows
				}
			}
			if s != nil && s.IsNull(i) {
				b.AppendNull()
				continue
			}
			var us int64
			var err error
			if s == nil {
				us = v[0].Value(i)
				if us < minTimestampUS || us > maxTimestampUS {
					err = fmt.Errorf("%d microseconds is out of range", us)
				}
			} else {
				us, err = timestampOf(v[0].Value(i), v[1].Value(i), v[2].Value(i), v[3].Value(i), v[4].Value(i), s.Value(i))
			}
			if err != nil {
				return nil, evalErr(e, fmt.Errorf("row %d: %w: %w", i, err, datatype.ErrInvalid))
			}
			b.Append(datatype.Timestamp(us))
		}
		return b.NewArray(), nil
	}}, nil
}

// timestampOf is the microseconds since 1970 of a date and time, checked
// as DuckDB's make_timestamp checks them.
func timestampOf(y, mo, d, h, mi int64, sec float64) (int64, error) {
	if mo < 1 || mo > 12 || d < 1 || d > monthDays(y, mo) || y < -290308 || y > 294247 {
		return 0, fmt.Errorf("no date %d-%d-%d", y, mo, d)
	}
	// As DuckDB: whole seconds rounded half to even, the rest (negative
	// when that rounded up) rounded so to microseconds.
	whole := math.RoundToEven(sec)
	if !(whole >= 0 && whole <= 60) || h < 0 || h > 24 || mi < 0 || mi > 59 {
		return 0, fmt.Errorf("no time %d:%d:%v", h, mi, sec)
	}
	secs, micros := int64(whole), int64(math.RoundToEven((sec-whole)*1e6))
	clock := h*3600e6 + mi*60e6 + secs*1e6 + micros
	if clock < 0 || h == 24 && clock != 24*3600e6 {
		return 0, fmt.Errorf("no time %d:%d:%v", h, mi, sec)
	}
	us, ok := mulInt64(daysFromCivil(y, mo, d), usPerDay)
	if ok {
		us, ok = addInt64(us, clock)
	}
	if !ok || us < minTimestampUS || us > maxTimestampUS {
		return 0, fmt.Errorf("%d-%d-%d %d:%d:%v is out of range", y, mo, d, h, mi, sec)
	}
	return us, nil
}
