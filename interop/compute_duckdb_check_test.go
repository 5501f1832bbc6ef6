package interop

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// The checks of TestComputeDuckDBOracle: the forms values are compared
// in, and the questions asked of both sides.

// ours is slot i of a in the form DuckDB's answers are compared in: nil,
// bool, string (strings; integers in base 10; decimals as
// "UNSCALED@SCALE") or float64.
func ours(a array.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch x := a.(type) {
	case *array.Boolean:
		return x.Value(i)
	case *array.Float32:
		return float64(x.Value(i))
	case *array.Float64:
		return x.Value(i)
	case *array.Decimal32:
		return fmt.Sprintf("%d@%d", x.Value(i), scaleOf(a))
	case *array.Decimal64:
		return fmt.Sprintf("%d@%d", x.Value(i), scaleOf(a))
	case *array.Decimal128:
		return fmt.Sprintf("%s@%d", x.Value(i).BigInt(), scaleOf(a))
	case *array.BinaryArray:
		return string(x.Value(i))
	}
	return array.FormatValue(a, i)
}

func scaleOf(a array.Array) int32 { return a.DataType().(*datatype.DecimalType).Scale }

// scalarForm is a compute.Scalar in the form of [ours].
func scalarForm(s compute.Scalar) any {
	if !s.Valid {
		return nil
	}
	switch v := s.Value.(type) {
	case float32:
		return float64(v)
	case float64, bool, string:
		return v
	case []byte:
		return string(v)
	case datatype.Decimal32, datatype.Decimal64, datatype.Decimal128:
		u := new(big.Int)
		switch v := v.(type) {
		case datatype.Decimal32:
			u.SetInt64(int64(v))
		case datatype.Decimal64:
			u.SetInt64(int64(v))
		case datatype.Decimal128:
			u = v.BigInt()
		}
		return fmt.Sprintf("%s@%d", u, s.Type.(*datatype.DecimalType).Scale)
	}
	return fmt.Sprint(s.Value)
}

// asFloat is a value of the [ours] form, or a DuckDB answer, as a float:
// decimals divided by their scale.
func asFloat(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case string:
		if u, s, ok := strings.Cut(v, "@"); ok {
			n, ok := new(big.Float).SetString(u)
			if !ok {
				return 0, false
			}
			sc, _ := strconv.Atoi(s)
			f, _ := n.Quo(n, new(big.Float).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(sc)), nil))).Float64()
			return f, true
		}
		// DuckDB prints a NaN with its sign bit set as "-nan".
		f, err := strconv.ParseFloat(strings.TrimPrefix(v, "-nan"), 64)
		if v == "-nan" {
			return math.NaN(), true
		}
		return f, err == nil
	}
	return 0, false
}

// same compares our value with DuckDB's: exactly, or for floats within
// tol (NaN equal to NaN, -0 equal to 0, infinities exactly).
func same(our, duck any, tol float64) bool {
	if our == nil || duck == nil {
		return our == nil && duck == nil
	}
	if f, ok := our.(float64); ok {
		d, ok := asFloat(duck)
		switch {
		case !ok:
			return false
		case math.IsNaN(f) || math.IsNaN(d):
			return math.IsNaN(f) && math.IsNaN(d)
		case math.IsInf(f, 0) || math.IsInf(d, 0):
			return f == d
		}
		return math.Abs(f-d) <= tol
	}
	return our == duck
}

// wrap64 is the exact integer sum DuckDB gives (a HUGEINT) as Alkaid's
// wrapping sum gives it: modulo 2^64, as int64 or uint64.
func wrap64(exact string, signed bool) string {
	v, ok := new(big.Int).SetString(exact, 10)
	if !ok {
		return exact
	}
	v.Mod(v, new(big.Int).Lsh(big.NewInt(1), 64))
	if signed && v.Bit(63) == 1 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), 64))
	}
	return v.String()
}

func isFloatType(t datatype.DataType) bool { return t.Kind().IsFloat() }

// minMaxSQL is DuckDB's min or max of c as Alkaid defines it. DuckDB
// orders NaN above every number, so its max is NaN whenever a NaN is
// there; Alkaid's min and max (like arrow-go's and Arrow C++'s) skip NaN
// unless every value is NaN.
func minMaxSQL(fn, c string, t datatype.DataType) string {
	if isFloatType(t) {
		return fmt.Sprintf("coalesce(%s(%s) FILTER (WHERE NOT isnan(%s)), %s(%s))", fn, c, c, fn, c)
	}
	return fmt.Sprintf("%s(%s)", fn, c)
}

