package expr

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// timeRecord has one row: tz, an instant in America/New_York
// (timestamp[us]); ts, the same as wall clock without a zone; d, its UTC
// date; s, a string.
func timeRecord(t *testing.T, at time.Time, s string) *alkaid.Record {
	t.Helper()
	tzType, _ := datatype.NewTimestamp(datatype.Microsecond, "America/New_York")
	tsType, _ := datatype.NewTimestamp(datatype.Microsecond, "")
	tz := array.NewPrimitiveBuilder[datatype.Timestamp](tzType)
	tz.Append(datatype.TimestampOf(at, datatype.Microsecond))
	ts := array.NewPrimitiveBuilder[datatype.Timestamp](tsType)
	ts.Append(datatype.TimestampOf(at, datatype.Microsecond))
	d := array.NewPrimitiveBuilder[datatype.Date32](datatype.Date32Type)
	d.Append(datatype.Date32Of(at))
	sb := array.NewBinaryBuilder[int32](datatype.String)
	sb.AppendString(s)
	fields := []datatype.Field{{Name: "tz", Type: tzType}, {Name: "ts", Type: tsType},
		{Name: "d", Type: datatype.Date32Type}, {Name: "s", Type: datatype.String}}
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}),
		[]array.Array{tz.NewArray(), ts.NewArray(), d.NewArray(), sb.NewArray()}, 1)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func evalTime(t *testing.T, rec *alkaid.Record, text string) (array.Array, error) {
	t.Helper()
	e, err := Parse(text)
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	b, err := Bind(e, rec.Schema())
	if err != nil {
		return nil, err
	}
	return b.Eval(rec)
}

