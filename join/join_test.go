package join_test

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
	"github.com/alkaid-go/alkaid/join"
)

var _ alkaid.RecordReader = (*join.Reader)(nil)

// col is a column of a test record: a name, a type and a JSON literal.
type col struct {
	name string
	typ  datatype.DataType
	json string
}

// record returns a table of one batch of the columns.
func record(t testing.TB, cols ...col) *alkaid.Table {
	t.Helper()
	return table(t, batch(t, cols...))
}

func batch(t testing.TB, cols ...col) *alkaid.Record {
	t.Helper()
	fields := make([]datatype.Field, len(cols))
	arrays := make([]array.Array, len(cols))
	for i, c := range cols {
		fields[i] = datatype.Field{Name: c.name, Type: c.typ, Nullable: true}
		a, err := arrayjson.Parse(c.typ, c.json)
		require.NoError(t, err, c.name)
		arrays[i] = a
	}
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), arrays, -1)
	require.NoError(t, err)
	return rec
}

func table(t testing.TB, recs ...*alkaid.Record) *alkaid.Table {
	t.Helper()
	tab, err := alkaid.TableFromRecords(recs[0].Schema(), recs)
	require.NoError(t, err)
	return tab
}

// rows formats every output row as its values joined by "|".
func rows(t testing.TB, r alkaid.RecordReader) []string {
	t.Helper()
	var out []string
	for rec, err := range r.Records() {
		require.NoError(t, err)
		require.True(t, rec.Schema().Equal(r.Schema()))
		for i := range rec.NumRows() {
			vals := make([]string, rec.NumCols())
			for c := range vals {
				vals[c] = array.FormatValue(rec.Column(c), i)
			}
			out = append(out, strings.Join(vals, "|"))
		}
	}
	return out
}

func dict(t testing.TB, value datatype.DataType) datatype.DataType {
	d, err := datatype.NewDictionary(datatype.Int8, value, false)
	require.NoError(t, err)
	return d
}

func TestJoinTypes(t *testing.T) {
	left := batch(t,
		col{"id", datatype.Int64, `[1, 2, 3, 4, 5]`},
		col{"k", datatype.String, `["a", "ü", null, "", "b"]`})
	right := record(t,
		col{"k", datatype.String, `["ü", "a", "a", null, "", "c"]`},
		col{"v", datatype.Int64, `[10, 20, 30, 40, 50, 60]`})
	inner := []string{`1|"a"|"a"|20`, `1|"a"|"a"|30`, `2|"ü"|"ü"|10`, `4|""|""|50`}
	cases := []struct {
		typ        join.Type
		nullsEqual bool
		want       []string
	}{
		{join.Inner, false, inner},
		{join.Inner, true, []string{`1|"a"|"a"|20`, `1|"a"|"a"|30`, `2|"ü"|"ü"|10`, `3|(null)|(null)|40`, `4|""|""|50`}},
		{join.LeftOuter, false, []string{`1|"a"|"a"|20`, `1|"a"|"a"|30`, `2|"ü"|"ü"|10`, `3|(null)|(null)|(null)`, `4|""|""|50`, `5|"b"|(null)|(null)`}},
		{join.RightOuter, false, append(inner[:4:4], `(null)|(null)|(null)|40`, `(null)|(null)|"c"|60`)},
		{join.FullOuter, false, []string{`1|"a"|"a"|20`, `1|"a"|"a"|30`, `2|"ü"|"ü"|10`, `3|(null)|(null)|(null)`, `4|""|""|50`, `5|"b"|(null)|(null)`, `(null)|(null)|(null)|40`, `(null)|(null)|"c"|60`}},
		{join.LeftSemi, false, []string{`1|"a"`, `2|"ü"`, `4|""`}},
		{join.LeftSemi, true, []string{`1|"a"`, `2|"ü"`, `3|(null)`, `4|""`}},
		{join.LeftAnti, false, []string{`3|(null)`, `5|"b"`}},
		{join.RightSemi, false, []string{`"ü"|10`, `"a"|20`, `"a"|30`, `""|50`}},
		{join.RightAnti, false, []string{`(null)|40`, `"c"|60`}},
		{join.RightAnti, true, []string{`"c"|60`}},
	}
	for _, c := range cases {
		for _, conc := range []int{1, 3} {
			name := c.typ.String()
			if c.nullsEqual {
				name += "/nulls-equal"
			}
			t.Run(name, func(t *testing.T) {
				opts := []join.Option{join.WithConcurrency(conc), join.WithSuffixes("_l", "_r")}
				if c.nullsEqual {
					opts = append(opts, join.WithNullsEqual())
				}
				// The left side in two batches, so that batches are
				// numbered and ordered.
				l := table(t, left.Slice(0, 2), left.Slice(2, 5))
				j, err := join.NewReader(l, right, c.typ, join.On("k"), opts...)
				require.NoError(t, err)
				require.Equal(t, c.want, rows(t, j))
				require.NoError(t, j.Close())
			})
		}
	}
}

