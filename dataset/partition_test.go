package dataset

import (
	"context"
	"errors"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/internal/textval"
)

func TestHivePartitions(t *testing.T) {
	r := mkRec(t, col{"x:int64", "[1]"})
	fsys := fstest.MapFS{
		"t/year=2024/day=2024-03-01/city=New%20York/a.parquet":                                 pqFile(t, r),
		"t/year=2025/day=2024-03-02/city=a%2Fb%3Dc/a.parquet":                                  pqFile(t, r),
		"t/year=__HIVE_DEFAULT_PARTITION__/day=2024-03-03/city=x/a.parquet":                    pqFile(t, r),
		"t/year=2026/day=__HIVE_DEFAULT_PARTITION__/city=__HIVE_DEFAULT_PARTITION__/b.parquet": pqFile(t, r),
	}
	tests := []struct {
		name  string
		part  Partitioning
		types string
		want  map[string]string
	}{
		{"inferred", Partitioning{Style: Hive}, "x: int64, year: int64, day: date32, city: utf8", map[string]string{
			"x": "[1 1 1 1]", "year": "[2024 2025 2026 (null)]",
			"day": "[2024-03-01 2024-03-02 (null) 2024-03-03]", "city": `["New York" "a/b=c" (null) "x"]`}},
		{"given", Partitioning{Style: Hive, Fields: []datatype.Field{{Name: "city", Type: datatype.LargeString}, {Name: "year", Type: datatype.Int16}}},
			"x: int64, city: large_utf8, year: int16, day: date32", map[string]string{
				"x": "[1 1 1 1]", "year": "[2024 2025 2026 (null)]",
				"day": "[2024-03-01 2024-03-02 (null) 2024-03-03]", "city": `["New York" "a/b=c" (null) "x"]`}},
		{"dictionary", Partitioning{Style: Hive, Dictionary: true}, "x: int64, year: dictionary<values=int64, indices=int32>, day: dictionary<values=date32, indices=int32>, city: dictionary<values=utf8, indices=int32>", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Open(fsys, "t", WithPartitioning(tc.part))
			require.NoError(t, err)
			var names []string
			for _, f := range d.Schema().Fields() {
				names = append(names, f.Name+": "+f.Type.String())
			}
			require.Equal(t, tc.types, joinComma(names))
			got, _ := scanAll(t, d)
			if tc.want != nil {
				require.Equal(t, tc.want, got)
			}
		})
	}
}

func joinComma(xs []string) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += ", "
		}
		s += x
	}
	return s
}

func TestPartitionErrors(t *testing.T) {
	r := mkRec(t, col{"x:int64", "[1]"})
	tests := []struct {
		name string
		file string
		part Partitioning
		want error
	}{
		{"not an int", "t/year=20x4/a.parquet", Partitioning{Style: Hive, Fields: []datatype.Field{{Name: "year", Type: datatype.Int32}}}, ErrPartitionValue},
		{"overflow", "t/year=300/a.parquet", Partitioning{Style: Hive, Fields: []datatype.Field{{Name: "year", Type: datatype.Int8}}}, ErrPartitionValue},
		{"not a date", "t/d=2024-13-01/a.parquet", Partitioning{Style: Hive, Fields: []datatype.Field{{Name: "d", Type: datatype.Date32Type}}}, ErrPartitionValue},
		{"bad escape", "t/k=%zz/a.parquet", Partitioning{Style: Hive}, ErrPartitionValue},
		{"key twice", "t/k=1/k=2/a.parquet", Partitioning{Style: Hive}, ErrPartitionValue},
		{"too deep", "t/1/2/a.parquet", Partitioning{Style: Directory, Fields: []datatype.Field{{Name: "a"}}}, ErrPartitionValue},
		{"type", "t/k=1/a.parquet", Partitioning{Style: Hive, Fields: []datatype.Field{{Name: "k", Type: datatype.Binary}}}, ErrNotSupported},
		{"clash", "t/x=1/a.parquet", Partitioning{Style: Hive}, ErrInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Open(fstest.MapFS{tc.file: pqFile(t, r)}, "t", WithPartitioning(tc.part))
			require.ErrorIs(t, err, tc.want)
			if tc.want == ErrPartitionValue || tc.name == "clash" {
				require.ErrorIs(t, err, ErrInvalid)
				var fe *FileError
				require.ErrorAs(t, err, &fe)
				require.Equal(t, tc.file, fe.Path)
			}
		})
	}
	// A clash with a given schema is the option's fault, not a file's.
	_, err := Open(fstest.MapFS{"t/x=1/a.parquet": pqFile(t, r)}, "t", WithPartitioning(Partitioning{Style: Hive}), WithSchema(r.Schema()))
	require.ErrorIs(t, err, ErrInvalid)
	require.ErrorContains(t, err, "WithSchema")
	var fe *FileError
	require.False(t, errors.As(err, &fe))
}