func TestTimeFunctions(t *testing.T) {
	utc := func(s string) time.Time {
		v, err := time.Parse("2006-01-02 15:04:05.999999999", s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		at         string // UTC
		s          string
		text, want string
	}{
		{at: "2021-08-03 11:59:44.123456", text: "millisecond(ts)", want: "44123"},
		{at: "2021-08-03 11:59:44.123456", text: "microsecond(ts)", want: "44123456"},
		{at: "2021-08-03 11:59:44.123456", text: "nanosecond(ts)", want: "44123456000"},
		{at: "2021-08-03 11:59:44.123456", text: "millisecond(d)", want: "0"},
		{at: "2024-12-29 12:00:00", text: "isodow(d)", want: "7"},
		{at: "2024-12-30 12:00:00", text: "isodow(d)", want: "1"},
		{at: "2024-12-30 12:00:00", text: "week(d)", want: "1"},
		{at: "2024-12-30 12:00:00", text: "isoyear(d)", want: "2025"},
		{at: "2024-12-30 12:00:00", text: "yearweek(d)", want: "202501"},
		{at: "2021-01-01 12:00:00", text: "weekofyear(d)", want: "53"},
		{at: "2021-01-01 12:00:00", text: "yearweek(ts)", want: "202053"},
		{at: "2024-02-29 00:00:00", text: "week(d)", want: "9"},
		// 2021-01-04 03:00 UTC is still Sunday 2021-01-03 in New York: ISO week 53 of 2020.
		{at: "2021-01-04 03:00:00", text: "week(tz)", want: "53"},
		{at: "2021-01-04 03:00:00", text: "week(ts)", want: "1"},
		// DST: 2024-03-10 07:00 UTC is 03:00 EDT.
		{at: "2024-03-10 07:00:00", text: "hour(tz)", want: "3"},
		{at: "2024-03-10 06:59:59", text: "hour(tz)", want: "1"},
		{at: "2024-03-10 07:30:00", text: "timezone('UTC', tz)", want: "2024-03-10T07:30:00"},
		{at: "2024-03-10 07:30:00", text: "timezone('Europe/Paris', tz)", want: "2024-03-10T08:30:00"},
		// Wall clock 02:30 does not exist in New York that day: read as EST.
		{at: "2024-03-10 02:30:00", text: "strftime(timezone('America/New_York', ts), '%Y-%m-%d %H:%M:%S %z')", want: `"2024-03-10 03:30:00 -0400"`},
		// 01:30 on 2024-11-03 occurs twice: the later one (EST).
		{at: "2024-11-03 01:30:00", text: "strftime(timezone('America/New_York', ts), '%H:%M %z')", want: `"01:30 -0500"`},
		{at: "2024-11-03 00:30:00", text: "strftime(timezone('America/New_York', ts), '%H:%M %z')", want: `"00:30 -0400"`},
		{at: "2024-02-29 12:00:00", text: "timezone('+05:30', ts)", want: "2024-02-29T12:00:00+05:30"},
		// date_diff
		{at: "2024-02-29 12:00:00", text: "date_diff('year', DATE '2023-12-31', d)", want: "1"},
		{at: "2024-02-29 12:00:00", text: "date_diff('month', DATE '2024-01-31', d)", want: "1"},
		{at: "2024-02-29 12:00:00", text: "date_diff('quarter', DATE '2023-12-31', d)", want: "1"},
		{at: "2024-02-29 12:00:00", text: "date_diff('day', DATE '2024-02-28', d)", want: "1"},
		{at: "2024-01-07 12:00:00", text: "date_diff('week', DATE '2024-01-01', d)", want: "0"},
		{at: "2024-01-08 12:00:00", text: "date_diff('weeks', DATE '2024-01-01', d)", want: "1"},
		{at: "2024-01-08 12:00:00", text: "date_diff('hour', d, ts)", want: "12"},
		{at: "1969-12-31 23:10:00", text: "date_diff('hour', TIMESTAMP '1969-12-31 22:50:00', ts)", want: "1"},
		{at: "2024-03-10 07:01:00", text: "date_diff('minute', tz, tz)", want: "0"},
		{at: "2024-02-29 12:00:00", text: "date_diff('ms', d, ts)", want: "43200000"},
		// floor, ceil, round to a unit
		{at: "2024-02-29 13:47:10", text: "floor_temporal(ts, 'month')", want: "2024-02-01T00:00:00"},
		{at: "2024-02-29 13:47:10", text: "ceil_temporal(ts, 'month')", want: "2024-03-01T00:00:00"},
		{at: "2024-02-29 13:47:10", text: "round_temporal(ts, 'month')", want: "2024-03-01T00:00:00"},
		{at: "2024-02-14 11:59:59", text: "round_temporal(ts, 'month')", want: "2024-02-01T00:00:00"},
		{at: "2024-02-29 13:47:10", text: "floor_temporal(ts, 'week')", want: "2024-02-26T00:00:00"},
		{at: "2024-02-29 13:47:10", text: "ceil_temporal(d, 'week')", want: "2024-03-04"},
		{at: "2024-02-26 00:00:00", text: "ceil_temporal(d, 'week')", want: "2024-02-26"},
		{at: "2024-02-29 13:47:10", text: "floor_temporal(ts, 'minute', 15)", want: "2024-02-29T13:45:00"},
		{at: "2024-02-29 13:47:10", text: "ceil_temporal(ts, 'minute', 15)", want: "2024-02-29T14:00:00"},
		{at: "2024-02-29 13:52:30", text: "round_temporal(ts, 'minute', 15)", want: "2024-02-29T14:00:00"},
		{at: "2024-02-29 13:47:10", text: "floor_temporal(ts, 'quarter')", want: "2024-01-01T00:00:00"},
		{at: "2024-02-29 13:47:10", text: "floor_temporal(ts, 'year', 10)", want: "2020-01-01T00:00:00"},
		{at: "1969-12-31 23:59:59.5", text: "round_temporal(ts, 'second')", want: "1970-01-01T00:00:00"},
		{at: "2024-02-29 13:47:10", text: "floor_temporal(ts, 'minute', 7)", want: "2024-02-29T13:46:00"},
		// In New York: 2024-03-10 12:00 UTC is 08:00 EDT; the day began at 00:00 EST.
		{at: "2024-03-10 12:00:00", text: "floor_temporal(tz, 'day')", want: "2024-03-10T00:00:00-05:00"},
		{at: "2024-03-10 12:00:00", text: "ceil_temporal(tz, 'day')", want: "2024-03-11T00:00:00-04:00"},
		{at: "2024-03-10 12:00:00", text: "floor_temporal(tz, 'hour', 3)", want: "2024-03-10T06:00:00-04:00"},
		// 05:30 UTC is the first 01:30 of 2024-11-03 (EDT); 06:30 UTC the second (EST).
		{at: "2024-11-03 05:30:00", text: "floor_temporal(tz, 'hour')", want: "2024-11-03T01:00:00-04:00"},
		{at: "2024-11-03 06:30:00", text: "floor_temporal(tz, 'hour')", want: "2024-11-03T01:00:00-05:00"},
		{at: "2024-11-03 05:30:00", text: "ceil_temporal(tz, 'hour')", want: "2024-11-03T02:00:00-05:00"},
		// + and - INTERVAL, date_add
		{at: "2024-01-31 10:00:00", text: "ts + INTERVAL '1 month'", want: "2024-02-29T10:00:00"},
		{at: "2024-02-29 10:00:00", text: "ts - INTERVAL '1 year'", want: "2023-02-28T10:00:00"},
		{at: "2024-02-29 10:00:00", text: "d + INTERVAL 1 DAY", want: "2024-03-01T00:00:00"},
		{at: "2024-02-29 10:00:00", text: "INTERVAL '2 hours 30 minutes' + ts", want: "2024-02-29T12:30:00"},
		{at: "2024-02-29 10:00:00", text: "date_add(ts, interval('-3 weeks'))", want: "2024-02-08T10:00:00"},
		// 12:00 EST on 2024-03-09 plus a day is 12:00 EDT; plus 24 hours is 13:00 EDT.
		{at: "2024-03-09 17:00:00", text: "tz + INTERVAL '1 day'", want: "2024-03-10T12:00:00-04:00"},
		{at: "2024-03-09 17:00:00", text: "tz + INTERVAL '24 hours'", want: "2024-03-10T13:00:00-04:00"},
		{at: "2024-03-09 17:00:00", text: "tz + INTERVAL '1 month 1 day'", want: "2024-04-10T12:00:00-04:00"},
		// strptime
		{s: "2024-02-29 1:02:03", text: "strptime(s, '%Y-%m-%d %H:%M:%S')", want: "2024-02-29T01:02:03"},
		{s: "2024-02-29   01:02", text: "strptime(s, '%Y-%m-%d %H:%M')", want: "2024-02-29T01:02:00"},
		{s: "24-2-9", text: "strptime(s, '%y-%m-%d')", want: "2024-02-09T00:00:00"},
		{s: "2024-02-29 01:02:03.5", text: "strptime(s, '%Y-%m-%d %H:%M:%S.%f')", want: "2024-02-29T01:02:03.5"},
		{s: "2024-366", text: "strptime(s, '%Y-%j')", want: "2024-12-31T00:00:00"},
		{s: "Thu, 29 February 2024 3 pm", text: "strptime(s, '%a, %d %B %Y %I %p')", want: "2024-02-29T15:00:00"},
		{s: "2024-02-29 +0100", text: "strptime(s, '%Y-%m-%d %z')", want: "2024-02-28T23:00:00Z"},
		{s: "2024-02-29T10:00:00-05:30", text: "strptime(s, '%Y-%m-%dT%H:%M:%S%z')", want: "2024-02-29T15:30:00Z"},
		{s: "2023-02-29", text: "try_strptime(s, '%Y-%m-%d')", want: "(null)"},
		{s: "x", text: "try_strptime(s, '%Y')", want: "(null)"},
	} {
		t.Run(c.text+" "+c.at+c.s, func(t *testing.T) {
			at := time.Unix(0, 0)
			if c.at != "" {
				at = utc(c.at)
			}
			got, err := evalTime(t, timeRecord(t, at, c.s), c.text)
			if err != nil {
				t.Fatal(err)
			}
			if s := array.FormatValue(got, 0); s != c.want {
				t.Fatalf("%s = %s, want %s", c.text, s, c.want)
			}
		})
	}
}

func TestTimeFunctionErrors(t *testing.T) {
	for _, c := range []struct {
		s, text, want string
		kind          error // nil: no error
	}{
		{text: "timezone('Mars/Olympus', ts)", want: "Mars/Olympus", kind: datatype.ErrInvalid},
		{text: "date_diff('fortnight', d, d)", want: "fortnight", kind: datatype.ErrInvalid},
		{text: "strptime(s, '%Q')", want: "%Q", kind: datatype.ErrInvalid},
		{text: "strptime(s, s)", want: "constant", kind: datatype.ErrInvalid},
		{s: "2023-02-29", text: "strptime(s, '%Y-%m-%d')", want: "row 0", kind: datatype.ErrInvalid},
		{s: "2024-02-29x", text: "strptime(s, '%Y-%m-%d')", want: "%Y-%m-%d", kind: datatype.ErrInvalid},
		{s: "13:00 PM", text: "strptime(s, '%H:%M %p')", want: "PM", kind: datatype.ErrInvalid},
		{s: "bad\xff", text: "try_strptime(s, '%Y')", want: "UTF-8", kind: datatype.ErrInvalid},
		{text: "week(s)", want: "date or timestamp", kind: datatype.ErrInvalid},
		{text: "date_diff('ns', DATE '1000-01-01', d)", want: "overflows", kind: datatype.ErrLimit},
		{text: "date_diff('us', TIMESTAMP '1000-01-01 00:00:00', ts)", want: "", kind: nil},
		{text: "ts + INTERVAL '1 fortnight'", want: "fortnight", kind: datatype.ErrInvalid},
		{text: "ts * INTERVAL '1 day'", want: "multiply", kind: datatype.ErrInvalid},
		{text: "INTERVAL '1 day' - ts", want: "subtract", kind: datatype.ErrInvalid},
		{text: "s + INTERVAL '1 day'", want: "utf8", kind: datatype.ErrInvalid},
		{text: "floor_temporal(ts, 'fortnight')", want: "fortnight", kind: datatype.ErrInvalid},
		{text: "floor_temporal(ts, 'day', 0)", want: "multiple", kind: datatype.ErrInvalid},
	} {
		t.Run(c.text, func(t *testing.T) {
			_, err := evalTime(t, timeRecord(t, time.Unix(0, 0), c.s), c.text)
			if c.kind == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, c.kind) {
				t.Fatalf("error %v, want %v", err, c.kind)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not name %q", err, c.want)
			}
		})
	}
}