func TestJoinSchema(t *testing.T) {
	left := record(t, col{"id", datatype.Int64, `[1]`}, col{"k", datatype.Int32, `[1]`})
	right := record(t, col{"k", datatype.Int32, `[1]`}, col{"v", datatype.Int64, `[2]`})
	j, err := join.NewReader(left, right, join.LeftOuter, join.On("k"))
	require.NoError(t, err)
	var names []string
	for _, f := range j.Schema().Fields() {
		names = append(names, f.Name)
	}
	require.Equal(t, []string{"id", "k", "k_right", "v"}, names)

	j, err = join.NewReader(left, right, join.Inner, join.On("k"), join.WithColumns("v", "id"))
	require.NoError(t, err)
	require.Equal(t, []string{"2|1"}, rows(t, j))
}

func TestJoinFloatKeys(t *testing.T) {
	// -0 equals 0 and NaN equals NaN, as in DuckDB; through the uint64
	// table (one key) and the bytes table (two keys) alike.
	for _, typ := range []datatype.DataType{datatype.Float64, datatype.Float32, datatype.Float16Type} {
		left := record(t, col{"f", typ, `["NaN", -0.0, 0.0, 1.0, null]`}, col{"g", datatype.Int8, `[1, 1, 1, 1, 1]`})
		right := record(t, col{"f", typ, `[0.0, "NaN", -0.0, null]`}, col{"g", datatype.Int8, `[1, 1, 1, 1]`}, col{"r", datatype.Int8, `[0, 1, 2, 3]`})
		want := []string{"NaN|1|1", "-0|1|0", "-0|1|2", "0|1|0", "0|1|2"}
		for _, keys := range [][]string{{"f"}, {"f", "g"}} {
			t.Run(typ.String()+"/"+strings.Join(keys, ","), func(t *testing.T) {
				j, err := join.NewReader(left, right, join.Inner, join.On(keys...), join.WithColumns("f", "g", "r"))
				require.NoError(t, err)
				require.Equal(t, want, rows(t, j))
			})
		}
	}
}

