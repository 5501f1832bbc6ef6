package interop

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

// The round trips of this file run the apache-arrow npm package (the
// version pinned in js/package.json) under Node.js through js/peer.mjs:
//
//   - Alkaid → JS: every field of randdata.AllTypes that apache-arrow
//     reads, one stream and one Arrow-compatible file each (two batches,
//     the second sliced), plus one record of all of them; peer.mjs prints
//     what apache-arrow decoded as canonical JSON, compared slot by slot
//     with Alkaid's record.
//   - JS → Alkaid: peer.mjs builds a fixed batch with apache-arrow (a
//     list whose child is named "" among its columns) and writes it as a
//     stream, a file and a file without batches; Alkaid reads them with
//     full validation, and types, child names and values equal
//     jsWantRecord's. apache-arrow's files have no leading schema
//     message: Alkaid reads them through the footer, strict, with no
//     warning.
//   - JS → Alkaid → JS (js_names_test.go): Alkaid's stream and file
//     copies of those, and a file copy without a leading schema message,
//     read back in apache-arrow with its own names, types and values.
//
// They skip, saying why, when node or js/node_modules is missing
// (.ci/run installs it with npm ci).

// jsLacks names the fields of AllTypes that apache-arrow 21.2.0 cannot
// read, with what it says. TestRandomAlkaidToJS checks that each still
// fails, so the list stays true.
var jsLacks = map[string]string{
	"list_view":            `Unrecognized type: "ListView"`,
	"large_list_view":      `Unrecognized type: "LargeListView"`,
	"run_end_encoded":      `Unrecognized type: "RunEndEncoded"`,
	"run_end_encoded_utf8": `Unrecognized type: "RunEndEncoded"`,
}

// jsPeer returns the node binary and the peer script, or skips the test.
func jsPeer(t *testing.T) (node, script string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: skipping the apache-arrow (JS) round trips; install Node.js and run `npm ci` in interop/js (.ci/run does)")
	}
	dir, err := filepath.Abs("js")
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "apache-arrow", "package.json")); err != nil {
		t.Skip("interop/js/node_modules/apache-arrow is missing: skipping the apache-arrow (JS) round trips; run `npm ci` in interop/js (.ci/run does)")
	}
	return node, filepath.Join(dir, "peer.mjs")
}

func runJSPeer(t *testing.T, node, script string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{script}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node %s %v: %s", script, args, stderr.String())
	return out
}

// jsonCanon turns a canonical value tree (see canon_test.go) into the JSON
// form peer.mjs prints: integers and decimals as base-10 strings, binary
// as hex.
func jsonCanon(v any) any {
	switch v := v.(type) {
	case nil, bool, float64, string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	case uint64:
		return strconv.FormatUint(v, 10)
	case decimalValue:
		return string(v)
	case binaryValue:
		return hex.EncodeToString([]byte(v))
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = jsonCanon(e)
		}
		return out
	}
	panic(fmt.Sprintf("jsonCanon: %T", v))
}

type jsRead struct {
	Error  string `json:"error"`
	Format string `json:"format"`
	Fields []struct {
		Name     string `json:"name"`
		Type     string `json:"type"`
		Nullable bool   `json:"nullable"`
		// ChildNames are the nested fields' names depth first (an
		// empty name arrives as JSON null, read here as "").
		ChildNames []string `json:"childNames"`
	} `json:"fields"`
	Batches [][][]any `json:"batches"`
}

func TestRandomAlkaidToJS(t *testing.T) {
	node, script := jsPeer(t)
	dir := t.TempDir()

	// Every type on its own, then every type apache-arrow reads together.
	cases := typeCases()
	all := cases[len(cases)-1]
	var supported []datatype.Field
	for _, f := range all.Fields() {
		if _, lacks := jsLacks[f.Name]; !lacks {
			supported = append(supported, f)
		}
	}
	cases[len(cases)-1] = alkaid.NewSchema(supported, all.Metadata())

	type written struct {
		name, path string
		file       bool
		schema     *alkaid.Schema
		recs       []*alkaid.Record
	}
	var files []written
	var paths []string
	for ci, schema := range cases {
		for _, file := range []bool{false, true} {
			w := written{name: caseName(schema) + "/" + formatName(file), file: file, schema: schema}
			w.recs = alkaidBatches(schema, interopSeed+uint64(ci)*2, file)
			ext := ".arrows"
			if file {
				ext = ".arrow"
			}
			w.path = filepath.Join(dir, caseName(schema)+ext)
			require.NoError(t, os.WriteFile(w.path, writeAlkaid(t, schema, w.recs, file), 0o644))
			files = append(files, w)
			paths = append(paths, w.path)
		}
	}

	// One node process reads them all.
	var got map[string]jsRead
	require.NoError(t, json.Unmarshal(runJSPeer(t, node, script, append([]string{"read"}, paths...)...), &got))

	for _, w := range files {
		t.Run(w.name, func(t *testing.T) {
			r, ok := got[w.path]
			require.True(t, ok, "peer.mjs printed nothing for %s", w.path)
			if w.schema.NumFields() == 1 {
				if reason, lacks := jsLacks[w.schema.Field(0).Name]; lacks {
					require.NotEmpty(t, r.Error, "apache-arrow now reads %s: take it off jsLacks", w.schema.Field(0).Name)
					require.Contains(t, r.Error, reason)
					t.Skipf("apache-arrow lacks %s: %s", w.schema.Field(0).Type, r.Error)
				}
			}
			require.Empty(t, r.Error)
			require.Equal(t, formatName(w.file), r.Format)
			require.Len(t, r.Fields, w.schema.NumFields())
			for i, f := range r.Fields {
				require.Equal(t, w.schema.Field(i).Name, f.Name)
				require.Equal(t, w.schema.Field(i).Nullable, f.Nullable, "%s nullable", f.Name)
			}
			require.Len(t, r.Batches, len(w.recs))
			slots := 0
			for b, rec := range w.recs {
				require.Len(t, r.Batches[b], rec.NumCols())
				for c := range rec.NumCols() {
					col := r.Batches[b][c]
					require.Len(t, col, rec.NumRows(), "batch %d column %s", b, rec.ColumnName(c))
					for i := range rec.NumRows() {
						want := jsonCanon(alkaidValue(rec.Column(c), i))
						if !reflect.DeepEqual(want, col[i]) {
							t.Errorf("batch %d column %q row %d: Alkaid %#v, apache-arrow %#v", b, rec.ColumnName(c), i, want, col[i])
							break
						}
						slots++
					}
				}
			}
			t.Logf("%d slots equal", slots)
		})
	}
}