func FuzzStrptime(f *testing.F) {
	f.Add("2024-02-29 01:02:03", "%Y-%m-%d %H:%M:%S")
	f.Add("Feb 29 2024 3 pm +05:30", "%b %d %Y %I %p %z")
	f.Add("2024-366.123456789", "%Y-%j.%n")
	f.Fuzz(func(t *testing.T, s, format string) {
		pieces, err := parseStrptime(format)
		if err != nil {
			return
		}
		v, at, err := strptimeOne(s, pieces)
		if err != nil {
			if at < 0 || at > len(s) {
				t.Fatalf("error at byte %d of a %d-byte input", at, len(s))
			}
			return
		}
		// Every accepted value is a date between years 0 and 9999.
		if v < -62167219200e6-86400e6 || v > 253402300800e6+86400e6 {
			t.Fatalf("%q %q gave %d", s, format, v)
		}
	})
}

func TestFillNull(t *testing.T) {
	rec := randomRecord(t, 50)
	got, err := evalTime(t, rec, "fill_null(a, -1)")
	if err != nil {
		t.Fatal(err)
	}
	a := rec.Column(0).(*array.Int64)
	g := got.(*array.Int64)
	for i := range a.Len() {
		want := int64(-1)
		if a.IsValid(i) {
			want = a.Value(i)
		}
		if g.IsNull(i) || g.Value(i) != want {
			t.Fatalf("row %d: %s, want %d", i, array.FormatValue(g, i), want)
		}
	}
}

