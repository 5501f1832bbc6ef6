package interop

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
	"github.com/alkaid-go/alkaid/parquet"
)

// Package expr checked value by value against DuckDB (js/oracle.mjs): a
// random table with nulls, NaN, -0, infinities, integer extremes, empty
// and multi-byte strings, leap days and timestamps around the DST
// changes of America/New_York is written as Parquet; every expression
// is parsed by expr.Parse and evaluated, and run by DuckDB as
// SELECT expr FROM t ORDER BY rn (with the session time zone set to the
// zone of the timestamp column). Both must give the same values, or both
// an error. The semantic differences documented in expr's package
// documentation are kept out of the questions (or the rows they touch
// skipped), each with a comment.

const oracleZone = "America/New_York"

func exprOracleRecord(t *testing.T, n int, seed uint64) *alkaid.Record {
	r := rand.New(rand.NewPCG(seed, 11))
	null := func() bool { return r.IntN(8) == 0 }
	tsType, _ := datatype.NewTimestamp(datatype.Microsecond, "")
	tzType, _ := datatype.NewTimestamp(datatype.Microsecond, oracleZone)

	rn := array.NewPrimitiveBuilder[int64](datatype.Int64)
	i8 := array.NewPrimitiveBuilder[int8](datatype.Int8)
	i32 := array.NewPrimitiveBuilder[int32](datatype.Int32)
	i64 := array.NewPrimitiveBuilder[int64](datatype.Int64)
	u32 := array.NewPrimitiveBuilder[uint32](datatype.Uint32)
	f64 := array.NewPrimitiveBuilder[float64](datatype.Float64)
	s := array.NewBinaryBuilder[int32](datatype.String)
	b := array.NewBooleanBuilder(datatype.Bool)
	d := array.NewPrimitiveBuilder[datatype.Date32](datatype.Date32Type)
	ts := array.NewPrimitiveBuilder[datatype.Timestamp](tsType)
	tz := array.NewPrimitiveBuilder[datatype.Timestamp](tzType)
	strs := []string{"", "a", "b", "Hello World", "  padded  ", "ÄÖÜ straße", "日本語テキスト", "emoji 🎉!",
		"MiXeD cAsE", "a_b%c", "x'y", "aaa", "banana", "ωmega", "tab\there"}
	leapDays := []time.Time{time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), time.Date(2000, 2, 29, 0, 0, 0, 0, time.UTC),
		time.Date(1900, 2, 28, 0, 0, 0, 0, time.UTC), time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC), time.Date(2023, 12, 31, 0, 0, 0, 0, time.UTC)}
	dstChanges := []time.Time{time.Date(2024, 3, 10, 7, 0, 0, 0, time.UTC), time.Date(2024, 11, 3, 6, 0, 0, 0, time.UTC),
		time.Date(1970, 4, 26, 7, 0, 0, 0, time.UTC), time.Date(2023, 12, 31, 23, 30, 0, 0, time.UTC)}
	for i := range n {
		rn.Append(int64(i))
		if null() {
			i8.AppendNull()
		} else {
			i8.Append([]int8{0, 1, 2, -1, -5, 10, 127, -128, 42}[r.IntN(9)])
		}
		if null() {
			i32.AppendNull()
		} else {
			i32.Append(int32(r.IntN(2001) - 1000))
		}
		if null() {
			i64.AppendNull()
		} else if r.IntN(10) == 0 {
			i64.Append([]int64{math.MaxInt64, math.MinInt64, math.MaxInt64 - 1}[r.IntN(3)])
		} else {
			i64.Append(r.Int64N(1e12) - 5e11)
		}
		if null() {
			u32.AppendNull()
		} else {
			u32.Append([]uint32{0, 1, math.MaxUint32, 4e9, 123456}[r.IntN(5)])
		}
		switch {
		case null():
			f64.AppendNull()
		case r.IntN(10) == 0:
			f64.Append([]float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), 2.5, -2.5, 0.125}[r.IntN(8)])
		default:
			f64.Append((r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(8)-2)))
		}
		if null() {
			s.AppendNull()
		} else {
			s.AppendString(strs[r.IntN(len(strs))])
		}
		if null() {
			b.AppendNull()
		} else {
			b.Append(r.IntN(2) == 0)
		}
		switch {
		case null():
			d.AppendNull()
		case r.IntN(4) == 0:
			d.Append(datatype.Date32Of(leapDays[r.IntN(len(leapDays))]))
		default:
			d.Append(datatype.Date32(r.IntN(73000) - 25000))
		}
		for _, tb := range []*array.TimestampBuilder{ts, tz} {
			switch {
			case null():
				tb.AppendNull()
			case r.IntN(3) == 0:
				at := dstChanges[r.IntN(len(dstChanges))].Add(time.Duration(r.IntN(7201)-3600) * time.Second)
				tb.Append(datatype.TimestampOf(at, datatype.Microsecond))
			default:
				tb.Append(datatype.Timestamp(r.Int64N(4e15) - 5e14))
			}
		}
	}
	names := []string{"rn", "i8", "i32", "i64", "u32", "f64", "s", "b", "d", "ts", "tz"}
	builders := []array.Builder{rn, i8, i32, i64, u32, f64, s, b, d, ts, tz}
	var fields []datatype.Field
	var cols []array.Array
	for k, bl := range builders {
		fields = append(fields, datatype.Field{Name: names[k], Type: bl.Type(), Nullable: k > 0})
		cols = append(cols, bl.NewArray())
	}
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), cols, n)
	require.NoError(t, err)
	return rec
}

