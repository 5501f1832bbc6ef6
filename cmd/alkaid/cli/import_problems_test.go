package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
)

// One test per problem found in import/export before they used the csv
// and ndjson packages.

// -schema listing "last, first" over a header "first,last" matched by
// position and swapped the data; now by name.
func TestImportSchemaByName(t *testing.T) {
	dir := t.TempDir()
	schema := writeFile(t, dir, "s.txt", "last: utf8\nfirst: utf8\n")
	in := writeFile(t, dir, "people.csv", "first,last\nAda,Lovelace\n")
	out := filepath.Join(dir, "out.ipc")
	mustCLI(t, "import", "-schema", schema, in, out)
	require.Equal(t, `record batch 0: 1 rows
last        first
----------  -----
"Lovelace"  "Ada"
`, mustCLI(t, "cat", out))
	// A header that does not match the schema is an error naming both sides.
	bad := writeFile(t, dir, "bad.csv", "first,middle\nAda,X\n")
	code, _, errs := cli(t, nil, "import", "-schema", schema, bad, out)
	require.Equal(t, 1, code, errs)
	require.Contains(t, errs, `schema fields missing from the header: "last"`)
	require.Contains(t, errs, `header columns not in the schema: "middle"`)
	// Positional only when asked.
	out2 := filepath.Join(dir, "pos.ipc")
	mustCLI(t, "import", "-schema", schema, "-positional", in, out2)
	require.Contains(t, mustCLI(t, "cat", out2), `"Ada"  "Lovelace"`)
}

// Invalid UTF-8 was replaced by U+FFFD without a word; now it is an error
// naming the line and column, on import (CSV and NDJSON) and on export.
func TestInvalidUTF8IsAnError(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.ipc")
	for _, c := range []struct{ file, content, want string }{
		{"x.csv", "a,b\n1,ok\n2,b\xffd\n", `line 3, column 2 ("b")`},
		{"x.ndjson", "{\"a\":1,\"b\":\"ok\"}\n{\"a\":2,\"b\":\"b\xffd\"}\n", `line 2`},
	} {
		in := writeFile(t, dir, c.file, c.content)
		code, _, errs := cli(t, nil, "import", in, out)
		require.Equal(t, 1, code, errs)
		require.Contains(t, errs, c.want)
		require.Contains(t, errs, "UTF-8")
		require.NoFileExists(t, out)
	}
	// An IPC file whose utf8 column holds invalid bytes: export to NDJSON
	// refuses it (to CSV the bytes are written as they are).
	b := array.NewBinaryBuilder[int32](datatype.String)
	b.AppendString("ok")
	b.Append([]byte("b\xffd"))
	s := alkaid.NewSchema([]datatype.Field{{Name: "s", Type: datatype.String, Nullable: true}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{b.NewArray()}, 2)
	require.NoError(t, err)
	src := filepath.Join(dir, "bad.ipc")
	f, err := os.Create(src)
	require.NoError(t, err)
	w, err := ipc.NewFileWriter(f, s)
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
	code, _, errs := cli(t, nil, "export", src, filepath.Join(dir, "bad.ndjson"))
	require.Equal(t, 1, code, errs)
	require.Contains(t, errs, `field s, row 1: string is not valid UTF-8`)
}

// An int64 overflow inside the sample made the column float64 (1e+20);
// now a decimal holding it exactly. An overflow after the sample said
// "(offset 1)"; now the line, the column and the value.
func TestImportOverflow(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "big.csv", "n\n1\n100000000000000000000\n")
	out := filepath.Join(dir, "big.ipc")
	mustCLI(t, "import", in, out)
	require.Contains(t, mustCLI(t, "schema", out), "n: decimal128(38, 0)")
	require.Contains(t, mustCLI(t, "cat", out), "100000000000000000000")
	late := writeFile(t, dir, "late.csv", "n\n1\n2\n100000000000000000000\n")
	code, _, errs := cli(t, nil, "import", "-infer-rows", "2", late, out)
	require.Equal(t, 1, code, errs)
	require.Contains(t, errs, `line 4, column 1 ("n"): invalid value "100000000000000000000" for int64`)
	jl := writeFile(t, dir, "late.ndjson", "{\"n\":1}\n{\"n\":100000000000000000000}\n")
	code, _, errs = cli(t, nil, "import", "-infer-rows", "1", jl, out)
	require.Equal(t, 1, code, errs)
	require.Contains(t, errs, `line 2: field n: invalid value "100000000000000000000" for int64`)
}

