package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
)

// requireListNames requires got's list element names (at every depth) to
// be want's, and the two schemas to print the same.
func requireListNames(t *testing.T, want, got *alkaid.Schema) {
	t.Helper()
	require.Equal(t, want.String(), got.String())
	for i, f := range want.Fields() {
		g := got.Field(i)
		for {
			wl, ok := f.Type.(*datatype.ListType)
			if !ok {
				break
			}
			gl, ok := g.Type.(*datatype.ListType)
			require.True(t, ok, "field %s", f.Name)
			require.Equal(t, wl.Elem().Name, gl.Elem().Name, "field %s", want.Field(i).Name)
			f, g = wl.Elem(), gl.Elem()
		}
	}
}

// TestConvertKeepsListChildNames: convert writes the schema it read, list
// element names exactly (an empty one included), to streams and files of
// both magics; schema prints them as cat reads them.
func TestConvertKeepsListChildNames(t *testing.T) {
	for _, name := range []string{"", "element", "item"} {
		rec := listRecord(t, name)
		in := writeTemp(t, "in.arrow", writeFileBytes(t, rec.Schema(), []*alkaid.Record{rec}, ipc.WithArrowCompat()))
		requireListNames(t, rec.Schema(), catSchemaOf(t, in))
		require.Equal(t, "3 fields\n"+schemaFieldsOf(rec.Schema()), mustCLI(t, "schema", in))
		dir := t.TempDir()
		for _, args := range [][]string{
			{"-to", "stream", "-magic", "arrow", in, filepath.Join(dir, "out.bin")},
			{in, filepath.Join(dir, "out.arrow")},
			{in, filepath.Join(dir, "out.ipcs")},
			{in, filepath.Join(dir, "out.ipc")},
		} {
			out := args[len(args)-1]
			mustCLI(t, append([]string{"convert", "-q"}, args...)...)
			requireListNames(t, rec.Schema(), catSchemaOf(t, out))
			require.Equal(t, "3 fields\n"+schemaFieldsOf(rec.Schema()), mustCLI(t, "schema", out))
		}
	}
}

// TestFilesWithoutLeadingSchema: files whose stream part starts at the
// first batch, or holds nothing (no batches), as Arrow JS writes them:
// schema, info and validate read them through the footer and agree with
// cat; convert keeps their schema.
func TestFilesWithoutLeadingSchema(t *testing.T) {
	rec := listRecord(t, "")
	for _, c := range []struct {
		name string
		recs []*alkaid.Record
	}{{"one batch", []*alkaid.Record{rec}}, {"no batches", nil}} {
		t.Run(c.name, func(t *testing.T) {
			raw := withoutLeadingSchema(t, writeFileBytes(t, rec.Schema(), c.recs, ipc.WithArrowCompat()))
			path := writeTemp(t, "js.arrow", raw)
			_, err := ipc.ReadMessage(bytes.NewReader(raw[8:]))
			if len(c.recs) > 0 {
				require.NoError(t, err) // a record batch comes first
			}
			want := catSchemaOf(t, path)
			requireListNames(t, rec.Schema(), want)
			catOut := mustCLI(t, "cat", path)
			require.Equal(t, len(c.recs) > 0, bytes.Contains([]byte(catOut), []byte("record batch 0: 3 rows")))

			require.Equal(t, "3 fields\n"+schemaFieldsOf(want), mustCLI(t, "schema", path))
			require.Equal(t, "3 fields\n"+schemaFieldsOf(want), mustCLI(t, "schema", "-strict", path))
			code, out, errs := cli(t, raw, "schema", "-")
			require.Equal(t, exitOK, code, errs)
			require.Equal(t, "3 fields\n"+schemaFieldsOf(want), out)

			info := mustCLI(t, "info", path)
			code, stdinInfo, errs := cli(t, raw, "info", "-")
			require.Equal(t, exitOK, code, errs)
			require.Equal(t, strings.Replace(info, "path:           "+path, "path:           stdin", 1), stdinInfo)
			require.Contains(t, info, "version:        V5\n")
			require.Contains(t, info, "fields:         3\n")
			require.Contains(t, info, "dictionaries:   0\n")
			if len(c.recs) > 0 {
				require.Contains(t, info, "record batches: 1\nrows:           3 (per batch 3 to 3)\n")
				require.Contains(t, info, "footer:         1 record batches\n")
			} else {
				require.Contains(t, info, "record batches: 0\nrows:           0\n")
				require.Contains(t, info, "footer:         0 record batches\n")
			}

			rows := map[bool]string{true: "1 record batches, 3 rows", false: "0 record batches, 0 rows"}[len(c.recs) > 0]
			require.Contains(t, mustCLI(t, "validate", path), "valid file (ARROW1): "+rows)
			require.Contains(t, mustCLI(t, "validate", "-strict", path), "valid file (ARROW1): "+rows)

			dst := filepath.Join(t.TempDir(), "out.arrow")
			mustCLI(t, "convert", "-q", path, dst)
			requireListNames(t, rec.Schema(), catSchemaOf(t, dst))
			require.Equal(t, catOut, mustCLI(t, "cat", dst))
		})
	}
}

