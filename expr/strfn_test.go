package expr

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestStringMathFunctions checks the string and math functions of
// strings2.go, regexp2.go and mathfn2.go over the fixture, where s is
// ["Hello", "wörld", "", null, "ÄÖÜ straße"].
func TestStringMathFunctions(t *testing.T) {
	rec := fixture(t)
	for _, c := range []struct{ text, want string }{
		{"trim(s, 'HeÄß')", `["llo" "wörld" "" (null) "ÖÜ stra"]`},
		{"lpad(s, 7, 'ab')", `["abHello" "abwörld" "abababa" (null) "ÄÖÜ str"]`},
		{"rpad(s, 6, 'é')", `["Helloé" "wörldé" "éééééé" (null) "ÄÖÜ st"]`},
		{"lpad(s, -1, 'x')", `["" "" "" (null) ""]`},
		{"lpad(s, i8, '.')", `["H" "" (null) (null) ""]`},
		{"left(s, 2)", `["He" "wö" "" (null) "ÄÖ"]`},
		// A start past either end with a length reaching back into s (it
		// was clamped to s's end before the length was applied).
		{"substr(s, 7, -3)", `["lo" "ld" "" (null) " st"]`},
		{"substr(s, -7, 3)", `["H" "w" "" (null) " st"]`},
		{"left(s, -2)", `["Hel" "wör" "" (null) "ÄÖÜ stra"]`},
		{"right(s, 2)", `["lo" "ld" "" (null) "ße"]`},
		{"right(s, -2)", `["llo" "rld" "" (null) "Ü straße"]`},
		{"strpos(s, 'l')", `[3 4 0 (null) 0]`},
		{"instr(s, 'ß')", `[0 0 0 (null) 9]`},
		{"strpos(s, '')", `[1 1 1 (null) 1]`},
		{"replace(s, 'l', 'LL')", `["HeLLLLo" "wörLLd" "" (null) "ÄÖÜ straße"]`},
		{"replace(s, '', 'x')", `["Hello" "wörld" "" (null) "ÄÖÜ straße"]`},
		{"repeat(s, 2)", `["HelloHello" "wörldwörld" "" (null) "ÄÖÜ straßeÄÖÜ straße"]`},
		{"repeat(s, -1)", `["" "" "" (null) ""]`},
		{"octet_length(s)", `[5 6 0 (null) 14]`},
		{"character_length(s)", `[5 5 0 (null) 10]`},
		{"octet_length(CAST(s AS BLOB))", `[5 6 0 (null) 14]`},
		{"regexp_extract(s, '([a-zö])(l+)', 2)", `["ll" "l" "" (null) ""]`},
		{"regexp_extract(s, '[A-Z]\\w')", `["He" "" "" (null) ""]`},
		{"regexp_extract(s, 'X|(o)', 1)", `["o" "" "" (null) ""]`},
		{"regexp_extract(s, 'x|(o)', 1)", `["o" "" "" (null) ""]`},
		{"regexp_extract(s, 'Ö', 0, 'i')", `["" "ö" "" (null) "Ö"]`},
		{"array_to_string(string_split(s, 'l'), '|')", `["He||o" "wör|d" "" (null) "ÄÖÜ straße"]`},
		{"array_to_string(string_split(s, ''), '.')", `["H.e.l.l.o" "w.ö.r.l.d" "" (null) "Ä.Ö.Ü. .s.t.r.a.ß.e"]`},
		{"array_to_string(regexp_split_to_array(s, '[lü ]+', 'i'), '|')", `["He|o" "wör|d" "" (null) "ÄÖ|straße"]`},
		{"array_to_string(str_split(s, 'ö'), NULL)", `[(null) (null) (null) (null) (null)]`},
		{"sign(i8)", `[1 -1 (null) 1 -1]`},
		{"sign(f64)", `[1 -1 (null) 1 1]`},
		{"sqrt(i32)", `[3.1622776601683795 4.47213595499958 5.477225575051661 (null) 7.0710678118654755]`},
		{"ln(u32)", `[0 0.6931471805599453 1.0986122886681096 1.3862943611198906 22.18070977768542]`},
		{"log10(i32)", `[1 1.301029995663981 1.4771212547196624 (null) 1.6989700043360187]`},
		{"log2(u32)", `[0 1 1.5849625007211563 2 31.999999999664098]`},
		{"exp(i8)", `[2.718281828459045 0.1353352832366127 (null) 1.4302079958348105e+55 2.572209372642415e-56]`},
		{"pow(i32, 2)", `[100 400 900 (null) 2500]`},
		{"power(2, -1)", `[0.5 0.5 0.5 0.5 0.5]`},
		{"ceil(f64)", `[2 -2 (null) 1 1e+300]`},
		{"floor(f64)", `[1 -3 (null) 0 1e+300]`},
		{"trunc(f64)", `[1 -2 (null) 0 1e+300]`},
		{"ceil(i8)", `[1 -2 (null) 127 -128]`},
		{"round(f64)", `[2 -3 (null) 0 1e+300]`},
		{"round_even(f64)", `[2 -2 (null) 0 1e+300]`},
		{"round_even(f64, 1)", `[1.5 -2.5 (null) 0.2 1e+300]`},
		{"round_even(i32, -2)", `[0 0 0 (null) 0]`},
		{"fmod(f64, 1)", `[0.5 0.5 (null) 0.25 0]`}, {"fmod(f64, -1)", `[-0.5 -0.5 (null) -0.75 0]`},
		{"round_even(2.5, 0) + round_even(3.5) + round_even(-0.125, 2)", `[5.88 5.88 5.88 5.88 5.88]`},
		{"decode(encode(s))", `["Hello" "wörld" "" (null) "ÄÖÜ straße"]`},
		{"mod(i32, 7)", `[3 6 2 (null) 1]`},
		{"right(s, i64)", `["Hello" "wörld" "" (null) (null)]`},
		{"right(s, -9223372036854775807 - 1)", `["" "" "" (null) ""]`},
		{"left('ÄÖÜ', i8)", `["Ä" "Ä" (null) "ÄÖÜ" ""]`},
		{"strpos('Hello wörld', s)", `[1 7 1 (null) 0]`},
		{"concat(s, '|', 'x')", `["Hello|x" "wörld|x" "|x" "|x" "ÄÖÜ straße|x"]`},
	} {
		t.Run(c.text, func(t *testing.T) {
			got, err := evalText(t, rec, c.text)
			if err != nil {
				t.Fatal(err)
			}
			if s := array.Format(got); s != c.want {
				t.Errorf("got %s, want %s", array.Format(got), c.want)
			}
		})
	}
}

