package expr

import (
	"errors"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestIntervalColumns checks interval columns over the fixture, where iv
// is [1 month 2 days 3 s, 0, null, -13 months 40 days -1.5 h,
// 1 day 24 h 1.5 µs], ts and tsny the same instants around the DST
// changes of 2024 in New York, d dates with a leap day.
func TestIntervalColumns(t *testing.T) {
	rec := fixture(t)
	for _, c := range []struct{ text, want string }{
		{"CAST(iv AS VARCHAR)", `["1 month 2 days 00:00:03" "00:00:00" (null) "-1 year -1 month 40 days -01:30:00" "1 day 24:00:00.0000015"]`},
		{"CAST(-iv AS VARCHAR)", `["-1 month -2 days -00:00:03" "00:00:00" (null) "1 year 1 month -40 days 01:30:00" "-1 day -24:00:00.0000015"]`},
		{"CAST(iv + INTERVAL '1 day' AS VARCHAR)", `["1 month 3 days 00:00:03" "1 day" (null) "-1 year -1 month 41 days -01:30:00" "2 days 24:00:00.0000015"]`},
		{"CAST(iv - iv AS VARCHAR)", `["00:00:00" "00:00:00" (null) "00:00:00" "00:00:00"]`},
		{"CAST(iv * i8 AS VARCHAR)", `["1 month 2 days 00:00:03" "00:00:00" (null) "-137 years -7 months 5080 days -190:30:00" "-128 days -3072:00:00.000192"]`},
		{"CAST(2 * iv AS VARCHAR)", `["2 months 4 days 00:00:06" "00:00:00" (null) "-2 years -2 months 80 days -03:00:00" "2 days 48:00:00.000003"]`},
		{"CAST(to_hours(i8) AS VARCHAR)", `["01:00:00" "-02:00:00" (null) "127:00:00" "-128:00:00"]`},
		{"CAST(to_months(i32) + to_days(i8) AS VARCHAR)", `["10 months 1 day" "1 year 8 months -2 days" (null) (null) "4 years 2 months -128 days"]`},
		// DuckDB's order: 30-day months, 24-hour days.
		{"iv > INTERVAL '1 month'", `[true false (null) false false]`},
		{"iv = '00:00:00'", `[false true (null) false false]`},
		{"iv < INTERVAL '1 day'", `[false true (null) true false]`},
		{"iv = INTERVAL '2 days 0.0000015 seconds'", `[false false (null) false true]`},
		{"CAST(INTERVAL '1.5 months -1.25 minutes 1.5 days' AS VARCHAR)", `["1 month 16 days 11:58:45" "1 month 16 days 11:58:45" "1 month 16 days 11:58:45" "1 month 16 days 11:58:45" "1 month 16 days 11:58:45"]`},
		{"INTERVAL '30 days' = INTERVAL '1 month'", `[true true true true true]`},
		{"INTERVAL '24 hours' IN (INTERVAL '1 day')", `[true true true true true]`},
		{"iv IN (INTERVAL '0 days', NULL)", `[(null) true (null) (null) (null)]`},
		{"iv IS NULL", `[false false true false false]`},
		{"iv BETWEEN INTERVAL '0 days' AND '1 month 2 days 3 seconds'", `[true true (null) false true]`},
		{"strftime(ts + iv, '%Y-%m-%d %H:%M:%S.%f')", `["2024-04-12 07:00:02.000000" "2024-03-10 07:00:00.000000" (null) "1969-01-09 22:29:59.500000" "2024-11-05 05:30:00.000001"]`},
		{"strftime(tsny + iv, '%Y-%m-%d %H:%M:%S.%f')", `["2024-04-12 02:00:02.000000" "2024-03-10 03:00:00.000000" (null) "1969-01-09 17:29:59.500000" "2024-11-05 01:30:00.000001"]`},
		{"strftime(d - iv, '%Y-%m-%d %H:%M:%S.%f')", `["2024-01-26 23:59:57.000000" "1970-01-01 00:00:00.000000" (null) "1970-12-22 01:30:00.000000" "2000-02-27 23:59:59.999999"]`},
		{"CAST(ts - TIMESTAMP '2024-03-09 12:00:00' AS VARCHAR)", `["18:59:59" "19:00:00" (null) "-19791 days -12:00:00.5" "238 days 17:30:00"]`},
		// In New York: local days, then elapsed time (the night of
		// 2024-03-10 has 23 hours).
		{"CAST(tsny - timezone('America/New_York', TIMESTAMP '2024-03-09 12:00:00') AS VARCHAR)", `["13:59:59" "14:00:00" (null) "-19791 days -17:00:00.5" "238 days 13:30:00"]`},
		{"CAST(timezone('America/New_York', TIMESTAMP '2024-03-11 01:00:00') - timezone('America/New_York', TIMESTAMP '2024-03-09 01:30:00') AS VARCHAR)", `["1 day 22:30:00" "1 day 22:30:00" "1 day 22:30:00" "1 day 22:30:00" "1 day 22:30:00"]`},
		// DuckDB's answers (ICU): a negative part puts the time first; a
		// day reached in the repeated hour keeps the offset of the start.
		{"strftime(timezone('America/New_York', TIMESTAMP '2023-12-31 18:40:34') - INTERVAL '1 month -13 days 24:36:38', '%Y-%m-%d %H:%M:%S')", `["2023-12-13 18:03:56" "2023-12-13 18:03:56" "2023-12-13 18:03:56" "2023-12-13 18:03:56" "2023-12-13 18:03:56"]`},
		{"strftime(TIMESTAMPTZ '2023-12-31 18:40:34' - INTERVAL '1 month -13 days 24:36:38', '%Y-%m-%d %H:%M:%S')", `["2023-12-13 18:03:56" "2023-12-13 18:03:56" "2023-12-13 18:03:56" "2023-12-13 18:03:56" "2023-12-13 18:03:56"]`},
		{"strftime(TIMESTAMP '2023-12-31 18:40:34' - INTERVAL '1 month -13 days 24:36:38', '%Y-%m-%d %H:%M:%S')", `["2023-12-12 18:03:56" "2023-12-12 18:03:56" "2023-12-12 18:03:56" "2023-12-12 18:03:56" "2023-12-12 18:03:56"]`},
		{"CAST(timezone('America/New_York', TIMESTAMP '2024-11-03 05:19:57') - timezone('America/New_York', TIMESTAMP '1996-05-09 01:32:22') AS VARCHAR)", `["10405 days 04:47:35" "10405 days 04:47:35" "10405 days 04:47:35" "10405 days 04:47:35" "10405 days 04:47:35"]`},
		{"d - DATE '2024-01-01'", `[59 -19723 (null) -19724 -8706]`},
		{"CAST(ts - d AS VARCHAR)", `["10 days 06:59:59" "19792 days 07:00:00" (null) "23:59:59.5" "9013 days 05:30:00"]`},
		{"year(iv)", `[0 0 (null) -1 0]`}, {"month(iv)", `[1 0 (null) -1 0]`}, {"day(iv)", `[2 0 (null) 40 1]`},
		{"hour(iv)", `[0 0 (null) -1 24]`}, {"minute(iv)", `[0 0 (null) -30 0]`}, {"second(iv)", `[3 0 (null) 0 0]`},
		{"millisecond(iv)", `[3000 0 (null) 0 0]`}, {"microsecond(iv)", `[3000000 0 (null) 0 1]`},
		{"nanosecond(iv)", `[3000000000 0 (null) 0 1500]`}, {"quarter(iv)", `[1 1 (null) 1 1]`},
		{"date_part('epoch', iv)", `[2.764803e+06 0 (null) -3.0699e+07 172800.0000015]`},
		{"date_part('decade', iv * 20)", `[0 0 (null) -2 0]`},
		{"date_part('year', d)", `[2024 1970 (null) 1969 2000]`},
		{"date_part('epoch', d)", `[1.7091648e+09 0 (null) -86400 9.518688e+08]`},
		{"date_part('epoch', ts)", `[1.710053999e+09 1.710054e+09 (null) -0.5 1.7306118e+09]`}, {"date_part('dow', d)", `[4 4 (null) 3 3]`},
		{"CAST(CAST('2 years 3 mons 4 d 5:06' AS INTERVAL) AS VARCHAR)", `["2 years 3 months 4 days 05:06:00" "2 years 3 months 4 days 05:06:00" "2 years 3 months 4 days 05:06:00" "2 years 3 months 4 days 05:06:00" "2 years 3 months 4 days 05:06:00"]`},
		{"CAST(CAST('1 day -01:02:03.25' AS INTERVAL) AS VARCHAR)", `["1 day -01:02:03.25" "1 day -01:02:03.25" "1 day -01:02:03.25" "1 day -01:02:03.25" "1 day -01:02:03.25"]`},
		{"CAST(coalesce(iv, INTERVAL '1 year') AS VARCHAR)", `["1 month 2 days 00:00:03" "00:00:00" "1 year" "-1 year -1 month 40 days -01:30:00" "1 day 24:00:00.0000015"]`},
		{"CAST(CASE WHEN b THEN iv ELSE INTERVAL 3 HOUR END AS VARCHAR)", `["1 month 2 days 00:00:03" "03:00:00" "03:00:00" "-1 year -1 month 40 days -01:30:00" "03:00:00"]`},
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

// TestIntervalErrors checks that interval arithmetic out of range, bad
// interval text and operations DuckDB has no form of are errors naming
// the expression (and the row).
func TestIntervalErrors(t *testing.T) {
	rec := fixture(t)
	for _, c := range []struct {
		text string
		kind error
		msg  string
	}{
		{"iv * 9223372036854775807", datatype.ErrInvalid, "row 0: interval out of range"},
		{"-(to_months(i32) * 100000000)", datatype.ErrInvalid, "row 2: interval out of range"},
		{"iv + 1", datatype.ErrInvalid, "add_checked needs an interval, not int64"},
		{"iv * 's'", datatype.ErrInvalid, "multiply_checked needs an integer, not utf8"},
		{"iv / iv", datatype.ErrInvalid, "divide needs a number, not month_day_nano_interval"},
		{"2 / iv", datatype.ErrInvalid, "divide of int64 and month_day_nano_interval"},
		{"iv // 2", datatype.ErrInvalid, "integer_divide of month_day_nano_interval and int64"},
		{"abs(iv)", datatype.ErrInvalid, "abs of month_day_nano_interval"},
		{"iv = 1", datatype.ErrInvalid, "equal needs an interval, not int64"},
		{"iv > 'soon'", datatype.ErrInvalid, `interval "soon": "soon" is not a number`},
		{"CAST(s AS INTERVAL)", datatype.ErrInvalid, `row 0: interval "Hello"`},
		{"CAST('3 fortnights' AS INTERVAL)", datatype.ErrInvalid, `unknown unit "fortnights"`},
		{"CAST('1:2' AS INTERVAL)", datatype.ErrInvalid, `"1:2" is not a time`},
		{"INTERVAL '99999999999 months'", datatype.ErrLimit, "is out of range"},
		{"CAST(i32 AS INTERVAL)", datatype.ErrNotSupported, "CAST of int32 to INTERVAL"},
		{"CAST(iv AS BIGINT)", datatype.ErrNotSupported, "CAST of an interval to BIGINT"},
		{"date_part('dow', iv)", datatype.ErrInvalid, `an interval has no part "dayofweek"`},
		{"date_part('fortnight', d)", datatype.ErrInvalid, `date_part of "fortnight" of date32`},
		{"date_part(s, d)", datatype.ErrInvalid, "the part"},
		{"dayofweek(iv)", datatype.ErrInvalid, `an interval has no part "dayofweek"`},
		{"tsny - ts", datatype.ErrInvalid, "subtract_checked of timestamp[us, tz=America/New_York] and timestamp[us]"},
	} {
		t.Run(c.text, func(t *testing.T) {
			_, err := evalText(t, rec, c.text)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, c.kind) {
				t.Errorf("%v does not wrap %v", err, c.kind)
			}
			if !strings.Contains(err.Error(), c.msg) || !strings.HasPrefix(err.Error(), "expr: ") {
				t.Errorf("%q does not say %q", err, c.msg)
			}
		})
	}
}

// TestIntervalProject checks that a projection outputs interval columns
// and that an interval literal prints as text Parse reads back exactly.
func TestIntervalProject(t *testing.T) {
	rec := fixture(t)
	cols, err := ParseSelect("iv * 2 AS twice, ts - d AS since, INTERVAL '1 month 3 ns' AS lit")
	if err != nil {
		t.Fatal(err)
	}
	p, err := BindProjection(cols, rec.Schema())
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Eval(rec)
	if err != nil {
		t.Fatal(err)
	}
	for k := range 3 {
		if !datatype.Equal(out.Schema().Field(k).Type, datatype.MonthDayNanoIntervalType) {
			t.Errorf("column %d is %s", k, out.Schema().Field(k).Type)
		}
	}
	s := Lit(compute.Scalar{Type: datatype.MonthDayNanoIntervalType, Valid: true,
		Value: datatype.MonthDayNanoInterval{Months: -1, Days: 2, Nanoseconds: 3}})
	e, err := Parse(s.String())
	if err != nil {
		t.Fatal(err)
	}
	b, err := Bind(e, alkaid.NewSchema(nil, datatype.Metadata{}))
	if err != nil {
		t.Fatal(err)
	}
	if lit := b.root.lit; lit == nil || lit.Value != (datatype.MonthDayNanoInterval{Months: -1, Days: 2, Nanoseconds: 3}) {
		t.Errorf("%s read back as %v", s, lit)
	}
}

// FuzzParseInterval checks that interval text is read without a panic,
// that an error wraps a sentinel, and that what is read prints (as
// DuckDB prints an INTERVAL) to text read back as the same interval.
func FuzzParseInterval(f *testing.F) {
	for _, s := range []string{"1 year 2 months -3 days 04:05:06.789", "1.5 days", "-01:02:03.5", "1", "12:00",
		"3 fortnights", "2147483648 months", "1:2", "0.000000001 seconds", "-1 day -24:00:00.0000015"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		iv, err := parseInterval(text)
		if err != nil {
			if !errors.Is(err, datatype.ErrInvalid) && !errors.Is(err, datatype.ErrLimit) {
				t.Fatalf("%q: error %v wraps no sentinel", text, err)
			}
			return
		}
		printed := string(formatInterval(nil, iv))
		again, err := parseInterval(printed)
		if err != nil || again != iv {
			t.Fatalf("%q read as %+v, printed %q, read back as %+v (%v)", text, iv, printed, again, err)
		}
	})
}

// TestExtract checks EXTRACT(part FROM x), read as date_part.
func TestExtract(t *testing.T) {
	rec := fixture(t)
	for _, c := range []struct{ text, want, printed string }{
		{"EXTRACT(year FROM d)", `[2024 1970 (null) 1969 2000]`, "date_part('year', d)"},
		{"EXTRACT(MONTH FROM iv * 2)", `[2 0 (null) -2 0]`, "date_part('month', (iv * 2))"},
		{"EXTRACT('epoch' FROM INTERVAL '1 day') + 1", `[86401 86401 86401 86401 86401]`, "(date_part('epoch', interval('1 day')) + 1)"},
	} {
		e, err := Parse(c.text)
		if err != nil {
			t.Fatal(err)
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
	for _, text := range []string{"EXTRACT(1 FROM d)", "EXTRACT(year FROM )", "EXTRACT(year FROM d"} {
		var se *SyntaxError
		if _, err := Parse(text); !errors.As(err, &se) {
			t.Errorf("%s: %v, want a syntax error", text, err)
		}
	}
}
