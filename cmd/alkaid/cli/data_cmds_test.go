package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/ipc"
)

var update = flag.Bool("update", false, "rewrite the golden files and inputs under testdata/")

// cli runs alkaid in-process with the arguments and stdin, returning the
// exit code, stdout and stderr.
func cli(t *testing.T, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	oldIn, oldOut, oldErr := cmdStdin, cmdStdout, cmdStderr
	cmdStdin, cmdStdout, cmdStderr = bytes.NewReader(stdin), &out, &errb
	defer func() { cmdStdin, cmdStdout, cmdStderr = oldIn, oldOut, oldErr }()
	code := run(args)
	return code, out.String(), errb.String()
}

// mustCLI runs alkaid and requires exit code 0.
func mustCLI(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errs := cli(t, nil, args...)
	require.Equal(t, 0, code, "alkaid %s: %s", strings.Join(args, " "), errs)
	require.Empty(t, errs)
	return out
}

// The committed inputs, made by gen (see TestTestdataInputs).
const (
	smallFile   = "testdata/small.ipc"
	smallStream = "testdata/small.ipcs"
	smallArrow  = "testdata/small_arrow.arrow"
	smallCols   = "bool,int32,float64,decimal128,date32,timestamp_us_utc,utf8,binary,list,struct,map,dense_union,dictionary,list_of_dictionary,run_end_encoded"
)

// TestTestdataInputs pins the committed inputs: gen with these flags must
// reproduce them byte for byte (-update rewrites them).
func TestTestdataInputs(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ path, to, magic string }{
		{smallFile, "file", "alkaid"}, {smallStream, "stream", "alkaid"}, {smallArrow, "file", "arrow"},
	} {
		out := filepath.Join(dir, filepath.Base(c.path))
		mustCLI(t, "gen", "-rows", "7", "-batches", "2", "-seed", "42", "-columns", smallCols, "-to", c.to, "-magic", c.magic, "-o", out)
		got, err := os.ReadFile(out)
		require.NoError(t, err)
		if *update {
			require.NoError(t, os.WriteFile(c.path, got, 0o644))
		}
		want, err := os.ReadFile(c.path)
		require.NoError(t, err)
		require.Equal(t, want, got, "%s differs from what gen writes; run go test -update if intended", c.path)
	}
}

// dataGolden compares got with testdata/name (rewritten with -update).
func dataGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), got, "output differs from %s (go test -update rewrites it)", path)
}

func TestGoldenCatSchemaInfo(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"cat_small.golden", []string{"cat", smallFile}},
		{"cat_small_columns.golden", []string{"cat", "-n", "4", "-columns", "int32,list,struct,dictionary", "-width", "0", smallStream}},
		{"cat_small_batch1.golden", []string{"cat", "-batch", "1", "-columns", "utf8,map", smallArrow}},
		{"schema_small.golden", []string{"schema", smallFile}},
		{"info_small_file.golden", []string{"info", smallFile}},
		{"info_small_stream.golden", []string{"info", smallStream}},
		{"info_small_arrow.golden", []string{"info", smallArrow}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dataGolden(t, c.name, mustCLI(t, c.args...))
		})
	}
	// The same from stdin.
	in, err := os.ReadFile(smallStream)
	require.NoError(t, err)
	code, out, _ := cli(t, in, "schema", "-")
	require.Equal(t, 0, code)
	require.Equal(t, mustCLI(t, "schema", smallFile), out)
}

// readAll reads every record batch of an IPC input.
func readAll(t *testing.T, path string) (*alkaid.Schema, []*alkaid.Record) {
	t.Helper()
	in, err := openInput(path, ipc.WithValidation(array.ValidateFull))
	require.NoError(t, err)
	defer in.Close()
	var recs []*alkaid.Record
	for rec, err := range in.Records() {
		require.NoError(t, err)
		recs = append(recs, rec)
	}
	return in.Schema(), recs
}

// requireSameData checks that two inputs hold the same schema and values,
// however they are cut into batches.
func requireSameData(t *testing.T, wantPath, gotPath string) {
	t.Helper()
	ws, wrecs := readAll(t, wantPath)
	gs, grecs := readAll(t, gotPath)
	require.True(t, ws.Equal(gs), "schemas differ:\n%s\n%s", ws, gs)
	requireSameColumns(t, ws, wrecs, grecs)
}

func requireSameColumns(t *testing.T, s *alkaid.Schema, wrecs, grecs []*alkaid.Record) {
	t.Helper()
	for c := range s.NumFields() {
		w, g := column(t, wrecs, c), column(t, grecs, c)
		if w == nil || g == nil {
			require.Equal(t, w == nil, g == nil)
			continue
		}
		i, desc, eq := array.FirstDifference(w, g)
		require.True(t, eq, "column %s differs at row %d: %s", s.Field(c).Name, i, desc)
	}
}

func column(t *testing.T, recs []*alkaid.Record, c int) array.Array {
	var parts []array.Array
	for _, r := range recs {
		parts = append(parts, r.Column(c))
	}
	if len(parts) == 0 {
		return nil
	}
	a, err := array.Concatenate(parts...)
	require.NoError(t, err)
	return a
}