func TestJoinDictionaryKeys(t *testing.T) {
	// A dictionary key compares by value with a plain one and with a
	// dictionary of other values; string and large string are one type.
	plain := record(t, col{"k", datatype.String, `["x", "ü", null, "", "x"]`}, col{"i", datatype.Int8, `[0, 1, 2, 3, 4]`})
	dicted := record(t, col{"k", dict(t, datatype.String), `["", "x", "ü", null, "y"]`}, col{"j", datatype.Int8, `[0, 1, 2, 3, 4]`})
	large := record(t, col{"k", datatype.LargeString, `["", "x", "ü", null, "y"]`}, col{"j", datatype.Int8, `[0, 1, 2, 3, 4]`})
	want := []string{"0|1", "1|2", "3|0", "4|1"}
	for name, pair := range map[string][2]*alkaid.Table{
		"plain-dict":  {plain, dicted},
		"dict-plain":  {dicted, plain},
		"plain-large": {plain, large},
	} {
		t.Run(name, func(t *testing.T) {
			j, err := join.NewReader(pair[0], pair[1], join.Inner, join.On("k"), join.WithColumns("i", "j"))
			require.NoError(t, err)
			got := rows(t, j)
			slices.Sort(got) // pairs come in the left side's order
			require.Equal(t, want, got)
		})
	}
	// Dictionary keys with integer values take the uint64 table.
	l := record(t, col{"k", dict(t, datatype.Int64), `[5, null, 7, 5]`})
	r := record(t, col{"k", datatype.Int64, `[7, 5, null]`}, col{"v", datatype.Int8, `[0, 1, 2]`})
	j, err := join.NewReader(l, r, join.LeftOuter, join.On("k"), join.WithColumns("k", "v"))
	require.NoError(t, err)
	require.Equal(t, []string{"5|1", "(null)|(null)", "7|0", "5|1"}, rows(t, j))
}

func TestJoinMultiKey(t *testing.T) {
	left := record(t,
		col{"a", datatype.Int32, `[1, 1, 2, null, 2]`},
		col{"b", datatype.String, `["x", "y", "x", "x", null]`})
	right := record(t,
		col{"c", datatype.Int32, `[1, 2, 1, null, 2]`},
		col{"d", datatype.String, `["y", "x", "y", "x", null]`},
		col{"v", datatype.Int8, `[0, 1, 2, 3, 4]`})
	keys := []join.Key{{Left: "a", Right: "c"}, {Left: "b", Right: "d"}}
	j, err := join.NewReader(left, right, join.Inner, keys, join.WithColumns("a", "b", "v"))
	require.NoError(t, err)
	require.Equal(t, []string{`1|"y"|0`, `1|"y"|2`, `2|"x"|1`}, rows(t, j))

	j, err = join.NewReader(left, right, join.Inner, keys, join.WithColumns("a", "b", "v"), join.WithNullsEqual())
	require.NoError(t, err)
	require.Equal(t, []string{`1|"y"|0`, `1|"y"|2`, `2|"x"|1`, `(null)|"x"|3`, `2|(null)|4`}, rows(t, j))
}

func TestJoinFilter(t *testing.T) {
	left := record(t, col{"k", datatype.Int64, `[1, 1, 2, 3]`}, col{"x", datatype.Int64, `[10, 20, 30, 40]`})
	right := record(t, col{"k", datatype.Int64, `[1, 2, 3, 1]`}, col{"y", datatype.Int64, `[15, 5, 50, 25]`})
	for _, c := range []struct {
		typ    join.Type
		filter string
		want   []string
	}{
		{join.Inner, "x < y", []string{"1|10|1|15", "1|10|1|25", "1|20|1|25", "3|40|3|50"}},
		{join.LeftOuter, "x < y", []string{"1|10|1|15", "1|10|1|25", "1|20|1|25", "2|30|(null)|(null)", "3|40|3|50"}},
		{join.RightOuter, "x < y", []string{"1|10|1|15", "1|10|1|25", "1|20|1|25", "3|40|3|50", "(null)|(null)|2|5"}},
		{join.LeftAnti, "x < y", []string{"2|30"}},
		{join.RightSemi, "x < y", []string{"1|15", "3|50", "1|25"}},
		// The key columns collide: the right one is k_right.
		{join.Inner, "k_right = 1 AND x + 5 = y", []string{"1|10|1|15", "1|20|1|25"}},
		// A null filter value does not match.
		{join.Inner, "CASE WHEN y = 25 THEN NULL ELSE TRUE END", []string{"1|10|1|15", "1|20|1|15", "2|30|2|5", "3|40|3|50"}},
		{join.Inner, "FALSE", nil},
	} {
		t.Run(c.typ.String()+"/"+c.filter, func(t *testing.T) {
			e, err := expr.Parse(c.filter)
			require.NoError(t, err)
			j, err := join.NewReader(left, right, c.typ, join.On("k"), join.WithFilter(e))
			require.NoError(t, err)
			require.Equal(t, c.want, rows(t, j))
		})
	}
	// A filter that fails at evaluation (checked overflow) names the batch.
	overflow, err := expr.Parse("x * 1000000000000000000 > y")
	require.NoError(t, err)
	for _, conc := range []int{1, 2} {
		j, err := join.NewReader(left, right, join.LeftOuter, join.On("k"), join.WithFilter(overflow), join.WithConcurrency(conc))
		require.NoError(t, err)
		n := 0
		for _, err := range j.Records() {
			require.Error(t, err)
			require.ErrorIs(t, err, compute.ErrOverflow)
			require.ErrorContains(t, err, "join: left batch 0: filter: expr: (x * 1000000000000000000) at byte 2: compute: overflow")
			n++
		}
		require.Equal(t, 1, n)
	}
}

