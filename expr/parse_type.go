package expr

import (
	"strconv"
	"strings"

	"github.com/alkaid-go/alkaid/datatype"
)

// typ reads a type: an SQL name (INTEGER, DOUBLE, VARCHAR, DECIMAL(p,s),
// TIMESTAMP WITH TIME ZONE, …) or an Alkaid type string in double quotes.
func (p *parser) typ() (datatype.DataType, error) {
	t := p.next()
	if t.kind == tQuoted {
		typ, err := datatype.ParseType(t.text)
		if err != nil {
			return nil, p.fail(t, "type %q: %v", t.text, err)
		}
		return typ, nil
	}
	if t.kind != tIdent {
		return nil, p.fail(t, "expected a type, found %s", describe(t))
	}
	up := strings.ToUpper(t.text)
	switch up {
	case "DECIMAL", "NUMERIC":
		prec, scale := int64(18), int64(3)
		if p.acceptOp("(") {
			var err error
			if prec, err = p.intArg(); err != nil {
				return nil, err
			}
			scale = 0
			if p.acceptOp(",") {
				if scale, err = p.intArg(); err != nil {
					return nil, err
				}
			}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
		}
		d, err := datatype.NewDecimal(128, int32(prec), int32(scale))
		if err != nil || prec > 38 {
			return nil, p.fail(t, "DECIMAL(%d,%d): precision must be 1 to 38 and scale 0 to precision", prec, scale)
		}
		return d, nil
	case "DOUBLE":
		p.accept("PRECISION")
	case "TIMESTAMP":
		if isKw(p.peek(), "WITH") {
			p.i++
			if err := p.expectKw("TIME"); err != nil {
				return nil, err
			}
			if err := p.expectKw("ZONE"); err != nil {
				return nil, err
			}
			up = "TIMESTAMPTZ"
		}
	}
	typ, ok := duckNames[up]
	if !ok {
		return nil, p.fail(t, "unknown type %s", t.text)
	}
	return typ, nil
}

func (p *parser) intArg() (int64, error) {
	t := p.next()
	if t.kind != tInt {
		return 0, p.fail(t, "expected an integer, found %s", describe(t))
	}
	v, err := strconv.ParseInt(t.text, 10, 32)
	if err != nil {
		return 0, p.fail(t, "integer %s is out of range", t.text)
	}
	return v, nil
}

// aliases are other names of functions (DuckDB's, and Arrow's where
// they mean the same), resolved by Call.
var aliases = map[string]string{
	"lcase": "lower", "ucase": "upper", "substring": "substr", "prefix": "starts_with",
	"ifnull": "coalesce", "if": "if_else", "char_length": "length", "character_length": "length",
	"datepart": "date_part", "len": "length", "split": "string_split", "suffix": "ends_with",
	"roundbankers": "round_even", "datetrunc": "date_trunc", "dayofmonth": "day", "weekday": "dayofweek",
	"day_of_year": "dayofyear", "iso_week": "week", "iso_year": "isoyear",
}