// TestStringMathFunctionErrors checks that bad arguments and values are
// errors naming them and wrapping the sentinel.
func TestStringMathFunctionErrors(t *testing.T) {
	rec := fixture(t)
	for _, c := range []struct {
		text string
		kind error
		msg  string
	}{
		{"lpad(s, 10, '')", datatype.ErrInvalid, `row 0: padding "Hello" to 10 characters with an empty string`},
		{"lpad(s, 'x', 'y')", datatype.ErrInvalid, "lpad needs an integer, not utf8"},
		{"repeat(s, 1000000000)", datatype.ErrLimit, "row 0: repeat of 5 bytes"},
		{"rpad(s, 1000000000, 'x')", datatype.ErrLimit, "row 0: padding to 1000000000 characters"},
		{"strpos(bad, 'x')", datatype.ErrInvalid, `row 1: invalid UTF-8 "b\xffd"`},
		{"upper(bad)", datatype.ErrInvalid, `row 1: invalid UTF-8 "b\xffd"`},
		{"contains(bad, 'x')", datatype.ErrInvalid, `row 1: invalid UTF-8 "b\xffd"`},
		{"regexp_matches(bad, 'x')", datatype.ErrInvalid, `row 1: invalid UTF-8 "b\xffd"`},
		{"replace(s, bad, 'x')", datatype.ErrInvalid, `row 1: invalid UTF-8`},
		{"string_split(bad, ',')", datatype.ErrInvalid, `row 1: invalid UTF-8`},
		{"regexp_extract(s, '(', 1)", datatype.ErrInvalid, `regular expression "(" does not compile`},
		{"regexp_extract(s, '(a)', 2)", datatype.ErrInvalid, `group 2 of a pattern with 1 groups ("(a)")`},
		{"regexp_extract(s, 'a', i8)", datatype.ErrInvalid, "the group of regexp_extract must be a constant integer"},
		{"regexp_extract(s, 'a', 0, 'q')", datatype.ErrInvalid, `unknown regular expression option 'q'`},
		{"regexp_split_to_array(s, '[')", datatype.ErrInvalid, `regular expression "[" does not compile`},
		{"regexp_split_to_array(bad, ',')", datatype.ErrInvalid, `row 1: invalid UTF-8`},
		{"array_to_string(s, ',')", datatype.ErrInvalid, "array_to_string needs a list, not utf8"},
		{"sqrt(f64)", datatype.ErrInvalid, "row 1: square root of the negative number -2.5"},
		{"ln(i64)", datatype.ErrInvalid, "row 2: logarithm of the negative number -5"},
		{"log10(i32 - 10)", datatype.ErrInvalid, "row 0: logarithm of zero"},
		{"sqrt(s)", datatype.ErrInvalid, "sqrt needs a number, not utf8"},
		{"sign(s)", datatype.ErrInvalid, "sign of utf8"},
		{"round_even(f64, i8)", datatype.ErrInvalid, "must be a constant integer"},
		{"ceil(s)", datatype.ErrInvalid, "ceil of utf8"},
		{"decode(CAST(bad AS BLOB))", datatype.ErrInvalid, `decode(CAST(bad AS BLOB)) at byte 0: row 1: invalid UTF-8 "b\xffd"`},
		{"decode(s)", datatype.ErrInvalid, "decode needs a binary, not utf8"},
	} {
		t.Run(c.text, func(t *testing.T) {
			_, err := evalText(t, rec, c.text)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, c.kind) {
				t.Errorf("%v does not wrap %v", err, c.kind)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("%q does not say %q", err, c.msg)
			}
		})
	}
}