// TestJoinFilterBind: a filter that does not bind to the candidate
// schema, or is not boolean, is NewReader's error naming the option.
func TestJoinFilterBind(t *testing.T) {
	left := record(t, col{"k", datatype.Int64, `[1]`}, col{"x", datatype.Int64, `[10]`})
	right := record(t, col{"k", datatype.Int64, `[1]`}, col{"y", datatype.String, `["a"]`})
	for _, c := range []struct {
		filter, msg string
	}{
		{"z > 1", `join: WithFilter((z > 1)): expr: z at byte 0: no field "z"`},
		{"x + 1", `join: WithFilter((x + 1)): the filter must be boolean, not int64: invalid`},
		{"x + y > 0", `join: WithFilter(((x + y) > 0)): expr: (x + y) at byte 2: add_checked of int64 and utf8`},
		{"NULL", `join: WithFilter(NULL): the filter must be boolean`},
	} {
		t.Run(c.filter, func(t *testing.T) {
			e, err := expr.Parse(c.filter)
			require.NoError(t, err)
			_, err = join.NewReader(left, right, join.Inner, join.On("k"), join.WithFilter(e))
			require.ErrorIs(t, err, datatype.ErrInvalid)
			require.ErrorContains(t, err, c.msg)
		})
	}
	// Suffixes name the candidate columns as they name the output's.
	e, err := expr.Parse("k_l = k_r")
	require.NoError(t, err)
	j, err := join.NewReader(left, right, join.Inner, join.On("k"), join.WithSuffixes("_l", "_r"), join.WithFilter(e), join.WithColumns("x"))
	require.NoError(t, err)
	require.Equal(t, []string{"10"}, rows(t, j))
	_, err = join.NewReader(left, right, join.Inner, join.On("k"), join.WithFilter(nil))
	require.ErrorIs(t, err, datatype.ErrInvalid)
	require.ErrorContains(t, err, "WithFilter(nil)")
}

func TestJoinEmpty(t *testing.T) {
	empty := record(t, col{"k", datatype.String, `[]`})
	some := record(t, col{"k", datatype.String, `["a", null]`})
	for _, typ := range []join.Type{join.Inner, join.LeftOuter, join.RightOuter, join.FullOuter, join.LeftAnti, join.RightAnti} {
		j, err := join.NewReader(empty, some, typ, join.On("k"), join.WithSuffixes("", "2"))
		require.NoError(t, err)
		got := rows(t, j)
		switch typ {
		case join.RightOuter, join.FullOuter:
			require.Equal(t, []string{`(null)|"a"`, `(null)|(null)`}, got)
		case join.RightAnti:
			require.Equal(t, []string{`"a"`, `(null)`}, got)
		default:
			require.Empty(t, got)
		}
		// An empty right side (no batches at all).
		j, err = join.NewReader(some, alkaid.NewRecordReader(empty.Schema(), func(func(*alkaid.Record, error) bool) {}, nil), typ, join.On("k"), join.WithSuffixes("", "2"))
		require.NoError(t, err)
		got = rows(t, j)
		switch typ {
		case join.LeftOuter, join.FullOuter:
			require.Equal(t, []string{`"a"|(null)`, `(null)|(null)`}, got)
		case join.LeftAnti:
			require.Equal(t, []string{`"a"`, `(null)`}, got)
		default:
			require.Empty(t, got, typ)
		}
	}
}

