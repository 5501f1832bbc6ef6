package expr

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestIntervalTimesFloat checks interval · float and interval / number
// over the fixture's iv ([1 month 2 days 3 s, 0, null, -13 months 40
// days -1.5 h, 1 day 24 h 1.5 µs]) against DuckDB 1.5's answers (which
// round the time to the microsecond: .000001 where expr has .000001 or
// finer digits of the 1.5 µs).
func TestIntervalTimesFloat(t *testing.T) {
	rec := fixture(t)
	for _, c := range []struct{ text, want string }{
		// Fractions of months carried to days, of days to time.
		{"iv / 1.5", `["21 days 08:00:02" "00:00:00" (null) "-8 months 6 days 15:00:00" "32:00:00.000001"]`},
		{"iv * 1.5", `["1 month 18 days 00:00:04.5" "00:00:00" (null) "-1 year -7 months 45 days -02:15:00" "1 day 48:00:00.00000225"]`},
		{"2.5 * iv", `["2 months 20 days 00:00:07.5" "00:00:00" (null) "-2 years -8 months 85 days -03:45:00" "2 days 72:00:00.00000375"]`},
		{"0.1 * iv", `["3 days 04:48:00.3" "00:00:00" (null) "-1 month -5 days -00:09:00" "04:48:00.00000015"]`},
		// DuckDB rounds the carried fraction of a month to a microsecond
		// of a day (1 month / 7 is 06:51:25.6896, not .714285…), then
		// the time to the microsecond; expr to the nanosecond.
		{"iv / 7", `["4 days 13:42:51.832457429" "00:00:00" (null) "-1 month -20 days -00:12:51.453257429" "06:51:25.714286071"]`},
		{"INTERVAL '1 month' / 7", `["4 days 06:51:25.6896" "4 days 06:51:25.6896" "4 days 06:51:25.6896" "4 days 06:51:25.6896" "4 days 06:51:25.6896"]`},
		{"iv / 0.25", `["4 months 8 days 00:00:12" "00:00:00" (null) "-4 years -4 months 160 days -06:00:00" "4 days 96:00:00.000006"]`},
		{"iv / -2", `["-16 days -00:00:01.5" "00:00:00" (null) "6 months -5 days 00:45:00" "-24:00:00.00000075"]`},
		{"iv / -128", `["-06:00:00.0234375" "00:00:00" (null) "3 days -06:21:47.8125" "-00:22:30.000000012"]`},
		{"iv / i8", `["1 month 2 days 00:00:03" "00:00:00" (null) "-3 days 05:50:47.256339961" "-00:22:30.000000012"]`},
		{"iv / f64", `["21 days 08:00:02" "00:00:00" (null) "-4 years -4 months 160 days -06:00:00" "00:00:00"]`},
		{"iv * -0.0", `["00:00:00" "00:00:00" (null) "00:00:00" "00:00:00"]`},
		// Division by zero is null, as in DuckDB; by an infinity zero.
		{"iv / 0", `[(null) (null) (null) (null) (null)]`},
		{"iv / (i8 - i8)", `[(null) (null) (null) (null) (null)]`},
		{"iv / -0.0", `[(null) (null) (null) (null) (null)]`},
		{"iv / NULL", `[(null) (null) (null) (null) (null)]`},
		{"iv / CAST('inf' AS DOUBLE)", `["00:00:00" "00:00:00" (null) "00:00:00" "00:00:00"]`},
		{"iv * CAST(i8 AS REAL)", `["1 month 2 days 00:00:03" "00:00:00" (null) "-137 years -7 months 5080 days -190:30:00" "-128 days -3072:00:00.000192"]`},
	} {
		t.Run(c.text, func(t *testing.T) {
			got, err := evalText(t, rec, "CAST("+c.text+" AS VARCHAR)")
			if err != nil {
				t.Fatal(err)
			}
			if s := array.Format(got); s != c.want {
				t.Errorf("got %s, want %s", s, c.want)
			}
		})
	}
}