func TestDirectoryPartitions(t *testing.T) {
	r := mkRec(t, col{"x:int64", "[7]"})
	fsys := fstest.MapFS{
		"t/2024/03/a.parquet": pqFile(t, r),
		"t/2024/b.parquet":    pqFile(t, r),
		"t/2025/11/a.parquet": pqFile(t, r),
	}
	d, err := Open(fsys, "t", WithPartitioning(Partitioning{Style: Directory,
		Fields: []datatype.Field{{Name: "year"}, {Name: "month", Type: datatype.String}}}))
	require.NoError(t, err)
	got, _ := scanAll(t, d)
	require.Equal(t, map[string]string{"x": "[7 7 7]", "year": "[2024 2024 2025]", "month": `["03" (null) "11"]`}, got)
}

func TestEscapeHive(t *testing.T) {
	for _, s := range []string{"", "plain", "a/b", "a=b", "100%", "New York", "é", HiveNull} {
		k, v, null, ok, err := parseHiveSegment("k=" + escapeHive(s))
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, "k", k)
		require.False(t, null)
		require.Equal(t, s, v)
	}
}

func FuzzParseHiveSegment(f *testing.F) {
	for _, s := range []string{"k=v", "k=%2F", "=v", "k=" + HiveNull, "k=%zz", "novalue", "a%3Db=c=d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seg string) {
		k, v, null, ok, err := parseHiveSegment(seg)
		if err != nil || !ok || null {
			return
		}
		k2, v2, null2, ok2, err2 := parseHiveSegment(escapeHive(k) + "=" + escapeHive(v))
		if err2 != nil || !ok2 || null2 || k2 != k || v2 != v {
			t.Fatalf("%q: (%q,%q) escaped reads back as (%q,%q,%v,%v,%v)", seg, k, v, k2, v2, null2, ok2, err2)
		}
	})
}

func TestConstColumn(t *testing.T) {
	tests := []struct {
		typ  datatype.DataType
		text string // "": a null
	}{
		{datatype.Int64, "-3"}, {datatype.Int32, "7"}, {datatype.Int16, "7"}, {datatype.Uint8, "200"},
		{datatype.Float64, "2.5"}, {datatype.Float32, "0.5"}, {datatype.Date32Type, "2022-01-08"},
		{datatype.String, "a/b"}, {datatype.LargeString, "x"}, {datatype.Bool, "true"},
		{datatype.Int64, ""}, {datatype.String, ""},
	}
	for _, tc := range tests {
		t.Run(tc.typ.String(), func(t *testing.T) {
			// As discovery makes them: a one-row slice, here at an
			// offset, of a column of every file's value.
			ap, err := textval.NewAppender(tc.typ, &textval.Options{})
			require.NoError(t, err)
			ap.AppendNull()
			if tc.text != "" {
				require.NoError(t, ap.Append([]byte(tc.text)))
			} else {
				ap.AppendNull()
			}
			ap.AppendNull()
			one := array.Slice(ap.NewArray(), 1, 2)
			if tc.text != "" {
				text, null, err := formatValue(one, 0)
				require.NoError(t, err)
				require.False(t, null)
				require.Equal(t, tc.text, text)
			}
			require.NoError(t, err)
			// Lengths around the doubling copies of fill, on poisoned
			// memory: a slot left unwritten shows.
			rawmem.Poison(true)
			defer rawmem.Poison(false)
			for _, c := range []struct {
				n    int
				dict bool
			}{{5, false}, {5, true}, {0, false}, {1, false}, {3, false}, {1000, false}} {
				n, dict := c.n, c.dict
				a, err := constColumn(one, n, dict)
				require.NoError(t, err)
				require.Equal(t, n, a.Len())
				if dict {
					require.Equal(t, datatype.KindDictionary, a.DataType().Kind())
				} else {
					require.True(t, datatype.Equal(tc.typ, a.DataType()), "%s", a.DataType())
				}
				for i := range n {
					text, null, err := formatValue(a, i)
					require.NoError(t, err)
					want, wnull, _ := formatValue(one, 0)
					require.Equal(t, wnull, null)
					require.Equal(t, want, text)
				}
			}
		})
	}
}

