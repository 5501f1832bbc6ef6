package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet"
)

// salesSchema is the file schema of the generated datasets.
var salesSchema = alkaid.NewSchema([]datatype.Field{
	{Name: "city", Type: datatype.String, Nullable: true},
	{Name: "amount", Type: datatype.Float64, Nullable: true},
}, datatype.Metadata{})

// writeSalesFile writes a Parquet file of the cities and amounts (JSON
// arrays) at path, making its directories.
func writeSalesFile(t *testing.T, path, cities, amounts string) {
	t.Helper()
	rec, err := alkaid.NewRecord(salesSchema, []array.Array{
		arrayjson.MustParse(datatype.String, cities),
		arrayjson.MustParse(datatype.Float64, amounts),
	}, -1)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o777))
	f, err := os.Create(path)
	require.NoError(t, err)
	w, err := parquet.NewWriter(f, salesSchema)
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
}

// writeSales makes a Hive-partitioned dataset of 6 rows in 3 Parquet
// files and a CSV file, plus files readers leave out; it returns its
// directory.
func writeSales(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "sales")
	writeSalesFile(t, filepath.Join(dir, "year=2023", "part-0.parquet"), `["Oslo", "Lima"]`, `[1, 2]`)
	writeSalesFile(t, filepath.Join(dir, "year=2024", "part-0.parquet"), `["Oslo"]`, `[3]`)
	writeSalesFile(t, filepath.Join(dir, "year=2024", "part-1.parquet"), `["Lima", null]`, `[4, 5]`)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "year=2025"), 0o777))
	writeFile(t, filepath.Join(dir, "year=2025"), "part-0.csv", "city,amount\nQuito,6\n")
	writeFile(t, dir, "_SUCCESS", "")
	writeFile(t, filepath.Join(dir, "year=2024"), ".part-1.parquet.crc", "junk")
	return dir
}

func TestDatasetReadCommands(t *testing.T) {
	dir := writeSales(t)
	out := t.TempDir()
	cases := []struct {
		name string
		args []string
		want []string // substrings of stdout
	}{
		{"cat a directory", []string{"cat", dir}, []string{"record batch 3: 1 rows", "Quito", "2025", "(null)"}},
		{"cat a glob", []string{"cat", filepath.Join(dir, "year=2024", "*.parquet")}, []string{"record batch 1: 2 rows", "Lima"}},
		{"cat a recursive glob", []string{"cat", "-columns", "amount,year", filepath.Join(dir, "**", "*.parquet")}, []string{"record batch 2", "amount  year"}},
		{"schema", []string{"schema", dir}, []string{"3 fields", "city: utf8", "amount: float64", "year: int64"}},
		{"info", []string{"info", dir}, []string{"dataset of 4 files", "fields:         3", "partitions:     year (int64)", "rows:           6"}},
		{"validate", []string{"validate", dir}, []string{"valid Parquet file: 1 row groups, 2 rows", "part-0.csv: valid text file: 1 rows", "valid dataset: 4 files"}},
		{"export", []string{"export", "-q", dir, filepath.Join(out, "all.csv")}, nil},
		{"convert to one file", []string{"convert", "-q", dir, filepath.Join(out, "all.arrow")}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := mustCLI(t, c.args...)
			for _, w := range c.want {
				require.Contains(t, got, w)
			}
		})
	}
	csv, err := os.ReadFile(filepath.Join(out, "all.csv"))
	require.NoError(t, err)
	require.Equal(t, "city,amount,year\nOslo,1,2023\nLima,2,2023\nOslo,3,2024\nLima,4,2024\n,5,2024\nQuito,6,2025\n", string(csv))
	s, recs := readAll(t, filepath.Join(out, "all.arrow"))
	require.Equal(t, "year", s.Field(2).Name)
	rows := 0
	for _, r := range recs {
		rows += r.NumRows()
	}
	require.Equal(t, 6, rows)
}

