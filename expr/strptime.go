package expr

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// The directives of strptime and try_strptime, as DuckDB's (a "-" after
// % is accepted and changes nothing): %Y year (1 to 4 digits), %y year of
// the century (2000 + y below 69, else 1900 + y), %m month, %d day, %H
// hour (24), %I hour (12, with %p), %M minute, %S second (1 or 2 digits
// each), %j day of the year (1 to 3), %f fraction of a second (1 to 6
// digits: "5" is half a second), %g (1 to 3 digits) and %n (1 to 9)
// likewise, %p AM or PM, %b %h %B a month's name (English, short or
// long, any case), %a %A a weekday's name (checked as a name, otherwise
// ignored), %z an offset (Z, +hh, +hhmm or +hh:mm), %Z UTC, GMT or Z,
// %% a percent sign. A space matches one or more white-space characters;
// any other byte matches itself. The whole input must match.

func init() {
	register("strptime", 2, 2, func(e *Expr, args []*node) (*node, error) { return bindStrptime(e, args, false) })
	register("try_strptime", 2, 2, func(e *Expr, args []*node) (*node, error) { return bindStrptime(e, args, true) })
}

type parsePiece struct {
	lit  string // a literal run (verb 0); " " is white space
	verb byte
}

func parseStrptime(f string) ([]parsePiece, error) {
	var out []parsePiece
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' {
			if isSpace(c) {
				out = append(out, parsePiece{lit: " "})
				continue
			}
			if n := len(out); n > 0 && out[n-1].verb == 0 && out[n-1].lit != " " {
				out[n-1].lit += string(c)
			} else {
				out = append(out, parsePiece{lit: string(c)})
			}
			continue
		}
		i++
		if i < len(f) && f[i] == '-' {
			i++
		}
		if i >= len(f) {
			return nil, fmt.Errorf("format %q ends in a lone %%", f)
		}
		switch v := f[i]; v {
		case '%':
			out = append(out, parsePiece{lit: "%"})
		case 'Y', 'y', 'm', 'd', 'H', 'I', 'M', 'S', 'j', 'f', 'g', 'n', 'p', 'b', 'h', 'B', 'a', 'A', 'z', 'Z':
			out = append(out, parsePiece{verb: v})
		default:
			return nil, fmt.Errorf("format %q: unknown directive %%%c at byte %d", f, v, i-1)
		}
	}
	return out, nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// parsedTime is what a format read.
type parsedTime struct {
	year, month, day, hour, min, sec, nanos, yday int64
	pm, has12, hasZone                            bool
	pmSet                                         bool
	offset                                        int64 // seconds east of UTC
}

var monthNames = []string{"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december"}
var dayNames = []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// matchName reads a name of names, long or its first three letters, at
// s[i:]; it returns its index and the bytes read.
func matchName(s string, i int, names []string) (int, int) {
	for k, name := range names {
		if len(s)-i >= len(name) && strings.EqualFold(s[i:i+len(name)], name) {
			return k, len(name)
		}
	}
	for k, name := range names {
		if len(s)-i >= 3 && strings.EqualFold(s[i:i+3], name[:3]) {
			return k, 3
		}
	}
	return -1, 0
}

// strptimeOne reads s by pieces; on a mismatch it returns the byte of s
// and what was expected.
func strptimeOne(s string, pieces []parsePiece) (int64, int, error) {
	p := parsedTime{year: 1900, month: 1, day: 1}
	i := 0
	num := func(min, max int) (int64, bool) {
		j, v := i, int64(0)
		for j < len(s) && j-i < max && s[j] >= '0' && s[j] <= '9' {
			v = v*10 + int64(s[j]-'0')
			j++
		}
		if j-i < min {
			return 0, false
		}
		i = j
		return v, true
	}
	frac := func(digits int) (int64, bool) {
		start := i
		v, ok := num(1, digits)
		for k := i - start; k < 9; k++ {
			v *= 10
		}
		return v, ok
	}
	for _, pc := range pieces {
		if pc.verb == 0 {
			if pc.lit == " " {
				if i >= len(s) || !isSpace(s[i]) {
					return 0, i, errors.New("expected white space")
				}
				for i < len(s) && isSpace(s[i]) {
					i++
				}
				continue
			}
			if !strings.HasPrefix(s[i:], pc.lit) {
				return 0, i, fmt.Errorf("expected %q", pc.lit)
			}
			i += len(pc.lit)
			continue
		}
		var ok bool
		switch pc.verb {
		case 'Y':
			p.year, ok = num(1, 4)
		case 'y':
			var y int64
			if y, ok = num(1, 2); ok {
				p.year = 1900 + y
				if y < 69 {
					p.year = 2000 + y
				}
			}
		case 'm':
			p.month, ok = num(1, 2)
		case 'd':
			p.day, ok = num(1, 2)
		case 'H':
			p.hour, ok = num(1, 2)
		case 'I':
			p.hour, ok = num(1, 2)
			p.has12 = true
		case 'M':
			p.min, ok = num(1, 2)
		case 'S':
			p.sec, ok = num(1, 2)
		case 'j':
			p.yday, ok = num(1, 3)
		case 'f':
			p.nanos, ok = frac(6)
		case 'g':
			p.nanos, ok = frac(3)
		case 'n':
			p.nanos, ok = frac(9)
		case 'p':
			if len(s)-i >= 2 && (strings.EqualFold(s[i:i+2], "AM") || strings.EqualFold(s[i:i+2], "PM")) {
				p.pm, p.pmSet, ok = strings.EqualFold(s[i:i+2], "PM"), true, true
				i += 2
			}
		case 'b', 'h', 'B':
			k, w := matchName(s, i, monthNames)
			if ok = k >= 0; ok {
				p.month = int64(k + 1)
				i += w
			}
		case 'a', 'A':
			k, w := matchName(s, i, dayNames)
			if ok = k >= 0; ok {
				i += w
			}
		case 'z':
			ok = p.readOffset(s, &i)
		case 'Z':
			for _, name := range []string{"UTC", "GMT", "Z"} {
				if len(s)-i >= len(name) && strings.EqualFold(s[i:i+len(name)], name) {
					i += len(name)
					p.hasZone, ok = true, true
					break
				}
			}
		}
		if !ok {
			return 0, i, fmt.Errorf("%%%c does not match", pc.verb)
		}
	}
	if i < len(s) {
		return 0, i, errors.New("trailing characters")
	}
	return p.micros(len(s))
}