// TestFileWithBareLeadingSchema: a file whose leading schema message is
// its Flatbuffer without the length prefix (one writer's defect) but
// whose footer is good is read through the footer by every command, with
// a warning naming the defect; -strict makes schema and validate fail.
func TestFileWithBareLeadingSchema(t *testing.T) {
	rec := listRecord(t, "")
	path := writeTemp(t, "bare.arrow", withBareLeadingSchema(t, writeFileBytes(t, rec.Schema(), []*alkaid.Record{rec}, ipc.WithArrowCompat())))
	const defect = "it is a bare Schema Flatbuffer without the continuation marker and length prefix"
	want := catSchemaOf(t, path)
	requireListNames(t, rec.Schema(), want)
	catOut := mustCLI(t, "cat", path)

	code, out, errs := cli(t, nil, "schema", path)
	require.Equal(t, exitOK, code, errs)
	require.Equal(t, "3 fields\n"+schemaFieldsOf(want), out)
	require.Contains(t, errs, "alkaid schema: warning: "+path+": ipc: invalid: schema message at byte 8: "+defect)
	code, out, errs = cli(t, readFile(t, path), "schema", "-")
	require.Equal(t, exitOK, code, errs)
	require.Equal(t, "3 fields\n"+schemaFieldsOf(want), out)
	require.Contains(t, errs, "alkaid schema: warning: stdin: ")

	code, out, errs = cli(t, nil, "info", path)
	require.Equal(t, exitOK, code, errs)
	require.Contains(t, out, "fields:         3\n")
	require.Contains(t, out, "record batches: 1\nrows:           3 (per batch 3 to 3)\n")
	require.Contains(t, out, "footer:         1 record batches\n")
	require.Contains(t, errs, "alkaid info: warning: "+path+": ")
	require.Contains(t, errs, defect)

	code, out, errs = cli(t, nil, "validate", path)
	require.Equal(t, exitOK, code, errs)
	require.Contains(t, out, path+": valid file (ARROW1): 1 record batches, 3 rows")
	require.Contains(t, errs, "alkaid validate: warning: "+path+": ")
	require.Contains(t, errs, defect)

	for _, cmd := range []string{"validate", "schema"} {
		code, out, errs = cli(t, nil, cmd, "-strict", path)
		require.Equal(t, exitInvalid, code, "%s -strict: %s", cmd, out)
		require.Contains(t, errs, defect)
	}

	dst := filepath.Join(t.TempDir(), "fixed.arrow")
	mustCLI(t, "convert", "-q", path, dst)
	require.Equal(t, catOut, mustCLI(t, "cat", dst))
	requireListNames(t, rec.Schema(), catSchemaOf(t, dst))
	mustCLI(t, "validate", "-strict", dst) // the copy is well formed: no warning
}

