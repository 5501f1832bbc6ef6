package expr

import (
	"testing"

	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

func mustParse(t testing.TB, s string) *Expr {
	t.Helper()
	e, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestSimplify(t *testing.T) {
	for _, c := range []struct{ e, facts, want string }{
		{"year = 2024 AND amount > 10", "year = 2024", "(amount > 10)"},
		{"year = 2023 AND amount > 10", "year = 2024", "FALSE"},
		{"year = 2023 OR amount > 10", "year = 2024", "(amount > 10)"},
		{"year >= 2020 OR amount > 10", "year = 2024 AND country = 'DE'", "TRUE"},
		{"country IN ('DE', 'FR') AND amount > year", "year = 2024 AND country = 'DE'", "(amount > CAST(2024 AS BIGINT))"},
		{"country IS NULL", "country IS NULL", "TRUE"},
		{"country = 'DE'", "country IS NULL", "CAST(NULL AS BOOLEAN)"},
		{"amount + 1 > 2", "year = 2024", "((amount + 1) > 2)"},
		{"month(d) = 2 AND year = 2024", "", "((month(d) = 2) AND (year = 2024))"},
		{"year + 9223372036854775807 > 0", "year = 2024", "((CAST(2024 AS BIGINT) + 9223372036854775807) > 0)"},
	} {
		t.Run(c.e+" | "+c.facts, func(t *testing.T) {
			var facts *Expr
			if c.facts != "" {
				facts = mustParse(t, c.facts)
			}
			got := Simplify(mustParse(t, c.e), facts)
			if got.String() != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}

func TestMayMatch(t *testing.T) {
	i := func(v int64) compute.Scalar { return compute.Scalar{Type: datatype.Int64, Valid: true, Value: v} }
	f := func(v float64) compute.Scalar { return compute.Scalar{Type: datatype.Float64, Valid: true, Value: v} }
	str := func(v string) compute.Scalar { return compute.Scalar{Type: datatype.String, Valid: true, Value: v} }
	d := func(v int32) compute.Scalar {
		return compute.Scalar{Type: datatype.Date32Type, Valid: true, Value: datatype.Date32(v)}
	}
	stats := map[string]Stats{
		"a":       {Min: i(10), Max: i(20), NullCount: 0, Rows: 100},
		"f":       {Min: f(-1), Max: f(1), NullCount: 0, Rows: 100},
		"s":       {Min: str("b"), Max: str("d"), NullCount: 3, Rows: 100},
		"d":       {Min: d(19723), Max: d(19753), NullCount: 0, Rows: 100}, // 2024-01-01 … 2024-01-31
		"allnull": {NullCount: 100, Rows: 100},
	}
	sf := func(p []string) (Stats, bool) {
		s, ok := stats[p[0]]
		return s, ok
	}
	for _, c := range []struct {
		e    string
		want bool
	}{
		{"a > 20", false},
		{"a >= 20", true},
		{"20 < a", false},
		{"a = 9", false},
		{"a = 15", true},
		{"a <> 15", true},
		{"a < 10.5", true},
		{"a < 10", false},
		{"a BETWEEN 21 AND 30", false},
		{"a BETWEEN 0 AND 10", true},
		{"a IN (1, 2, 30)", false},
		{"a IN (1, 12)", true},
		{"NOT (a < 30)", false},
		{"a > 30 OR s = 'c'", true},
		{"a > 30 OR s = 'e'", false},
		{"a > 15 AND s < 'b'", false},
		{"s IS NULL", true},
		{"a IS NULL", false},
		{"allnull IS NOT NULL", false},
		{"allnull = 3", false},
		{"f <> 0.5", true},
		{"f > 2", false},
		{"NOT (f > 2)", true},
		{"d >= '2024-02-01'", false},
		{"d >= DATE '2024-01-31'", true},
		{"unknown > 3", true},
		{"lower(s) = 'x'", true},
		{"a = NULL", false},
		{"FALSE", false},
	} {
		t.Run(c.e, func(t *testing.T) {
			if got := MayMatch(mustParse(t, c.e), sf); got != c.want {
				t.Errorf("MayMatch = %v, want %v", got, c.want)
			}
		})
	}
}

// TestFoldLiterals checks that the calls foldLiterals computes get the
// value Bind computes, and that it leaves the others to Bind.
func TestFoldLiterals(t *testing.T) {
	ints := []int64{-1 << 63, -3, 0, 2, 2024, 1<<63 - 1}
	strs := []string{"", "DE", "FR", "a/b", "é", "\xff"}
	bools := []bool{false, true}
	var calls []*Expr
	for _, fn := range []string{"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"} {
		for _, a := range ints {
			for _, b := range ints {
				calls = append(calls, Call(fn, Lit(a), Lit(b)))
			}
		}
		for _, a := range strs {
			for _, b := range strs {
				calls = append(calls, Call(fn, Lit(a), Lit(b)))
			}
		}
	}
	for _, a := range bools {
		calls = append(calls, Call("not", Lit(a)))
		for _, b := range bools {
			calls = append(calls, Call("and", Lit(a), Lit(b)), Call("or", Lit(a), Lit(b)))
		}
	}
	for _, e := range calls {
		got, ok := foldLiterals(e)
		if !ok {
			t.Fatalf("%s: not folded", e)
		}
		b, err := Bind(e, emptySchema)
		if err != nil || b.root.lit == nil {
			t.Fatalf("%s: Bind: %v", e, err)
		}
		if want := *b.root.lit; !datatype.Equal(got.Type, want.Type) || got.Valid != want.Valid || got.Value != want.Value {
			t.Fatalf("%s: folded to %+v, Bind computes %+v", e, got, want)
		}
	}
	// Nulls, mixed types and other types are Bind's.
	for _, e := range []*Expr{
		Call("equal", Lit(nil), Lit(int64(1))),
		Call("and", Lit(true), &Expr{kind: kindLiteral, val: compute.NullScalar(datatype.Bool), pos: -1}),
		Call("equal", &Expr{kind: kindLiteral, val: compute.Scalar{Type: datatype.Int32, Valid: true, Value: int32(1)}, pos: -1}, Lit(int64(1))),
		Call("less", Lit(1.5), Lit(2.5)),
		Call("add", Lit(int64(1)), Lit(int64(2))),
	} {
		if v, ok := foldLiterals(e); ok {
			t.Fatalf("%s: folded to %+v; want it left to Bind", e, v)
		}
	}
}
