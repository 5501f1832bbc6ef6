package textval

import (
	"time"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/textval/grammar"
)

// Inferrer finds the narrowest type that holds every cell it observed
// exactly. The candidates, in order: bool (the true/false spellings),
// int64 (not with leading zeros: "007" stays a string), decimal (integers beyond int64), float64 (numbers with a fraction
// or exponent, at most 15 significant digits, finite: their text is
// recovered exactly), decimal (plain numbers with more digits), date32
// (YYYY-MM-DD), time64[us] or [ns] (hh:mm:ss[.f]), timestamp[us] or [ns]
// (ISO-8601, tz=UTC when every value has a zone, none when no value has
// one; a mix is a string), utf8. A column with invalid UTF-8 is binary
// when BinaryFallback is set (else utf8, which the reader then refuses).
// A column that observed no value is utf8.
type Inferrer struct {
	// True and False are the boolean spellings (default DefaultTrue,
	// DefaultFalse).
	True, False []string
	// Layouts are extra timestamp layouts (time.Parse).
	Layouts []string
	// BinaryFallback makes a column with invalid UTF-8 binary.
	BinaryFallback bool
	// TrimSpace: cells are read with spaces and tabs around them
	// dropped (Options.TrimSpace), so infer from what is left.
	TrimSpace bool

	started                                bool
	noBool, noNum, noDate, noTime, noStamp bool
	allInt, overflow, exp, notExactFloat   bool
	intDigits, scale                       int
	timeFrac, stampFrac                    int
	zoned, unzoned, invalidUTF8, nonFinite bool
}

// Observe takes one non-null CSV cell: any type may fit it.
func (in *Inferrer) Observe(cell []byte) {
	if in.TrimSpace {
		cell = trimSpace(cell)
	}
	if !in.started {
		in.started, in.allInt = true, true
	}
	if !in.noBool && !in.isBool(cell) {
		in.noBool = true
	}
	if !in.noNum && !in.number(cell) {
		in.noNum = true
	}
	in.temporal(cell)
}

// ObserveString takes a JSON string: only temporal types and strings fit.
func (in *Inferrer) ObserveString(cell []byte) {
	if in.TrimSpace {
		cell = trimSpace(cell)
	}
	if !in.started {
		in.started, in.allInt = true, true
	}
	in.noBool, in.noNum = true, true
	in.temporal(cell)
}

// ObserveNumber takes a JSON number's text.
func (in *Inferrer) ObserveNumber(text []byte) {
	if !in.started {
		in.started, in.allInt = true, true
	}
	in.noBool, in.noDate, in.noTime, in.noStamp = true, true, true, true
	if !in.noNum && !in.number(text) {
		in.noNum = true
	}
}

// ObserveBool takes a JSON boolean.
func (in *Inferrer) ObserveBool() {
	if !in.started {
		in.started, in.allInt = true, true
	}
	in.noNum, in.noDate, in.noTime, in.noStamp = true, true, true, true
}

// Seen reports whether any value was observed.
func (in *Inferrer) Seen() bool { return in.started }

func (in *Inferrer) isBool(cell []byte) bool {
	tr, fa := in.True, in.False
	if len(tr) == 0 {
		tr = DefaultTrue
	}
	if len(fa) == 0 {
		fa = DefaultFalse
	}
	s := str(cell)
	for _, v := range tr {
		if s == v {
			return true
		}
	}
	for _, v := range fa {
		if s == v {
			return true
		}
	}
	return false
}

