package expr

import (
	"errors"
	"testing"

	"github.com/alkaid-go/alkaid/array"
)

// TestMoreNames checks the names added to match DuckDB's list (aliases,
// epoch, decade, century, millennium, to_quarters … to_millennia) and
// Arrow's day_of_week, day_of_year, iso_week and iso_year; the values
// are DuckDB 1.5's, except day_of_week (Arrow's: Monday 0).
func TestMoreNames(t *testing.T) {
	rec := fixture(t)
	for _, c := range []struct{ text, want string }{
		{"len(s)", `[5 5 0 (null) 10]`},
		{"split(s, 'l')", `[["He" "" "o"] ["wör" "d"] [""] (null) ["ÄÖÜ straße"]]`},
		{"suffix(s, 'o')", `[true false false (null) false]`},
		{"roundbankers(f64, 0)", `[2 -2 (null) 0 1e+300]`},
		{"datetrunc('month', d)", `[2024-02-01 1970-01-01 (null) 1969-12-01 2000-03-01]`},
		{"dayofmonth(d)", `[29 1 (null) 31 1]`},
		{"weekday(d)", `[4 4 (null) 3 3]`},
		{"day_of_week(d)", `[3 3 (null) 2 2]`},
		{"day_of_year(d)", `[60 1 (null) 365 61]`},
		{"iso_week(d)", `[9 1 (null) 1 9]`},
		{"iso_year(d)", `[2024 1970 (null) 1970 2000]`},
		{"epoch(ts)", `[1.710053999e+09 1.710054e+09 (null) -0.5 1.7306118e+09]`},
		{"epoch(d)", `[1.7091648e+09 0 (null) -86400 9.518688e+08]`},
		{"epoch(iv)", `[2.764803e+06 0 (null) -3.0699e+07 172800.0000015]`},
		{"decade(d)", `[202 197 (null) 196 200]`},
		{"century(d)", `[21 20 (null) 20 20]`},
		{"millennium(d)", `[3 2 (null) 2 2]`},
		{"date_part('century', d)", `[21 20 (null) 20 20]`},
		{"century(iv * 100)", `[0 0 (null) -1 0]`},
		{"CAST(to_quarters(i8) AS VARCHAR)", `["3 months" "-6 months" (null) "31 years 9 months" "-32 years"]`},
		{"CAST(to_decades(i8) + to_centuries(i8) + to_millennia(i8) AS VARCHAR)", `["1110 years" "-2220 years" (null) "140970 years" "-142080 years"]`},
	} {
		t.Run(c.text, func(t *testing.T) {
			got, err := evalText(t, rec, c.text)
			if err != nil {
				t.Fatal(err)
			}
			if s := array.Format(got); s != c.want {
				t.Errorf("got %s, want %s", s, c.want)
			}
		})
	}
}

// TestCenturyBC checks decade, century and millennium around year 0 as
// DuckDB 1.5 counts them (1 BC is year 0, in century and millennium -1).
func TestCenturyBC(t *testing.T) {
	for _, c := range []struct {
		year                        int64
		decade, century, millennium int64
	}{
		{2000, 200, 20, 2}, {2001, 200, 21, 3}, {1000, 100, 10, 1}, {1001, 100, 11, 2}, {1, 0, 1, 1},
		{0, 0, -1, -1}, {-1, 0, -1, -1}, {-8, 0, -1, -1}, {-10, -1, -1, -1}, {-99, -9, -1, -1}, {-100, -10, -2, -1},
	} {
		days := daysFromCivil(c.year, 6, 1)
		y, _, _ := civil(days)
		if y != c.year {
			t.Fatalf("civil(daysFromCivil(%d)) = %d", c.year, y)
		}
		if got := y / 10; got != c.decade {
			t.Errorf("decade of %d: %d, want %d", c.year, got, c.decade)
		}
		if got := yearGroup(days, 100); got != c.century {
			t.Errorf("century of %d: %d, want %d", c.year, got, c.century)
		}
		if got := yearGroup(days, 1000); got != c.millennium {
			t.Errorf("millennium of %d: %d, want %d", c.year, got, c.millennium)
		}
	}
}

