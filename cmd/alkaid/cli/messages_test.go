package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// A 600 KB -schema line came back whole in the error: every message
// quotes at most about 100 bytes of what it was given.
func TestErrorsQuoteInputBounded(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 600_000)
	in := writeFile(t, dir, "d.csv", "a\n1\n")
	src := writeIPC(t, dir)
	out := filepath.Join(dir, "o.ipc")
	for _, argv := range [][]string{
		{"import", "-schema", writeFile(t, dir, "s1.txt", "a: "+long+"\n"), in, out},
		{"import", "-schema", writeFile(t, dir, "s2.txt", long+"\n"), in, out},
		{"import", "-schema", writeFile(t, dir, "s3.txt", "a: list<"+long+">\n"), in, out},
		{"import", "-delimiter", long, in, out},
		{"import", "-format", long, in, out},
		{"convert", "-codec", long, src, filepath.Join(dir, "o.parquet")},
		{"convert", "-to", long, src, out},
		{"convert", "-compression", long, src, out},
		{"cat", "-columns", long, src},
		{"gen", "-columns", long, "-o", out},
		{long},
		{"help", long},
	} {
		code, _, errs := cli(t, nil, argv...)
		require.NotEqual(t, 0, code)
		require.Less(t, len(errs), 1000, "alkaid %.40s: %.300s", strings.Join(argv, " "), errs)
		require.Contains(t, errs, "… (")
	}
}

// Whatever a message echoes (here a 600 KB path, which the system's own
// error repeats), the line stays bounded and keeps its cause at the end.
func TestErrorLineBounded(t *testing.T) {
	long := filepath.Join(t.TempDir(), strings.Repeat("é", 300_000)+".ipc")
	for _, argv := range [][]string{{"cat", long}, {"validate", long}, {"info", long}, {"convert", long, long + "s"}} {
		code, _, errs := cli(t, nil, argv...)
		require.Equal(t, exitInvalid, code, argv[0])
		require.Less(t, len(errs), maxMessage+100, argv[0])
		require.Contains(t, errs, "bytes cut)…", argv[0])
		require.True(t, strings.HasSuffix(errs, "file name too long\n"), "%s: %.200s", argv[0], errs)
		require.True(t, utf8.ValidString(errs), argv[0])
	}
}

// A .parquet file that lost its leading magic was reported as a malformed
// IPC stream: every command says it looks like Parquet and what is wrong.
func TestParquetWithoutLeadingMagic(t *testing.T) {
	dir := t.TempDir()
	pq := filepath.Join(dir, "p.parquet")
	mustCLI(t, "gen", "-rows", "10", "-columns", "int64", "-o", pq)
	raw, err := os.ReadFile(pq)
	require.NoError(t, err)
	for name, b := range map[string][]byte{"cut.parquet": raw[4:], "zeroed.parquet": append([]byte{0, 0, 0, 0}, raw[4:]...)} {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, b, 0o644))
		for _, argv := range [][]string{{"validate", p}, {"cat", p}, {"info", p}, {"schema", p}, {"export", p, filepath.Join(dir, "x.csv")}, {"convert", p, filepath.Join(dir, "x.ipc")}} {
			code, _, errs := cli(t, nil, argv...)
			require.Equal(t, exitInvalid, code, "%v", argv)
			require.Contains(t, errs, "looks like a Parquet file (it ends with the magic PAR1) but does not start with PAR1", "%v", argv)
			require.NotContains(t, errs, "IPC stream", "%v", argv)
		}
	}
}