// exprOracleCases are the expressions asked of both sides; skipNaN marks
// those whose rows with a NaN in f64 are skipped (DuckDB orders NaN
// above every number and equal to itself; expr compares as IEEE 754).
var exprOracleCases = []struct {
	text    string
	skipNaN bool
}{
	// arithmetic
	{text: "i32 + 1"}, {text: "i32 - i8"}, {text: "i32 * 3"}, {text: "i8 * i8"}, {text: "i8 + 100"},
	{text: "i64 + 1"}, {text: "i64 - i32"}, {text: "u32 + i32"}, {text: "u32 * 2"},
	{text: "f64 * 2"}, {text: "f64 + i32"}, {text: "i32 / 7"}, {text: "f64 / 3"}, {text: "-i32"}, {text: "-f64"},
	{text: "i32 // 7"}, {text: "abs(i32)"}, {text: "abs(f64)"}, {text: "abs(i8)"},
	{text: "round(f64, 2)"}, {text: "round(f64)"}, {text: "round(f64, -1)"}, {text: "round(i32, -1)"}, {text: "round(i32, -2)"},
	// comparisons
	{text: "i32 > 10"}, {text: "i8 <= -5"}, {text: "i32 = i8"}, {text: "i8 <> 0"}, {text: "10 < i32"},
	{text: "f64 < 0.5", skipNaN: true}, {text: "f64 = 0"}, {text: "f64 >= i32", skipNaN: true},
	{text: "i32 > 2.5"}, {text: "i8 = 1000"}, {text: "u32 > -1"}, {text: "u32 >= 4000000000"},
	{text: "i64 > 9223372036854775806"}, {text: "i64 <= 9223372036854775808"}, {text: "i64 <> 18446744073709551615"},
	{text: "u32 > -5"}, {text: "-129 < i8"}, {text: "i64 < -9223372036854775807"},
	{text: "s = 'a'"}, {text: "s < 'b'"}, {text: "s >= 'ÄÖÜ'"}, {text: "s <> ''"},
	{text: "d > DATE '2000-01-01'"}, {text: "d = '2024-02-29'"}, {text: "d <= '1900-02-28'"},
	{text: "ts < TIMESTAMP '2000-01-01 00:00:00'"}, {text: "ts >= d"},
	// logic and nulls
	{text: "b AND i32 > 0"}, {text: "b OR i32 > 0"}, {text: "NOT b"}, {text: "b AND NULL"}, {text: "b OR NULL"},
	{text: "i32 > 0 AND s IS NULL"}, {text: "NOT (i8 < 0 OR b)"}, {text: "i32 IS NULL"}, {text: "s IS NOT NULL"},
	{text: "i32 > 900 AND s = 'a' AND b"}, {text: "i32 < -900 OR s = 'b' OR b IS NULL"},
	// IN, BETWEEN
	{text: "i32 IN (1, 2, 3, -1000, 500)"}, {text: "s IN ('a', 'Hello World', NULL)"}, {text: "i32 NOT IN (1, 2)"},
	{text: "i8 IN (1, 127)"}, {text: "i8 IN (1, 1000)"}, {text: "i8 IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -128)"},
	{text: "f64 IN (0, 2.5, 0.125)"}, {text: "s NOT IN ('a', 'b', '', 'ωmega', 'x', 'y', 'z', 'w', 'v')"},
	{text: "d IN ('2024-02-29', '2000-02-29')"}, {text: "coalesce(i8, 1000)"},
	{text: "CASE WHEN b THEN i32 ELSE f64 END"}, {text: "CASE WHEN b THEN i8 ELSE i64 END"}, {text: "i32 BETWEEN -10 AND 10"}, {text: "s BETWEEN 'a' AND 'm'"},
	{text: "d BETWEEN '2000-01-01' AND '2024-12-31'"}, {text: "i32 NOT BETWEEN 0 AND 500"},
	// conditionals
	{text: "CASE WHEN i32 > 0 THEN 'pos' WHEN i32 < 0 THEN 'neg' ELSE 'zero' END"},
	{text: "CASE i8 WHEN 1 THEN 10 WHEN 2 THEN 20 END"}, {text: "CASE WHEN b THEN s END"},
	{text: "coalesce(i32, i8, 0)"}, {text: "coalesce(s, 'none')"}, {text: "if(b, i32, -i32)"},
	{text: "coalesce(f64, i32)"},
	// casts
	{text: "CAST(i32 AS VARCHAR)"}, {text: "CAST(i8 AS DOUBLE) / 2"}, {text: "CAST(b AS INTEGER)"},
	{text: "CAST(d AS VARCHAR)"}, {text: "CAST(i32 AS TINYINT)"}, {text: "i32::BIGINT * 1000000"},
	// strings
	{text: "lower(s)"}, {text: "upper(s)"}, {text: "length(s)"}, {text: "strlen(s)"}, {text: "reverse(s)"},
	{text: "trim(s)"}, {text: "ltrim(s)"}, {text: "rtrim(s)"}, {text: "trim(s, 'a ')"},
	{text: "substr(s, 2, 3)"}, {text: "substr(s, -3)"}, {text: "substr(s, 0, 2)"}, {text: "substring(s, 3)"},
	{text: "substr(s, -2, -2)"}, {text: "substr(s, 2, -1)"}, {text: "substr(s, i8)"},
	{text: "starts_with(s, 'H')"}, {text: "ends_with(s, 'e')"}, {text: "contains(s, 'a')"}, {text: "contains(s, '')"},
	{text: "regexp_matches(s, '^[A-Z]')"}, {text: "regexp_matches(s, 'ö|Ü', 'i')"}, {text: "regexp_matches(s, 'a.b')"},
	{text: "regexp_full_match(s, '[a-z]+')"},
	{text: "contains(s, 'll')"}, {text: "contains(s, 'ße')"}, {text: "starts_with(s, 'ÄÖ')"}, {text: "ends_with(s, 'ld')"},
	{text: "regexp_matches(s, '^a$')"}, {text: "regexp_matches(s, '[a-z]{2}$')"}, {text: "regexp_matches(s, '^[A-Za-z ]{2}$')"},
	{text: "regexp_matches(s, 'l+o W')"}, {text: "regexp_matches(s, 'straß(e|x)$')"}, {text: "regexp_full_match(s, 'a')"},
	{text: "regexp_replace(s, '[aeiou]', '*')"}, {text: "regexp_replace(s, '[aeiou]', '*', 'g')"},
	{text: `regexp_replace(s, '(\w)(\w)', '\2\1', 'g')`}, {text: "regexp_replace(s, 'a', '$1')"},
	{text: "s LIKE 'a%'"}, {text: "s LIKE '%a%'"}, {text: "s LIKE '%e'"}, {text: "s LIKE 'b_n%a'"},
	{text: "s LIKE '_'"}, {text: "s NOT LIKE '%ö%'"}, {text: "s ILIKE '%HELLO%'"}, {text: "s ILIKE 'äöü%'"},
	{text: "s LIKE 'a!_b%' ESCAPE '!'"}, {text: "s LIKE 'tab_here'"},
	{text: "i32 % 7"}, {text: "i32 % -3"}, {text: "i8 % 4"}, {text: "f64 % 1.5"}, {text: "i64 % 1000"},
	{text: "s || '!'"}, {text: "concat(s, '-', i32)"},
	{text: "lower(s) = 'hello world' AND length(s) > 3"},
	// time
	{text: "year(d)"}, {text: "month(d)"}, {text: "day(d)"}, {text: "quarter(d)"}, {text: "dayofweek(d)"}, {text: "dayofyear(d)"},
	{text: "year(ts)"}, {text: "month(ts)"}, {text: "day(ts)"}, {text: "hour(ts)"}, {text: "minute(ts)"}, {text: "second(ts)"},
	{text: "year(tz)"}, {text: "month(tz)"}, {text: "day(tz)"}, {text: "hour(tz)"}, {text: "minute(tz)"},
	{text: "strftime(ts, '%Y-%m-%d %H:%M:%S.%f')"}, {text: "strftime(d, '%d/%m/%Y %j %a %A %b %B')"},
	{text: "strftime(tz, '%Y-%m-%d %H:%M:%S %p %I')"},
	{text: "strftime(date_trunc('week', ts), '%Y-%m-%d %H:%M:%S')"},
	{text: "strftime(date_trunc('month', tz), '%Y-%m-%d %H:%M:%S')"},
	{text: "strftime(date_trunc('day', tz), '%Y-%m-%d %H:%M:%S')"},
	{text: "strftime(date_trunc('hour', tz), '%Y-%m-%d %H:%M:%S')"},
	{text: "strftime(date_trunc('quarter', d), '%Y-%m-%d')"},
	{text: "strftime(date_trunc('year', ts), '%Y-%m-%d %H:%M:%S')"},
	{text: "strftime(date_trunc('minute', ts), '%Y-%m-%d %H:%M:%S')"},
	{text: "year(ts) = 2024 AND month(ts) IN (3, 11)"},
}

