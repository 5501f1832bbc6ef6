package expr

import (
	"errors"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/datatype"
)

func TestParseSyntaxErrors(t *testing.T) {
	for _, c := range []struct {
		text string
		pos  int
		msg  string
	}{
		{"a +", 3, "unexpected end of text"},
		{"a + * 2", 4, `unexpected "*"`},
		{"(a", 2, `expected ")"`},
		{"'abc", 0, "unterminated string"},
		{`"abc`, 0, "unterminated quoted identifier"},
		{"a ? b", 2, "unexpected character '?'"},
		{"a b", 2, `unexpected "b" after the expression`},
		{"a IS 3", 5, "expected NULL"},
		{"a IN 3", 5, `expected "("`},
		{"a BETWEEN 1 OR 2", 12, "expected AND"},
		{"CASE END", 5, "unexpected keyword END"},
		{"CASE WHEN a THEN b", 18, "expected END"},
		{"CAST(a AS wibble)", 10, "unknown type wibble"},
		{"CAST(a AS DECIMAL(40, 2))", 10, "DECIMAL(40,2)"},
		{"99999999999999999999", 0, "does not fit 64 bits"},
		{"1e999", 0, "out of range"},
		{"a.", 2, "expected a field name"},
		{"x = \xff", 4, "invalid UTF-8"},
		{"AND", 0, "unexpected keyword AND"},
		{"f(a,)", 4, `unexpected ")"`},
		{"", 0, "unexpected end of text"},
		{"a + --1", 7, "unexpected end of text"},
	} {
		t.Run(c.text, func(t *testing.T) {
			_, err := Parse(c.text)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			if !errors.Is(err, datatype.ErrInvalid) && !errors.Is(err, datatype.ErrLimit) {
				t.Errorf("%v wraps neither ErrInvalid nor ErrLimit", err)
			}
			if se.Pos != c.pos || !strings.Contains(se.Msg, c.msg) {
				t.Errorf("got byte %d %q, want byte %d %q", se.Pos, se.Msg, c.pos, c.msg)
			}
		})
	}
}

func TestParseDepthLimit(t *testing.T) {
	for _, text := range []string{
		strings.Repeat("(", 10000) + "1" + strings.Repeat(")", 10000),
		strings.Repeat("NOT ", 10000) + "TRUE",
		strings.Repeat("- ", 10000) + "a",
		strings.Repeat("f(", 10000) + "1" + strings.Repeat(")", 10000),
	} {
		_, err := Parse(text)
		if !errors.Is(err, datatype.ErrLimit) {
			t.Errorf("%.20s…: %v, want ErrLimit", text, err)
		}
	}
}

// TestParseRoundTrip checks that String prints what Parse reads back.
func TestParseRoundTrip(t *testing.T) {
	for _, text := range []string{
		"a + b * c - d / e // f",
		"-a + -(b) - -3",
		"NOT a AND b OR c",
		"a = 1 AND b <> 'x''y' OR c IS NOT NULL AND d IS NULL",
		"a IN (1, 2, NULL) AND b NOT IN ('x') AND c BETWEEN 1.5 AND 2e3",
		`"weird ""name""".x.y = TRUE`,
		"CASE WHEN a > 1 THEN 'x' WHEN a > 0 THEN 'y' END",
		"CASE a WHEN 1 THEN 2 ELSE 3 END",
		"CAST(a AS DECIMAL(10,2)) + CAST(b AS TIMESTAMP WITH TIME ZONE)",
		`CAST(a AS "timestamp[ns, tz=Europe/Paris]")`,
		"a::BIGINT::VARCHAR || 'x'",
		"DATE '2024-02-29' < d AND TIMESTAMP '2024-01-01 00:00:00' > ts",
		"lower(s) = upper(s) AND regexp_matches(s, '^a.*$', 'i')",
		"-9223372036854775808 < a AND a < 18446744073709551615",
		"CAST('NaN' AS DOUBLE) <> CAST('-0' AS DOUBLE)",
		"coalesce(a, b, 0) + if(c, 1, 2)",
		"a - -1 -- a comment\n + - -b",
		"-2::VARCHAR || -1.5::VARCHAR",
		"a LIKE 'x%' AND b NOT ILIKE '_y' AND c LIKE 'a!%' ESCAPE '!' AND d % 3 = 1",
	} {
		t.Run(text, func(t *testing.T) {
			e := mustParse(t, text)
			printed := e.String()
			again, err := Parse(printed)
			if err != nil {
				t.Fatalf("Parse(%q): %v", printed, err)
			}
			if again.String() != printed {
				t.Errorf("printed %q, then %q", printed, again.String())
			}
		})
	}
}

func TestParsePositions(t *testing.T) {
	e := mustParse(t, "a = 1 AND lower(b) = 'x'")
	name, args := e.Func()
	if name != "and" || e.Pos() != 6 {
		t.Fatalf("%s at %d", name, e.Pos())
	}
	if _, inner := args[1].Func(); inner[0].Pos() != 10 {
		t.Errorf("lower at %d, want 10", inner[0].Pos())
	}
}
