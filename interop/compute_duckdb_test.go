package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet"
)

// The compute package checked value by value against DuckDB
// (@duckdb/node-api, driven by js/oracle.mjs): random tables with nulls,
// NaN, -0, infinities, int64 and uint64 extremes and decimals are written
// as Parquet, read by DuckDB as the view t, and every aggregate, every
// group-by aggregate, sorts and unique values are compared with the same
// question asked in SQL. Where Alkaid answers differently on purpose, the
// SQL asks DuckDB the question Alkaid answers, and a comment says why.
// Not covered: decimal256 (DuckDB's decimals stop at 38 digits) and
// float16 (DuckDB has no half floats); compute's own tests check those
// against math/big.

// oracleColumn is a column of the random table and how to ask about it.
type oracleColumn struct {
	name string
	typ  datatype.DataType
	gen  func(r *rand.Rand) any // a value; nil for null
}

func oracleColumns() []oracleColumn {
	pick := func(vs ...any) func(r *rand.Rand) any {
		return func(r *rand.Rand) any { return vs[r.IntN(len(vs))] }
	}
	withNulls := func(f func(r *rand.Rand) any) func(r *rand.Rand) any {
		return func(r *rand.Rand) any {
			if r.IntN(7) == 0 {
				return nil
			}
			return f(r)
		}
	}
	small := func(r *rand.Rand) int64 { return r.Int64N(2001) - 1000 }
	floats := func(r *rand.Rand) float64 {
		switch r.IntN(40) {
		case 0:
			return math.NaN()
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return 0
		case 3:
			return math.Inf(1 - 2*r.IntN(2))
		}
		return (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(20)-8))
	}
	dec := func(t datatype.DataType, digits int) func(r *rand.Rand) any {
		return func(r *rand.Rand) any {
			v := new(big.Int)
			for range digits {
				v.Mul(v, big.NewInt(10)).Add(v, big.NewInt(r.Int64N(10)))
			}
			if r.IntN(2) == 0 {
				v.Neg(v)
			}
			if r.IntN(10) == 0 { // the largest of the precision
				v.Exp(big.NewInt(10), big.NewInt(int64(t.(*datatype.DecimalType).Precision)), nil).Sub(v, big.NewInt(1))
			}
			return v
		}
	}
	d9 := mustType(datatype.NewDecimal(32, 9, 2))
	d18 := mustType(datatype.NewDecimal(64, 18, 4))
	d38 := mustType(datatype.NewDecimal(128, 38, 6))
	d30 := mustType(datatype.NewDecimal(128, 30, 0))
	return []oracleColumn{
		{"k", datatype.Int8, withNulls(pick(int64(1), int64(2), int64(3), int64(-4), int64(5)))},
		{"ks", datatype.String, withNulls(pick("a", "b", "", "ü"))},
		{"i8", datatype.Int8, withNulls(func(r *rand.Rand) any { return int64(int8(r.Uint32())) })},
		{"i16", datatype.Int16, withNulls(func(r *rand.Rand) any { return int64(int16(r.Uint32())) })},
		{"i32", datatype.Int32, withNulls(func(r *rand.Rand) any { return int64(int32(r.Uint32())) })},
		{"i64", datatype.Int64, withNulls(func(r *rand.Rand) any {
			switch r.IntN(4) {
			case 0:
				return pick(int64(math.MaxInt64), int64(math.MinInt64), int64(math.MaxInt64-1), int64(math.MinInt64+1))(r)
			case 1:
				return int64(r.Uint64())
			}
			return small(r)
		})},
		{"u8", datatype.Uint8, withNulls(func(r *rand.Rand) any { return uint64(uint8(r.Uint32())) })},
		{"u32", datatype.Uint32, withNulls(func(r *rand.Rand) any { return uint64(r.Uint32()) })},
		{"u64", datatype.Uint64, withNulls(func(r *rand.Rand) any {
			if r.IntN(3) == 0 {
				return pick(uint64(math.MaxUint64), uint64(math.MaxUint64-1), uint64(1)<<63)(r)
			}
			return uint64(r.Int64N(5000))
		})},
		{"f32", datatype.Float32, withNulls(func(r *rand.Rand) any { return float64(float32(floats(r))) })},
		{"f64", datatype.Float64, withNulls(func(r *rand.Rand) any { return floats(r) })},
		{"d9", d9, withNulls(dec(d9, 6))},
		{"d18", d18, withNulls(dec(d18, 15))},
		{"d38", d38, withNulls(dec(d38, 33))},
		{"d30", d30, withNulls(dec(d30, 29))},
		{"s", datatype.String, withNulls(func(r *rand.Rand) any {
			return pick("", "a", "ab", "b", "é", "zz", "A", "a\x00b")(r).(string) + strings.Repeat("x", r.IntN(2))
		})},
		{"b", datatype.Bool, withNulls(func(r *rand.Rand) any { return r.IntN(3) == 0 })},
	}
}

