package expr

import (
	"errors"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestTrunc checks trunc(x, digits) over the fixture (f64: 1.5, -2.5,
// null, 0.25, 1e300) and constants, with DuckDB's answers.
func TestTrunc(t *testing.T) {
	rec := fixture(t)
	for _, c := range []struct{ text, want, typ string }{
		{"trunc(f64)", `[1 -2 (null) 0 1e+300]`, "float64"},
		{"trunc(f64, 1)", `[1.5 -2.5 (null) 0.2 1e+300]`, "float64"},
		{"trunc(f64, -1)", `[0 -0 (null) 0 1e+300]`, "float64"},
		{"trunc(f64, 400)", `[1.5 -2.5 (null) 0.25 1e+300]`, "float64"},
		{"trunc(f64, -400)", `[1.5 -2.5 (null) 0.25 1e+300]`, "float64"},
		{"trunc(f64, NULL)", `[(null) (null) (null) (null) (null)]`, "float64"},
		{"trunc(0.29, 2)", `[0.28 0.28 0.28 0.28 0.28]`, "float64"},
		{"trunc(-1567.5, -2)", `[-1500 -1500 -1500 -1500 -1500]`, "float64"},
		{"trunc(5e307, -308)", `[0 0 0 0 0]`, "float64"},
		{"trunc(CAST(f64 AS REAL), 1)", `[1.5 -2.5 (null) 0.2 +Inf]`, "float32"},
		{"trunc(i8, -1)", `[0 0 (null) 120 -120]`, "int8"},
		{"trunc(i8, 2)", `[1 -2 (null) 127 -128]`, "int8"},
		{"trunc(i64, -18)", `[0 9000000000000000000 0 0 (null)]`, "int64"},
		{"trunc(i64, -19)", `[0 0 0 0 (null)]`, "int64"},
		{"trunc(u32, -9)", `[0 0 0 0 4000000000]`, "uint32"},
		{"trunc(CAST(18446744073709551615 AS UBIGINT), -19)", `[10000000000000000000 10000000000000000000 10000000000000000000 10000000000000000000 10000000000000000000]`, "uint64"},
		{"trunc(CAST('-1567.89' AS DECIMAL(10,2)), 1)", `[-1567.8 -1567.8 -1567.8 -1567.8 -1567.8]`, "decimal128(10, 1)"},
		{"trunc(CAST('-1567.89' AS DECIMAL(10,2)), 5)", `[-1567.89 -1567.89 -1567.89 -1567.89 -1567.89]`, "decimal128(10, 2)"},
		{"trunc(CAST('1567.89' AS DECIMAL(10,2)), -2)", `[1500 1500 1500 1500 1500]`, "decimal128(10, 0)"},
		{"trunc(CAST('1567.89' AS DECIMAL(10,2)))", `[1567 1567 1567 1567 1567]`, "decimal128(10, 0)"},
		{"trunc(CAST(i32 AS DECIMAL(10,2)) , -1)", `[10 20 30 (null) 50]`, "decimal128(10, 0)"},
		{"trunc(CAST('9.99' AS DECIMAL(3,2)), -5)", `[0 0 0 0 0]`, "decimal128(3, 0)"},
	} {
		t.Run(c.text, func(t *testing.T) {
			got, err := evalText(t, rec, c.text)
			if err != nil {
				t.Fatal(err)
			}
			if s := array.Format(got); s != c.want {
				t.Errorf("got %s, want %s", s, c.want)
			}
			if s := got.DataType().String(); s != c.typ {
				t.Errorf("type %s, want %s", s, c.typ)
			}
		})
	}
	for _, c := range []struct{ text, msg string }{
		{"trunc(s)", "trunc of utf8"},
		{"trunc(f64, i8)", "the digits of trunc must be a constant integer, not i8"},
		{"trunc(f64, 1.5)", "the digits of trunc must be a constant integer"},
		{"trunc(f64, 3000000000)", "the digits of trunc"},
	} {
		_, err := evalText(t, rec, c.text)
		if !errors.Is(err, datatype.ErrInvalid) || !strings.Contains(err.Error(), c.msg) || !strings.HasPrefix(err.Error(), "expr: ") {
			t.Errorf("%s: %v, want an error saying %q", c.text, err, c.msg)
		}
	}
}