func TestDatasetInputErrors(t *testing.T) {
	dir := writeSales(t)
	bad := filepath.Join(dir, "year=2024", "part-1.parquet")
	require.NoError(t, os.WriteFile(bad, []byte("PAR1 not really"), 0o644))
	cases := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"cat names the bad file", []string{"cat", dir}, bad},
		{"schema names the bad file", []string{"schema", dir}, bad},
		{"a glob matching nothing", []string{"cat", filepath.Join(dir, "*.nothing")}, "no Parquet, IPC, CSV or NDJSON file there"},
		{"a directory of no data file", []string{"info", t.TempDir()}, "no Parquet, IPC, CSV or NDJSON file there"},
		{"a bad glob", []string{"cat", filepath.Join(dir, "[")}, "glob"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errs := cli(t, nil, c.args...)
			require.Equal(t, exitInvalid, code)
			require.Contains(t, errs, c.want)
			require.Equal(t, 1, strings.Count(errs, "\n"), errs)
		})
	}
}

func TestDatasetValidateNamesBadFiles(t *testing.T) {
	dir := writeSales(t)
	bad := filepath.Join(dir, "year=2024", "part-1.parquet")
	require.NoError(t, os.WriteFile(bad, []byte("PAR1 not really"), 0o644))
	badCSV := filepath.Join(dir, "year=2025", "part-0.csv")
	require.NoError(t, os.WriteFile(badCSV, []byte("city,amount\nQuito,6,7\n"), 0o644))
	code, out, errs := cli(t, nil, "validate", dir)
	require.Equal(t, exitInvalid, code)
	require.Contains(t, out, filepath.Join(dir, "year=2023", "part-0.parquet")+": valid Parquet file")
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	require.Len(t, lines, 3, errs)
	require.Contains(t, lines[0], bad+": invalid")
	require.Contains(t, lines[1], badCSV+": invalid")
	require.Contains(t, lines[2], "2 of 4 files are invalid, the first "+bad)

	// Files that are each valid but whose schemas conflict.
	dir = writeSales(t)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "year=2026"), 0o777))
	writeFile(t, filepath.Join(dir, "year=2026"), "part-0.csv", "city,amount\n1,x\n")
	code, _, errs = cli(t, nil, "validate", "-q", dir)
	require.Equal(t, exitInvalid, code)
	require.Contains(t, errs, "invalid dataset")
	require.Contains(t, errs, `column "city" is utf8`)
}

// countRows is the number of rows at path, read as the CLI reads it.
func countRows(t *testing.T, path string) int {
	t.Helper()
	_, recs := readAll(t, path)
	n := 0
	for _, r := range recs {
		n += r.NumRows()
	}
	return n
}

// listFiles lists the files under dir, relative to it, slash-separated.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	}))
	return out
}