// TestTemporalBounds checks floor <= t <= ceil and round in {floor, ceil}
// for random instants around DST changes in New York, every unit.
func TestTemporalBounds(t *testing.T) {
	changes := []time.Time{time.Date(2024, 3, 10, 7, 0, 0, 0, time.UTC), time.Date(2024, 11, 3, 6, 0, 0, 0, time.UTC)}
	for k := range 400 {
		at := changes[k%2].Add(time.Duration(k*7919%14400-7200)*time.Second + time.Duration(k)*time.Millisecond)
		rec := timeRecord(t, at, "")
		for _, unit := range []string{"year", "quarter", "month", "week", "day", "hour", "minute", "second", "millisecond"} {
			for _, m := range []string{"", ", 3"} {
				var got [3]int64
				for j, mode := range []string{"floor", "ceil", "round"} {
					a, err := evalTime(t, rec, mode+"_temporal(tz, '"+unit+"'"+m+")")
					if err != nil {
						t.Fatal(err)
					}
					got[j] = int64(a.(*array.Timestamp).Value(0))
				}
				v := datatype.TimestampOf(at, datatype.Microsecond)
				if got[0] > int64(v) || got[1] < int64(v) || got[2] != got[0] && got[2] != got[1] {
					t.Fatalf("%s %s%s: floor %d, value %d, ceil %d, round %d", at, unit, m, got[0], v, got[1], got[2])
				}
			}
		}
	}
}