// TestCheckUTF8 checks the one-pass UTF-8 check of a utf8 array: bytes
// valid as a whole but cut inside a character are still an error naming
// the row, and the null slot's bytes are not checked.
func TestCheckUTF8(t *testing.T) {
	for _, c := range []struct {
		vals  []string
		valid []bool
		row   string
	}{
		{[]string{"ok", "\xc3", "\xa4"}, nil, "row 1"},
		{[]string{"ä", "\xff", "b"}, []bool{true, false, true}, ""},
		{[]string{"ä", "€", "🎉x"}, nil, ""},
		{[]string{"a", "b", "\xe2\x82"}, nil, "row 2"},
	} {
		sb := array.NewBinaryBuilder[int32](datatype.String)
		sb.AppendStrings(c.vals, c.valid)
		err := checkUTF8(sb.NewArray().(byteStrings))
		switch {
		case c.row == "" && err != nil:
			t.Errorf("%q: %v", c.vals, err)
		case c.row != "" && (!errors.Is(err, datatype.ErrInvalid) || !strings.Contains(fmt.Sprint(err), c.row)):
			t.Errorf("%q: %v, want an error naming %s", c.vals, err, c.row)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"lower(s)", `["hello" "wörld" "" (null) "äöü straße"]`},
		{"upper(s)", `["HELLO" "WÖRLD" "" (null) "ÄÖÜ STRAẞE"]`},
	} {
		got, err := evalText(t, fixture(t), c.text)
		if err != nil {
			t.Fatal(err)
		}
		if s := array.Format(got); s != c.want {
			t.Errorf("%s: got %s, want %s", c.text, s, c.want)
		}
	}
}