func TestDatasetConvertWrites(t *testing.T) {
	src := writeSales(t)
	all := filepath.Join(t.TempDir(), "all.parquet")
	mustCLI(t, "convert", "-q", src, all)
	cases := []struct {
		name  string
		args  []string
		files []string
	}{
		{"hive", []string{"-partition-by", "year"}, []string{"year=2023/part-0.parquet", "year=2024/part-0.parquet", "year=2025/part-0.parquet"}},
		{"two levels", []string{"-partition-by", "year,city"}, []string{
			"year=2023/city=Lima/part-0.parquet", "year=2023/city=Oslo/part-0.parquet",
			"year=2024/city=Lima/part-0.parquet", "year=2024/city=Oslo/part-0.parquet",
			"year=2024/city=__HIVE_DEFAULT_PARTITION__/part-0.parquet", "year=2025/city=Quito/part-0.parquet"}},
		{"directory layout, IPC files", []string{"-partition-by", "year", "-layout", "directory", "-to", "file"}, []string{"2023/part-0.arrow", "2024/part-0.arrow", "2025/part-0.arrow"}},
		{"max rows per file", []string{"-max-rows-per-file", "4", "-row-group-rows", "2"}, []string{"part-0.parquet", "part-1.parquet"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out") + string(filepath.Separator)
			mustCLI(t, append(append([]string{"convert", "-q"}, c.args...), all, out)...)
			require.Equal(t, c.files, listFiles(t, out))
			require.Equal(t, 6, countRows(t, out))
			// Hive partition columns read back under their names.
			if c.args[0] == "-partition-by" && !strings.Contains(strings.Join(c.args, " "), "directory") {
				s, _ := readAll(t, out)
				require.GreaterOrEqual(t, s.FieldIndex("year"), 0)
			}
		})
	}

	// A dataset to a partitioned dataset: values kept.
	out := filepath.Join(t.TempDir(), "again")
	mustCLI(t, "convert", "-q", "-partition-by", "year", src, out)
	back := filepath.Join(t.TempDir(), "back.parquet")
	mustCLI(t, "convert", "-q", out, back)
	require.Equal(t, mustCLI(t, "export", "-q", "-format", "csv", all, "-"), mustCLI(t, "export", "-q", "-format", "csv", back, "-"))

	// Existing data: an error by default, replaced with -existing.
	code, _, errs := cli(t, nil, "convert", "-q", "-partition-by", "year", src, out)
	require.Equal(t, exitInvalid, code)
	require.Contains(t, errs, out+": dataset: existing data")
	mustCLI(t, "convert", "-q", "-partition-by", "year", "-existing", "delete-matching", src, out)
	require.Equal(t, 6, countRows(t, out))

	// A stream on stdin to a dataset.
	stream := filepath.Join(t.TempDir(), "all.arrows")
	mustCLI(t, "convert", "-q", all, stream)
	data, err := os.ReadFile(stream)
	require.NoError(t, err)
	fromStdin := filepath.Join(t.TempDir(), "stdin")
	code, _, errs = cli(t, data, "convert", "-q", "-partition-by", "city", "-", fromStdin)
	require.Equal(t, 0, code, errs)
	require.Equal(t, []string{"city=Lima/part-0.parquet", "city=Oslo/part-0.parquet", "city=Quito/part-0.parquet", "city=__HIVE_DEFAULT_PARTITION__/part-0.parquet"}, listFiles(t, fromStdin))
	require.Equal(t, 6, countRows(t, fromStdin))
}

func TestDatasetConvertUsage(t *testing.T) {
	src := writeSales(t)
	tmp := t.TempDir()
	file := filepath.Join(tmp, "all.parquet")
	mustCLI(t, "convert", "-q", src, file)
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"bad layout", []string{"-partition-by", "year", "-layout", "flat", file, filepath.Join(tmp, "a")}, exitUsage, "-layout"},
		{"layout without a dataset", []string{"-layout", "directory", file, filepath.Join(tmp, "b.arrow")}, exitUsage, "apply to a dataset OUT"},
		{"batch rows", []string{"-partition-by", "year", "-batch-rows", "2", file, filepath.Join(tmp, "c")}, exitUsage, "-batch-rows"},
		{"bad existing", []string{"-partition-by", "year", "-existing", "keep", file, filepath.Join(tmp, "d")}, exitUsage, "-existing"},
		{"negative max rows", []string{"-partition-by", "year", "-max-rows-per-file", "-1", file, filepath.Join(tmp, "e")}, exitUsage, "must not be negative"},
		{"output inside the input", []string{"-partition-by", "year", src, filepath.Join(src, "out")}, exitUsage, "overlaps"},
		{"input inside the output", []string{"-partition-by", "year", src, filepath.Dir(src)}, exitUsage, "overlaps"},
		{"no such column", []string{"-partition-by", "month", file, filepath.Join(tmp, "f")}, exitInvalid, `"month"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errs := cli(t, nil, append([]string{"convert", "-q"}, c.args...)...)
			require.Equal(t, c.code, code, errs)
			require.Contains(t, errs, c.want)
		})
	}
	// Nothing was written by the failures.
	require.Equal(t, []string{"all.parquet"}, listFiles(t, tmp))
}
