package interop

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet"
)

// Interval columns in expr checked value by value against DuckDB. The
// random table (nulls; dates with leap days; timestamps without a zone
// and in America/New_York around its DST changes) is written as Parquet
// with the parts of an interval as integer columns m, dd and us; DuckDB
// makes the interval iv of them (to_months(m) + to_days(dd) +
// to_microseconds(us)), expr gets the same values as a
// month_day_nano_interval column. Intervals are compared as the text
// CAST(… AS VARCHAR) gives on both sides, timestamps as strftime's.

var intervalOracleCases = []struct{ text, duck string }{
	{text: "CAST(iv AS VARCHAR)"}, {text: "CAST(-iv AS VARCHAR)"},
	{text: "CAST(iv + to_days(i8) AS VARCHAR)"}, {text: "CAST(iv - INTERVAL '1 month 2 days 03:00:00' AS VARCHAR)"},
	{text: "CAST(iv * i8 AS VARCHAR)"}, {text: "CAST(3 * iv AS VARCHAR)"}, {text: "CAST(iv + iv AS VARCHAR)"},
	{text: "CAST(coalesce(iv, INTERVAL '1 day') AS VARCHAR)"},
	{text: "CAST(CASE WHEN i8 > 0 THEN iv ELSE to_hours(i8) END AS VARCHAR)"},
	{text: "iv > INTERVAL '30 days'"}, {text: "iv = INTERVAL '1 month'"}, {text: "iv <= to_days(i8)"},
	{text: "iv < to_hours(CAST(i8 AS INTEGER) * 24)"}, {text: "iv <> -iv"}, {text: "iv >= to_months(m) + to_days(dd)"},
	{text: "iv IN (INTERVAL '1 day', INTERVAL '30 days', INTERVAL '-1 month')"}, {text: "iv IS NULL"},
	{text: "iv BETWEEN INTERVAL '-10 days' AND INTERVAL '1 month'"},
	// Few rows left undecided: the right side runs over those rows only.
	{text: "i8 > 8 AND iv > INTERVAL '1 day'"}, {text: "i8 < 9 OR CAST(ts - d AS VARCHAR) LIKE '%days%'"},
	{text: "to_days(CAST(i8 AS INTEGER) * 30) = to_months(i8)"}, {text: "to_hours(CAST(i8 AS INTEGER) * 24) = to_days(i8)"},
	{text: "strftime(ts + iv, '%Y-%m-%d %H:%M:%S.%f')"}, {text: "strftime(ts - iv, '%Y-%m-%d %H:%M:%S.%f')"},
	{text: "strftime(d + iv, '%Y-%m-%d %H:%M:%S.%f')"}, {text: "strftime(iv + d, '%Y-%m-%d %H:%M:%S.%f')"},
	{text: "strftime(tz + iv, '%Y-%m-%d %H:%M:%S.%f')"}, {text: "strftime(tz - iv, '%Y-%m-%d %H:%M:%S.%f')"},
	{text: "strftime(date_add(tz, to_days(i8)), '%Y-%m-%d %H:%M:%S')"},
	{text: "CAST(ts - TIMESTAMP '2000-01-01 00:00:00' AS VARCHAR)"}, {text: "CAST(TIMESTAMP '2024-03-10 02:30:00' - ts AS VARCHAR)"},
	{text: "CAST(ts - d AS VARCHAR)"}, {text: "d - DATE '2000-02-29'"}, {text: "DATE '2024-03-01' - d"},
	{text: "CAST(tz - timezone('America/New_York', TIMESTAMP '2024-03-09 12:00:00') AS VARCHAR)"},
	{text: "CAST(tz - timezone('America/New_York', ts) AS VARCHAR)"},
	{text: "CAST(timezone('America/New_York', ts) - tz AS VARCHAR)"},
	{text: "strftime(ts + (TIMESTAMP '2024-03-10 02:30:00' - ts), '%Y-%m-%d %H:%M:%S')"},
	{text: "year(iv)"}, {text: "month(iv)"}, {text: "day(iv)"}, {text: "hour(iv)"}, {text: "minute(iv)"},
	{text: "second(iv)"}, {text: "millisecond(iv)"}, {text: "microsecond(iv)"}, {text: "quarter(iv)"},
	{text: "date_part('epoch', iv)"}, {text: "date_part('decade', iv * 100)"}, {text: "date_part('century', iv * 1000)"},
	{text: "date_part('millennium', iv * 10000)"}, {text: "date_part('hours', iv)"}, {text: "EXTRACT(minute FROM iv)"}, {text: "EXTRACT(doy FROM d)"},
	{text: "date_part('year', d)"}, {text: "date_part('dow', ts)"}, {text: "date_part('doy', tz)"}, {text: "date_part('isodow', d)"},
	{text: "date_part('epoch', ts)"}, {text: "date_part('epoch', tz)"}, {text: "date_part('epoch', d)"},
	{text: "CAST(CAST(CAST(iv AS VARCHAR) AS INTERVAL) AS VARCHAR)"},
	{text: "CAST(CAST('1 year 2 months -3 days 04:05:06.789' AS INTERVAL) + iv AS VARCHAR)"},
	{text: "CAST(to_years(i8) + to_weeks(i8) + to_minutes(i8) + to_seconds(i8) + to_milliseconds(i8) AS VARCHAR)"},
	{text: "CAST(to_quarters(i8) + to_decades(i8) + to_centuries(i8) + to_millennia(i8) AS VARCHAR)"},
	{text: "century(d)"}, {text: "decade(ts)"}, {text: "millennium(tz)"}, {text: "date_part('century', ts)"},
	{text: "century(iv * 100)"}, {text: "decade(iv)"}, {text: "millennium(iv * 1000)"},
	{text: "epoch(ts)"}, {text: "epoch(tz)"}, {text: "epoch(d)"}, {text: "epoch(iv)"},
	{text: "dayofmonth(tz)"}, {text: "weekday(d)"}, {text: "len(CAST(iv AS VARCHAR))"},
	{text: "nullif(i8, 3)"}, {text: "CAST(nullif(iv, to_months(i8)) AS VARCHAR)"},
	// Arrow's names: day_of_week counts from Monday 0.
	{text: "day_of_week(ts)", duck: "isodow(ts) - 1"}, {text: "day_of_year(d)", duck: "dayofyear(d)"},
	{text: "iso_week(tz)", duck: "week(tz)"}, {text: "iso_year(d)", duck: "isoyear(d)"},
}