// TestIntervalTimesFloatErrors checks that a product out of range, NaN
// and an infinity (even times a zero interval, as in DuckDB) are errors
// naming the row, wrapping ErrInvalid (through compute.ErrOverflow).
func TestIntervalTimesFloatErrors(t *testing.T) {
	rec := fixture(t)
	for _, c := range []struct{ text, msg string }{
		{"iv * f64", "row 4: interval out of range"},
		{"iv * CAST('nan' AS DOUBLE)", "row 0: interval out of range"},
		{"iv / CAST('nan' AS DOUBLE)", "row 0: interval out of range"},
		{"iv * CAST('-inf' AS DOUBLE)", "row 0: interval out of range"},
		{"INTERVAL '0 days' * CAST('inf' AS DOUBLE) + iv", "interval out of range"},
		{"INTERVAL '1 month' * 1e10", "interval out of range"},
		{"iv / 1e-300", "row 0: interval out of range"},
	} {
		t.Run(c.text, func(t *testing.T) {
			_, err := evalText(t, rec, c.text)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, datatype.ErrInvalid) || !errors.Is(err, compute.ErrOverflow) {
				t.Errorf("%v does not wrap ErrInvalid and compute.ErrOverflow", err)
			}
			if !strings.Contains(err.Error(), c.msg) || !strings.HasPrefix(err.Error(), "expr: ") {
				t.Errorf("%q does not say %q", err, c.msg)
			}
		})
	}
}

// TestScaleIntervalFloat checks the edges of scaleIntervalFloat: the
// int32 bounds of months and days, the int64 bound of nanoseconds, and
// a carry of the time to a whole day.
func TestScaleIntervalFloat(t *testing.T) {
	for _, c := range []struct {
		x    interval
		f    float64
		want interval
		err  bool
	}{
		{x: interval{Months: 1}, f: 71582788, want: interval{Months: 71582788}},
		{x: interval{Months: math.MaxInt32}, f: 1, want: interval{Months: math.MaxInt32}},
		{x: interval{Months: math.MaxInt32}, f: 1.0000001, err: true},
		{x: interval{Days: math.MinInt32}, f: 1, want: interval{Days: math.MinInt32}},
		{x: interval{Days: math.MaxInt32}, f: -1, want: interval{Days: -math.MaxInt32}},
		{x: interval{Days: math.MaxInt32 - 1, Nanoseconds: 86399e9}, f: 1.5, err: true},
		{x: interval{Nanoseconds: math.MaxInt64}, f: 1, err: true}, // 2^63 as a float64
		{x: interval{Nanoseconds: 1 << 62}, f: 2, err: true},
		{x: interval{Nanoseconds: -1 << 62}, f: 2, want: interval{Nanoseconds: math.MinInt64}},
		// 49 · (1/49) is 0.9999999999999999: the time rounded to the
		// microsecond is a whole day, carried to the days.
		{x: interval{Days: 49}, f: 1 / 49.0, want: interval{Days: 1}},
		{x: interval{Months: 1, Days: 1}, f: 0.5, want: interval{Days: 15, Nanoseconds: 43200e9}},
		// 1 µs / 3: 333 ns (DuckDB, in microseconds, gives 0).
		{x: interval{Nanoseconds: 1000}, f: 1.0 / 3, want: interval{Nanoseconds: 333}},
		// Half a nanosecond rounds to even.
		{x: interval{Nanoseconds: 1}, f: 0.5, want: interval{}},
		{x: interval{Nanoseconds: 3}, f: 0.5, want: interval{Nanoseconds: 2}},
		{x: interval{Nanoseconds: -3}, f: 0.5, want: interval{Nanoseconds: -2}},
	} {
		got, err := scaleIntervalFloat(c.x, c.f)
		if c.err {
			if !errors.Is(err, compute.ErrOverflow) {
				t.Errorf("%+v · %v: %+v, %v; want an overflow", c.x, c.f, got, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%+v · %v: %+v, %v; want %+v", c.x, c.f, got, err, c.want)
		}
	}
}