func TestJoinErrors(t *testing.T) {
	left := record(t, col{"k", datatype.Int64, `[1, 2]`}, col{"s", datatype.String, `["a", "b"]`})
	right := record(t, col{"k", datatype.Int64, `[1, 2, 3]`}, col{"s", datatype.LargeString, `["a", "b", "c"]`}, col{"i", datatype.Int32, `[1, 2, 3]`})
	nested := record(t, col{"l", datatype.ListOf(datatype.Int64), `[[1]]`})
	for _, c := range []struct {
		name string
		l, r *alkaid.Table
		keys []join.Key
		opts []join.Option
		is   error
		msg  string
	}{
		{"no keys", left, right, nil, nil, datatype.ErrInvalid, "join: no key columns"},
		{"left name", left, right, []join.Key{{"x", "k"}}, nil, datatype.ErrInvalid, `the left side has no column "x"`},
		{"right name", left, right, []join.Key{{"k", "x"}}, nil, datatype.ErrInvalid, `the right side has no column "x"`},
		{"types", left, right, []join.Key{{"k", "i"}}, nil, datatype.ErrInvalid, `left "k" is int64 but right "i" is int32`},
		{"nested", nested, nested, join.On("l"), nil, datatype.ErrNotSupported, `join: key 0 ("l"): type list`},
		{"concurrency", left, right, join.On("k"), []join.Option{join.WithConcurrency(-1)}, datatype.ErrInvalid, "WithConcurrency(-1)"},
		{"batch", left, right, join.On("k"), []join.Option{join.WithBatchSize(0)}, datatype.ErrInvalid, "WithBatchSize(0)"},
		{"suffixes", left, right, join.On("k"), []join.Option{join.WithSuffixes("_x", "_x")}, datatype.ErrInvalid, "suffixes must differ"},
		{"collision", left, right, join.On("k"), []join.Option{join.WithSuffixes("", "_right"), join.WithColumns("k_right", "nope")}, datatype.ErrInvalid, `no output column "nope"`},
		{"semi column", left, right, join.On("k"), []join.Option{join.WithColumns("i")}, datatype.ErrInvalid, `no output column "i" (a left-semi join outputs "k", "s")`},
		{"rows", left, right, join.On("k"), []join.Option{join.WithLimits(join.Limits{MaxBuildRows: 2})}, datatype.ErrLimit, "more than 2 rows (Limits.MaxBuildRows)"},
		{"bytes", left, right, join.On("k"), []join.Option{join.WithLimits(join.Limits{MaxBuildBytes: 10})}, datatype.ErrLimit, "more than 10 bytes (Limits.MaxBuildBytes)"},
		{"limits", left, right, join.On("k"), []join.Option{join.WithLimits(join.Limits{MaxBuildRows: -1})}, datatype.ErrInvalid, "WithLimits"},
	} {
		t.Run(c.name, func(t *testing.T) {
			typ := join.Inner
			if c.name == "semi column" {
				typ = join.LeftSemi
			}
			_, err := join.NewReader(c.l, c.r, typ, c.keys, c.opts...)
			require.ErrorIs(t, err, c.is)
			require.ErrorContains(t, err, c.msg)
		})
	}
	_, err := join.ParseType("outer")
	require.ErrorIs(t, err, datatype.ErrInvalid)
	for _, s := range []string{"inner", "left", "right", "full", "semi", "anti", "left-semi", "right-anti"} {
		typ, err := join.ParseType(s)
		require.NoError(t, err)
		if s != "semi" && s != "anti" {
			require.Equal(t, s, typ.String())
		}
	}
}

