package interop

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
	"github.com/alkaid-go/alkaid/join"
	"github.com/alkaid-go/alkaid/parquet"
)

// The join package checked against DuckDB: two random tables with the
// key columns below (nulls, NaN, -0, empty and multi-byte strings,
// decimals, dates, timestamps) are written as Parquet; for every join
// type and every key (and two keys at once) both answer with the row
// numbers (rn) of the joined rows, compared as sorted multisets of
// pairs. Dictionary keys are checked by joining a dictionary-encoded
// copy of the string column on the Go side against DuckDB's plain
// strings, and the residual filter (the expression
// (rn + rn_right) % 3 <> 0) by the same condition added to the ON
// clause ((l.rn + r.rn) % 3 <> 0), which for outer joins keeps the
// unmatched rows as SQL does.

func joinKeyColumns() []oracleColumn {
	pick := func(vs ...any) func(r *rand.Rand) any {
		return func(r *rand.Rand) any { return vs[r.IntN(len(vs))] }
	}
	withNulls := func(f func(r *rand.Rand) any) func(r *rand.Rand) any {
		return func(r *rand.Rand) any {
			if r.IntN(6) == 0 {
				return nil
			}
			return f(r)
		}
	}
	nan, negZero := math.NaN(), math.Copysign(0, -1)
	d18 := mustType(datatype.NewDecimal(64, 18, 4))
	d38 := mustType(datatype.NewDecimal(128, 38, 6))
	big38 := new(big.Int).Sub(new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil), big.NewInt(1))
	ts, err := datatype.NewTimestamp(datatype.Microsecond, "UTC")
	if err != nil {
		panic(err)
	}
	return []oracleColumn{
		{"i8", datatype.Int8, withNulls(pick(int64(-128), int64(0), int64(1), int64(127)))},
		{"i64", datatype.Int64, withNulls(pick(int64(math.MinInt64), int64(-1), int64(0), int64(7), int64(math.MaxInt64)))},
		{"u32", datatype.Uint32, withNulls(pick(uint64(0), uint64(1), uint64(math.MaxUint32)))},
		{"u64", datatype.Uint64, withNulls(pick(uint64(0), uint64(1)<<63, uint64(math.MaxUint64)))},
		{"f32", datatype.Float32, withNulls(pick(nan, negZero, 0.0, 1.5, math.Inf(-1)))},
		{"f64", datatype.Float64, withNulls(pick(nan, negZero, 0.0, 0.1, math.Inf(1)))},
		{"d18", d18, withNulls(pick(big.NewInt(0), big.NewInt(-12345), big.NewInt(999999999999999999)))},
		{"d38", d38, withNulls(pick(big.NewInt(0), big.NewInt(1), new(big.Int).Neg(big38), big38))},
		{"s", datatype.String, withNulls(pick("", "a", "A", "ü", "日本語", "a b", "ab"))},
		{"b", datatype.Bool, withNulls(pick(true, false))},
		{"d", datatype.Date32Type, withNulls(pick(int64(0), int64(-1), int64(19782)))}, // 2024-02-29
		{"ts", ts, withNulls(pick(int64(0), int64(1709164800000000), int64(-1)))},      // a leap day
	}
}

// joinRecord makes n random rows of cols with a first column rn.
func joinRecord(t *testing.T, cols []oracleColumn, n int, seed uint64) *alkaid.Record {
	r := rand.New(rand.NewPCG(seed, 11))
	fields := []datatype.Field{{Name: "rn", Type: datatype.Int64}}
	rn := array.NewPrimitiveBuilder[int64](datatype.Int64)
	for i := range n {
		rn.Append(int64(i))
	}
	arrays := []array.Array{rn.NewArray()}
	for _, c := range cols {
		fields = append(fields, datatype.Field{Name: c.name, Type: c.typ, Nullable: true})
		b, err := array.TryNewBuilder(c.typ)
		require.NoError(t, err)
		for range n {
			v := c.gen(r)
			switch b := b.(type) {
			case *array.Date32Builder:
				if v == nil {
					b.AppendNull()
				} else {
					b.Append(datatype.Date32(v.(int64)))
				}
			case *array.PrimitiveBuilder[datatype.Timestamp]:
				if v == nil {
					b.AppendNull()
				} else {
					b.Append(datatype.Timestamp(v.(int64)))
				}
			default:
				appendValue(t, b, v)
			}
		}
		arrays = append(arrays, b.NewArray())
	}
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), arrays, n)
	require.NoError(t, err)
	return rec
}

