package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/stretchr/testify/require"
)

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

const peopleCSV = `id,name,score,ok,seen,day,note
1,alice,1.5,true,2024-01-02T03:04:05Z,2024-01-02,
2,"bob, jr",2,false,2024-01-02 03:04:05.123+01:00,2024-02-29,"say ""hi"""
3,,-3e2,TRUE,2024-01-02T03:04:05.5Z,1999-12-31,
`

func TestImportCSVInferenceAndExport(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "people.csv", peopleCSV)
	out := filepath.Join(dir, "people.ipc")
	mustCLI(t, "import", in, out)
	require.Equal(t, `7 fields
  id: int64
  name: utf8
  score: float64
  ok: bool
  seen: timestamp[us, tz=UTC]
  day: date32
  note: utf8
`, mustCLI(t, "schema", out))
	require.Equal(t, `record batch 0: 3 rows
id  name       score  ok     seen                      day         note
--  ---------  -----  -----  ------------------------  ----------  ------------
 1  "alice"      1.5  true   2024-01-02T03:04:05Z      2024-01-02  (null)
 2  "bob, jr"      2  false  2024-01-02T02:04:05.123Z  2024-02-29  "say \"hi\""
 3  (null)      -300  true   2024-01-02T03:04:05.5Z    1999-12-31  (null)
`, mustCLI(t, "cat", out))
	// Export and import again: same schema and values, by inference alone.
	for _, ext := range []string{".csv", ".ndjson"} {
		text := filepath.Join(dir, "again"+ext)
		mustCLI(t, "export", out, text)
		back := filepath.Join(dir, "again"+ext+".ipcs")
		mustCLI(t, "import", text, back)
		requireSameData(t, out, back)
	}
	csvText, err := os.ReadFile(filepath.Join(dir, "again.csv"))
	require.NoError(t, err)
	require.Equal(t, `id,name,score,ok,seen,day,note
1,alice,1.5,true,2024-01-02T03:04:05Z,2024-01-02,
2,"bob, jr",2,false,2024-01-02T02:04:05.123Z,2024-02-29,"say ""hi"""
3,,-300,true,2024-01-02T03:04:05.5Z,1999-12-31,
`, string(csvText))
	// stdin to stdout.
	code, stdout, errs := cli(t, []byte(peopleCSV), "import", "-format", "csv", "-", "-")
	require.Equal(t, 0, code, errs)
	code, ndjson, errs := cli(t, []byte(stdout), "export", "-format", "ndjson", "-", "-")
	require.Equal(t, 0, code, errs)
	require.Equal(t, `{"id":1,"name":"alice","score":1.5,"ok":true,"seen":"2024-01-02T03:04:05Z","day":"2024-01-02","note":null}
{"id":2,"name":"bob, jr","score":2,"ok":false,"seen":"2024-01-02T02:04:05.123Z","day":"2024-02-29","note":"say \"hi\""}
{"id":3,"name":null,"score":-300,"ok":true,"seen":"2024-01-02T03:04:05.5Z","day":"1999-12-31","note":null}
`, ndjson)
}

func TestImportNDJSONNested(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "events.ndjson", `{"id": 1, "user": {"name": "ann", "tags": ["a", "b"]}, "pts": [1, 2.5], "at": "2024-05-01T10:00:00"}

{"id": 2, "user": {"name": "bo", "tags": [], "age": 7}, "pts": null, "mixed": 1}
{"id": 3, "user": null, "pts": [3], "at": "2024-05-01T10:00:00.000000001", "mixed": "x"}
`)
	out := filepath.Join(dir, "events.ipcs")
	mustCLI(t, "import", in, out)
	require.Equal(t, `5 fields
  id: int64
  user: struct<name: utf8, tags: list<item: utf8>, age: int64>
  pts: list<item: float64>
  at: timestamp[ns]
  mixed: utf8
`, mustCLI(t, "schema", out))
	require.Equal(t, `record batch 0: 3 rows
id  user                                      pts      at                             mixed
--  ----------------------------------------  -------  -----------------------------  ------
 1  {name: "ann", tags: ["a" "b"], age: (nu…  [1 2.5]  2024-05-01T10:00:00            (null)
 2  {name: "bo", tags: [], age: 7}            (null)   (null)                         "1"
 3  (null)                                    [3]      2024-05-01T10:00:00.000000001  "x"
`, mustCLI(t, "cat", out))
	text := filepath.Join(dir, "events.jsonl")
	mustCLI(t, "export", out, text)
	back := filepath.Join(dir, "back.ipc")
	mustCLI(t, "import", "-batch-rows", "2", "-infer-rows", "3", text, back)
	requireSameData(t, out, back)
}