// TestUnionNullCountEveryCommand: a union field node with a non-zero
// null count is accepted by every command (the count carries no meaning),
// and convert writes 0.
func TestUnionNullCountEveryCommand(t *testing.T) {
	rec := unionRecord(t)
	var stream bytes.Buffer
	sw, err := ipc.NewStreamWriter(&stream, rec.Schema())
	require.NoError(t, err)
	require.NoError(t, sw.Write(rec))
	require.NoError(t, sw.Close())
	for name, raw := range map[string][]byte{
		"u.ipcs": stream.Bytes(),
		"u.ipc":  writeFileBytes(t, rec.Schema(), []*alkaid.Record{rec}),
	} {
		t.Run(name, func(t *testing.T) {
			clean := writeTemp(t, name, raw)
			wantCat := mustCLI(t, "cat", clean)
			for _, nulls := range []int64{1, 3} {
				path := writeTemp(t, name, withUnionNullCount(t, raw, nulls))
				require.Equal(t, wantCat, mustCLI(t, "cat", path))
				require.Contains(t, mustCLI(t, "validate", path), "1 record batches, 3 rows")
				require.Contains(t, mustCLI(t, "validate", "-strict", path), "1 record batches, 3 rows")
				require.Contains(t, mustCLI(t, "info", path), "record batches: 1\n")
				require.Equal(t, "1 fields\n"+schemaFieldsOf(rec.Schema()), mustCLI(t, "schema", path))

				out := filepath.Join(t.TempDir(), name)
				mustCLI(t, "convert", "-q", path, out)
				require.Equal(t, wantCat, mustCLI(t, "cat", out))
				// The node's count is written as 0.
				_, fixed := readBack(t, out)
				require.Equal(t, []int64{0}, fixed)
			}
		})
	}
}

// readBack returns the raw bytes of path and the null count of field node
// 0 of each record batch.
func readBack(t *testing.T, path string) ([]byte, []int64) {
	t.Helper()
	raw := readFile(t, path)
	start := 0
	if ipc.DetectMagic(raw) != "" {
		start = 8
	}
	var counts []int64
	require.NoError(t, scanMessages(bytes.NewReader(raw[start:]), int64(start), func(mi msgInfo, m *ipc.Message) error {
		if mi.typ == ipc.MessageRecordBatch {
			counts = append(counts, firstNodeNulls(m))
		}
		return nil
	}))
	return raw, counts
}

// TestSchemaTextKeepsListChildNames: the schema text `alkaid schema`
// prints parses back with the element names as printed: "list<: int32>"
// is an element named "", and only "list<int32>" (no name given) is
// named item.
func TestSchemaTextKeepsListChildNames(t *testing.T) {
	for _, name := range []string{"", "element", "item"} {
		want := listRecord(t, name).Schema()
		got, err := parseSchemaText("3 fields\n" + schemaFieldsOf(want))
		require.NoError(t, err)
		requireListNames(t, want, got)
	}
	got, err := parseSchemaText("l: list<int32>\n")
	require.NoError(t, err)
	require.Equal(t, "item", got.Field(0).Type.(*datatype.ListType).Elem().Name)
}

// TestInfoWithoutLeadingSchemaDictionaries: info on a file with
// dictionaries but no leading schema message says what it says of the
// same file with one (version, fields, dictionaries with their batches,
// record batches, rows, footer), the size apart.
func TestInfoWithoutLeadingSchemaDictionaries(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full.arrow")
	mustCLI(t, "gen", "-q", "-rows", "30", "-batches", "3", "-seed", "7", "-columns", "int64,utf8,dictionary", "-o", full)
	noLead := writeTemp(t, "nolead.arrow", withoutLeadingSchema(t, readFile(t, full)))
	strip := func(info string) string {
		var keep []string
		for _, line := range strings.Split(info, "\n") {
			if !strings.HasPrefix(line, "path:") && !strings.HasPrefix(line, "size:") {
				keep = append(keep, line)
			}
		}
		return strings.Join(keep, "\n")
	}
	want := strip(mustCLI(t, "info", full))
	require.Contains(t, want, "dictionaries:   1\n")
	require.Equal(t, want, strip(mustCLI(t, "info", noLead)))
	require.Equal(t, mustCLI(t, "schema", full), mustCLI(t, "schema", noLead))
	require.Equal(t, mustCLI(t, "cat", full), mustCLI(t, "cat", noLead))
}