// meanTol is how far a mean may be from DuckDB's: DuckDB divides in
// long double, so a last bit may differ; a decimal mean is rounded to its
// scale (DuckDB's avg of decimals is a DOUBLE).
func meanTol(t datatype.DataType, v float64) float64 {
	tol := 4e-16 * math.Abs(v)
	if d, ok := t.(*datatype.DecimalType); ok {
		tol += 0.5*math.Pow(10, -float64(d.Scale)) + 1e-15*math.Abs(v)
	}
	return tol
}

// aggregated lists the columns whose aggregates are compared.
func aggregated(cols []oracleColumn) []oracleColumn {
	var out []oracleColumn
	for _, c := range cols {
		if c.name != "k" && c.name != "ks" {
			out = append(out, c)
		}
	}
	return out
}

func numeric(t datatype.DataType) bool {
	_, dec := t.(*datatype.DecimalType)
	return t.Kind().IsInteger() || t.Kind().IsFloat() || dec
}

type askFunc func(q string, check func(t *testing.T, a duckAnswer))

// oracleAggregates compares the aggregates of one column.
func oracleAggregates(ask askFunc, c oracleColumn, col array.Array) {
	dt := c.typ
	q := fmt.Sprintf("SELECT count(%[1]s), count(DISTINCT %[1]s), %s, %s", c.name, minMaxSQL("min", c.name, dt), minMaxSQL("max", c.name, dt))
	if numeric(dt) {
		// Sums and means over chunks are those of the whole column.
		n := col.Len()
		chunked, err := alkaid.NewChunked(dt, []array.Array{array.Slice(col, 0, n/3), array.Slice(col, n/3, n)})
		if err != nil {
			panic(err)
		}
		ask(fmt.Sprintf("SELECT sum(%s)::VARCHAR FROM t", c.name), func(t *testing.T, a duckAnswer) {
			if a.Error != "" {
				// DuckDB's sum of decimals does not fit its 38 digits.
				_, err := compute.Sum(col)
				require.ErrorIs(t, err, compute.ErrOverflow, "DuckDB: %s", a.Error)
				return
			}
			checkSum(t, dt, col, chunked, a.Rows[0][0])
		})
		ask(fmt.Sprintf("SELECT avg(%s) FROM t", c.name), func(t *testing.T, a duckAnswer) {
			m, err := compute.Mean(col)
			require.NoError(t, err)
			if a.Error != "" {
				// DuckDB's avg of DECIMAL(38) sums into a HUGEINT that
				// can overflow; Alkaid's sums in 320 bits.
				_, isDec := dt.(*datatype.DecimalType)
				require.True(t, isDec, a.Error)
				t.Logf("DuckDB cannot: %s; ours %s", a.Error, m)
				return
			}
			mv, _ := asFloat(scalarForm(m))
			tol := meanTol(dt, mv)
			if isFloatType(dt) {
				// Float sums add in another order.
				abs, n := sumMagnitudes(col)
				tol = 1e-13 * abs / float64(max(n, 1))
			}
			require.True(t, same(floatOrNil(scalarForm(m), mv), a.Rows[0][0], tol), "mean: ours %v, DuckDB %v", scalarForm(m), a.Rows[0][0])
			mc, err := compute.MeanChunked(chunked)
			require.NoError(t, err)
			require.True(t, same(scalarForm(mc), scalarForm(m), tol) || scalarForm(mc) == scalarForm(m), "MeanChunked %v, Mean %v", mc, m)
		})
	}
	if dt.Kind() == datatype.KindBool {
		q += fmt.Sprintf(", bool_or(%[1]s), bool_and(%[1]s)", c.name)
	}
	ask(q+" FROM t", func(t *testing.T, a duckAnswer) {
		require.Empty(t, a.Error)
		row := a.Rows[0]
		require.Equal(t, strconv.Itoa(compute.CountValid(col)), row[0], "count")
		distinct, err := compute.CountDistinct(col)
		require.NoError(t, err)
		if isFloatType(dt) {
			// Alkaid's hashing tells floats apart by their bits (-0 is
			// not 0, NaNs of other bits differ); DuckDB's DISTINCT
			// holds -0 = 0. Count the zeros' signs apart.
			distinct -= zeroPairs(col)
		}
		require.Equal(t, strconv.Itoa(distinct), row[1], "count distinct")
		lo, hi, err := compute.MinMax(col)
		require.NoError(t, err)
		// Alkaid orders -0 before 0 where DuckDB does not tell them
		// apart: same() holds -0 equal to 0.
		require.True(t, same(scalarForm(lo), row[2], 0), "min: ours %v, DuckDB %v", scalarForm(lo), row[2])
		require.True(t, same(scalarForm(hi), row[3], 0), "max: ours %v, DuckDB %v", scalarForm(hi), row[3])
		if dt.Kind() == datatype.KindBool {
			ones, valid := 0, compute.CountValid(col)
			for i := range col.Len() {
				if col.IsValid(i) && col.(*array.Boolean).Value(i) {
					ones++
				}
			}
			if valid > 0 {
				require.Equal(t, ones > 0, row[4], "bool_or")
				require.Equal(t, ones == valid, row[5], "bool_and")
			}
		}
	})
}

