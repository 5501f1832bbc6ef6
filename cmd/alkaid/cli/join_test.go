package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/ipc"
)

func writeText(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

func TestJoinCommand(t *testing.T) {
	dir := t.TempDir()
	left := writeText(t, dir, "left.csv", "id,k\n1,a\n2,b\n3,\n4,c\n")
	right := writeText(t, dir, "right.csv", "k,v\nb,20\na,10\na,11\nz,99\n")
	for _, c := range []struct {
		typ, want string
	}{
		{"inner", "id,k,k_right,v\n1,a,a,10\n1,a,a,11\n2,b,b,20\n"},
		{"left", "id,k,k_right,v\n1,a,a,10\n1,a,a,11\n2,b,b,20\n3,,,\n4,c,,\n"},
		{"right", "id,k,k_right,v\n1,a,a,10\n1,a,a,11\n2,b,b,20\n,,z,99\n"},
		{"full", "id,k,k_right,v\n1,a,a,10\n1,a,a,11\n2,b,b,20\n3,,,\n4,c,,\n,,z,99\n"},
		{"semi", "id,k\n1,a\n2,b\n"},
		{"anti", "id,k\n3,\n4,c\n"},
		{"right-semi", "k,v\nb,20\na,10\na,11\n"},
		{"right-anti", "k,v\nz,99\n"},
	} {
		t.Run(c.typ, func(t *testing.T) {
			out := filepath.Join(dir, "out-"+c.typ+".csv")
			mustCLI(t, "join", "-type", c.typ, "-on", "k", left, right, out)
			got, err := os.ReadFile(out)
			require.NoError(t, err)
			require.Equal(t, c.want, string(got))
		})
	}

	// Keys named differently, chosen columns, Parquet out.
	other := writeText(t, dir, "other.jsonl", `{"key":"a","w":1.5}`+"\n"+`{"key":"c","w":2.5}`+"\n")
	out := filepath.Join(dir, "out.parquet")
	mustCLI(t, "join", "-type", "left", "-on", "k=key", "-columns", "id,w", left, other, out)
	r, err := files.Open(out)
	require.NoError(t, err)
	defer r.Close()
	var got []string
	for rec, err := range r.Records() {
		require.NoError(t, err)
		for i := range rec.NumCols() {
			got = append(got, rec.ColumnName(i)+": "+array.Format(rec.Column(i)))
		}
	}
	require.Equal(t, []string{"id: [1 2 3 4]", "w: [1.5 (null) (null) 2.5]"}, got)

	// OUT "-": an IPC stream on stdout.
	code, stdout, errs := cli(t, nil, "join", "-type", "semi", "-on", "k", left, right, "-")
	require.Equal(t, exitOK, code, errs)
	sr, err := ipc.NewStreamReader(strings.NewReader(stdout))
	require.NoError(t, err)
	got = nil
	for rec, err := range sr.Records() {
		require.NoError(t, err)
		got = append(got, array.Format(rec.Column(0)))
	}
	require.Equal(t, []string{"[1 2]"}, got)
}

func TestJoinCommandErrors(t *testing.T) {
	dir := t.TempDir()
	left := writeText(t, dir, "left.csv", "id,k\n1,a\n")
	right := writeText(t, dir, "right.csv", "k,v\na,1\nb,2\n")
	out := filepath.Join(dir, "out.csv")
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"join", left, right, out}, exitUsage, "-on is required"},
		{[]string{"join", "-on", "k", "-type", "outer", left, right, out}, exitUsage, `unknown join type "outer"`},
		{[]string{"join", "-on", "k", "-suffixes", "x", left, right, out}, exitUsage, "want LEFT,RIGHT"},
		{[]string{"join", "-on", "k=", left, right, out}, exitUsage, "empty column name"},
		{[]string{"join", "-on", "k", left, right, left}, exitUsage, "OUT is the same file"},
		{[]string{"join", "-on", "k", left, right}, exitUsage, "want 3 argument(s)"},
		{[]string{"join", "-on", "nope", left, right, out}, exitInvalid, `the left side has no column "nope"`},
		{[]string{"join", "-on", "k", "-max-right-rows", "1", left, right, out}, exitInvalid, "more than 1 rows (Limits.MaxBuildRows)"},
		{[]string{"join", "-on", "k", "-concurrency", "-1", left, right, out}, exitInvalid, "WithConcurrency(-1)"},
		{[]string{"join", "-on", "k", left, filepath.Join(dir, "missing.csv"), out}, exitInvalid, "missing.csv"},
	} {
		code, _, errs := cli(t, nil, c.args...)
		require.Equal(t, c.code, code, errs)
		require.Contains(t, errs, c.msg)
		_, err := os.Stat(out)
		require.ErrorIs(t, err, os.ErrNotExist, "no output after a failure")
	}
}

// TestJoinCommandWhere: -where is the residual filter, over the pair's
// columns as the output names them before -columns.
func TestJoinCommandWhere(t *testing.T) {
	dir := t.TempDir()
	left := writeText(t, dir, "left.csv", "id,k\n1,a\n2,b\n3,\n4,c\n")
	right := writeText(t, dir, "right.csv", "k,v\nb,20\na,10\na,11\nz,99\n")
	for _, c := range []struct {
		typ, where, want string
	}{
		{"inner", "v > id * 10", "id,k,k_right,v\n1,a,a,11\n"},
		{"left", "v > id * 10", "id,k,k_right,v\n1,a,a,11\n2,b,,\n3,,,\n4,c,,\n"},
		{"full", "k_right = 'b'", "id,k,k_right,v\n1,a,,\n2,b,b,20\n3,,,\n4,c,,\n,,a,10\n,,a,11\n,,z,99\n"},
		{"anti", "v <> 10", "id,k\n3,\n4,c\n"},
		{"right-semi", "id = 1 AND v % 2 = 1", "k,v\na,11\n"},
	} {
		t.Run(c.typ+"/"+c.where, func(t *testing.T) {
			out := filepath.Join(dir, "out-where.csv")
			mustCLI(t, "join", "-type", c.typ, "-on", "k", "-where", c.where, left, right, out)
			got, err := os.ReadFile(out)
			require.NoError(t, err)
			require.Equal(t, c.want, string(got))
		})
	}

	out := filepath.Join(dir, "out-bad.csv")
	for _, c := range []struct {
		name, where string
		code        int
		want        string // stderr, or a part of it
	}{
		{"syntax error", "v >> 1", exitUsage,
			"alkaid join: -where: expr: syntax error at byte 3: unexpected \">\"\n  v >> 1\n     ^\n"},
		{"unknown column", "w > 1", exitInvalid, `join: WithFilter((w > 1)): expr: w at byte 0: no field "w" in the schema`},
		{"not boolean", "v + 1", exitInvalid, "join: WithFilter((v + 1)): the filter must be boolean, not int64"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, errs := cli(t, nil, "join", "-on", "k", "-where", c.where, left, right, out)
			require.Equal(t, c.code, code, errs)
			if c.code == exitUsage {
				require.Equal(t, c.want, errs)
			} else {
				require.Contains(t, errs, c.want)
			}
			_, err := os.Stat(out)
			require.ErrorIs(t, err, os.ErrNotExist, "no output after a failure")
		})
	}
}
