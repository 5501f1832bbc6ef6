package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// pqColumns are gen columns Parquet holds and reads back as they were.
const pqColumns = "bool,int32,float64,decimal128,date32,timestamp_us_utc,utf8,binary,list,struct,map,dictionary,list_of_dictionary,run_end_encoded"

// writeParquet builds an IPC file with gen and converts it to Parquet
// (zstd, 20 rows per row group: 3 row groups of 50 rows); it returns
// both paths.
func writeParquet(t *testing.T, dir string) (ipcPath, pqPath string) {
	t.Helper()
	ipcPath = filepath.Join(dir, "src.ipc")
	pqPath = filepath.Join(dir, "src.parquet")
	mustCLI(t, "gen", "-rows", "50", "-batches", "2", "-seed", "5", "-columns", pqColumns, "-to", "file", "-o", ipcPath)
	mustCLI(t, "convert", "-q", "-codec", "zstd", "-row-group-rows", "20", ipcPath, pqPath)
	return ipcPath, pqPath
}

func TestParquetConvertRoundTrip(t *testing.T) {
	dir := t.TempDir()
	src, pq := writeParquet(t, dir)
	head, err := os.ReadFile(pq)
	require.NoError(t, err)
	require.Equal(t, "PAR1", string(head[:4]))
	requireSameData(t, src, pq) // the input opener reads Parquet
	cases := []struct {
		name string
		args []string
		out  string
	}{
		{"to an IPC file", nil, "back.ipc"},
		{"to an IPC stream", nil, "back.ipcs"},
		{"to a file by default", nil, "back"},
		{"Parquet to Parquet", []string{"-codec", "gzip"}, "again.parquet"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, c.out)
			mustCLI(t, append(append([]string{"convert", "-q"}, c.args...), pq, out)...)
			requireSameData(t, src, out)
		})
	}
	// A Parquet input converted to an unnamed form is an IPC file.
	info := mustCLI(t, "info", filepath.Join(dir, "back"))
	require.Contains(t, info, "format:         file (magic ALKAID1)")
}

func TestParquetOutputFlags(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.ipc")
	mustCLI(t, "gen", "-rows", "30", "-seed", "2", "-columns", "int64,utf8,list", "-to", "file", "-o", src)
	for _, codec := range []string{"uncompressed", "snappy", "gzip", "zstd", "lz4_raw", "brotli"} {
		t.Run(codec, func(t *testing.T) {
			// -to parquet writes Parquet whatever OUT's name.
			out := filepath.Join(dir, codec+".data")
			mustCLI(t, "convert", "-q", "-to", "parquet", "-codec", codec, "-row-group-rows", "7", src, out)
			requireSameData(t, src, out)
			info := mustCLI(t, "info", out)
			require.Contains(t, info, "format:         Parquet (magic PAR1)")
			require.Contains(t, info, "row groups:     5\n")
			require.Contains(t, info, "rows:           30 (per row group 2 to 7)\n")
			require.Contains(t, info, "compression:    "+codec+" (15 of 15 column chunks)\n")
		})
	}
	usage := []struct {
		name string
		args []string
		msg  string
	}{
		{"unsupported codec", []string{"-codec", "lzo", src, filepath.Join(dir, "u1.parquet")}, `-codec "lzo"`},
		{"unknown codec with -to", []string{"-to", "parquet", "-codec", "deflate", src, filepath.Join(dir, "u2.x")}, `-codec "deflate"`},
		{"codec for IPC", []string{"-codec", "zstd", src, filepath.Join(dir, "u3.ipc")}, "apply to Parquet outputs"},
		{"row groups for IPC", []string{"-row-group-rows", "5", src, filepath.Join(dir, "u4.ipc")}, "apply to Parquet outputs"},
		{"negative row groups", []string{"-row-group-rows", "-1", src, filepath.Join(dir, "u5.parquet")}, "must not be negative"},
		{"IPC compression for Parquet", []string{"-compression", "lz4", src, filepath.Join(dir, "u6.parquet")}, "-codec"},
		{"IPC into .parquet", []string{"-to", "stream", src, filepath.Join(dir, "u7.parquet")}, "would write IPC"},
		{"bad -to", []string{"-to", "orc", src, filepath.Join(dir, "u8.x")}, "want stream, file or parquet"},
	}
	for _, c := range usage {
		t.Run(c.name, func(t *testing.T) {
			code, _, errs := cli(t, nil, append([]string{"convert", "-q"}, c.args...)...)
			require.Equal(t, exitUsage, code, errs)
			require.Contains(t, errs, c.msg)
			require.NoFileExists(t, c.args[len(c.args)-1])
		})
	}
}