func TestJoinLeftError(t *testing.T) {
	// An error of the left side is yielded once, whatever the
	// concurrency, after the batches before it.
	right := batch(t, col{"k", datatype.Int64, `[1]`})
	boom := errors.New("boom")
	for _, conc := range []int{1, 4} {
		left := alkaid.NewRecordReader(right.Schema(), func(yield func(*alkaid.Record, error) bool) {
			for range 5 {
				if !yield(right, nil) {
					return
				}
			}
			yield(nil, boom)
		}, nil)
		j, err := join.NewReader(left, table(t, right), join.Inner, join.On("k"), join.WithConcurrency(conc))
		require.NoError(t, err)
		n := 0
		for rec, err := range j.Records() {
			if err != nil {
				require.ErrorIs(t, err, boom)
				require.ErrorContains(t, err, "after 5 batches")
				break
			}
			n += rec.NumRows()
		}
		require.Equal(t, 5, n)
	}
}

func TestJoinExtremeIntegerKeys(t *testing.T) {
	// Every uint64 value is a key, including the one the table first
	// picks to mark its empty slots.
	keys := `[-9223372036854775808, -7046029254386353131, -1, 0, 9223372036854775807]`
	left := record(t, col{"k", datatype.Int64, keys})
	right := record(t, col{"k", datatype.Int64, `[9223372036854775807, 0, -1, -7046029254386353131, -9223372036854775808, 5]`})
	j, err := join.NewReader(left, right, join.FullOuter, join.On("k"))
	require.NoError(t, err)
	require.Equal(t, []string{
		"-9223372036854775808|-9223372036854775808", "-7046029254386353131|-7046029254386353131",
		"-1|-1", "0|0", "9223372036854775807|9223372036854775807", "(null)|5",
	}, rows(t, j))
	// A left key equal to the empty marker finds nothing.
	j, err = join.NewReader(left, record(t, col{"k", datatype.Int64, `[1, 2]`}), join.LeftAnti, join.On("k"))
	require.NoError(t, err)
	require.Len(t, rows(t, j), 5)
}

func TestJoinLimitCountsSharedBuffersOnce(t *testing.T) {
	// Ten slices of one batch share its buffers: 8000 bytes of values,
	// not ten times that.
	rec := batch(t, col{"k", datatype.Int64, "[" + strings.Repeat("1, ", 999) + "1]"})
	var recs []*alkaid.Record
	for lo := 0; lo < 1000; lo += 100 {
		recs = append(recs, rec.Slice(lo, lo+100))
	}
	right := table(t, recs...)
	_, err := join.NewReader(right, right, join.LeftSemi, join.On("k"), join.WithLimits(join.Limits{MaxBuildBytes: 10000}))
	require.NoError(t, err)
	_, err = join.NewReader(right, right, join.LeftSemi, join.On("k"), join.WithLimits(join.Limits{MaxBuildBytes: 7999}))
	require.ErrorIs(t, err, datatype.ErrLimit)
}

func TestJoinEarlyBreak(t *testing.T) {
	// Breaking out of the loop stops the probing goroutines before
	// Records returns.
	b := batch(t, col{"k", datatype.Int64, `[1, 2, 3]`})
	recs := make([]*alkaid.Record, 50)
	for i := range recs {
		recs[i] = b
	}
	before := runtime.NumGoroutine()
	j, err := join.NewReader(table(t, recs...), table(t, b), join.Inner, join.On("k"), join.WithConcurrency(4))
	require.NoError(t, err)
	n := 0
	for _, err := range j.Records() {
		require.NoError(t, err)
		if n++; n == 3 {
			break
		}
	}
	require.Equal(t, 3, n)
	// A worker that has said it is done may still be returning: give
	// the scheduler a moment before counting, as leak checkers do.
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	require.LessOrEqual(t, runtime.NumGoroutine(), before)
}
