package expr

import (
	"fmt"
	"strconv"
	"time"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// The directives of strftime, as DuckDB's (a "-" after % drops the
// leading zeros of a number): %a %A weekday name short and long, %b %B
// month name, %d day, %H hour (24), %I hour (12), %j day of year, %m
// month, %M minute, %p AM/PM, %S second, %f microseconds (6 digits), %g
// milliseconds (3), %n nanoseconds (9), %y year of the century, %Y year,
// %z the zone's offset (+hhmm), %Z the zone's name, %% a percent sign.

type fmtPiece struct {
	lit   string
	verb  byte
	strip bool
}

func parseStrftime(e *Expr, f string) ([]fmtPiece, error) {
	var out []fmtPiece
	lit := []byte{}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			lit = append(lit, f[i])
			continue
		}
		i++
		strip := false
		if i < len(f) && f[i] == '-' {
			strip = true
			i++
		}
		if i >= len(f) {
			return nil, errAt(e, datatype.ErrInvalid, "format %q ends in a lone %%", f)
		}
		c := f[i]
		switch c {
		case '%':
			lit = append(lit, '%')
			continue
		case 'a', 'A', 'b', 'B', 'd', 'H', 'I', 'j', 'm', 'M', 'p', 'S', 'f', 'g', 'n', 'y', 'Y', 'z', 'Z':
		default:
			return nil, errAt(e, datatype.ErrInvalid, "format %q: unknown directive %%%c at byte %d", f, c, i-1)
		}
		if len(lit) > 0 {
			out = append(out, fmtPiece{lit: string(lit)})
			lit = lit[:0]
		}
		out = append(out, fmtPiece{verb: c, strip: strip})
	}
	if len(lit) > 0 {
		out = append(out, fmtPiece{lit: string(lit)})
	}
	return out, nil
}

func bindStrftime(e *Expr, args []*node) (*node, error) {
	a := args[0]
	src, err := timeArg(e, a)
	if err != nil {
		return nil, err
	}
	f, err := constString(e, args[1], "the format")
	if err != nil {
		return nil, err
	}
	pieces, err := parseStrftime(e, f)
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
		var buf []byte
		for i := range x.Len() {
			if x.IsNull(i) {
				b.AppendNull()
				continue
			}
			v := src.value(x, i)
			days, nanos := src.local(z, v)
			buf = appendStrftime(buf[:0], pieces, src, z, v, days, nanos)
			b.Append(buf)
		}
		return b.NewArray(), nil
	}}, nil
}

func appendStrftime(dst []byte, pieces []fmtPiece, src *timeSource, z *zoneCache, v, days, nanos int64) []byte {
	y, m, d := civil(days)
	num := func(dst []byte, n int64, width int, strip bool) []byte {
		s := strconv.FormatInt(n, 10)
		if !strip {
			for k := len(s); k < width; k++ {
				dst = append(dst, '0')
			}
		}
		return append(dst, s...)
	}
	for _, p := range pieces {
		if p.verb == 0 {
			dst = append(dst, p.lit...)
			continue
		}
		h := nanos / 3600e9
		switch p.verb {
		case 'a':
			_, w := floorDiv(days+4, 7)
			dst = append(dst, time.Weekday(w).String()[:3]...)
		case 'A':
			_, w := floorDiv(days+4, 7)
			dst = append(dst, time.Weekday(w).String()...)
		case 'b':
			dst = append(dst, time.Month(m).String()[:3]...)
		case 'B':
			dst = append(dst, time.Month(m).String()...)
		case 'd':
			dst = num(dst, d, 2, p.strip)
		case 'H':
			dst = num(dst, h, 2, p.strip)
		case 'I':
			h12 := h % 12
			if h12 == 0 {
				h12 = 12
			}
			dst = num(dst, h12, 2, p.strip)
		case 'j':
			dst = num(dst, days-daysFromCivil(y, 1, 1)+1, 3, p.strip)
		case 'm':
			dst = num(dst, m, 2, p.strip)
		case 'M':
			dst = num(dst, nanos/60e9%60, 2, p.strip)
		case 'p':
			if h < 12 {
				dst = append(dst, "AM"...)
			} else {
				dst = append(dst, "PM"...)
			}
		case 'S':
			dst = num(dst, nanos/1e9%60, 2, p.strip)
		case 'f':
			dst = num(dst, nanos%1e9/1e3, 6, false)
		case 'g':
			dst = num(dst, nanos%1e9/1e6, 3, false)
		case 'n':
			dst = num(dst, nanos%1e9, 9, false)
		case 'y':
			_, yy := floorDiv(y, 100)
			dst = num(dst, yy, 2, p.strip)
		case 'Y':
			dst = num(dst, y, 4, p.strip)
		case 'z', 'Z':
			off := int64(0)
			name := "UTC"
			if src.loc != nil && !src.date {
				sec, _ := floorDiv(v, 1e9/src.unit)
				off = z.offset(sec)
				name, _ = time.Unix(sec, 0).In(src.loc).Zone()
			}
			if p.verb == 'Z' {
				dst = append(dst, name...)
				continue
			}
			sign := byte('+')
			if off < 0 {
				sign, off = '-', -off
			}
			dst = append(dst, fmt.Sprintf("%c%02d%02d", sign, off/3600, off/60%60)...)
		}
	}
	return dst
}