func TestConvertRoundTrips(t *testing.T) {
	dir := t.TempDir()
	for _, in := range []string{smallFile, smallStream, smallArrow} {
		for _, c := range []struct {
			ext   string
			flags []string
			magic string
			codec string
		}{
			{".ipcs", nil, "", "none"},
			{".ipc", nil, ipc.Magic, "none"},
			{".ipc", []string{"-compression", "zstd", "-level", "3"}, ipc.Magic, "zstd"},
			{".out", []string{"-to", "stream", "-compression", "lz4"}, "", "lz4"},
			{".arrow", []string{"-batch-rows", "3"}, ipc.ArrowMagic, "none"},
			{".ipc", []string{"-magic", "arrow", "-batch-rows", "100", "-align", "64"}, ipc.ArrowMagic, "none"},
		} {
			out := filepath.Join(dir, "out"+c.ext)
			args := append(append([]string{"convert"}, c.flags...), in, out)
			mustCLI(t, args...)
			head := make([]byte, 8)
			f, err := os.Open(out)
			require.NoError(t, err)
			f.Read(head)
			f.Close()
			require.Equal(t, c.magic, ipc.DetectMagic(head), "%v", args)
			requireSameData(t, in, out)
			info := mustCLI(t, "info", out)
			require.Contains(t, info, "compression:    "+c.codec, "%v", args)
			mustCLI(t, "validate", "-q", out)
		}
	}
	// stdin to stdout.
	raw, err := os.ReadFile(smallFile)
	require.NoError(t, err)
	code, out, errs := cli(t, raw, "convert", "-to", "file", "-", "-")
	require.Equal(t, 0, code, errs)
	require.Equal(t, ipc.Magic, ipc.DetectMagic([]byte(out)))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "stdout.ipc"), []byte(out), 0o644))
	requireSameData(t, smallFile, filepath.Join(dir, "stdout.ipc"))
}

// A stream whose dictionaries are replaced between batches becomes a file
// (which allows only deltas) with the same values; metadata of the schema,
// fields (extension names included) and messages is kept.
func TestConvertDictionaryReplacementAndMetadata(t *testing.T) {
	dir := t.TempDir()
	dict, err := datatype.NewDictionary(datatype.Int8, datatype.String, false)
	require.NoError(t, err)
	fsb16, err := datatype.NewFixedSizeBinary(16)
	require.NoError(t, err)
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "d", Type: dict, Nullable: true, Metadata: datatype.MetadataFrom("note", "kept")},
		{Name: "ld", Type: datatype.ListOf(dict), Nullable: true},
		{Name: "u", Type: fsb16, Nullable: true,
			Metadata: datatype.MetadataFrom(ipc.ExtensionNameKey, "example.unregistered", ipc.ExtensionMetadataKey, "{}")},
	}, datatype.MetadataFrom("origin", "test"))
	var buf bytes.Buffer
	w, err := ipc.NewStreamWriter(&buf, schema)
	require.NoError(t, err)
	g := randdata.New(5)
	for range 4 { // each batch has fresh dictionaries: replacements
		require.NoError(t, w.WriteWithMetadata(g.Record(schema, 20), map[string]string{"batch": "x"}))
	}
	require.NoError(t, w.Close())
	in := filepath.Join(dir, "replaced.ipcs")
	require.NoError(t, os.WriteFile(in, buf.Bytes(), 0o644))
	out := filepath.Join(dir, "replaced.ipc")
	mustCLI(t, "convert", in, out)
	requireSameData(t, in, out)
	require.Contains(t, mustCLI(t, "info", out), "deltas")
	fr, err := ipc.OpenFile(out)
	require.NoError(t, err)
	defer fr.Close()
	_, meta, err := fr.RecordWithMetadata(3)
	require.NoError(t, err)
	require.Equal(t, map[string]string{"batch": "x"}, meta)
	v, _ := fr.Schema().Field(0).Metadata.Get("note")
	require.Equal(t, "kept", v)
}

func TestGenDeterministicAndBounded(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.ipc"), filepath.Join(dir, "b.ipc")
	mustCLI(t, "gen", "-rows", "300", "-batch-rows", "100", "-seed", "9", "-o", a)
	mustCLI(t, "gen", "-rows", "300", "-batch-rows", "100", "-seed", "9", "-o", b)
	ab, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	require.Equal(t, ab, bb)
	info := mustCLI(t, "info", a)
	require.Contains(t, info, "record batches: 3\n")
	require.Contains(t, info, "rows:           300 (per batch 100 to 100)")
	require.Contains(t, info, "fields:         53")
	require.Contains(t, mustCLI(t, "validate", a), "valid file (ALKAID1): 3 record batches, 300 rows")
	// Stream and file hold the same values.
	s := filepath.Join(dir, "a.ipcs")
	mustCLI(t, "gen", "-rows", "300", "-batch-rows", "100", "-seed", "9", "-o", s)
	requireSameData(t, a, s)
	// To stdout.
	code, out, _ := cli(t, nil, "gen", "-rows", "3", "-o", "-")
	require.Equal(t, 0, code)
	require.Equal(t, "", ipc.DetectMagic([]byte(out)))
}