func intervalOracleRecord(t *testing.T, n int, seed uint64) (base, withIv *alkaid.Record) {
	r := rand.New(rand.NewPCG(seed, 23))
	null := func() bool { return r.IntN(10) == 0 }
	tsType, _ := datatype.NewTimestamp(datatype.Microsecond, "")
	tzType, _ := datatype.NewTimestamp(datatype.Microsecond, oracleZone)
	rn := array.NewPrimitiveBuilder[int64](datatype.Int64)
	i8 := array.NewPrimitiveBuilder[int8](datatype.Int8)
	m := array.NewPrimitiveBuilder[int32](datatype.Int32)
	dd := array.NewPrimitiveBuilder[int32](datatype.Int32)
	us := array.NewPrimitiveBuilder[int64](datatype.Int64)
	d := array.NewPrimitiveBuilder[datatype.Date32](datatype.Date32Type)
	ts := array.NewPrimitiveBuilder[datatype.Timestamp](tsType)
	tz := array.NewPrimitiveBuilder[datatype.Timestamp](tzType)
	iv := array.NewPrimitiveBuilder[datatype.MonthDayNanoInterval](datatype.MonthDayNanoIntervalType)
	dstChanges := []time.Time{time.Date(2024, 3, 10, 7, 0, 0, 0, time.UTC), time.Date(2024, 11, 3, 6, 0, 0, 0, time.UTC),
		time.Date(2024, 3, 9, 7, 0, 0, 0, time.UTC), time.Date(2023, 12, 31, 23, 30, 0, 0, time.UTC)}
	leapDays := []time.Time{time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), time.Date(2000, 2, 29, 0, 0, 0, 0, time.UTC),
		time.Date(2024, 1, 31, 0, 0, 0, 0, time.UTC), time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC)}
	for i := range n {
		rn.Append(int64(i))
		if null() {
			i8.AppendNull()
		} else {
			i8.Append(int8(r.IntN(21) - 10))
		}
		var parts [3]int64
		valid := true
		for k, b := range []interface{ AppendNull() }{m, dd, us} {
			if null() {
				b.AppendNull()
				valid = false
				continue
			}
			switch k {
			case 0:
				parts[0] = int64([]int{0, 0, 1, -1, 12, 14, -13, 25}[r.IntN(8)])
				m.Append(int32(parts[0]))
			case 1:
				parts[1] = int64(r.IntN(81) - 40)
				dd.Append(int32(parts[1]))
			case 2:
				switch r.IntN(4) {
				case 0:
					parts[2] = int64(r.IntN(49)-24) * 3600e6
				case 1:
					parts[2] = 0
				default:
					parts[2] = r.Int64N(2e11) - 1e11
				}
				us.Append(parts[2])
			}
		}
		if valid {
			iv.Append(datatype.MonthDayNanoInterval{Months: int32(parts[0]), Days: int32(parts[1]), Nanoseconds: parts[2] * 1000})
		} else {
			iv.AppendNull()
		}
		switch {
		case null():
			d.AppendNull()
		case r.IntN(3) == 0:
			d.Append(datatype.Date32Of(leapDays[r.IntN(len(leapDays))]))
		default:
			d.Append(datatype.Date32(r.IntN(40000) - 5000))
		}
		for _, tb := range []*array.TimestampBuilder{ts, tz} {
			switch {
			case null():
				tb.AppendNull()
			case r.IntN(2) == 0:
				at := dstChanges[r.IntN(len(dstChanges))].Add(time.Duration(r.IntN(7201)-3600) * time.Second)
				tb.Append(datatype.TimestampOf(at, datatype.Microsecond))
			default:
				tb.Append(datatype.Timestamp(r.Int64N(2e15) - 5e14))
			}
		}
	}
	names := []string{"rn", "i8", "m", "dd", "us", "d", "ts", "tz"}
	builders := []array.Builder{rn, i8, m, dd, us, d, ts, tz}
	var fields []datatype.Field
	var cols []array.Array
	for k, bl := range builders {
		fields = append(fields, datatype.Field{Name: names[k], Type: bl.Type(), Nullable: k > 0})
		cols = append(cols, bl.NewArray())
	}
	var err error
	base, err = alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), cols, n)
	require.NoError(t, err)
	fields = append(fields, datatype.Field{Name: "iv", Type: datatype.MonthDayNanoIntervalType, Nullable: true})
	withIv, err = alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), append(cols, iv.NewArray()), n)
	require.NoError(t, err)
	return base, withIv
}