func (p *parsedTime) readOffset(s string, i *int) bool {
	j := *i
	if j < len(s) && (s[j] == 'Z' || s[j] == 'z') {
		*i = j + 1
		p.hasZone = true
		return true
	}
	if j >= len(s) || s[j] != '+' && s[j] != '-' {
		return false
	}
	sign := int64(1)
	if s[j] == '-' {
		sign = -1
	}
	j++
	two := func() (int64, bool) {
		if len(s)-j < 2 || s[j] < '0' || s[j] > '9' || s[j+1] < '0' || s[j+1] > '9' {
			return 0, false
		}
		v := int64(s[j]-'0')*10 + int64(s[j+1]-'0')
		j += 2
		return v, true
	}
	h, ok := two()
	if !ok || h > 23 {
		return false
	}
	m := int64(0)
	if j < len(s) && s[j] == ':' {
		j++
		if m, ok = two(); !ok {
			return false
		}
	} else if mm, ok := two(); ok {
		m = mm
	}
	if m > 59 {
		return false
	}
	p.offset, p.hasZone, *i = sign*(h*3600+m*60), true, j
	return true
}

// micros checks the fields read and gives microseconds since the epoch
// (UTC when an offset was read, else wall clock).
func (p *parsedTime) micros(end int) (int64, int, error) {
	if p.has12 {
		if p.hour < 1 || p.hour > 12 {
			return 0, end, fmt.Errorf("hour %d out of range 1…12", p.hour)
		}
		p.hour %= 12
	}
	if p.pmSet && p.pm {
		if !p.has12 && p.hour >= 12 {
			return 0, end, fmt.Errorf("hour %d with PM", p.hour)
		}
		p.hour += 12
	}
	if p.month < 1 || p.month > 12 {
		return 0, end, fmt.Errorf("month %d out of range", p.month)
	}
	dim := int64(time.Date(int(p.year), time.Month(p.month)+1, 0, 0, 0, 0, 0, time.UTC).Day())
	if p.day < 1 || p.day > dim {
		return 0, end, fmt.Errorf("day %d out of range for %d-%02d", p.day, p.year, p.month)
	}
	if p.hour > 23 || p.min > 59 || p.sec > 59 {
		return 0, end, fmt.Errorf("time %02d:%02d:%02d out of range", p.hour, p.min, p.sec)
	}
	days := daysFromCivil(p.year, p.month, p.day)
	if p.yday != 0 {
		start := daysFromCivil(p.year, 1, 1)
		if p.yday > daysFromCivil(p.year+1, 1, 1)-start {
			return 0, end, fmt.Errorf("day of year %d out of range for %d", p.yday, p.year)
		}
		days = start + p.yday - 1
	}
	sec := days*86400 + p.hour*3600 + p.min*60 + p.sec - p.offset
	return sec*1e6 + p.nanos/1e3, 0, nil
}

func bindStrptime(e *Expr, args []*node, try bool) (*node, error) {
	a, err := stringArg(e, args[0])
	if err != nil {
		return nil, err
	}
	f, err := constString(e, args[1], "the format")
	if err != nil {
		return nil, err
	}
	pieces, err := parseStrptime(f)
	if err != nil {
		return nil, errAt(e, datatype.ErrInvalid, "%v", err)
	}
	zone := ""
	for _, p := range pieces {
		if p.verb == 'z' || p.verb == 'Z' {
			zone = "UTC"
		}
	}
	typ, _ := datatype.NewTimestamp(datatype.Microsecond, zone)
	return &node{typ: typ, src: e, eval: func(c *batch) (array.Array, error) {
		ss, err := evalStrings(e, c, []*node{a})
		if err != nil {
			return nil, err
		}
		x := ss[0]
		vals := make([]int64, x.Len())
		valid := make([]bool, x.Len())
		for i := range vals {
			if !x.IsValid(i) {
				continue
			}
			s := string(x.Value(i))
			v, at, err := strptimeOne(s, pieces)
			if err != nil {
				if try {
					continue
				}
				return nil, evalErr(e, fmt.Errorf("row %d: %q does not match format %q at byte %d: %v: %w",
					i, s, f, at, err, datatype.ErrInvalid))
			}
			vals[i], valid[i] = v, true
		}
		b := array.NewPrimitiveBuilder[datatype.Timestamp](typ)
		b.AppendValues(castInts[datatype.Timestamp](vals), valid)
		return b.NewArray(), nil
	}}, nil
}