func TestParquetReadCommands(t *testing.T) {
	dir := t.TempDir()
	src, pq := writeParquet(t, dir)

	schema := mustCLI(t, "schema", pq)
	require.True(t, strings.HasPrefix(schema, "14 fields\n"), schema)
	require.Contains(t, schema, "  timestamp_us_utc: timestamp[us, tz=UTC]\n")
	require.Contains(t, schema, "  dictionary: dictionary<values=utf8, indices=int32>\n")

	info := mustCLI(t, "info", pq)
	for _, want := range []string{
		"format:         Parquet (magic PAR1)\n", "created by:     alkaid-go", "fields:         14\n",
		"row groups:     3\n", "rows:           50 (per row group 10 to 20)\n", "compression:    zstd (",
	} {
		require.Contains(t, info, want)
	}

	valid := mustCLI(t, "validate", pq)
	require.True(t, strings.HasPrefix(valid, pq+": valid Parquet file: 3 row groups, 50 rows, "), valid)
	require.Empty(t, mustCLI(t, "validate", "-q", pq))

	cat := mustCLI(t, "cat", "-columns", "int32,utf8", pq)
	require.Contains(t, cat, "record batch 0: 20 rows\n")
	require.Contains(t, cat, "record batch 2: 10 rows\n")
	// The same rows as the source's (whose batches are 25 rows).
	body := func(s string) string { return s[strings.Index(s, "\n"):] }
	require.Equal(t, body(mustCLI(t, "cat", "-columns", "int32", "-n", "5", src)), body(mustCLI(t, "cat", "-columns", "int32", "-n", "5", pq)))
	require.Contains(t, mustCLI(t, "cat", "-batch", "1", pq), "record batch 1: 20 rows\n")

	// export: CSV and NDJSON of a Parquet input equal those of its source.
	plain := filepath.Join(dir, "plain.ipc")
	plainPQ := filepath.Join(dir, "plain.parquet")
	mustCLI(t, "gen", "-rows", "40", "-seed", "9", "-columns", "bool,int32,float64,utf8,date32,timestamp_us_utc,decimal128", "-to", "file", "-o", plain)
	mustCLI(t, "convert", "-q", "-row-group-rows", "16", plain, plainPQ)
	for _, ext := range []string{"csv", "ndjson"} {
		a, b := filepath.Join(dir, "a."+ext), filepath.Join(dir, "b."+ext)
		mustCLI(t, "export", "-q", plain, a)
		mustCLI(t, "export", "-q", plainPQ, b)
		wa, err := os.ReadFile(a)
		require.NoError(t, err)
		wb, err := os.ReadFile(b)
		require.NoError(t, err)
		require.NotEmpty(t, wa)
		require.Equal(t, string(wa), string(wb), ext)
	}
}

func TestParquetImport(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "d.csv", "id,name\n1,ann\n2,bob\n3,\n")
	ipcOut, pqOut := filepath.Join(dir, "d.ipc"), filepath.Join(dir, "d.parquet")
	mustCLI(t, "import", "-q", in, ipcOut)
	mustCLI(t, "import", "-q", "-codec", "gzip", "-row-group-rows", "2", in, pqOut)
	requireSameData(t, ipcOut, pqOut)
	info := mustCLI(t, "info", pqOut)
	require.Contains(t, info, "row groups:     2\n")
	require.Contains(t, info, "compression:    gzip (")
	// -to parquet with another name.
	other := filepath.Join(dir, "d.out")
	mustCLI(t, "import", "-q", "-to", "parquet", in, other)
	requireSameData(t, ipcOut, other)
	// The schema of a Parquet file as -schema: ids as strings, not the
	// inferred int64.
	strs := filepath.Join(dir, "strs.parquet")
	mustCLI(t, "import", "-q", writeFile(t, dir, "s.csv", "id,name\nx,y\n"), strs)
	typed := filepath.Join(dir, "typed.parquet")
	mustCLI(t, "import", "-q", "-schema", strs, in, typed)
	require.Contains(t, mustCLI(t, "schema", ipcOut), "  id: int64\n")
	require.Contains(t, mustCLI(t, "schema", typed), "  id: utf8\n")
	require.Contains(t, mustCLI(t, "export", typed, "-"), "\n3,\n")
	code, _, errs := cli(t, nil, "import", "-codec", "snappy2", in, filepath.Join(dir, "e.parquet"))
	require.Equal(t, exitUsage, code, errs)
	require.NoFileExists(t, filepath.Join(dir, "e.parquet"))
}