// TestExprIntervalDuckDBOracle compares expr's interval columns with
// DuckDB's INTERVAL (see the top of this file).
func TestExprIntervalDuckDBOracle(t *testing.T) {
	for _, seed := range []uint64{7, 8} {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			n := 900 + int(seed)*41
			base, rec := intervalOracleRecord(t, n, seed)
			path := filepath.Join(t.TempDir(), "t.parquet")
			f, err := os.Create(path)
			require.NoError(t, err)
			w, err := parquet.NewWriter(f, base.Schema())
			require.NoError(t, err)
			require.NoError(t, w.Write(base))
			require.NoError(t, w.Close())
			require.NoError(t, f.Close())

			queries := []string{"SET TimeZone = '" + oracleZone + "'",
				"CREATE VIEW u AS SELECT *, to_months(m) + to_days(dd) + to_microseconds(us) AS iv FROM t"}
			for _, c := range intervalOracleCases {
				q := c.text
				if c.duck != "" {
					q = c.duck
				}
				queries = append(queries, "SELECT "+q+" FROM u ORDER BY rn")
			}
			for _, text := range intervalScaleOracleCases {
				queries = append(queries, "SELECT CAST("+text+" AS VARCHAR) FROM u ORDER BY rn")
			}
			for _, text := range intervalScaleOracleErrors {
				queries = append(queries, "SELECT "+text+" FROM u ORDER BY rn")
			}
			answers := askDuckDB(t, path, queries)
			require.Empty(t, answers[1].Error)
			compared := 0
			for k, c := range intervalOracleCases {
				duck := answers[k+2]
				t.Run(c.text, func(t *testing.T) {
					got, err := evalExpr(rec, c.text)
					require.NoError(t, err)
					require.Empty(t, duck.Error)
					require.Len(t, duck.Rows, n)
					for i := range n {
						if !same(ours(got, i), duck.Rows[i][0], sameTol(got, i)) {
							t.Fatalf("row %d: ours %v, DuckDB %v", i, ours(got, i), duck.Rows[i][0])
						}
					}
					compared++
				})
			}
			scaled := answers[2+len(intervalOracleCases):]
			for k, text := range intervalScaleOracleCases {
				t.Run(text, func(t *testing.T) {
					compareScaledIntervals(t, rec, text, scaled[k])
					compared++
				})
			}
			for k, text := range intervalScaleOracleErrors {
				t.Run(text, func(t *testing.T) {
					_, err := evalExpr(rec, text)
					require.ErrorIs(t, err, datatype.ErrInvalid)
					require.Contains(t, scaled[len(intervalScaleOracleCases)+k].Error, "Overflow")
				})
			}
			t.Logf("%d expressions over %d rows compared with DuckDB", compared, n)
		})
	}
}