func mustType(t *datatype.DecimalType, err error) datatype.DataType {
	if err != nil {
		panic(err)
	}
	return t
}

// oracleRecord builds n random rows of the columns, with a first column
// rn (the row number, for DuckDB's ORDER BY).
func oracleRecord(t *testing.T, cols []oracleColumn, n int, seed uint64) *alkaid.Record {
	r := rand.New(rand.NewPCG(seed, 7))
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
			appendValue(t, b, c.gen(r))
		}
		arrays = append(arrays, b.NewArray())
	}
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), arrays, n)
	require.NoError(t, err)
	return rec
}

func appendValue(t *testing.T, b array.Builder, v any) {
	if v == nil {
		b.AppendNull()
		return
	}
	switch b := b.(type) {
	case *array.PrimitiveBuilder[int8]:
		b.Append(int8(v.(int64)))
	case *array.PrimitiveBuilder[int16]:
		b.Append(int16(v.(int64)))
	case *array.PrimitiveBuilder[int32]:
		b.Append(int32(v.(int64)))
	case *array.PrimitiveBuilder[int64]:
		b.Append(v.(int64))
	case *array.PrimitiveBuilder[uint8]:
		b.Append(uint8(v.(uint64)))
	case *array.PrimitiveBuilder[uint32]:
		b.Append(uint32(v.(uint64)))
	case *array.PrimitiveBuilder[uint64]:
		b.Append(v.(uint64))
	case *array.PrimitiveBuilder[float32]:
		b.Append(float32(v.(float64)))
	case *array.PrimitiveBuilder[float64]:
		b.Append(v.(float64))
	case *array.Decimal32Builder:
		b.Append(datatype.Decimal32(v.(*big.Int).Int64()))
	case *array.Decimal64Builder:
		b.Append(datatype.Decimal64(v.(*big.Int).Int64()))
	case *array.Decimal128Builder:
		b.Append(datatype.Decimal128FromBig(v.(*big.Int)))
	case *array.BinaryBuilder[int32]:
		b.AppendString(v.(string))
	case *array.BooleanBuilder:
		b.Append(v.(bool))
	default:
		t.Fatalf("no append for %T", b)
	}
}

// duckAnswer is DuckDB's answer to one query (see js/oracle.mjs).
type duckAnswer struct {
	Rows  [][]any `json:"rows"`
	Error string  `json:"error"`
}

// askDuckDB runs the queries over the Parquet file at path as the view t.
func askDuckDB(t *testing.T, path string, queries []string) []duckAnswer {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: skipping the DuckDB oracle of compute; install Node.js and run `npm ci` in interop/js (.ci/run does)")
	}
	dir, err := filepath.Abs("js")
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@duckdb", "node-api", "package.json")); errors.Is(err, os.ErrNotExist) {
		t.Skip("interop/js/node_modules/@duckdb/node-api is missing: skipping the DuckDB oracle of compute; run `npm ci` in interop/js (.ci/run does)")
	}
	req, err := json.Marshal(map[string]any{"parquet": path, "queries": queries})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "oracle.mjs"))
	cmd.Stdin = bytes.NewReader(req)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node oracle.mjs: %s", stderr.String())
	var answers []duckAnswer
	require.NoError(t, json.Unmarshal(out, &answers))
	require.Len(t, answers, len(queries))
	return answers
}

// TestComputeDuckDBOracle compares compute's answers with DuckDB's on
// random tables (see the top of this file).
func TestComputeDuckDBOracle(t *testing.T) {
	cols := oracleColumns()
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			n := 1500 + int(seed)*311
			rec := oracleRecord(t, cols, n, seed)
			path := filepath.Join(t.TempDir(), "t.parquet")
			f, err := os.Create(path)
			require.NoError(t, err)
			w, err := parquet.NewWriter(f, rec.Schema(), parquet.WithRowGroupRows(700))
			require.NoError(t, err)
			require.NoError(t, w.Write(rec))
			require.NoError(t, w.Close())
			require.NoError(t, f.Close())

			var queries []string
			var checks []func(t *testing.T, a duckAnswer)
			ask := func(q string, check func(t *testing.T, a duckAnswer)) {
				queries = append(queries, q)
				checks = append(checks, check)
			}
			for _, c := range aggregated(cols) {
				col := rec.Column(rec.Schema().FieldIndex(c.name))
				oracleAggregates(ask, c, col)
				oracleSorts(ask, c, col)
				oracleUnique(ask, c, col)
			}
			for _, keys := range [][]string{{"k"}, {"ks", "k"}, {}} {
				oracleGroupBy(ask, rec, keys, aggregated(cols))
			}
			answers := askDuckDB(t, path, queries)
			for i, a := range answers {
				t.Run(queries[i], func(t *testing.T) {
					if a.Error != "" && !strings.Contains(a.Error, "Overflow") {
						t.Fatalf("DuckDB: %s", a.Error)
					}
					checks[i](t, a)
				})
			}
			t.Logf("%d queries compared with DuckDB over %d rows", len(queries), n)
		})
	}
}