func writeParquetFile(t *testing.T, path string, rec *alkaid.Record) {
	f, err := os.Create(path)
	require.NoError(t, err)
	w, err := parquet.NewWriter(f, rec.Schema())
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
}

// withDictionaryString replaces column s by a dictionary encoding of it.
func withDictionaryString(t *testing.T, rec *alkaid.Record) *alkaid.Record {
	i := rec.Schema().FieldIndex("s")
	d, err := compute.DictionaryEncode(rec.Column(i))
	require.NoError(t, err)
	fields := rec.Schema().Fields()
	fields[i].Type = d.DataType()
	cols := slices.Clone(rec.Columns())
	cols[i] = d
	out, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), cols, rec.NumRows())
	require.NoError(t, err)
	return out
}

// ourPairs runs the join and returns its (left rn, right rn) pairs, one
// side only for semi and anti joins, sorted.
func ourPairs(t *testing.T, left, right *alkaid.Record, typ join.Type, keys []string, nullsEqual, filter bool) []string {
	lt, err := alkaid.TableFromRecords(left.Schema(), []*alkaid.Record{left.Slice(0, left.NumRows()/3), left.Slice(left.NumRows()/3, left.NumRows())})
	require.NoError(t, err)
	rt, err := alkaid.TableFromRecords(right.Schema(), []*alkaid.Record{right})
	require.NoError(t, err)
	opts := []join.Option{join.WithConcurrency(2)}
	switch typ {
	case join.LeftSemi, join.LeftAnti, join.RightSemi, join.RightAnti:
		opts = append(opts, join.WithColumns("rn"))
	default:
		opts = append(opts, join.WithColumns("rn", "rn_right"))
	}
	if nullsEqual {
		opts = append(opts, join.WithNullsEqual())
	}
	if filter {
		e, err := expr.Parse(rnFilter)
		require.NoError(t, err)
		opts = append(opts, join.WithFilter(e))
	}
	j, err := join.NewReader(lt, rt, typ, join.On(keys...), opts...)
	require.NoError(t, err)
	out := []string{}
	for rec, err := range j.Records() {
		require.NoError(t, err)
		for i := range rec.NumRows() {
			var vals []string
			for c := range rec.NumCols() {
				if rec.Column(c).IsNull(i) {
					vals = append(vals, "null")
				} else {
					vals = append(vals, fmt.Sprint(rec.Column(c).(*array.Int64).Value(i)))
				}
			}
			out = append(out, strings.Join(vals, "|"))
		}
	}
	slices.Sort(out)
	return out
}

// rnFilter is the residual condition (l.rn + r.rn) % 3 <> 0, over the
// candidate columns: the right side's rn is rn_right.
const rnFilter = "(rn + rn_right) % 3 <> 0"

func duckPairs(rows [][]any) []string {
	out := make([]string, len(rows))
	for i, row := range rows {
		vals := make([]string, len(row))
		for c, v := range row {
			if v == nil {
				vals[c] = "null"
			} else {
				vals[c] = fmt.Sprint(v)
			}
		}
		out[i] = strings.Join(vals, "|")
	}
	slices.Sort(out)
	return out
}