// zeroPairs is 1 when col holds both -0 and +0 (which DuckDB counts as
// one value), else 0.
func zeroPairs(col array.Array) int {
	neg, pos := false, false
	for i := range col.Len() {
		if col.IsNull(i) {
			continue
		}
		f, _ := ours(col, i).(float64)
		if f == 0 {
			if math.Signbit(f) {
				neg = true
			} else {
				pos = true
			}
		}
	}
	if neg && pos {
		return 1
	}
	return 0
}

// checkSum compares Sum and SumChecked of col with DuckDB's exact sum.
// DuckDB adds integers into a HUGEINT; Alkaid's Sum wraps in int64 (or
// uint64) and SumChecked reports the overflow.
func checkSum(t *testing.T, dt datatype.DataType, col array.Array, chunked *alkaid.Chunked, duck any) {
	s, err := compute.Sum(col)
	require.NoError(t, err)
	sc, cerr := compute.SumChecked(col)
	our := scalarForm(s)
	switch {
	case duck == nil:
		require.Nil(t, our, "sum")
	case dt.Kind().IsInteger():
		exact := duck.(string)
		whole, err := compute.SumChunked(chunked)
		require.NoError(t, err)
		require.Equal(t, s, whole, "SumChunked")
		wrapped := wrap64(exact, dt.Kind().IsSignedInteger())
		require.Equal(t, wrapped, our, "sum (DuckDB's exact sum is %s)", exact)
		if wrapped == exact {
			require.NoError(t, cerr)
			require.Equal(t, our, scalarForm(sc))
		} else {
			require.ErrorIs(t, cerr, compute.ErrOverflow, "sum checked")
		}
	case isFloatType(dt):
		// Float sums add in another order: within the rounding of the
		// sum of magnitudes.
		abs, _ := sumMagnitudes(col)
		require.True(t, same(our, duck, 1e-13*abs), "sum: ours %v, DuckDB %v", our, duck)
	default:
		require.Equal(t, duckDecimalSum(duck.(string), scaleOf(col)), our, "sum")
	}
}

// duckDecimalSum is DuckDB's decimal sum printed as VARCHAR ("-12.30")
// in the UNSCALED@SCALE form.
func duckDecimalSum(s string, scale int32) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	for int32(len(frac)) < scale {
		frac += "0"
	}
	u, _ := new(big.Int).SetString(whole+frac, 10)
	if neg {
		u.Neg(u)
	}
	return fmt.Sprintf("%s@%d", u, scale)
}

// oracleSorts compares SortIndices both ways with DuckDB's ORDER BY (ties
// in row order: Alkaid's sorts are stable).
func oracleSorts(ask askFunc, c oracleColumn, col array.Array) {
	for _, o := range []compute.Order{{}, {Descending: true, NullsFirst: true}} {
		by := c.name
		if o.Descending {
			by += " DESC"
		}
		if o.NullsFirst {
			by += " NULLS FIRST"
		} else {
			by += " NULLS LAST"
		}
		if isFloatType(c.typ) {
			// Alkaid puts NaNs after the numbers in both directions
			// (as Arrow C++ does); DuckDB's NaN is the greatest value.
			// DuckDB's sort keys also hold -0 equal to 0, as Alkaid's
			// comparator does.
			by = fmt.Sprintf("%s IS NULL %s, isnan(%s), %s", c.name, map[bool]string{false: "", true: "DESC"}[o.NullsFirst], c.name, by)
		}
		ask(fmt.Sprintf("SELECT rn FROM t ORDER BY %s, rn", by), func(t *testing.T, a duckAnswer) {
			idx, err := compute.SortIndices(col, o)
			require.NoError(t, err)
			require.Len(t, a.Rows, idx.Len())
			for i := range idx.Len() {
				require.Equal(t, strconv.FormatInt(idx.Value(i), 10), a.Rows[i][0], "row %d of the sorted column", i)
			}
		})
	}
}