// "import data.csv out.parquet" wrote an IPC file; now an output extension
// the tool does not write is a usage error, and nothing is created (and
// .parquet is written as Parquet, unless -to asks for IPC).
func TestImportRefusesForeignExtension(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "d.csv", "a\n1\n")
	for _, args := range [][]string{{"out.csv"}, {"out.json"}, {"-to", "stream", "out.parquet"}, {"-to", "file", "out.parquet"}} {
		out := filepath.Join(dir, args[len(args)-1])
		argv := append(append([]string{"import"}, args[:len(args)-1]...), in, out)
		code, _, errs := cli(t, nil, argv...)
		require.Equal(t, 2, code, errs)
		require.Contains(t, errs, "does not write")
		require.NoFileExists(t, out)
	}
	code, _, errs := cli(t, nil, "export", writeIPC(t, dir), filepath.Join(dir, "x.parquet"))
	require.Equal(t, 2, code, errs)
	require.NoFileExists(t, filepath.Join(dir, "x.parquet"))
	for _, name := range []string{"ok.ipc", "ok.ipcs", "ok.arrow", "noext"} {
		mustCLI(t, "import", in, filepath.Join(dir, name))
	}
}

func writeIPC(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "small.ipc")
	mustCLI(t, "gen", "-rows", "3", "-columns", "int64", "-o", p)
	return p
}

// With the input's size known, the progress line shows the percent done
// and the time left.
func TestImportProgressPercent(t *testing.T) {
	old, oldEvery := cmdStderrIsTerminal, progressEvery
	cmdStderrIsTerminal, progressEvery = true, 0
	defer func() { cmdStderrIsTerminal, progressEvery = old, oldEvery }()
	dir := t.TempDir()
	in := writeFile(t, dir, "p.csv", "a,b\n"+strings.Repeat("1,x\n", 5000))
	code, _, errs := cli(t, nil, "import", "-batch-rows", "1000", in, filepath.Join(dir, "p.ipc"))
	require.Equal(t, 0, code, errs)
	require.Contains(t, errs, "\rimport: 5,000 rows, ")
	require.Contains(t, errs, "100%, 0s left")
	require.Regexp(t, `\rimport: 1,000 rows, .*, [0-9]+%, .* left`, errs)
}

// "convert x.ipc out.csv" and "gen -o g.csv" wrote IPC files named .csv
// (exit 0): every command writing IPC or Parquet refuses an output
// extension it does not write, pointing text ones to export, and
// creates nothing.
func TestOutputExtensionRefusedEveryCommand(t *testing.T) {
	dir := t.TempDir()
	src := writeIPC(t, dir)
	csvIn := writeFile(t, dir, "d.csv", "a\n1\n")
	for _, c := range []struct {
		argv []string
		want string
	}{
		{[]string{"convert", src, "out.csv"}, `use "alkaid export"`},
		{[]string{"convert", src, "out.ndjson"}, `use "alkaid export"`},
		{[]string{"convert", "-to", "stream", src, "out.csv"}, `use "alkaid export"`},
		{[]string{"convert", src, "out.bin"}, "does not write .bin files"},
		{[]string{"convert", "-to", "parquet", src, "out.ipc"}, "does not write .ipc files"},
		{[]string{"gen", "-rows", "1", "-o", "out.csv"}, `use "alkaid export"`},
		{[]string{"gen", "-rows", "1", "-o", "out.xyz"}, "does not write .xyz files"},
		{[]string{"import", csvIn, "out.jsonl"}, `use "alkaid export"`},
	} {
		argv := slices.Clone(c.argv)
		out := filepath.Join(dir, argv[len(argv)-1])
		argv[len(argv)-1] = out
		code, _, errs := cli(t, nil, argv...)
		require.Equal(t, exitUsage, code, "%v: %s", c.argv, errs)
		require.Contains(t, errs, c.want, c.argv)
		require.NoFileExists(t, out)
	}
	// An explicit -to may name any other extension; no extension is fine.
	mustCLI(t, "convert", "-to", "stream", src, filepath.Join(dir, "out.bin"))
	mustCLI(t, "convert", src, filepath.Join(dir, "plain"))
	mustCLI(t, "gen", "-rows", "1", "-o", filepath.Join(dir, "g.arrows"))
}
