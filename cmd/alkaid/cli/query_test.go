package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestQueryGolden checks -where and -select of cat against golden
// outputs, over every kind of IPC input.
func TestQueryGolden(t *testing.T) {
	where := []string{"-where", "int32 > 0 AND utf8 IS NOT NULL", "-select", "int32, int32 // 7 AS seventh, upper(utf8) AS u, float64 IS NULL AS nf"}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"query_cat_small.golden", append(append([]string{"cat"}, where...), smallFile)},
		{"query_cat_small.golden", append(append([]string{"cat"}, where...), smallStream)},
		{"query_cat_small.golden", append(append([]string{"cat"}, where...), smallArrow)},
		{"query_cat_batch1.golden", []string{"cat", "-batch", "1", "-where", "NOT bool", "-columns", "bool,utf8", smallFile}},
	} {
		t.Run(c.name+" "+c.args[len(c.args)-1], func(t *testing.T) {
			dataGolden(t, c.name, mustCLI(t, c.args...))
		})
	}
}

// TestQueryCommands runs -where and -select through export and convert,
// over Parquet files, CSV files and datasets.
func TestQueryCommands(t *testing.T) {
	dir := writeSales(t)
	out := t.TempDir()
	pq := filepath.Join(dir, "year=2024", "part-1.parquet")
	for _, c := range []struct {
		name string
		args []string // OUT is the last argument; convert's OUT is then exported
		want string   // the CSV of OUT
	}{
		{"export a dataset", []string{"export", "-q", "-where", "year = 2024 AND amount > 3", "-select", "upper(city) AS c, amount * 2 AS a2, year", dir, "ds.csv"},
			"c,a2,year\nLIMA,8,2024\n,10,2024\n"},
		{"export a Parquet file", []string{"export", "-q", "-where", "city IS NULL OR city LIKE 'L%'", pq, "pq.csv"},
			"city,amount\nLima,4\n,5\n"},
		{"export a CSV file", []string{"export", "-q", "-select", "lower(city) AS city, amount BETWEEN 5 AND 7 AS big", filepath.Join(dir, "year=2025", "*.csv"), "csv.csv"},
			"city,big\nquito,true\n"},
		{"export to JSON", []string{"export", "-q", "-where", "amount IN (1, 6)", "-select", "city", dir, "ds.ndjson"},
			"{\"city\":\"Oslo\"}\n{\"city\":\"Quito\"}\n"},
		{"convert a dataset to a file", []string{"convert", "-q", "-where", "city = 'Oslo'", dir, "oslo.arrow"},
			"city,amount,year\nOslo,1,2023\nOslo,3,2024\n"},
		{"convert a file to Parquet", []string{"convert", "-q", "-select", "utf8 AS s, length(utf8) AS n", "-where", "int32 < 0", smallFile, "neg.parquet"},
			""},
		{"convert to a dataset", []string{"convert", "-q", "-where", "amount >= 2", "-select", "amount, year", "-partition-by", "year", dir, "part"},
			""},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string(nil), c.args...)
			dst := filepath.Join(out, args[len(args)-1])
			args[len(args)-1] = dst
			mustCLI(t, args...)
			if args[0] == "convert" {
				csvOut := dst + ".csv"
				mustCLI(t, "export", "-q", dst, csvOut)
				dst = csvOut
			}
			got, err := os.ReadFile(dst)
			require.NoError(t, err)
			if c.want != "" {
				require.Equal(t, c.want, string(got))
			} else {
				require.NotEmpty(t, got)
			}
		})
	}
	// The files converted without a fixed expectation, checked by value.
	got, err := os.ReadFile(filepath.Join(out, "part.csv"))
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"amount,year", "2,2023", "3,2024", "4,2024", "5,2024", "6,2025"}, strings.Split(strings.TrimSpace(string(got)), "\n"))
	neg, err := os.ReadFile(filepath.Join(out, "neg.parquet.csv"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(neg)), "\n")
	require.Equal(t, "s,n", lines[0])
	require.Greater(t, len(lines), 1)
}

// TestQueryDatasetPrunes: a dataset input filters in its scan, so files
// whose partition values rule them out are not read (no empty batch for
// them, unlike a filter after the scan).
func TestQueryDatasetPrunes(t *testing.T) {
	dir := writeSales(t)
	got := mustCLI(t, "cat", "-where", "year = 2024 AND amount > 3 OR city = 'Quito'", dir)
	require.Equal(t, `record batch 0: 2 rows
city    amount  year
------  ------  ----
"Lima"       4  2024
(null)       5  2024
record batch 1: 1 rows
city     amount  year
-------  ------  ----
"Quito"       6  2025
`, got)
}

// TestQueryErrors checks that a bad expression exits 2 with a message
// naming what is wrong and, for a syntax error, a caret under it.
func TestQueryErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string // stderr
	}{
		{"syntax error", []string{"cat", "-where", "int32 >> 0", smallFile},
			"alkaid cat: -where: expr: syntax error at byte 7: unexpected \">\"\n  int32 >> 0\n         ^\n"},
		{"syntax error after multi-byte text", []string{"export", "-select", "'é' AS e, (int32", smallFile, "-"},
			"alkaid export: -select: expr: syntax error at byte 17: expected \")\", found end of text\n  'é' AS e, (int32\n                  ^\n"},
		{"unknown column", []string{"convert", "-where", "amount > 1", smallFile, "x.arrow"},
			"alkaid convert: -where: expr: amount at byte 0: no field \"amount\" in the schema: invalid\n"},
		{"unknown column in select", []string{"cat", "-select", "int32, nope", smallFile},
			"alkaid cat: -select: expr: nope at byte 7: no field \"nope\" in the schema: invalid\n"},
		{"not boolean", []string{"cat", "-where", "int32 + 1", smallFile},
			"alkaid cat: -where: expr: (int32 + 1) at byte 6: a filter must be boolean, not int32: invalid\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, errs := cli(t, nil, c.args...)
			require.Equal(t, exitUsage, code)
			require.Equal(t, c.want, errs)
		})
	}
}