// TestCallResolvesAliases checks that the Go builder takes the aliases
// Parse takes (before, Call("lcase", …) was an unknown function).
func TestCallResolvesAliases(t *testing.T) {
	rec := fixture(t)
	for _, name := range []string{"LCASE", "lower"} {
		b, err := Bind(Call(name, Field("s")), rec.Schema())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := b.Eval(rec)
		if err != nil {
			t.Fatal(err)
		}
		if s := array.Format(got); s != `["hello" "wörld" "" (null) "äöü straße"]` {
			t.Errorf("%s: %s", name, s)
		}
	}
	if e := Call("ifnull", Field("i8"), Lit(0)); e.String() != "coalesce(i8, 0)" {
		t.Errorf("printed %s", e)
	}
}

// TestConcatWS checks concat_ws(sep, x, …) as DuckDB's: null arguments
// skipped, a null separator a null result, other types as their text,
// binaries joined as binaries (DuckDB gives their escaped text).
func TestConcatWS(t *testing.T) {
	rec := fixture(t)
	for _, c := range []struct{ text, want string }{
		{"concat_ws(',', s, i8, NULL, s)", `["Hello,1,Hello" "wörld,-2,wörld" "," "127" "ÄÖÜ straße,-128,ÄÖÜ straße"]`},
		{"concat_ws(s, 'a', 'b')", `["aHellob" "awörldb" "ab" (null) "aÄÖÜ straßeb"]`},
		{"concat_ws(NULL, s)", `[(null) (null) (null) (null) (null)]`},
		{"concat_ws(',', NULL)", `["" "" "" "" ""]`},
		{"concat_ws(',', s)", `["Hello" "wörld" "" "" "ÄÖÜ straße"]`},
		{"hex(concat_ws('-', bl, 'x'))", `["00FF2D78" "2D78" "78" "61C32D78" "FE2D78"]`},
	} {
		t.Run(c.text, func(t *testing.T) {
			got, err := evalText(t, rec, c.text)
			if err != nil {
				t.Fatal(err)
			}
			if s := array.Format(got); s != c.want {
				t.Errorf("got %s, want %s", s, c.want)
			}
		})
	}
}

// TestPositionIn checks DuckDB's POSITION(needle IN haystack), read as
// strpos(haystack, needle), and its syntax errors.
func TestPositionIn(t *testing.T) {
	rec := fixture(t)
	for _, c := range []struct{ text, printed, want string }{
		{"POSITION('l' IN s)", "strpos(s, 'l')", `[3 4 0 (null) 0]`},
		{"position(s IN 'Hello world')", "strpos('Hello world', s)", `[1 0 1 (null) 0]`},
		{"position('l' || 'o' IN s) > 0", "(strpos(s, ('l' || 'o')) > 0)", `[true false false (null) false]`},
	} {
		e, err := Parse(c.text)
		if err != nil {
			t.Fatalf("%s: %v", c.text, err)
		}
		if e.String() != c.printed {
			t.Errorf("%s printed as %s, want %s", c.text, e, c.printed)
		}
		got, err := evalText(t, rec, c.text)
		if err != nil {
			t.Fatal(err)
		}
		if s := array.Format(got); s != c.want {
			t.Errorf("%s: got %s, want %s", c.text, s, c.want)
		}
	}
	for _, c := range []struct {
		text string
		at   int
	}{{"position('l' IN )", 16}, {"position('a' IN s", 17}, {"position(", 9}} {
		var se *SyntaxError
		if _, err := Parse(c.text); !errors.As(err, &se) || se.Pos != c.at {
			t.Errorf("%s: %v, want a syntax error at byte %d", c.text, err, c.at)
		}
	}
}