// A type Parquet cannot hold: exit 1 and no output file (no partial
// file either: a Parquet file without its footer is unreadable).
func TestParquetOutputFailure(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "u.ipc")
	mustCLI(t, "gen", "-rows", "5", "-columns", "dense_union", "-to", "file", "-o", in)
	out := filepath.Join(dir, "u.parquet")
	code, _, errs := cli(t, nil, "convert", "-q", in, out)
	require.Equal(t, exitInvalid, code)
	require.Contains(t, errs, "not supported")
	require.NoFileExists(t, out)
	require.NoFileExists(t, out+partialSuffix)
	// The output may not be the input.
	_, pq := writeParquet(t, dir)
	code, _, errs = cli(t, nil, "convert", "-q", pq, pq)
	require.Equal(t, exitUsage, code, errs)
}

// Damaged Parquet inputs: every reading command exits 1 naming the fault.
func TestParquetDamagedInput(t *testing.T) {
	dir := t.TempDir()
	_, pq := writeParquet(t, dir)
	raw, err := os.ReadFile(pq)
	require.NoError(t, err)
	noFooter := filepath.Join(dir, "cut.parquet")
	require.NoError(t, os.WriteFile(noFooter, raw[:len(raw)/2], 0o644))
	for _, cmd := range [][]string{{"schema"}, {"info"}, {"validate"}, {"cat"}, {"export", "-q"}, {"convert", "-q"}} {
		args := append(append([]string{}, cmd...), noFooter)
		if cmd[0] == "export" || cmd[0] == "convert" {
			args = append(args, filepath.Join(dir, "o."+map[string]string{"export": "csv", "convert": "ipc"}[cmd[0]]))
		}
		code, _, errs := cli(t, nil, args...)
		require.Equal(t, exitInvalid, code, "%v: %s", cmd, errs)
		require.Contains(t, errs, "PAR1", "%v", cmd)
	}
}

// Files from other writers, read in place.
func TestParquetConformanceFiles(t *testing.T) {
	data := filepath.Join("..", "..", "..", "shared", "conformance", "parquet-testing", "data")
	if _, err := os.Stat(data); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent: no files from other Parquet writers to read", data)
	} else if err != nil {
		t.Fatal(err)
	}
	pq := filepath.Join(data, "alltypes_plain.parquet")
	require.Contains(t, mustCLI(t, "schema", pq), "11 fields\n")
	info := mustCLI(t, "info", pq)
	require.Contains(t, info, "created by:     impala")
	require.Contains(t, info, "rows:           8 (per row group 8 to 8)\n")
	require.Contains(t, mustCLI(t, "validate", pq), "valid Parquet file: 1 row groups, 8 rows")
	require.Contains(t, mustCLI(t, "cat", "-n", "2", pq), "record batch 0: 8 rows (showing 2)")
	csvOut := mustCLI(t, "export", "-q", pq, "-")
	require.Equal(t, 9, strings.Count(csvOut, "\n"), csvOut)
	dir := t.TempDir()
	back, again := filepath.Join(dir, "b.ipc"), filepath.Join(dir, "b.parquet")
	mustCLI(t, "convert", "-q", pq, back)
	mustCLI(t, "convert", "-q", back, again)
	requireSameData(t, back, again)
	requireSameData(t, pq, again)

	// A page whose checksum is wrong: validate exits 1 naming it.
	code, _, errs := cli(t, nil, "validate", filepath.Join(data, "datapage_v1-corrupt-checksum.parquet"))
	require.Equal(t, exitInvalid, code)
	require.Contains(t, errs, "CRC mismatch")
}

// Parquet on stdin is read whole into memory (its footer is at its end).
func TestParquetStdin(t *testing.T) {
	dir := t.TempDir()
	src, pq := writeParquet(t, dir)
	raw, err := os.ReadFile(pq)
	require.NoError(t, err)
	run := func(args ...string) string {
		t.Helper()
		code, out, errs := cli(t, raw, args...)
		require.Equal(t, exitOK, code, "%v: %s", args, errs)
		return out
	}
	require.Equal(t, mustCLI(t, "schema", pq), run("schema", "-"))
	require.Equal(t, strings.Replace(mustCLI(t, "info", pq), pq, "stdin", 1), run("info", "-"))
	require.Contains(t, run("validate", "-"), "stdin: valid Parquet file: 3 row groups, 50 rows")
	require.Equal(t, mustCLI(t, "cat", pq), run("cat", "-"))
	out := filepath.Join(dir, "from-stdin.ipc")
	run("convert", "-q", "-", out)
	requireSameData(t, src, out)
	// Damaged: exit 1, no panic.
	code, _, errs := cli(t, raw[:len(raw)-3], "validate", "-")
	require.Equal(t, exitInvalid, code)
	require.Contains(t, errs, "stdin")
}
