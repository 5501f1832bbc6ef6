package interop

import (
	"context"
	"encoding/json"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/dataset"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
	"github.com/alkaid-go/alkaid/parquet"
)

// duckReading is DuckDB's reading of a dataset, as dataset.mjs prints it.
type duckReading struct {
	Types   map[string]string `json:"types"`
	Columns map[string][]any  `json:"columns"`
}

// datasetNode returns node and dataset.mjs, or skips the test.
func datasetNode(t *testing.T) (node, script string) {
	t.Helper()
	node, script = pqNode(t, true)
	return node, filepath.Join(filepath.Dir(script), "dataset.mjs")
}

func runDatasetJS(t *testing.T, node, script, cmd, dir string) duckReading {
	t.Helper()
	var r duckReading
	require.NoError(t, json.Unmarshal(runJSPeer(t, node, script, cmd, dir), &r))
	return r
}

// jsonValue is row i of a in dataset.mjs's JSON form.
func jsonValue(t *testing.T, a array.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch a := a.(type) {
	case *array.Int64:
		return strconv.FormatInt(a.Value(i), 10)
	case *array.Int32:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Float64:
		return a.Value(i)
	case *array.Date32:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Binary[int32]:
		return a.ValueString(i)
	case *array.Binary[int64]:
		return a.ValueString(i)
	}
	t.Fatalf("no JSON form for %s", a.DataType())
	return nil
}

// scanJSON scans d and returns its columns in JSON form, rows ordered by
// the column id.
func scanJSON(t *testing.T, d *dataset.Dataset, opts ...dataset.Option) map[string][]any {
	t.Helper()
	s, err := d.Scan(context.Background(), opts...)
	require.NoError(t, err)
	type row struct {
		id   int64
		vals []any
	}
	var rows []row
	idCol := s.Schema().FieldIndex("id")
	for rec, err := range s.Records() {
		require.NoError(t, err)
		for i := range rec.NumRows() {
			r := row{id: rec.Column(idCol).(*array.Int64).Value(i)}
			for c := range rec.NumCols() {
				r.vals = append(r.vals, jsonValue(t, rec.Column(c), i))
			}
			rows = append(rows, r)
		}
	}
	slices.SortFunc(rows, func(a, b row) int { return int(a.id - b.id) })
	out := map[string][]any{}
	for c, f := range s.Schema().Fields() {
		out[f.Name] = []any{}
		for _, r := range rows {
			out[f.Name] = append(out[f.Name], r.vals[c])
		}
	}
	return out
}

// TestDatasetDuckDBToAlkaid has DuckDB write a Hive-partitioned dataset
// (COPY ... PARTITION_BY (year, city): null years, escaped city names) and
// reads it with the dataset package: every value equals DuckDB's own
// reading, whole and under a filter.
func TestDatasetDuckDBToAlkaid(t *testing.T) {
	node, script := datasetNode(t)
	dir := filepath.Join(t.TempDir(), "duck")
	duck := runDatasetJS(t, node, script, "write", dir)
	require.Len(t, duck.Columns["id"], 200)

	d, err := dataset.Open(os.DirFS(dir), ".", dataset.WithPartitioning(dataset.Partitioning{Style: dataset.Hive}))
	require.NoError(t, err)
	require.Equal(t, "int64", d.Schema().Field(d.Schema().FieldIndex("year")).Type.String())
	require.Equal(t, "utf8", d.Schema().Field(d.Schema().FieldIndex("city")).Type.String())
	ours := scanJSON(t, d)
	require.Equal(t, len(duck.Columns), len(ours))
	for name, want := range duck.Columns {
		require.Equal(t, want, ours[name], "column %s", name)
	}

	// Filters on partitions (null years among them) and file columns:
	// DuckDB's rows that satisfy them, and only the files of the
	// partitions that may are opened.
	amount := func(i int) (float64, bool) { a, ok := duck.Columns["amount"][i].(float64); return a, ok }
	for _, tc := range []struct {
		filter string
		keep   func(year, city any, i int) bool
		files  int
	}{
		{"year = 2021 AND city = 'New York' AND amount > 10.0", func(year, city any, i int) bool {
			a, ok := amount(i)
			return year == "2021" && city == "New York" && ok && a > 10
		}, 1},
		{"year IS NULL AND city IN ('Oslo', 'caf\u00e9')", func(year, city any, _ int) bool {
			return year == nil && (city == "Oslo" || city == "caf\u00e9")
		}, 2},
		{"(year = 2020 OR year = 2022) AND amount BETWEEN 5 AND 20", func(year, _ any, i int) bool {
			a, ok := amount(i)
			return (year == "2020" || year == "2022") && ok && a >= 5 && a <= 20
		}, 10},
		{"NOT (city = 'a/b') AND amount IS NULL", func(_, city any, i int) bool {
			_, ok := amount(i)
			return city != "a/b" && !ok
		}, 16},
	} {
		var want []any
		for i, id := range duck.Columns["id"] {
			if tc.keep(duck.Columns["year"][i], duck.Columns["city"][i], i) {
				want = append(want, id)
			}
		}
		filter, err := expr.Parse(tc.filter)
		require.NoError(t, err)
		s, err := d.Scan(context.Background(), dataset.WithFilter(filter), dataset.WithColumns("id"))
		require.NoError(t, err)
		got := []any{}
		for rec, err := range s.Records() {
			require.NoError(t, err)
			for i := range rec.NumRows() {
				got = append(got, jsonValue(t, rec.Column(0), i))
			}
		}
		slices.SortFunc(got, func(a, b any) int { x, _ := strconv.Atoi(a.(string)); y, _ := strconv.Atoi(b.(string)); return x - y })
		require.NotEmpty(t, want, tc.filter)
		require.Equal(t, want, got, tc.filter)
		require.Equal(t, tc.files, s.Stats().FilesRead, tc.filter)
	}
}

