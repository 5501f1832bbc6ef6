package cli

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/dataset"
)

// memScheme serves "mem://NAME/..." from the directories under root,
// as a file system other than the local one would.
func memScheme(root string) Option {
	return WithFS("mem", func(url string) (fs.FS, error) {
		return dataset.DirFS(filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(url, "mem://")))), nil
	})
}

// runMain runs Main with the options and returns the exit code, stdout
// and stderr.
func runMain(t *testing.T, opts []Option, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, append(opts, WithStdio(bytes.NewReader(nil), &out, &errb))...)
	return code, out.String(), errb.String()
}

func TestMainReadsRegisteredScheme(t *testing.T) {
	root := t.TempDir()
	sales := writeSales(t)
	require.NoError(t, copyDir(sales, filepath.Join(root, "bucket", "sales")))
	opts := []Option{memScheme(root)}
	local := func(args ...string) string { return mustCLI(t, args...) }

	for _, c := range []struct {
		args []string // with URL for the dataset
		want string   // the same command on the local directory
	}{
		{[]string{"cat", "mem://bucket/sales"}, local("cat", sales)},
		{[]string{"cat", "mem://bucket/sales/"}, local("cat", sales)},
		{[]string{"cat", "-where", "amount > 2", "mem://bucket/sales"}, local("cat", "-where", "amount > 2", sales)},
		{[]string{"cat", "mem://bucket/sales/year=2024/part-1.parquet"}, local("cat", filepath.Join(sales, "year=2024", "part-1.parquet"))},
		{[]string{"cat", "mem://bucket/sales/*/*.parquet"}, local("cat", filepath.Join(sales, "*", "*.parquet"))},
		{[]string{"schema", "mem://bucket/sales"}, local("schema", sales)},
		{[]string{"schema", "mem://bucket"}, local("schema", filepath.Join(root, "bucket"))},
		{[]string{"schema", "mem://bucket/sales/year=2023/part-0.parquet"}, local("schema", filepath.Join(sales, "year=2023", "part-0.parquet"))},
		{[]string{"export", "-q", "-format", "csv", "mem://bucket/sales", "-"}, local("export", "-q", "-format", "csv", sales, "-")},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, errs := runMain(t, opts, c.args...)
			require.Equal(t, exitOK, code, errs)
			require.Equal(t, c.want, out)
		})
	}
	// info and validate print the location as given, else what they
	// print on disk.
	for _, c := range []struct{ url, path string }{
		{"mem://bucket/sales", sales},
		{"mem://bucket/sales/year=2024/part-1.parquet", filepath.Join(sales, "year=2024", "part-1.parquet")},
	} {
		for _, cmd := range []string{"info", "validate"} {
			code, out, errs := runMain(t, opts, cmd, c.url)
			require.Equal(t, exitOK, code, errs)
			require.Equal(t, strings.ReplaceAll(local(cmd, c.path), c.path, c.url), out)
		}
	}

	// convert writes a partitioned dataset to a URL, read back the same.
	code, _, errs := runMain(t, opts, "convert", "-q", "-partition-by", "year", "mem://bucket/sales", "mem://bucket/copy")
	require.Equal(t, exitOK, code, errs)
	require.FileExists(t, filepath.Join(root, "bucket", "copy", "year=2024", "part-0.parquet"))
	localCopy := filepath.Join(t.TempDir(), "copy")
	local("convert", "-q", "-partition-by", "year", sales, localCopy)
	code, out, errs := runMain(t, opts, "cat", "mem://bucket/copy")
	require.Equal(t, exitOK, code, errs)
	require.Equal(t, local("cat", localCopy), out)
	require.Contains(t, out, "Quito")
}

func TestMainSchemeErrors(t *testing.T) {
	root := t.TempDir()
	sales := writeSales(t)
	require.NoError(t, copyDir(sales, filepath.Join(root, "bucket", "sales")))
	opts := []Option{memScheme(root)}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"cat", "mem://bucket/nothing.parquet"}, exitInvalid, "alkaid cat: mem://bucket/nothing.parquet: "},
		{[]string{"convert", "-partition-by", "year", "mem://bucket/sales", "mem://bucket/sales/out"}, exitUsage, "output mem://bucket/sales/out overlaps input mem://bucket/sales"},
		{[]string{"convert", "-partition-by", "year", "mem://bucket/sales/*/*.parquet", "mem://bucket/"}, exitUsage, "overlaps input"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, _, errs := runMain(t, opts, c.args...)
			require.Equal(t, c.code, code, errs)
			require.Contains(t, errs, c.want)
		})
	}
	// validate names a bad file of a dataset by its URL.
	require.NoError(t, copyDir(sales, filepath.Join(root, "bucket", "bad")))
	writeFile(t, filepath.Join(root, "bucket", "bad", "year=2024"), "part-9.parquet", "PAR1 not really")
	code, _, errs := runMain(t, opts, "validate", "mem://bucket/bad")
	require.Equal(t, exitInvalid, code)
	require.Contains(t, errs, "alkaid validate: mem://bucket/bad/year=2024/part-9.parquet: ")
	require.Contains(t, errs, "mem://bucket/bad: invalid dataset: mem://bucket/bad/year=2024/part-9.parquet is invalid")
	// A file system that does not open is named by the URL.
	bad := WithFS("bad", func(string) (fs.FS, error) { return nil, errors.New("no such bucket") })
	code, _, errs = runMain(t, []Option{bad}, "cat", "bad://b/x.parquet")
	require.Equal(t, exitInvalid, code)
	require.Equal(t, "alkaid cat: bad://b/x.parquet: no such bucket\n", errs)
	// Without the option the scheme is an ordinary (missing) path.
	code, _, errs = runMain(t, nil, "cat", "mem://bucket/sales")
	require.Equal(t, exitInvalid, code)
	require.NotContains(t, errs, "not supported")
}

func TestHelpNamesSchemes(t *testing.T) {
	code, out, _ := runMain(t, []Option{memScheme(t.TempDir())}, "help")
	require.Equal(t, exitOK, code)
	require.Contains(t, out, "also takes mem:// locations")
	_, out, _ = runMain(t, nil, "help")
	require.NotContains(t, out, "://")
}

// copyDir copies the tree at src to dst.
func copyDir(src, dst string) error { return os.CopyFS(dst, os.DirFS(src)) }

// countingFS counts the file systems opened and closed.
type countingFS struct {
	dataset.WriteFS
	closed *int
}

func (c countingFS) Close() error { *c.closed++; return nil }

// TestMainOpensEachURLOnce: a URL argument is opened once per run
// (asking whether it is a prefix, then reading it), and the file
// systems opened are closed when Main returns.
func TestMainOpensEachURLOnce(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, copyDir(writeSales(t), filepath.Join(root, "bucket", "sales")))
	for _, c := range []struct {
		args  []string
		opens int
	}{
		{[]string{"cat", "mem://bucket/sales/year=2024/part-1.parquet"}, 1},
		{[]string{"schema", "mem://bucket/sales"}, 1},
		{[]string{"convert", "-q", "-partition-by", "year", "mem://bucket/sales", "mem://bucket/copy"}, 2},
	} {
		opened, closed := 0, 0
		scheme := WithFS("mem", func(url string) (fs.FS, error) {
			opened++
			dir := filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(url, "mem://")))
			return countingFS{dataset.DirFS(dir), &closed}, nil
		})
		code, _, errs := runMain(t, []Option{scheme}, c.args...)
		require.Equal(t, exitOK, code, errs)
		require.Equal(t, c.opens, opened, "%v", c.args)
		require.Equal(t, opened, closed, "%v", c.args)
	}
}