// oracleUnique compares Unique (values in order of first occurrence, null
// included) with DuckDB's GROUP BY ordered by each value's first row.
func oracleUnique(ask askFunc, c oracleColumn, col array.Array) {
	ask(fmt.Sprintf("SELECT %[1]s, min(rn) FROM t GROUP BY %[1]s ORDER BY min(rn)", c.name), func(t *testing.T, a duckAnswer) {
		u, err := compute.Unique(col)
		require.NoError(t, err)
		var got []any
		for i := range u.Len() {
			v := ours(u, i)
			// DuckDB groups -0 with 0 (its first occurrence); Alkaid
			// hashes floats by their bits, so a later zero of the
			// other sign is a value of its own: leave it out.
			if f, ok := v.(float64); ok && f == 0 && slicesHasZero(got) {
				continue
			}
			got = append(got, v)
		}
		require.Len(t, a.Rows, len(got))
		for i, v := range got {
			require.True(t, same(v, a.Rows[i][0], 0), "unique value %d: ours %v, DuckDB %v", i, v, a.Rows[i][0])
		}
	})
}

func slicesHasZero(vs []any) bool {
	for _, v := range vs {
		if f, ok := v.(float64); ok && f == 0 {
			return true
		}
	}
	return false
}

// oracleGroupBy compares GroupBy with every aggregate of every column
// against DuckDB's GROUP BY (groups in order of their first row). Sums
// and means are asked apart: either may overflow in DuckDB.
func oracleGroupBy(ask askFunc, rec *alkaid.Record, keys []string, cols []oracleColumn) {
	for _, c := range cols {
		dt := c.typ
		agg := func(f compute.AggFunc) compute.Aggregate { return compute.Aggregate{Func: f, Column: c.name} }
		groupQuery(ask, rec, keys, c, []compute.Aggregate{{Func: compute.AggCount}, agg(compute.AggCount),
			agg(compute.AggCountDistinct), agg(compute.AggMin), agg(compute.AggMax), agg(compute.AggFirst), agg(compute.AggLast)},
			"count(*)", fmt.Sprintf("count(%s)", c.name), fmt.Sprintf("count(DISTINCT %s)", c.name),
			minMaxSQL("min", c.name, dt), minMaxSQL("max", c.name, dt),
			fmt.Sprintf("arg_min(%[1]s, rn) FILTER (WHERE %[1]s IS NOT NULL)", c.name),
			fmt.Sprintf("arg_max(%[1]s, rn) FILTER (WHERE %[1]s IS NOT NULL)", c.name))
		if numeric(dt) {
			groupQuery(ask, rec, keys, c, []compute.Aggregate{agg(compute.AggSum)}, fmt.Sprintf("sum(%s)::VARCHAR", c.name))
			groupQuery(ask, rec, keys, c, []compute.Aggregate{agg(compute.AggMean)}, fmt.Sprintf("avg(%s)", c.name))
		}
		if dt.Kind() == datatype.KindBool {
			groupQuery(ask, rec, keys, c, []compute.Aggregate{agg(compute.AggAny), agg(compute.AggAll)},
				fmt.Sprintf("bool_or(%s)", c.name), fmt.Sprintf("bool_and(%s)", c.name))
		}
	}
}

