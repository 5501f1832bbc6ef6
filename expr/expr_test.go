package expr

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

// fixture is a record of five rows with a column of most types.
func fixture(t testing.TB) *alkaid.Record {
	t.Helper()
	tsNY, _ := datatype.NewTimestamp(datatype.Microsecond, "America/New_York")
	ts, _ := datatype.NewTimestamp(datatype.Microsecond, "")
	st := datatype.StructOf(datatype.Field{Name: "x", Type: datatype.Int32, Nullable: true},
		datatype.Field{Name: "y", Type: datatype.String, Nullable: true})
	dict, _ := datatype.NewDictionary(datatype.Int8, datatype.String, false)
	mars, err := datatype.NewTimestamp(datatype.Second, "Mars/Olympus_Mons")
	if err != nil {
		t.Fatal(err)
	}
	cols := []struct {
		name string
		typ  datatype.DataType
		json string
	}{
		{"i8", datatype.Int8, `[1, -2, null, 127, -128]`},
		{"i32", datatype.Int32, `[10, 20, 30, null, 50]`},
		{"i64", datatype.Int64, `[100, 9223372036854775807, -5, 0, null]`},
		{"u32", datatype.Uint32, `[1, 2, 3, 4, 4294967295]`},
		{"f64", datatype.Float64, `[1.5, -2.5, null, 0.25, 1e300]`},
		{"s", datatype.String, `["Hello", "wörld", "", null, "ÄÖÜ straße"]`},
		{"b", datatype.Bool, `[true, false, null, true, false]`},
		{"d", datatype.Date32Type, `["2024-02-29", "1970-01-01", null, "1969-12-31", "2000-03-01"]`},
		{"ts", ts, `["2024-03-10T06:59:59Z", "2024-03-10T07:00:00Z", null, "1969-12-31T23:59:59.5Z", "2024-11-03T05:30:00Z"]`},
		{"tsny", tsNY, `["2024-03-10T06:59:59Z", "2024-03-10T07:00:00Z", null, "1969-12-31T23:59:59.5Z", "2024-11-03T05:30:00Z"]`},
		{"st", st, `[{"x": 1, "y": "a"}, null, {"x": null, "y": "c"}, {"x": 4, "y": null}, {"x": 5, "y": "e"}]`},
		{"dict", dict, `["red", "blue", null, "red", "green"]`},
		{"weird name", datatype.Int32, `[1, 2, 3, 4, 5]`},
		{"mars", mars, `[0, 1, 2, 3, 4]`},
		{"bad", datatype.String, ""},                  // invalid UTF-8, built below
		{"bl", datatype.Binary, ""},                   // bytes that are not UTF-8, built below
		{"iv", datatype.MonthDayNanoIntervalType, ""}, // intervals, built below
	}
	var fields []datatype.Field
	var arrays []array.Array
	for _, c := range cols {
		fields = append(fields, datatype.Field{Name: c.name, Type: c.typ, Nullable: true})
		if c.name == "iv" {
			ib := array.NewPrimitiveBuilder[datatype.MonthDayNanoInterval](c.typ)
			ib.AppendValues([]datatype.MonthDayNanoInterval{{Months: 1, Days: 2, Nanoseconds: 3e9}, {}, {},
				{Months: -13, Days: 40, Nanoseconds: -5400e9}, {Days: 1, Nanoseconds: 86400e9 + 1500}},
				[]bool{true, true, false, true, true})
			arrays = append(arrays, ib.NewArray())
			continue
		}
		if c.json == "" {
			sb := array.NewBinaryBuilder[int32](c.typ)
			sb.AppendStrings([]string{"ok", "b\xffd", "", "", "x"}, []bool{true, true, false, true, true})
			if c.name == "bl" {
				sb = array.NewBinaryBuilder[int32](c.typ)
				sb.AppendStrings([]string{"\x00\xff", "", "", "a\xc3", "\xfe"}, []bool{true, true, false, true, true})
			}
			arrays = append(arrays, sb.NewArray())
			continue
		}
		a, err := arrayjson.Parse(c.typ, c.json)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		arrays = append(arrays, a)
	}
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), arrays, 5)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func evalText(t testing.TB, rec *alkaid.Record, text string) (array.Array, error) {
	t.Helper()
	e, err := Parse(text)
	if err != nil {
		return nil, err
	}
	b, err := Bind(e, rec.Schema())
	if err != nil {
		return nil, err
	}
	return b.Eval(rec)
}

