package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMainWritesRegisteredScheme: join, import and gen read and write
// URLs, and cat, export and convert write one file to a URL, each
// writing what the same command writes on disk.
func TestMainWritesRegisteredScheme(t *testing.T) {
	root := t.TempDir()
	bucket := filepath.Join(root, "bucket")
	sales := writeSales(t)
	require.NoError(t, copyDir(sales, filepath.Join(bucket, "sales")))
	local := filepath.Dir(sales) // holds sales; the local outputs go beside it
	writeFile(t, local, "cities.csv", "city,country\nOslo,NO\nLima,PE\n")
	writeFile(t, bucket, "cities.csv", "city,country\nOslo,NO\nLima,PE\n")
	opts := []Option{memScheme(root)}
	for _, c := range []struct {
		remote, local []string
		out           string // the output's name, in bucket and in local
	}{
		{[]string{"gen", "-q", "-rows", "50", "-columns", "int32,utf8,float64", "-o", "mem://bucket/gen.parquet"}, []string{"gen", "-q", "-rows", "50", "-columns", "int32,utf8,float64", "-o", "gen.parquet"}, "gen.parquet"},
		{[]string{"gen", "-q", "-rows", "50", "-o=mem://bucket/gen.arrows"}, []string{"gen", "-q", "-rows", "50", "-o=gen.arrows"}, "gen.arrows"},
		{[]string{"import", "-q", "mem://bucket/cities.csv", "mem://bucket/cities.arrow"}, []string{"import", "-q", "cities.csv", "cities.arrow"}, "cities.arrow"},
		{[]string{"import", "-q", "-schema", "mem://bucket/cities.arrow", "mem://bucket/cities.csv", "mem://bucket/again.parquet"}, []string{"import", "-q", "-schema", "cities.arrow", "cities.csv", "again.parquet"}, "again.parquet"},
		{[]string{"join", "-on", "city", "mem://bucket/sales", "mem://bucket/cities.csv", "mem://bucket/joined.csv"}, []string{"join", "-on", "city", "sales", "cities.csv", "joined.csv"}, "joined.csv"},
		{[]string{"join", "-on", "city", "mem://bucket/sales/year=2024/part-1.parquet", "mem://bucket/cities.arrow", "mem://bucket/joined.arrow"}, []string{"join", "-on", "city", "sales/year=2024/part-1.parquet", "cities.arrow", "joined.arrow"}, "joined.arrow"},
		{[]string{"convert", "-q", "mem://bucket/sales", "mem://bucket/one.parquet"}, []string{"convert", "-q", "sales", "one.parquet"}, "one.parquet"},
		{[]string{"export", "-q", "-format", "ndjson", "mem://bucket/sales", "mem://bucket/sales.ndjson"}, []string{"export", "-q", "-format", "ndjson", "sales", "sales.ndjson"}, "sales.ndjson"},
	} {
		t.Run(strings.Join(c.remote, " "), func(t *testing.T) {
			code, _, errs := runMain(t, opts, c.remote...)
			require.Equal(t, exitOK, code, errs)
			for i, a := range c.local {
				if p := strings.TrimPrefix(a, "-o="); a != "-q" && (fileExists(filepath.Join(local, p)) || p == c.out) {
					c.local[i] = strings.Replace(a, p, filepath.Join(local, p), 1)
				}
			}
			mustCLI(t, c.local...)
			got, err := os.ReadFile(filepath.Join(bucket, c.out))
			require.NoError(t, err)
			want, err := os.ReadFile(filepath.Join(local, c.out))
			require.NoError(t, err)
			require.Equal(t, want, got)
			require.NotEmpty(t, got)
			leftovers, err := filepath.Glob(filepath.Join(bucket, ".*"))
			require.NoError(t, err)
			require.Empty(t, leftovers, "temporary files left")
		})
	}
}

// A command failing part way leaves nothing at the URL, and a file
// already there is left as it was.
func TestMainRemoteWriteFails(t *testing.T) {
	root := t.TempDir()
	bucket := filepath.Join(root, "bucket")
	require.NoError(t, os.MkdirAll(bucket, 0o777))
	writeFile(t, bucket, "bad.csv", "a\n1\n2\nx\n")
	writeFile(t, bucket, "kept.arrows", "old")
	opts := []Option{memScheme(root)}
	for _, out := range []string{"new.arrows", "kept.arrows"} {
		code, _, errs := runMain(t, opts, "import", "-q", "-schema", "mem://bucket/a.txt", "mem://bucket/bad.csv", "mem://bucket/"+out)
		require.Equal(t, exitInvalid, code, errs)
		writeFile(t, bucket, "a.txt", "a: int64\n")
		code, _, errs = runMain(t, opts, "import", "-q", "-batch-rows", "1", "-schema", "mem://bucket/a.txt", "mem://bucket/bad.csv", "mem://bucket/"+out)
		require.Equal(t, exitInvalid, code, errs)
		require.Contains(t, errs, "bad.csv")
		os.Remove(filepath.Join(bucket, "a.txt"))
	}
	names, err := os.ReadDir(bucket)
	require.NoError(t, err)
	var got []string
	for _, e := range names {
		got = append(got, e.Name())
	}
	require.Equal(t, []string{"bad.csv", "kept.arrows"}, got)
	old, err := os.ReadFile(filepath.Join(bucket, "kept.arrows"))
	require.NoError(t, err)
	require.Equal(t, "old", string(old))

	// An output overlapping an input is refused before anything is read.
	require.NoError(t, copyDir(writeSales(t), filepath.Join(bucket, "sales")))
	code, _, errs := runMain(t, opts, "convert", "-q", "mem://bucket/sales", "mem://bucket/sales/all.parquet")
	require.Equal(t, exitUsage, code)
	require.Contains(t, errs, "output mem://bucket/sales/all.parquet overlaps input mem://bucket/sales")
	code, _, errs = runMain(t, opts, "gen", "-o", "mem://bucket/")
	require.Equal(t, exitUsage, code)
	require.Contains(t, errs, "not the URL of a file to write")
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