// TestExprDuckDBOracle compares expr's answers with DuckDB's (see the
// top of this file).
func TestExprDuckDBOracle(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			n := 1200 + int(seed)*97
			rec := exprOracleRecord(t, n, seed)
			path := filepath.Join(t.TempDir(), "t.parquet")
			f, err := os.Create(path)
			require.NoError(t, err)
			w, err := parquet.NewWriter(f, rec.Schema())
			require.NoError(t, err)
			require.NoError(t, w.Write(rec))
			require.NoError(t, w.Close())
			require.NoError(t, f.Close())

			queries := []string{"SET TimeZone = '" + oracleZone + "'"}
			for _, c := range exprOracleCases {
				queries = append(queries, "SELECT "+c.text+" FROM t ORDER BY rn")
			}
			answers := askDuckDB(t, path, queries)
			f64 := rec.Column(rec.Schema().FieldIndex("f64")).(*array.Float64)
			compared, refused := 0, 0
			for k, c := range exprOracleCases {
				duck := answers[k+1]
				t.Run(c.text, func(t *testing.T) {
					got, ourErr := evalExpr(rec, c.text)
					if duck.Error != "" || ourErr != nil {
						if duck.Error == "" || ourErr == nil {
							t.Fatalf("DuckDB error %q, ours %v", duck.Error, ourErr)
						}
						refused++
						return // both refuse (an overflow, say)
					}
					require.Len(t, duck.Rows, n)
					for i := range n {
						if c.skipNaN && f64.IsValid(i) && math.IsNaN(f64.Value(i)) {
							continue
						}
						if !same(ours(got, i), duck.Rows[i][0], sameTol(got, i)) {
							t.Fatalf("row %d: ours %v, DuckDB %v", i, ours(got, i), duck.Rows[i][0])
						}
					}
					compared++
				})
			}
			t.Logf("%d expressions over %d rows compared with DuckDB, %d refused by both", compared, n, refused)
		})
	}
}

func evalExpr(rec *alkaid.Record, text string) (array.Array, error) {
	e, err := expr.Parse(text)
	if err != nil {
		return nil, err
	}
	b, err := expr.Bind(e, rec.Schema())
	if err != nil {
		return nil, err
	}
	return b.Eval(rec)
}

// sameTol is the tolerance of a float result: relative, a few ulps.
func sameTol(a array.Array, i int) float64 {
	if f, ok := a.(*array.Float64); ok {
		return math.Abs(f.Value(i)) * 1e-15
	}
	return 0
}
