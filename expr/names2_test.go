package expr

import (
	"errors"
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestGreatestLeastAndStrings checks greatest, least, split_part,
// translate, ascii, chr, bit_length, md5, sha256 and regexp_extract_all
// against values DuckDB 1.5 gives for the same input.
func TestGreatestLeastAndStrings(t *testing.T) {
	rec := fixture(t)
	for _, c := range []struct{ text, want string }{
		{"greatest(i8, i32)", `[10 20 30 127 50]`},
		{"least(i8, i32, NULL)", `[1 -2 30 127 -128]`},
		{"greatest(NULL, NULL)", `[(null) (null) (null) (null) (null)]`},
		{"greatest(f64, CAST('NaN' AS DOUBLE))", `[NaN NaN NaN NaN NaN]`},
		{"least(f64, CAST('NaN' AS DOUBLE))", `[1.5 -2.5 NaN 0.25 1e+300]`},
		{"greatest(s, 'b')", `["b" "wörld" "b" "b" "ÄÖÜ straße"]`},
		{"least(d, DATE '2000-01-01')", `[2000-01-01 1970-01-01 2000-01-01 1969-12-31 2000-01-01]`},
		{"greatest(b, false)", `[true false false true false]`},
		{"greatest(i32)", `[10 20 30 (null) 50]`},
		{"split_part(s, 'l', 2)", `["" "d" "" (null) ""]`},
		{"split_part(s, '', -1)", `["o" "d" "" (null) "e"]`},
		{"split_part(s, 'l', i8)", `["He" "wör" (null) (null) ""]`},
		{"split_part('a,b,c', ',', 0)", `["" "" "" "" ""]`},
		{"translate(s, 'lö', 'Lo')", `["HeLLo" "worLd" "" (null) "ÄÖÜ straße"]`},
		{"translate(s, 'leß', 'x')", `["Hxxo" "wörxd" "" (null) "ÄÖÜ stra"]`},
		{"translate(s, 'll', 'ab')", `["Heaao" "wörad" "" (null) "ÄÖÜ straße"]`},
		{"ascii(s)", `[72 119 0 (null) 196]`},
		{"chr(i32 + 55)", `["A" "K" "U" (null) "i"]`},
		{"chr(233)", `["é" "é" "é" "é" "é"]`},
		{"bit_length(s)", `[40 48 0 (null) 112]`},
		{"md5(s)", `["8b1a9953c4611296a827abf8c47804d7" "8a223f8cb0e9065ff43b328b97e8467e" "d41d8cd98f00b204e9800998ecf8427e" (null) "8558463437710bc6f7973f16caa7e221"]`},
		{"sha256('')", `["e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"]`},
		{"regexp_extract_all(s, '[a-zö]+')", `[["ello"] ["wörld"] [] (null) ["stra" "e"]]`},
		{"regexp_extract_all(s, '(l)(x)?', 2)", `[[(null) (null)] [(null)] [] (null) []]`},
		// A list-valued expression without fields was folded to a null.
		{"string_split('a b', ' ')", `[["a" "b"] ["a" "b"] ["a" "b"] ["a" "b"] ["a" "b"]]`},
		{"regexp_extract_all('banana', 'an')", `[["an" "an"] ["an" "an"] ["an" "an"] ["an" "an"] ["an" "an"]]`},
		{"regexp_extract_all(s, '')", `[["" "" "" "" "" ""] ["" "" "" "" "" ""] [""] (null) ["" "" "" "" "" "" "" "" "" "" ""]]`},
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

// TestGreatestLeastAndStringsErrors checks the refusals: types without an
// order or a common type, a code point chr cannot make, a group the
// pattern does not have.
func TestGreatestLeastAndStringsErrors(t *testing.T) {
	rec := fixture(t)
	for _, text := range []string{
		"greatest(i32, s)", "least(st, st)", "chr(i32 * -1)", "chr(1114112)", "chr(55296)",
		"chr(s)", "split_part(s, 'a', 'b')", "translate(s, i32, 'a')", "ascii(i32)",
		"regexp_extract_all(s, '(a)', 2)", "regexp_extract_all(s, '(')", "greatest()",
	} {
		t.Run(text, func(t *testing.T) {
			_, err := evalText(t, rec, text)
			if !errors.Is(err, datatype.ErrInvalid) {
				t.Fatalf("got %v, want an error wrapping ErrInvalid", err)
			}
		})
	}
	for _, text := range []string{"date_sub('day', tsny, tsny)", "time_bucket(INTERVAL '1 day', tsny)"} {
		if _, err := evalText(t, rec, text); !errors.Is(err, datatype.ErrNotSupported) {
			t.Errorf("%s: got %v, want ErrNotSupported", text, err)
		}
	}
}

// TestTimeNames checks monthname, dayname, last_day, make_date,
// epoch_ms, epoch_us, epoch_ns and to_timestamp against the values
// DuckDB 1.5 gives for the same input (session zone America/New_York
// for tsny).
func TestTimeNames(t *testing.T) {
	rec := fixture(t)
	for _, c := range []struct{ text, want string }{
		{"monthname(d)", `["February" "January" (null) "December" "March"]`},
		{"monthname(tsny)", `["March" "March" (null) "December" "November"]`},
		{"dayname(d)", `["Thursday" "Thursday" (null) "Wednesday" "Wednesday"]`},
		{"dayname(tsny)", `["Sunday" "Sunday" (null) "Wednesday" "Sunday"]`},
		{"last_day(d)", `[2024-02-29 1970-01-31 (null) 1969-12-31 2000-03-31]`},
		{"last_day(tsny)", `[2024-03-31 2024-03-31 (null) 1969-12-31 2024-11-30]`},
		{"epoch_ms(ts)", `[1710053999000 1710054000000 (null) -500 1730611800000]`},
		{"epoch_us(tsny)", `[1710053999000000 1710054000000000 (null) -500000 1730611800000000]`},
		{"epoch_ns(d)", `[1709164800000000000 0 (null) -86400000000000 951868800000000000]`},
		{"epoch_us(epoch_ms(i32))", `[10000 20000 30000 (null) 50000]`},
		{"epoch_us(to_timestamp(i32 / 7))", `[1428571 2857143 4285714 (null) 7142857]`},
		{"epoch_us(to_timestamp(-1.0000015))", `[-1000002 -1000002 -1000002 -1000002 -1000002]`},
		{"make_date(2000 + i32, i32 // 10, i32 // 2)", `[2010-01-05 2020-02-10 2030-03-15 (null) 2050-05-25]`},
		{"make_date(2024, 2, 29)", `[2024-02-29 2024-02-29 2024-02-29 2024-02-29 2024-02-29]`},
		{"date_sub('month', DATE '2024-01-31', d)", `[1 -648 (null) -649 -286]`},
		{"date_sub('year', d, DATE '2025-02-28')", `[1 55 (null) 55 24]`},
		{"date_sub('day', ts, TIMESTAMP '2024-03-11 06:00:00')", `[0 0 (null) 19793 -236]`},
		{"date_sub('hour', ts, TIMESTAMP '2024-03-10 05:30:00')", `[-1 -1 (null) 475013 -5712]`},
		{"datesub('quarter', d, DATE '2024-05-29')", `[1 217 (null) 217 96]`},
		{"epoch_us(make_timestamp(2024, 2, 29, 10, 20, 30.25))", `[1709202030250000 1709202030250000 1709202030250000 1709202030250000 1709202030250000]`},
		{"strftime(make_timestamp(2024, 12, 31, 24, 0, 0), '%Y-%m-%d %H:%M:%S')", `["2025-01-01 00:00:00" "2025-01-01 00:00:00" "2025-01-01 00:00:00" "2025-01-01 00:00:00" "2025-01-01 00:00:00"]`},
		{"strftime(make_timestamp(2024, 1, 1, 23, 0, 59.9999995), '%Y-%m-%d %H:%M:%S.%f')", `["2024-01-01 23:01:00.000000" "2024-01-01 23:01:00.000000" "2024-01-01 23:01:00.000000" "2024-01-01 23:01:00.000000" "2024-01-01 23:01:00.000000"]`},
		{"epoch_us(make_timestamp(i32))", `[10 20 30 (null) 50]`},
		{"time_bucket(INTERVAL '1 week', d)", `[2024-02-26 1969-12-29 (null) 1969-12-29 2000-02-28]`},
		{"time_bucket(INTERVAL '3 months', d)", `[2024-01-01 1970-01-01 (null) 1969-10-01 2000-01-01]`},
		{"strftime(time_bucket(INTERVAL '90 minutes', ts), '%Y-%m-%d %H:%M:%S')", `["2024-03-10 06:00:00" "2024-03-10 06:00:00" (null) "1969-12-31 22:30:00" "2024-11-03 04:30:00"]`},
		{"strftime(time_bucket(INTERVAL '1 month', ts, INTERVAL '1 day'), '%Y-%m-%d %H:%M:%S')", `["2024-03-02 00:00:00" "2024-03-02 00:00:00" (null) "1969-12-02 00:00:00" "2024-11-02 00:00:00"]`},
		{"strftime(time_bucket(INTERVAL '7 hours', ts, TIMESTAMP '2024-03-01 01:00:00'), '%Y-%m-%d %H:%M:%S')", `["2024-03-10 02:00:00" "2024-03-10 02:00:00" (null) "1969-12-31 21:00:00" "2024-11-03 02:00:00"]`},
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
	for _, text := range []string{
		"make_date(2024, 2, 30)", "make_date(2024, 13, 1)", "make_date(i64, 1, 1)", "make_date(s, 1, 1)",
		"to_timestamp(CAST('NaN' AS DOUBLE))", "to_timestamp(1e20)", "to_timestamp(s)",
		"epoch_ms(i64)", "epoch_ns(DATE '2300-01-01')", "date_sub('fortnight', d, d)", "date_sub('day', d, s)",
		"time_bucket(INTERVAL '1 month 1 day', d)", "time_bucket(INTERVAL '0 days', d)", "time_bucket(INTERVAL '-1 day', ts)",
		"time_bucket(iv, d)", "make_timestamp(2024, 1, 1, 25, 0, 0)", "make_timestamp(2024, 1, 1, 24, 0, 1)",
		"make_timestamp(2024, 1, 1, 0, 0, -0.5)", "make_timestamp(2024, 1, 1, 0, 0, 60.9999999)", "make_timestamp(2024, 2, 30, 0, 0, 0)",
		"make_timestamp(2024, 1, 1, 0, 0, CAST('NaN' AS DOUBLE))", "make_timestamp(294247, 12, 31, 0, 0, 0)", "make_timestamp(1, 2)", "make_timestamp(i64)", "time_bucket(INTERVAL '1 day', ts, ts)", "time_bucket(INTERVAL '1 day', i32)", "epoch_us(s)", "monthname(i32)", "last_day(s)",
	} {
		t.Run(text, func(t *testing.T) {
			_, err := evalText(t, rec, text)
			if !errors.Is(err, datatype.ErrInvalid) {
				t.Fatalf("got %v, want an error wrapping ErrInvalid", err)
			}
		})
	}
	for _, text := range []string{"date_sub('day', tsny, tsny)", "time_bucket(INTERVAL '1 day', tsny)"} {
		if _, err := evalText(t, rec, text); !errors.Is(err, datatype.ErrNotSupported) {
			t.Errorf("%s: got %v, want ErrNotSupported", text, err)
		}
	}
}