func TestEval(t *testing.T) {
	rec := fixture(t)
	for _, c := range []struct{ text, want string }{
		// arithmetic and promotion
		{"i32 + 1", `[11 21 31 (null) 51]`},
		{"add(i8, 1)", `[2 -1 (null) -128 -127]`},
		{"i8 + 1000", `[1001 998 (null) 1127 872]`},
		{"i8 * i32", `[10 -40 (null) (null) -6400]`},
		{"u32 + i8", `[2 0 (null) 131 4294967167]`},
		{"i32 / 4", `[2.5 5 7.5 (null) 12.5]`},
		{"i32 // 4", `[2 5 7 (null) 12]`},
		{"-i32", `[-10 -20 -30 (null) -50]`},
		{"f64 * 2", `[3 -5 (null) 0.5 2e+300]`},
		{"i32 + f64", `[11.5 17.5 (null) (null) 1e+300]`},
		{"i32 % 7", `[3 6 2 (null) 1]`},
		{"i8 % -3", `[1 -2 (null) 1 -2]`},
		{"f64 % 1", `[0.5 -0.5 (null) 0.25 0]`},
		// comparisons
		{"i8 > 0", `[true false (null) true false]`},
		{"0 < i8", `[true false (null) true false]`},
		{"i8 = 127.0", `[false false (null) true false]`},
		{"i8 < 1.5", `[true true (null) false true]`},
		{"u32 > -1", `[true true true true true]`},
		{"i64 < 18446744073709551615", `[true true true true (null)]`},
		{"i64 = 9223372036854775808", `[false false false false (null)]`},
		{"u32 >= -9223372036854775808", `[true true true true true]`},
		{"s = 'Hello'", `[true false false (null) false]`},
		{"s <> ''", `[true true false (null) true]`},
		{"d = '2024-02-29'", `[true false (null) false false]`},
		{"d < DATE '1970-01-01'", `[false false (null) true false]`},
		{"ts >= d", `[true true (null) true true]`},
		{"dict = 'red'", `[true false (null) true false]`},
		{`"weird name" = 3`, `[false false true false false]`},
		// logic
		{"b AND i8 > 0", `[true false (null) true false]`},
		{"b OR i8 > 0", `[true false (null) true false]`},
		{"NOT b", `[false true (null) false true]`},
		{"b AND NULL", `[(null) false (null) (null) false]`},
		{"b OR NULL", `[true (null) (null) true (null)]`},
		{"i8 IS NULL", `[false false true false false]`},
		{"s IS NOT NULL", `[true true true false true]`},
		{"i32 IN (10, 50, 60)", `[true false false (null) true]`},
		{"i32 IN (10, NULL)", `[true (null) (null) (null) (null)]`},
		{"i32 NOT IN (10, 50)", `[false true true (null) false]`},
		{"s IN ('wörld', '')", `[false true true (null) false]`},
		{"i32 BETWEEN 20 AND 40", `[false true true (null) false]`},
		{"i8 IN (1, 1000)", `[true false (null) false false]`},
		{"coalesce(i8, 1000)", `[1 -2 1000 127 -128]`},
		{"i32 NOT BETWEEN 20 AND 40", `[true false false (null) true]`},
		// conditionals
		{"CASE WHEN i32 > 25 THEN 'big' WHEN i32 > 15 THEN 'mid' ELSE 'small' END", `["small" "mid" "big" "small" "big"]`},
		{"CASE i8 WHEN 1 THEN 'one' WHEN -2 THEN 'minus two' END", `["one" "minus two" (null) (null) (null)]`},
		{"if(b, i8, i32)", `[1 20 30 127 50]`},
		{"coalesce(i8, i32, 0)", `[1 -2 30 127 -128]`},
		{"coalesce(f64, i32)", `[1.5 -2.5 30 0.25 1e+300]`},
		// casts
		{"CAST(i32 AS VARCHAR)", `["10" "20" "30" (null) "50"]`},
		{"i32::DOUBLE / 8", `[1.25 2.5 3.75 (null) 6.25]`},
		{"CAST('42' AS BIGINT) + i8", `[43 40 (null) 169 -86]`},
		// nested fields
		{"st.x", `[1 (null) (null) 4 5]`},
		{"st.y || '!'", `["a!" (null) "c!" (null) "e!"]`},
		// strings
		{"lower(s)", `["hello" "wörld" "" (null) "äöü straße"]`},
		{"upper(s)", `["HELLO" "WÖRLD" "" (null) "ÄÖÜ STRAẞE"]`},
		{"length(s)", `[5 5 0 (null) 10]`},
		{"trim('  a b  ')", `["a b" "a b" "a b" "a b" "a b"]`},
		{"trim(s, 'Hoeß')", `["ll" "wörld" "" (null) "ÄÖÜ stra"]`},
		{"substr(s, 2, 3)", `["ell" "örl" "" (null) "ÖÜ "]`},
		{"substr(s, -3)", `["llo" "rld" "" (null) "aße"]`},
		{"substring(s, 0, 2)", `["H" "w" "" (null) "Ä"]`},
		{"starts_with(s, 'He')", `[true false false (null) false]`},
		{"contains(s, 'ö')", `[false true false (null) false]`},
		{"s LIKE 'H%'", `[true false false (null) false]`},
		{"s LIKE '%ö%'", `[false true false (null) false]`},
		{"s LIKE '_ö_ld'", `[false true false (null) false]`},
		{"s NOT LIKE '%e'", `[true true true (null) false]`},
		{"s ILIKE 'äöü%'", `[false false false (null) true]`},
		{"s LIKE '%' ESCAPE '!'", `[true true true (null) true]`},
		{"'a%' LIKE 'a!%' ESCAPE '!'", `[true true true true true]`},
		{"regexp_matches(s, '^[a-z]+$')", `[false false false (null) false]`},
		{"regexp_matches(s, 'L+', 'i')", `[true true false (null) false]`},
		{"regexp_replace(s, '([lr])', '<\\1>')", `["He<l>lo" "wö<r>ld" "" (null) "ÄÖÜ st<r>aße"]`},
		{"regexp_replace(s, 'l', '_', 'g')", `["He__o" "wör_d" "" (null) "ÄÖÜ straße"]`},
		// time
		{"year(d)", `[2024 1970 (null) 1969 2000]`},
		{"month(d)", `[2 1 (null) 12 3]`},
		{"day(d)", `[29 1 (null) 31 1]`},
		{"hour(ts)", `[6 7 (null) 23 5]`},
		{"hour(tsny)", `[1 3 (null) 18 1]`},
		{"day(tsny)", `[10 10 (null) 31 3]`},
		{"date_trunc('month', d)", `[2024-02-01 1970-01-01 (null) 1969-12-01 2000-03-01]`},
		{"strftime(tsny, '%Y-%m-%d %H:%M:%S %Z')", `["2024-03-10 01:59:59 EST" "2024-03-10 03:00:00 EDT" (null) "1969-12-31 18:59:59 EST" "2024-11-03 01:30:00 EDT"]`},
		{"strftime(ts, '%-d/%-m/%y %I%p %f')", `["10/3/24 06AM 000000" "10/3/24 07AM 000000" (null) "31/12/69 11PM 500000" "3/11/24 05AM 000000"]`},
		// math
		{"round(f64)", `[2 -3 (null) 0 1e+300]`},
		{"round(f64, 1)", `[1.5 -2.5 (null) 0.3 1e+300]`},
		{"round(i32, -2)", `[0 0 0 (null) 100]`},
		{"abs(f64 - 3)", `[1.5 5.5 (null) 2.75 1e+300]`},
		// constants fold
		{"1 + 2 * 3", `[7 7 7 7 7]`},
	} {
		t.Run(c.text, func(t *testing.T) {
			got, err := evalText(t, rec, c.text)
			if err != nil {
				t.Fatal(err)
			}
			if got.Len() != rec.NumRows() {
				t.Fatalf("%d rows, want %d", got.Len(), rec.NumRows())
			}
			if got.String() != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			// A slice of the record gives the slice of the result.
			part, err := evalText(t, rec.Slice(1, 4), c.text)
			if err != nil {
				t.Fatal(err)
			}
			if i, desc, eq := array.FirstDifference(part, array.Slice(got, 1, 4)); !eq {
				t.Errorf("over rows 1-3, row %d: %s", i, desc)
			}
		})
	}
}