// number lexes [sign] digits [. digits] [e [sign] digits] (or NaN/Inf)
// and updates the numeric statistics.
func (in *Inferrer) number(b []byte) bool {
	cell := b
	switch str(b) {
	case "NaN", "Inf", "+Inf", "-Inf":
		in.allInt, in.nonFinite = false, true
		return true
	}
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		b = b[1:]
	}
	i := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	intPart := b[:i]
	if len(intPart) > 1 && intPart[0] == '0' {
		return false // "007", a zip code: a number would lose the zeros
	}
	var frac []byte
	if i < len(b) && b[i] == '.' {
		j := i + 1
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		frac = b[i+1 : j]
		if len(frac) == 0 && len(intPart) == 0 {
			return false
		}
		i = j
		in.allInt = false
	} else if len(intPart) == 0 {
		return false
	}
	hasExp := false
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		j := i + 1
		if j < len(b) && (b[j] == '-' || b[j] == '+') {
			j++
		}
		k := j
		for k < len(b) && b[k] >= '0' && b[k] <= '9' {
			k++
		}
		if k == j {
			return false
		}
		i = k
		hasExp, in.exp, in.allInt = true, true, false
	}
	if i != len(b) {
		return false
	}
	for len(intPart) > 0 && intPart[0] == '0' {
		intPart = intPart[1:]
	}
	sig := len(intPart) + len(frac)
	if len(intPart) == 0 {
		f := frac
		for len(f) > 0 && f[0] == '0' {
			f = f[1:]
			sig--
		}
	}
	for len(frac) > 0 && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	in.intDigits = max(in.intDigits, len(intPart))
	in.scale = max(in.scale, len(frac))
	if sig > 15 {
		in.notExactFloat = true
	}
	if hasExp {
		if _, err := grammar.ParseFloat(b, 64, grammar.Options{}); err != nil {
			in.notExactFloat = true
		}
	}
	if len(frac) == 0 && !hasExp && len(intPart) >= 19 {
		if _, err := grammar.ParseInt(cell, grammar.Options{}); err != nil {
			in.overflow = true
		}
	}
	return true
}

func (in *Inferrer) temporal(cell []byte) {
	if !in.noDate {
		if !grammar.IsDate(cell) {
			in.noDate = true
		}
	}
	if !in.noTime {
		if c, ok := grammar.ParseClock(cell); ok && c.FracDigits <= 9 {
			in.timeFrac = max(in.timeFrac, c.FracDigits)
		} else {
			in.noTime = true
		}
	}
	if !in.noStamp {
		if st, ok := grammar.ParseStamp(cell); ok && st.Clock.FracDigits <= 9 {
			in.stampFrac = max(in.stampFrac, st.Clock.FracDigits)
			if st.Zoned {
				in.zoned = true
			} else {
				in.unzoned = true
			}
		} else if in.layoutMatch(cell) {
			in.stampFrac = max(in.stampFrac, 6)
			in.unzoned = true
		} else {
			in.noStamp = true
		}
	}
	if !in.invalidUTF8 && !utf8.Valid(cell) {
		in.invalidUTF8 = true
	}
}

func (in *Inferrer) layoutMatch(cell []byte) bool {
	for _, l := range in.Layouts {
		if _, err := time.Parse(l, str(cell)); err == nil {
			return true
		}
	}
	return false
}

// Type returns the inferred type.
func (in *Inferrer) Type() datatype.DataType {
	switch {
	case !in.started:
		return datatype.String
	case !in.noBool:
		return datatype.Bool
	case !in.noNum:
		if t := in.numberType(); t != nil {
			return t
		}
	case !in.noDate:
		return datatype.Date32Type
	case !in.noTime:
		unit := datatype.Microsecond
		if in.timeFrac > 6 {
			unit = datatype.Nanosecond
		}
		t, _ := datatype.NewTime(unit)
		return t
	case !in.noStamp && !(in.zoned && in.unzoned):
		unit := datatype.Microsecond
		if in.stampFrac > 6 {
			unit = datatype.Nanosecond
		}
		tz := ""
		if in.zoned {
			tz = "UTC"
		}
		t, _ := datatype.NewTimestamp(unit, tz)
		return t
	}
	if in.invalidUTF8 && in.BinaryFallback {
		return datatype.Binary
	}
	return datatype.String
}

func (in *Inferrer) numberType() datatype.DataType {
	if in.allInt {
		if !in.overflow {
			return datatype.Int64
		}
		return decimalFor(in.intDigits, 0)
	}
	if !in.notExactFloat {
		return datatype.Float64
	}
	if in.exp || in.nonFinite {
		return nil
	}
	return decimalFor(in.intDigits, in.scale)
}

// decimalFor returns decimal128(38, s) or decimal256(76, s) when the
// digits fit, else nil (a string).
func decimalFor(intDigits, scale int) datatype.DataType {
	var t datatype.DataType
	var err error
	switch {
	case intDigits+scale <= 38:
		t, err = datatype.NewDecimal(128, 38, int32(scale))
	case intDigits+scale <= 76:
		t, err = datatype.NewDecimal(256, 76, int32(scale))
	default:
		return nil
	}
	if err != nil {
		return nil
	}
	return t
}
