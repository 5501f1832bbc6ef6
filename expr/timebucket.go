package expr

import (
	"fmt"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

func init() {
	register("time_bucket", 2, 3, bindTimeBucket)
}

const usPerDay = 86400e6

// bindTimeBucket binds time_bucket(width, t [, origin | offset]) of a
// date or a timestamp without a zone, as DuckDB's: width a constant
// interval of months only, or of days and time only (positive); month
// buckets are counted in whole months from the origin's month
// (2000-01-01 when absent), the others in elapsed time from the origin
// (2000-01-03 00:00:00, a Monday, when absent); an offset interval moves
// the buckets by that much. The result has t's type.
func bindTimeBucket(e *Expr, args []*node) (*node, error) {
	width, err := constInterval(e, args[0], "the width")
	if err != nil {
		return nil, err
	}
	if width.Months != 0 && (width.Days != 0 || width.Nanoseconds != 0) {
		return nil, errAt(e, datatype.ErrInvalid, "a width of months cannot have days or time (%s)", args[0].src)
	}
	wUS, ok := intervalMicros(width)
	if width.Months < 0 || width.Months == 0 && (!ok || wUS <= 0) {
		return nil, errAt(e, datatype.ErrInvalid, "the width must be positive whole microseconds or months (%s)", args[0].src)
	}
	a := args[1]
	src, err := timeArg(e, a)
	if err != nil {
		return nil, err
	}
	if src.loc != nil {
		return nil, errAt(e, datatype.ErrNotSupported, "time_bucket of a timestamp with a zone (%s)", a.typ)
	}
	origin := daysFromCivil(2000, 1, 3) * usPerDay
	if width.Months != 0 {
		origin = daysFromCivil(2000, 1, 1) * usPerDay
	}
	var offset int64
	if len(args) > 2 {
		o := args[2]
		if isInterval(o.typ) || isStringy(o.typ) && isLit(o) {
			iv, err := constInterval(e, o, "the offset")
			if err != nil {
				return nil, err
			}
			if offset, ok = intervalMicros(iv); !ok || iv.Months != 0 {
				return nil, errAt(e, datatype.ErrInvalid, "the offset must be whole microseconds of days and time (%s)", o.src)
			}
		} else {
			os, err := timeArg(e, o)
			if err != nil {
				return nil, err
			}
			if o.lit == nil || !o.lit.Valid || os.loc != nil {
				return nil, errAt(e, datatype.ErrInvalid, "the origin must be a constant date or timestamp without a zone (%s)", o.src)
			}
			x, err := o.array(&batch{n: 1})
			if err != nil {
				return nil, err
			}
			if origin, ok = toMicros(os, os.value(x, 0)); !ok {
				return nil, errAt(e, datatype.ErrInvalid, "the origin is out of range (%s)", o.src)
			}
		}
	}
	return &node{typ: a.typ, src: e, eval: func(c *batch) (array.Array, error) {
		x, err := a.array(c)
		if err != nil {
			return nil, err
		}
		out := make([]int64, x.Len())
		for i := range out {
			if x.IsNull(i) {
				continue
			}
			us, ok := toMicros(src, src.value(x, i))
			if ok {
				us, ok = addInt64(us, -offset)
			}
			if ok {
				if width.Months != 0 {
					us, ok = monthBucket(us, origin, int64(width.Months))
				} else {
					us, ok = microBucket(us, origin, wUS)
				}
			}
			if ok {
				us, ok = addInt64(us, offset)
			}
			if !ok {
				return nil, evalErr(e, fmt.Errorf("row %d: the bucket is out of range: %w", i, datatype.ErrInvalid))
			}
			out[i] = fromMicros(src, us)
		}
		return timeArray(a.typ, out, x)
	}}, nil
}

// constInterval is the value of a, which must be a constant interval (or
// a string literal of one).
func constInterval(e *Expr, a *node, what string) (interval, error) {
	n, err := intervalArg(e, a)
	if err != nil {
		return interval{}, err
	}
	if n.lit == nil || !n.lit.Valid {
		return interval{}, errAt(e, datatype.ErrInvalid, "%s must be a constant interval, not %s", what, a.src)
	}
	return n.lit.Value.(interval), nil
}

// intervalMicros is the days and time of iv in microseconds, if whole.
func intervalMicros(iv interval) (int64, bool) {
	if iv.Nanoseconds%1000 != 0 {
		return 0, false
	}
	return addInt64(int64(iv.Days)*usPerDay, iv.Nanoseconds/1000)
}

// toMicros is value v of src in microseconds since 1970-01-01.
func toMicros(src *timeSource, v int64) (int64, bool) {
	if src.unit >= 1e3 {
		return mulInt64(v, src.unit/1e3)
	}
	q, _ := floorDiv(v, 1e3/src.unit)
	return q, true
}

// fromMicros is us in the unit of src (floored).
func fromMicros(src *timeSource, us int64) int64 {
	if src.unit >= 1e3 {
		q, _ := floorDiv(us, src.unit/1e3)
		return q
	}
	return us * (1e3 / src.unit)
}

// microBucket is the start of the bucket of width w (microseconds)
// holding us, buckets starting at origin.
func microBucket(us, origin, w int64) (int64, bool) {
	d, ok := addInt64(us, -origin)
	if !ok {
		return 0, false
	}
	q, _ := floorDiv(d, w)
	return addInt64(origin, q*w)
}

// monthBucket is the first instant of the bucket of w months holding us,
// counted from the month of origin.
func monthBucket(us, origin, w int64) (int64, bool) {
	month := func(us int64) int64 {
		days, _ := floorDiv(us, usPerDay)
		y, m, _ := civil(days)
		return y*12 + m - 1
	}
	o := month(origin)
	q, _ := floorDiv(month(us)-o, w)
	y, m := floorDiv(o+q*w, 12)
	return mulInt64(daysFromCivil(y, m+1, 1), usPerDay)
}