// groupQuery asks DuckDB for the SQL aggregates sel by keys and compares
// them with GroupBy's aggs (one for one).
func groupQuery(ask askFunc, rec *alkaid.Record, keys []string, c oracleColumn, aggs []compute.Aggregate, sel ...string) {
	dt := c.typ
	q := "SELECT " + strings.Join(append(append([]string{}, keys...), sel...), ", ") + " FROM t"
	if len(keys) > 0 {
		q += " GROUP BY " + strings.Join(keys, ", ") + " ORDER BY min(rn)"
	}
	ask(q, func(t *testing.T, a duckAnswer) {
		out, err := compute.GroupBy(rec, keys, aggs)
		if a.Error != "" {
			switch aggs[0].Func {
			case compute.AggSum:
				// A group's decimal sum beyond 38 digits.
				require.ErrorIs(t, err, compute.ErrOverflow, "DuckDB: %s", a.Error)
			case compute.AggMean:
				// DuckDB's avg of DECIMAL(38) overflows its HUGEINT sum.
				require.NoError(t, err)
				_, isDec := dt.(*datatype.DecimalType)
				require.True(t, isDec, a.Error)
				t.Logf("DuckDB cannot: %s", a.Error)
			default:
				t.Fatalf("DuckDB: %s", a.Error)
			}
			return
		}
		require.NoError(t, err)
		// The same over a table of three chunks.
		n := rec.NumRows()
		tbl, err := alkaid.TableFromRecords(rec.Schema(), []*alkaid.Record{rec.Slice(0, n/3), rec.Slice(n/3, n/2), rec.Slice(n/2, n)})
		require.NoError(t, err)
		outT, err := compute.GroupByTable(tbl, keys, aggs)
		require.NoError(t, err)
		for c := range out.NumCols() {
			require.True(t, array.ApproxEqual(out.Column(c), outT.Column(c), array.NaNEqual()), "GroupByTable column %d", c)
		}
		require.Len(t, a.Rows, out.NumRows(), "groups")
		nk := len(keys)
		for g, row := range a.Rows {
			for k := range nk {
				require.Equal(t, row[k], ours(out.Column(k), g), "group %d key %s", g, keys[k])
			}
			for j, ag := range aggs {
				our, duck := ours(out.Column(nk+j), g), row[nk+j]
				switch ag.Func {
				case compute.AggCountDistinct:
					// -0 and 0 are one value to DuckDB (see
					// oracleAggregates).
					if isFloatType(dt) {
						n, _ := strconv.Atoi(our.(string))
						our = strconv.Itoa(n - groupZeroPairs(rec, keys, out, g, c.name))
					}
					require.Equal(t, duck, our, "group %d %s", g, ag.Func)
				case compute.AggSum:
					switch {
					case duck == nil:
						require.Nil(t, our)
					case dt.Kind().IsInteger():
						// DuckDB's exact HUGEINT sum; Alkaid's wraps.
						require.Equal(t, wrap64(duck.(string), dt.Kind().IsSignedInteger()), our, "group %d sum (DuckDB: %s)", g, duck)
					case isFloatType(dt):
						abs, _ := magnitudes(rec, keys, out, g, c.name)
						require.True(t, same(our, duck, 1e-13*abs), "group %d sum: ours %v, DuckDB %v", g, our, duck)
					default:
						require.Equal(t, duckDecimalSum(duck.(string), scaleOf(out.Column(nk+j))), our, "group %d sum", g)
					}
				case compute.AggMean:
					mv, _ := asFloat(our)
					tol := meanTol(dt, mv)
					if isFloatType(dt) {
						// Float sums add in another order.
						abs, n := magnitudes(rec, keys, out, g, c.name)
						tol = 1e-13 * abs / float64(max(n, 1))
					}
					require.True(t, same(floatOrNil(our, mv), duck, tol), "group %d mean: ours %v, DuckDB %v", g, our, duck)
				default:
					require.True(t, same(our, duck, 0), "group %d %s: ours %v, DuckDB %v", g, ag.Func, our, duck)
				}
			}
		}
	})
}

func floatOrNil(v any, f float64) any {
	if v == nil {
		return nil
	}
	return f
}

// sumMagnitudes is the sum of the finite values' magnitudes of a float
// column and the count of its non-null values.
func sumMagnitudes(col array.Array) (float64, int) {
	abs, n := 0.0, 0
	for i := range col.Len() {
		if f, ok := ours(col, i).(float64); ok {
			n++
			if !math.IsNaN(f) && !math.IsInf(f, 0) {
				abs += math.Abs(f)
			}
		}
	}
	return abs, n
}

// magnitudes is [sumMagnitudes] of group g's rows of column name.
func magnitudes(rec *alkaid.Record, keys []string, out *alkaid.Record, g int, name string) (float64, int) {
	return sumMagnitudes(groupColumn(rec, keys, out, g, name))
}

// groupZeroPairs is [zeroPairs] of group g's rows of column name.
func groupZeroPairs(rec *alkaid.Record, keys []string, out *alkaid.Record, g int, name string) int {
	return zeroPairs(groupColumn(rec, keys, out, g, name))
}

// groupColumn is group g's rows of column name (g of out, the result of
// GroupBy by keys).
func groupColumn(rec *alkaid.Record, keys []string, out *alkaid.Record, g int, name string) array.Array {
	col := rec.Column(rec.Schema().FieldIndex(name))
	var rows []int
	for i := range rec.NumRows() {
		match := true
		for k, key := range keys {
			if !same(ours(rec.Column(rec.Schema().FieldIndex(key)), i), ours(out.Column(k), g), 0) {
				match = false
				break
			}
		}
		if match {
			rows = append(rows, i)
		}
	}
	idx := array.NewPrimitiveBuilder[int64](datatype.Int64)
	for _, i := range rows {
		idx.Append(int64(i))
	}
	sub, err := compute.Take(col, idx.NewArray())
	if err != nil {
		panic(err)
	}
	return sub
}