func TestEvalErrors(t *testing.T) {
	rec := fixture(t)
	for _, c := range []struct {
		text string
		kind error
		msg  string
	}{
		{"nope + 1", datatype.ErrInvalid, `nope at byte 0: no field "nope"`},
		{"i8 + s", datatype.ErrInvalid, "at byte 3: add_checked of int8 and utf8"},
		{"b AND i8", datatype.ErrInvalid, "and needs booleans, not int8"},
		{"st.z", datatype.ErrInvalid, `no field "z" in struct`},
		{"i8.x", datatype.ErrInvalid, "not of a struct"},
		{"foo(i8)", datatype.ErrInvalid, `no function "foo"`},
		{"lower(s, s)", datatype.ErrInvalid, "lower takes 1 arguments, not 2"},
		{"regexp_matches(s, '(')", datatype.ErrInvalid, `regular expression "(" does not compile`},
		{"regexp_matches(s, s)", datatype.ErrInvalid, "the pattern must be a constant string"},
		{"strftime(d, '%Q')", datatype.ErrInvalid, "unknown directive %Q"},
		{"date_trunc('fortnight', d)", datatype.ErrInvalid, `unknown date_trunc part "fortnight"`},
		{"d = 'not a date'", datatype.ErrInvalid, "'not a date' at byte 4"},
		{"i8 IN (1, 'x')", datatype.ErrInvalid, "as TINYINT"},
		{"i8 + 127", datatype.ErrInvalid, "overflow"},
		{"i64 + 1", datatype.ErrInvalid, "overflow"},
		{"i32 // 0", datatype.ErrInvalid, "divi"},
		{"i32 % 0", datatype.ErrInvalid, "row 0: 10 % 0: division by zero"},
		{"s LIKE 'a!' ESCAPE '!'", datatype.ErrInvalid, "ends in its escape character"},
		{"s LIKE s", datatype.ErrInvalid, "the pattern must be a constant string"},
		{"hour(mars)", datatype.ErrInvalid, `unknown time zone "Mars/Olympus_Mons"`},
		{"lower(bad)", datatype.ErrInvalid, `lower(bad) at byte 0: row 1: invalid UTF-8 "b\xffd"`},
		{"CAST(f64 AS INTEGER)", datatype.ErrInvalid, "CAST(f64 AS INTEGER)"},
		{`CAST(NULL AS "fixed_size_binary[100000000]")`, datatype.ErrNotSupported, "CAST to fixed_size_binary"},
		{"abs(i8)", datatype.ErrInvalid, "abs(i8) at byte 0: compute: overflow: abs: slot 4: -128"},
		{"i8 + 1", datatype.ErrInvalid, "slot 3: 127 and 1"},
	} {
		t.Run(c.text, func(t *testing.T) {
			_, err := evalText(t, rec, c.text)
			if c.kind == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
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

func TestColumns(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"1 + 2", nil},
		{"a", []string{"a"}},
		{"a.b.c > a.d", []string{"a"}},
		{"CASE WHEN x > 1 THEN y ELSE coalesce(z, x) END", []string{"x", "y", "z"}},
		{"b IN (1, 2) AND c BETWEEN a AND 3", []string{"b", "c", "a"}},
		{`"odd name" IS NULL`, []string{"odd name"}},
	} {
		e, err := Parse(c.text)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Columns(); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.text, got, c.want)
		}
	}
}
