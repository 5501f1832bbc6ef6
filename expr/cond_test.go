package expr

import (
	"testing"

	"github.com/alkaid-go/alkaid/array"
)

// TestCommonTypeLiteralFirst checks that a literal takes the type of the
// other results of CASE, coalesce and if wherever it stands, as in
// DuckDB (before, a literal in the first place set the type: CASE WHEN b
// THEN 2 ELSE i8 END was int64 and a date string before a date column an
// error), and that a literal that does not fit widens the type instead.
func TestCommonTypeLiteralFirst(t *testing.T) {
	rec := fixture(t)
	for _, c := range []struct{ text, typ, want string }{
		{"coalesce(1, i8)", "int8", `[1 1 1 1 1]`},
		{"coalesce(1000, i8)", "int64", `[1000 1000 1000 1000 1000]`},
		{"CASE WHEN b THEN i8 ELSE 2 END", "int8", `[1 2 2 127 2]`},
		{"CASE WHEN b THEN 2 ELSE i8 END", "int8", `[2 -2 (null) 2 -128]`},
		{"CASE WHEN b THEN 200 ELSE i8 END", "int64", `[200 -2 (null) 200 -128]`},
		{"CASE WHEN b THEN '2000-01-01' ELSE d END", "date32", `[2000-01-01 1970-01-01 (null) 2000-01-01 2000-03-01]`},
		{"if(b, 'x', s)", "utf8", `["x" "wörld" "" "x" "ÄÖÜ straße"]`},
		{"coalesce(NULL, 1, i32)", "int32", `[1 1 1 1 1]`},
	} {
		t.Run(c.text, func(t *testing.T) {
			e, err := Parse(c.text)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Bind(e, rec.Schema())
			if err != nil {
				t.Fatal(err)
			}
			if got := b.Type().String(); got != c.typ {
				t.Errorf("type %s, want %s", got, c.typ)
			}
			got, err := b.Eval(rec)
			if err != nil {
				t.Fatal(err)
			}
			if s := array.Format(got); s != c.want {
				t.Errorf("got %s, want %s", s, c.want)
			}
		})
	}
}

// TestNullif checks nullif(a, b): null where a = b (compared as = does,
// intervals in DuckDB's order), else a, of a's type.
func TestNullif(t *testing.T) {
	rec := fixture(t)
	for _, c := range []struct{ text, typ, want string }{
		{"nullif(i8, 1)", "int8", `[(null) -2 (null) 127 -128]`},
		{"nullif(i8, 1000)", "int8", `[1 -2 (null) 127 -128]`},
		{"nullif(s, '')", "utf8", `["Hello" "wörld" (null) (null) "ÄÖÜ straße"]`},
		{"nullif(i8, NULL)", "int8", `[1 -2 (null) 127 -128]`},
		{"CAST(nullif(iv, INTERVAL '0 days') AS VARCHAR)", "utf8", `["1 month 2 days 00:00:03" (null) (null) "-1 year -1 month 40 days -01:30:00" "1 day 24:00:00.0000015"]`},
	} {
		t.Run(c.text, func(t *testing.T) {
			e, err := Parse(c.text)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Bind(e, rec.Schema())
			if err != nil {
				t.Fatal(err)
			}
			if got := b.Type().String(); got != c.typ {
				t.Errorf("type %s, want %s", got, c.typ)
			}
			got, err := b.Eval(rec)
			if err != nil {
				t.Fatal(err)
			}
			if s := array.Format(got); s != c.want {
				t.Errorf("got %s, want %s", s, c.want)
			}
		})
	}
}
