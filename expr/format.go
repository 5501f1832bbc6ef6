package expr

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// operators are the calls printed (and parsed) as infix operators.
var operators = map[string]string{
	"add_checked": "+", "subtract_checked": "-", "multiply_checked": "*", "divide": "/",
	"integer_divide": "//", "modulo": "%", "equal": "=", "not_equal": "<>", "less": "<",
	"less_equal": "<=", "greater": ">", "greater_equal": ">=", "and": "AND", "or": "OR",
	"string_concat": "||", "like": "LIKE", "ilike": "ILIKE",
}

// String prints e in the text syntax of [Parse], fully parenthesised, so
// that Parse(e.String()) is e again.
func (e *Expr) String() string {
	var b strings.Builder
	e.format(&b)
	return b.String()
}

func (e *Expr) format(b *strings.Builder) {
	switch e.kind {
	case kindField:
		for i, p := range e.path {
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(quoteIdent(p))
		}
	case kindLiteral:
		text := formatLiteral(e.val)
		if e.typed && e.val.Valid && !strings.HasPrefix(text, "CAST(") && e.val.Type.Kind() != datatype.KindBool {
			// Keep the type: a bare number or string would adapt.
			text = "CAST(" + text + " AS " + typeName(e.val.Type) + ")"
		}
		b.WriteString(text)
	case kindCall:
		e.formatCall(b)
	}
}

func (e *Expr) formatCall(b *strings.Builder) {
	a := e.args
	if op, ok := operators[e.fn]; ok && len(a) == 2 {
		b.WriteByte('(')
		a[0].format(b)
		b.WriteString(" " + op + " ")
		a[1].format(b)
		b.WriteByte(')')
		return
	}
	switch {
	case e.fn == "not" && len(a) == 1:
		b.WriteString("(NOT ")
		a[0].format(b)
		b.WriteByte(')')
		return
	case e.fn == "negate_checked" && len(a) == 1:
		b.WriteString("(-(")
		a[0].format(b)
		b.WriteString("))")
		return
	case (e.fn == "is_null" || e.fn == "is_valid") && len(a) == 1:
		b.WriteByte('(')
		a[0].format(b)
		if e.fn == "is_null" {
			b.WriteString(" IS NULL)")
		} else {
			b.WriteString(" IS NOT NULL)")
		}
		return
	case e.fn == "is_in" && len(a) >= 1:
		b.WriteByte('(')
		a[0].format(b)
		b.WriteString(" IN (")
		for i, x := range a[1:] {
			if i > 0 {
				b.WriteString(", ")
			}
			x.format(b)
		}
		b.WriteString("))")
		return
	case (e.fn == "like" || e.fn == "ilike") && len(a) == 3:
		b.WriteByte('(')
		a[0].format(b)
		b.WriteString(" " + operators[e.fn] + " ")
		a[1].format(b)
		b.WriteString(" ESCAPE ")
		a[2].format(b)
		b.WriteByte(')')
		return
	case e.fn == "between" && len(a) == 3:
		b.WriteByte('(')
		a[0].format(b)
		b.WriteString(" BETWEEN ")
		a[1].format(b)
		b.WriteString(" AND ")
		a[2].format(b)
		b.WriteByte(')')
		return
	case e.fn == "cast" && len(a) == 1 && e.typ != nil:
		b.WriteString("CAST(")
		a[0].format(b)
		b.WriteString(" AS " + typeName(e.typ) + ")")
		return
	case e.fn == "case_when" && len(a)%2 == 1:
		b.WriteString("CASE")
		for i := 0; i+1 < len(a); i += 2 {
			b.WriteString(" WHEN ")
			a[i].format(b)
			b.WriteString(" THEN ")
			a[i+1].format(b)
		}
		b.WriteString(" ELSE ")
		a[len(a)-1].format(b)
		b.WriteString(" END")
		return
	}
	b.WriteString(e.fn)
	b.WriteByte('(')
	for i, x := range a {
		if i > 0 {
			b.WriteString(", ")
		}
		x.format(b)
	}
	b.WriteByte(')')
}

func quoteIdent(s string) string {
	plain := s != "" && !isKeyword(strings.ToUpper(s))
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9'
	}
	if plain {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func formatLiteral(s compute.Scalar) string {
	if !s.Valid {
		if s.Type == nil || s.Type.Kind() == datatype.KindNull {
			return "NULL"
		}
		return "CAST(NULL AS " + typeName(s.Type) + ")"
	}
	switch v := s.Value.(type) {
	case bool:
		if v {
			return "TRUE"
		}
		return "FALSE"
	case int64:
		if s.Type.Kind() == datatype.KindInt64 {
			return strconv.FormatInt(v, 10)
		}
	case uint64:
		if s.Type.Kind() == datatype.KindUint64 {
			if v > math.MaxInt64 {
				return strconv.FormatUint(v, 10) // read back as a uint64
			}
			return "CAST(" + strconv.FormatUint(v, 10) + " AS UBIGINT)"
		}
	case float64:
		if s.Type.Kind() == datatype.KindFloat64 {
			if math.IsNaN(v) || math.IsInf(v, 0) || v == 0 && math.Signbit(v) {
				return "CAST('" + strconv.FormatFloat(v, 'g', -1, 64) + "' AS DOUBLE)"
			}
			t := strconv.FormatFloat(v, 'g', -1, 64)
			if !strings.ContainsAny(t, ".eE") {
				t += ".0"
			}
			return t
		}
	case string:
		if s.Type.Kind() == datatype.KindString {
			return quoteString(v)
		}
	case datatype.MonthDayNanoInterval:
		// Exact: months, days and nanoseconds, as parseInterval reads them.
		return fmt.Sprintf("INTERVAL '%d months %d days %d nanoseconds'", v.Months, v.Days, v.Nanoseconds)
	}
	text, err := scalarText(s)
	if err != nil {
		return "CAST(NULL AS " + typeName(s.Type) + ")" // unreachable for the types Lit makes
	}
	return "CAST(" + quoteString(text) + " AS " + typeName(s.Type) + ")"
}

// scalarText is the text compute.Cast makes of s.
func scalarText(s compute.Scalar) (string, error) {
	a, err := scalarArray(s, 1)
	if err != nil {
		return "", err
	}
	if a.DataType().Kind() == datatype.KindBinary {
		return string(valueAt(a, 0).([]byte)), nil
	}
	t, err := compute.Cast(a, datatype.String)
	if err != nil {
		return "", err
	}
	v, _ := valueAt(t, 0).(string)
	return v, nil
}