// joinSQL asks DuckDB the join: t is the left table, the right one is
// read from rightPath.
func joinSQL(typ join.Type, keys []string, nullsEqual, filter bool, rightPath string) string {
	right := fmt.Sprintf("read_parquet('%s')", strings.ReplaceAll(rightPath, "'", "''"))
	eq := " = "
	if nullsEqual {
		eq = " IS NOT DISTINCT FROM "
	}
	var on []string
	for _, k := range keys {
		on = append(on, "l."+k+eq+"r."+k)
	}
	if filter {
		on = append(on, "(l.rn + r.rn) % 3 <> 0")
	}
	cond := strings.Join(on, " AND ")
	switch typ {
	case join.LeftSemi, join.LeftAnti:
		kw := map[join.Type]string{join.LeftSemi: "SEMI", join.LeftAnti: "ANTI"}[typ]
		return fmt.Sprintf("SELECT l.rn FROM t l %s JOIN %s r ON %s", kw, right, cond)
	case join.RightSemi, join.RightAnti:
		kw := map[join.Type]string{join.RightSemi: "SEMI", join.RightAnti: "ANTI"}[typ]
		return fmt.Sprintf("SELECT r.rn FROM %s r %s JOIN t l ON %s", right, kw, cond)
	}
	kw := map[join.Type]string{join.Inner: "INNER", join.LeftOuter: "LEFT", join.RightOuter: "RIGHT", join.FullOuter: "FULL"}[typ]
	return fmt.Sprintf("SELECT l.rn, r.rn FROM t l %s JOIN %s r ON %s", kw, right, cond)
}

// TestJoinDuckDBOracle compares every join type over every key type
// with DuckDB (see the top of this file).
func TestJoinDuckDBOracle(t *testing.T) {
	cols := joinKeyColumns()
	dir := t.TempDir()
	left := joinRecord(t, cols, 400, 1)
	right := joinRecord(t, cols, 150, 2)
	leftPath, rightPath := filepath.Join(dir, "left.parquet"), filepath.Join(dir, "right.parquet")
	writeParquetFile(t, leftPath, left)
	writeParquetFile(t, rightPath, right)

	type question struct {
		name       string
		typ        join.Type
		keys       []string
		nullsEqual bool
		dict       bool
		filter     bool
	}
	var qs []question
	types := []join.Type{join.Inner, join.LeftOuter, join.RightOuter, join.FullOuter, join.LeftSemi, join.LeftAnti, join.RightSemi, join.RightAnti}
	keySets := [][]string{{"s", "i8"}, {"f64", "d"}}
	for _, c := range cols {
		keySets = append(keySets, []string{c.name})
	}
	for _, typ := range types {
		for _, keys := range keySets {
			qs = append(qs, question{name: fmt.Sprintf("%s/%s", typ, strings.Join(keys, ",")), typ: typ, keys: keys})
		}
		qs = append(qs,
			question{name: fmt.Sprintf("%s/s/dictionary", typ), typ: typ, keys: []string{"s"}, dict: true},
			question{name: fmt.Sprintf("%s/s,i8/nulls-equal", typ), typ: typ, keys: []string{"s", "i8"}, nullsEqual: true},
			question{name: fmt.Sprintf("%s/f32/nulls-equal", typ), typ: typ, keys: []string{"f32"}, nullsEqual: true},
			question{name: fmt.Sprintf("%s/s/filter", typ), typ: typ, keys: []string{"s"}, filter: true},
			question{name: fmt.Sprintf("%s/i64/filter", typ), typ: typ, keys: []string{"i64"}, filter: true})
	}
	queries := make([]string, len(qs))
	for i, q := range qs {
		queries[i] = joinSQL(q.typ, q.keys, q.nullsEqual, q.filter, rightPath)
	}
	answers := askDuckDB(t, leftPath, queries)
	dictLeft := withDictionaryString(t, left)
	rows := 0
	for i, q := range qs {
		t.Run(q.name, func(t *testing.T) {
			a := answers[i]
			require.Empty(t, a.Error, queries[i])
			l := left
			if q.dict {
				l = dictLeft
			}
			ours := ourPairs(t, l, right, q.typ, q.keys, q.nullsEqual, q.filter)
			require.Equal(t, duckPairs(a.Rows), ours, queries[i])
			rows += len(ours)
		})
	}
	t.Logf("%d joins compared with DuckDB, %d rows in all", len(qs), rows)
}