// TestDatasetAlkaidToDuckDB writes a Hive-partitioned dataset with the
// dataset package and has DuckDB read it with hive_partitioning = true:
// every value equals the source's.
func TestDatasetAlkaidToDuckDB(t *testing.T) {
	node, script := datasetNode(t)
	rec := datasetSample(t)
	schema, n := rec.Schema(), rec.NumRows()

	root := t.TempDir()
	files, err := dataset.Write(context.Background(), dataset.DirFS(root), "ours", oneRecord{rec},
		dataset.WithPartitionBy("year", "city"), dataset.WithMaxRowsPerFile(10),
		dataset.WithParquetOptions(parquet.WithCompression(parquet.Snappy, 0)))
	require.NoError(t, err)
	require.Greater(t, len(files), 20)

	duck := runDatasetJS(t, node, script, "read", filepath.Join(root, "ours"))
	require.Equal(t, "BIGINT", duck.Types["year"])
	for c, f := range schema.Fields() {
		var want []any
		for i := range n {
			want = append(want, jsonValue(t, rec.Column(c), i))
		}
		require.Equal(t, want, duck.Columns[f.Name], "column %s", f.Name)
	}
}

// datasetSample is 300 rows of id, year (nulls), city (nulls, names that
// need escaping, ""), amount (nulls) and note, for partitioned writes.
func datasetSample(t *testing.T) *alkaid.Record {
	const n = 300
	ids := array.NewPrimitiveBuilder[int64](datatype.Int64)
	years := array.NewPrimitiveBuilder[int64](datatype.Int64)
	cities := array.NewBinaryBuilder[int32](datatype.String)
	amounts := array.NewPrimitiveBuilder[float64](datatype.Float64)
	notes := array.NewBinaryBuilder[int32](datatype.String)
	names := []string{"Oslo", "New York", "a/b", "x=y", "café", "100%", ""}
	for i := range n {
		ids.Append(int64(i))
		if i%7 == 0 {
			years.AppendNull()
		} else {
			years.Append(int64(2020 + i%3))
		}
		if i%13 == 0 {
			cities.AppendNull()
		} else {
			cities.AppendString(names[i%len(names)])
		}
		if i%11 == 0 {
			amounts.AppendNull()
		} else {
			amounts.Append(float64(i) * 0.5)
		}
		notes.AppendString("row " + strconv.Itoa(i))
	}
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "id", Type: datatype.Int64}, {Name: "year", Type: datatype.Int64, Nullable: true},
		{Name: "city", Type: datatype.String, Nullable: true}, {Name: "amount", Type: datatype.Float64, Nullable: true},
		{Name: "note", Type: datatype.String},
	}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(schema, []array.Array{ids.Finish(), years.Finish(), cities.Finish(), amounts.Finish(), notes.Finish()}, n)
	require.NoError(t, err)
	return rec
}

// oneRecord is an alkaid.RecordReader of one record.
type oneRecord struct{ rec *alkaid.Record }

func (o oneRecord) Schema() *alkaid.Schema { return o.rec.Schema() }
func (o oneRecord) Close() error           { return nil }
func (o oneRecord) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) { yield(o.rec, nil) }
}