// Every type gen writes survives export to CSV and to NDJSON and import
// with the schema given (before, nested types had no CSV form and maps,
// unions, dictionaries, run-end encoded arrays, list views and intervals
// no form at all).
func TestExportImportAllTypes(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "all.ipc")
	mustCLI(t, "gen", "-rows", "120", "-batch-rows", "50", "-seed", "11", "-o", src)
	ws, wrecs := readAll(t, src)
	require.Greater(t, ws.NumFields(), 50, "gen writes every type")
	for n, c := range []struct {
		ext   string
		codes bool // -union-type-codes: unions read back exactly
	}{{".csv", false}, {".ndjson", false}, {".ndjson", true}} {
		ext := c.ext
		text := filepath.Join(dir, fmt.Sprint("all", n, ext))
		if c.codes {
			mustCLI(t, "export", "-union-type-codes", src, text)
		} else {
			mustCLI(t, "export", src, text)
		}
		back := filepath.Join(dir, fmt.Sprint("back", n, ext, ".ipc"))
		mustCLI(t, "import", "-schema", src, text, back)
		gs, grecs := readAll(t, back)
		require.True(t, ws.Equal(gs), "schemas differ:\n%s\n%s", ws, gs)
		for col := range ws.NumFields() {
			w, g := column(t, wrecs, col), column(t, grecs, col)
			if i, desc, eq := array.FirstDifference(w, g); !eq {
				// A union slot is written as its value: a null reads back
				// as a null of the first child, whichever child held it.
				_, union := ws.Field(col).Type.(*datatype.UnionType)
				require.True(t, union && !c.codes, "%s: column %s differs at row %d: %s", ext, ws.Field(col).Name, i, desc)
				for r := range w.Len() {
					require.Equal(t, array.FormatValue(w, r), array.FormatValue(g, r), "%s: column %s row %d", ext, ws.Field(col).Name, r)
				}
			}
		}
	}
}

func TestImportExplicitSchemaText(t *testing.T) {
	dir := t.TempDir()
	schema := writeFile(t, dir, "schema.txt", `# a comment
id: int32 not null
price: decimal128(10, 2)
at: timestamp[ms, tz=UTC]
blob: binary
`)
	in := writeFile(t, dir, "in.csv", `id,price,at,blob
1,12.34,2024-01-01 00:00:00.5,aGk=
2,,,
`)
	out := filepath.Join(dir, "out.ipc")
	mustCLI(t, "import", "-schema", schema, in, out)
	require.Equal(t, `record batch 0: 2 rows
id  price   at                      blob
--  ------  ----------------------  ------
 1   12.34  2024-01-01T00:00:00.5Z  "hi"
 2  (null)  (null)                  (null)
`, mustCLI(t, "cat", out))
	// The output of "alkaid schema" is a schema file too.
	printed := writeFile(t, dir, "printed.txt", mustCLI(t, "schema", out))
	out2 := filepath.Join(dir, "out2.ipc")
	mustCLI(t, "import", "-schema", printed, in, out2)
	requireSameData(t, out, out2)
}