// BenchmarkTimeZoned is year and floor_temporal over 1M random instants
// of 2000-2030 in New York.
func BenchmarkTimeZoned(b *testing.B) {
	typ, _ := datatype.NewTimestamp(datatype.Microsecond, "America/New_York")
	tb := array.NewPrimitiveBuilder[datatype.Timestamp](typ)
	const n = 1 << 20
	for i := range int64(n) {
		tb.Append(datatype.Timestamp(946684800e6 + (i*2654435761%946080000)*1e6))
	}
	schema := alkaid.NewSchema([]datatype.Field{{Name: "t", Type: typ}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(schema, []array.Array{tb.NewArray()}, n)
	if err != nil {
		b.Fatal(err)
	}
	for _, text := range []string{"year(t)", "floor_temporal(t, 'month')"} {
		e, err := Parse(text)
		if err != nil {
			b.Fatal(err)
		}
		bound, err := Bind(e, schema)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(text, func(b *testing.B) {
			b.SetBytes(8 * n)
			for b.Loop() {
				if _, err := bound.Eval(rec); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestIntervalRoundTrip checks that an INTERVAL prints as text Parse
// reads back to the same expression.
func TestIntervalRoundTrip(t *testing.T) {
	for _, text := range []string{"ts + INTERVAL 3 DAY", "ts - INTERVAL '1 month 2 days'", "date_add(d, INTERVAL '-2 hours')"} {
		e, err := Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse(e.String())
		if err != nil {
			t.Fatalf("%s printed as %s: %v", text, e, err)
		}
		if back.String() != e.String() {
			t.Fatalf("%s: %s read back as %s", text, e, back)
		}
	}
}

// FuzzTimeEval parses, binds and evaluates expressions seeded with the
// time functions, INTERVAL and strptime: no panic, errors wrap a
// sentinel, results have a slot per row and the bound type.
func FuzzTimeEval(f *testing.F) {
	for _, s := range []string{
		"week(tsny) + isodow(d) + yearweek(ts)", "date_diff('hour', ts, tsny)", "timezone('Europe/Paris', tsny)",
		"floor_temporal(tsny, 'minute', 7)", "round_temporal(d, 'month', 5)", "ceil_temporal(ts, 'week')",
		"tsny + INTERVAL '1 month 3 hours'", "d - INTERVAL 2 YEAR", "strptime(s, '%Y-%m-%d %H')",
		"try_strptime(s, '%b %-d %z')", "millisecond(ts) + nanosecond(tsny)", "fill_null(i8, 3)",
	} {
		f.Add(s)
	}
	rec := fixture(f)
	sentinel := func(err error) bool {
		return errors.Is(err, datatype.ErrInvalid) || errors.Is(err, datatype.ErrNotSupported) || errors.Is(err, datatype.ErrLimit)
	}
	f.Fuzz(func(t *testing.T, text string) {
		e, err := Parse(text)
		if err != nil {
			return
		}
		if again, err := Parse(e.String()); err != nil || again.String() != e.String() {
			t.Fatalf("%q printed as %q, read back: %v", text, e, err)
		}
		b, err := Bind(e, rec.Schema())
		if err != nil {
			if !sentinel(err) {
				t.Fatalf("Bind error %v wraps no sentinel", err)
			}
			return
		}
		out, err := b.Eval(rec)
		if err != nil {
			if !sentinel(err) {
				t.Fatalf("Eval error %v wraps no sentinel", err)
			}
			return
		}
		if out.Len() != rec.NumRows() || !datatype.Equal(out.DataType(), b.Type()) {
			t.Fatalf("%s: %d rows of %s, want %d of %s", e, out.Len(), out.DataType(), rec.NumRows(), b.Type())
		}
	})
}