// intervalScaleOracleCases are interval · float and interval / number,
// compared by compareScaledIntervals.
var intervalScaleOracleCases = []string{
	"iv / 7", "iv * 1.5", "2.5 * iv", "iv * -0.1", "iv / -3.7", "iv / 0.3", "iv / i8", "iv * (i8 / 4)",
	"iv * CAST(i8 AS DOUBLE) / 3", "(iv + to_days(i8)) / 12", "to_months(i8) / 7", "iv / 0", "iv * 1e-7",
}

// intervalScaleOracleErrors are errors in DuckDB and in expr.
var intervalScaleOracleErrors = []string{"iv * CAST('nan' AS DOUBLE)", "iv / CAST('nan' AS DOUBLE)", "iv * 1e300"}

// compareScaledIntervals compares expr's text with DuckDB's answer to
// CAST(text AS VARCHAR), read back as intervals by expr: the months and
// days equal, the time within half a microsecond (DuckDB rounds the
// product to the microsecond, expr to the nanosecond).
func compareScaledIntervals(t *testing.T, rec *alkaid.Record, text string, duck duckAnswer) {
	got, err := evalExpr(rec, text)
	require.NoError(t, err)
	require.Empty(t, duck.Error)
	n := rec.NumRows()
	require.Len(t, duck.Rows, n)
	sb := array.NewBinaryBuilder[int32](datatype.String)
	for i := range n {
		if s, ok := duck.Rows[i][0].(string); ok {
			sb.AppendString(s)
		} else {
			sb.AppendNull()
		}
	}
	texts, err := alkaid.NewRecord(alkaid.NewSchema([]datatype.Field{{Name: "s", Type: datatype.String, Nullable: true}},
		datatype.Metadata{}), []array.Array{sb.NewArray()}, n)
	require.NoError(t, err)
	read, err := evalExpr(texts, "CAST(s AS INTERVAL)")
	require.NoError(t, err)
	ours, theirs := got.(*array.MonthDayNano), read.(*array.MonthDayNano)
	for i := range n {
		if ours.IsNull(i) || theirs.IsNull(i) {
			require.True(t, ours.IsNull(i) && theirs.IsNull(i), "row %d: ours %v, DuckDB %v", i, array.FormatValue(got, i), duck.Rows[i][0])
			continue
		}
		x, y := ours.Value(i), theirs.Value(i)
		if x.Months != y.Months || x.Days != y.Days || x.Nanoseconds-y.Nanoseconds > 500 || y.Nanoseconds-x.Nanoseconds > 500 {
			t.Fatalf("row %d: ours %v, DuckDB %v", i, array.FormatValue(got, i), duck.Rows[i][0])
		}
	}
}