func TestDatePartitionFilter(t *testing.T) {
	r := mkRec(t, col{"x:int64", "[1]"})
	fsys := fstest.MapFS{}
	for _, day := range []string{"2024-02-28", "2024-02-29", "2024-03-01", "2024-03-02"} {
		fsys["t/day="+day+"/a.parquet"] = pqFile(t, r)
	}
	d, err := Open(fsys, "t", WithPartitioning(Partitioning{Style: Hive}))
	require.NoError(t, err)
	got, st := scanAll(t, d, WithColumns("day"), WithFilter(where(t, "day BETWEEN '2024-02-29' AND '2024-03-01'")))
	require.Equal(t, "[2024-02-29 2024-03-01]", got["day"])
	require.Equal(t, 2, st.FilesPruned)
	_, err = d.Scan(context.Background(), WithFilter(where(t, "day = 'not a date'")))
	require.ErrorIs(t, err, ErrInvalid) // the literal is read as a date when the filter is bound
}

// TestNullPartitionFilter: a file whose partition value is null cannot
// pass "year = 2024 AND …" (null AND anything is never true) and is not
// opened, while IS NULL keeps only it.
func TestNullPartitionFilter(t *testing.T) {
	r := mkRec(t, col{"x:int64", "[1, 2]"})
	fsys := fstest.MapFS{
		"t/year=2024/a.parquet":             pqFile(t, r),
		"t/year=" + HiveNull + "/a.parquet": pqFile(t, r),
	}
	d, err := Open(fsys, "t", WithPartitioning(Partitioning{Style: Hive}))
	require.NoError(t, err)
	for _, tc := range []struct {
		filter string
		rows   string
		pruned int
	}{
		{"year = 2024 AND x > 1", "[2]", 1},
		{"year IS NULL AND x > 1", "[2]", 1},
		{"year = 2024 OR x > 1", "[1 2 2]", 0},
		{"NOT (year <> 2024)", "[1 2]", 1},
	} {
		got, st := scanAll(t, d, WithColumns("x"), WithFilter(where(t, tc.filter)))
		require.Equal(t, tc.rows, got["x"], tc.filter)
		require.Equal(t, tc.pruned, st.FilesPruned, tc.filter)
		require.Equal(t, 2-tc.pruned, st.FilesRead, tc.filter)
	}
}

// TestFilterAcrossSchemas: the rows a Parquet reader keeps by the filter
// (parquet.WithRowFilter) are those of the unified schema — a column
// widened (int32 in one file), missing (read as nulls), a partition
// value inside the expression — whether or not the filter's column is
// also an output one.
func TestFilterAcrossSchemas(t *testing.T) {
	fsys := fstest.MapFS{
		"t/year=2023/a.parquet": pqFile(t, mkRec(t, col{"x:int32", "[1, 2, 3]"}, col{"s:utf8", `["a", "b", null]`})),
		"t/year=2024/b.parquet": pqFile(t, mkRec(t, col{"x:int64", "[4, 5]"})),
	}
	d, err := Open(fsys, "t", WithPartitioning(Partitioning{Style: Hive}))
	require.NoError(t, err)
	for _, tc := range []struct {
		filter string
		cols   []string
		want   map[string]string
	}{
		{"x >= 2 AND x + year > 2025", []string{"x"}, map[string]string{"x": "[3 4 5]"}},
		{"s IS NULL", []string{"x"}, map[string]string{"x": "[3 4 5]"}},
		{"s = 'b' OR x = 5", []string{"x", "s"}, map[string]string{"x": "[2 5]", "s": `["b" (null)]`}},
		{"x * 2 = 4", []string{"s"}, map[string]string{"s": `["b"]`}},
	} {
		got, st := scanAll(t, d, WithColumns(tc.cols...), WithFilter(where(t, tc.filter)))
		require.Equal(t, tc.want, got, tc.filter)
		require.Equal(t, int64(5), st.RowsRead, tc.filter)
	}
}