// jsWantRecord is the batch peer.mjs writes, built with Alkaid.
func jsWantRecord(t *testing.T) *alkaid.Record {
	t.Helper()
	f := func(name string, dt datatype.DataType) datatype.Field {
		return datatype.Field{Name: name, Type: dt, Nullable: true}
	}
	must := func(dt datatype.DataType, err error) datatype.DataType {
		require.NoError(t, err)
		return dt
	}
	fields := []datatype.Field{
		f("int32", datatype.Int32),
		f("int64", datatype.Int64),
		f("float64", datatype.Float64),
		f("utf8", datatype.String),
		f("bool", datatype.Bool),
		f("list", datatype.ListOfField(f("item", datatype.Int32))),
		f("list_unnamed", datatype.ListOfField(f("", datatype.Int32))),
		f("struct", datatype.StructOf(f("a", datatype.Int64), f("b", datatype.String))),
		f("dictionary", must(datatype.NewDictionary(datatype.Int32, datatype.String, false))),
		f("timestamp", must(datatype.NewTimestamp(datatype.Microsecond, "UTC"))),
		f("date32", datatype.Date32Type),
		f("decimal128", must(datatype.NewDecimal(128, 38, 4))),
		f("nulls", datatype.String),
		// apache-arrow marks a null-type column it infers non-nullable
		{Name: "null", Type: datatype.Null},
	}
	values := []string{
		`[1, null, -3, 2147483647, -2147483648]`,
		`["9007199254740993", null, "-9223372036854775808", 0, 42]`,
		`[1.5, -0.25, null, 1e300, 3.141592653589793]`,
		`["alkaid", null, "", "µ矢€", "a string longer than twelve"]`,
		`[true, false, null, true, false]`,
		`[[1, 2], [], null, [3, null, 5], [6]]`,
		`[[7], null, [], [8, 9], [null]]`,
		`[{"a": 1, "b": "x"}, null, {"a": null, "b": "zz"}, {"a": -5, "b": null}, {"a": 7, "b": "w"}]`,
		`["red", "green", null, "red", "blue"]`,
		`[1700000000123000, null, -1000, 0, 4102444800000000]`,
		`[19000, null, -1, 0, 2932896]`,
		`["1.2345", null, "0", "100000000000000000000000000.0007", "-10000000000000000"]`,
		`[null, null, null, null, null]`,
		`[null, null, null, null, null]`,
	}
	cols := make([]array.Array, len(fields))
	for i, fl := range fields {
		var err error
		cols[i], err = arrayjson.Parse(fl.Type, values[i])
		require.NoError(t, err, fl.Name)
	}
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), cols, 5)
	require.NoError(t, err)
	return rec
}

func TestJSToAlkaid(t *testing.T) {
	node, script := jsPeer(t)
	dir := t.TempDir()
	stream, file, empty := filepath.Join(dir, "js.arrows"), filepath.Join(dir, "js.arrow"), filepath.Join(dir, "js_empty.arrow")
	runJSPeer(t, node, script, "write", stream, file, empty)
	want := jsWantRecord(t)

	for _, isFile := range []bool{false, true} {
		t.Run(formatName(isFile), func(t *testing.T) {
			path := stream
			if isFile {
				path = file
			}
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			schema, recs := readAlkaid(t, b, isFile)
			require.Len(t, recs, 1)
			require.Equal(t, want.NumCols(), schema.NumFields())
			for c := range want.NumCols() {
				wf, gf := want.Schema().Field(c), schema.Field(c)
				require.Equal(t, wf.Name, gf.Name)
				require.Equal(t, wf.Nullable, gf.Nullable, "%s nullable", wf.Name)
				require.True(t, datatype.Equal(wf.Type, gf.Type), "%s: want %s, Alkaid read %s", wf.Name, wf.Type, gf.Type)
				require.Equal(t, alkaidChildNames(wf.Type), alkaidChildNames(gf.Type), "%s: child names", wf.Name)
				if i, desc, equal := array.FirstDifference(want.Column(c), recs[0].Column(c)); !equal {
					t.Errorf("%s: first difference at %d: %s", wf.Name, i, desc)
				}
			}
			if isFile {
				requireNoLeadingSchema(t, b)
			}
		})
	}
	// The schema alone, as a file without batches (and without a
	// leading schema message).
	t.Run("file without batches", func(t *testing.T) {
		b, err := os.ReadFile(empty)
		require.NoError(t, err)
		requireNoLeadingSchema(t, b)
		schema, recs := readAlkaid(t, b, true)
		require.Empty(t, recs)
		require.Equal(t, want.Schema().String(), schema.String())
		for c := range want.NumCols() {
			require.Equal(t, alkaidChildNames(want.Schema().Field(c).Type), alkaidChildNames(schema.Field(c).Type))
		}
	})
}