// Bad input: one line on stderr naming the line and column, exit 1, no
// output file left behind.
func TestImportErrors(t *testing.T) {
	dir := t.TempDir()
	schema := writeFile(t, dir, "s.txt", "a: int8\nb: utf8 not null\n")
	for _, c := range []struct {
		name, file, content string
		args                []string
		want                string
	}{
		{"not a number", "x.csv", "a,b\n1,x\nzz,y\n", []string{"-schema", schema}, `line 3, column 1 ("a"): invalid value "zz" for int8`},
		{"out of range", "x.csv", "a,b\n1,x\n2,y\n300,z\n", []string{"-schema", schema}, `line 4, column 1 ("a"): invalid value "300" for int8`},
		{"null in not null", "x.csv", "a,b\n1,\n", []string{"-schema", schema}, `line 2, column 2 ("b"): null in a non-nullable field`},
		{"cell count", "x.csv", "a,b\n1,x\n2\n", nil, `line 3`},
		{"bad quote", "x.csv", "a,b\n1,\"x\n", nil, `line 2`},
		{"later row does not fit", "x.csv", "a,b\n1,x\n2,y\nnope,z\n", []string{"-infer-rows", "2"}, `line 4, column 1 ("a"): invalid value "nope" for int64`},
		{"bad json", "x.ndjson", "{\"a\": 1}\n{\"a\": }\n", nil, `line 2: at byte`},
		{"not an object", "x.ndjson", "{\"a\": 1}\n[1]\n", nil, `line 2: want a JSON object`},
		{"unknown key", "x.ndjson", "{\"a\": 1}\n{\"a\": 2, \"c\": 3}\n", []string{"-infer-rows", "1"}, `line 2: key "c" is not in the schema`},
		{"wrong nested", "x.ndjson", "{\"a\": {\"x\": 1}}\n{\"a\": {\"x\": \"no\"}}\n", []string{"-infer-rows", "1"}, `line 2: field a.x: invalid value "no" for int64`},
		{"bad schema", "x.csv", "a\n1\n", []string{"-schema", writeFile(t, dir, "bad.txt", "a: int33\n")}, `schema line 1`},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := writeFile(t, dir, c.file, c.content)
			out := filepath.Join(dir, "out.ipc")
			code, _, errs := cli(t, nil, append(append([]string{"import"}, c.args...), in, out)...)
			require.NotEqual(t, 0, code)
			require.Contains(t, errs, c.want)
			require.Equal(t, 1, strings.Count(errs, "\n"), errs)
			require.NoFileExists(t, out)
		})
	}
}

func TestUsageAndHelp(t *testing.T) {
	for _, sub := range []string{"cat", "schema", "info", "validate", "convert", "gen", "import", "export"} {
		code, _, errs := cli(t, nil, sub, "-h")
		require.Equal(t, 0, code)
		require.Contains(t, errs, "usage: alkaid "+sub)
		code, _, _ = cli(t, nil, sub, "-no-such-flag")
		require.Equal(t, 2, code, sub)
	}
	code, out, _ := cli(t, nil, "help")
	require.Equal(t, 0, code)
	for _, sub := range []string{"cat", "schema", "info", "validate", "convert", "gen", "import", "export"} {
		require.Contains(t, out, "  "+sub+" ")
	}
	dir := t.TempDir()
	for _, args := range [][]string{
		{"cat"},
		{"cat", "-columns", "nope", smallFile},
		{"convert", smallFile},
		{"convert", "-to", "zip", smallFile, filepath.Join(dir, "x")},
		{"convert", "-compression", "gzip", smallFile, filepath.Join(dir, "x")},
		{"convert", "-magic", "parquet", smallFile, filepath.Join(dir, "x")},
		{"gen"},
		{"gen", "-rows", "-1", "-o", filepath.Join(dir, "x")},
		{"gen", "-columns", "nope", "-o", filepath.Join(dir, "x")},
		{"import", "-format", "xml", "a", "b"},
		{"export", "-delimiter", "ab", smallFile, "-"},
	} {
		code, _, errs := cli(t, nil, args...)
		require.Equal(t, 2, code, "%v: %s", args, errs)
		require.Equal(t, 1, strings.Count(errs, "\n"), "%v: %q", args, errs)
	}
}

// On a terminal the long commands draw a progress line; -q silences it.
func TestProgressLine(t *testing.T) {
	old, oldEvery := cmdStderrIsTerminal, progressEvery
	cmdStderrIsTerminal, progressEvery = true, 0
	defer func() { cmdStderrIsTerminal, progressEvery = old, oldEvery }()
	dir := t.TempDir()
	out := filepath.Join(dir, "p.ipc")
	code, _, errs := cli(t, nil, "gen", "-rows", "20000", "-batch-rows", "1000", "-columns", "int64,utf8", "-o", out)
	require.Equal(t, 0, code)
	require.Contains(t, errs, "\rgen: 1,000 rows, ")
	require.Contains(t, errs, "\rgen: 20,000 rows, ")
	require.Contains(t, errs, "/s, ")
	require.True(t, strings.HasSuffix(errs, "\n"))
	code, _, errs = cli(t, nil, "export", out, filepath.Join(dir, "p.csv"))
	require.Equal(t, 0, code)
	require.Contains(t, errs, "\rexport: 20,000 rows, ")
	code, _, errs = cli(t, nil, "convert", "-q", out, filepath.Join(dir, "q.ipcs"))
	require.Equal(t, 0, code)
	require.Empty(t, errs)
}
