package interop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	aparquet "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet"
)

// The tests of this file add a third independent Parquet reader to those
// of parquet_indep_test.go: parquet-wasm, arrow-rs's Parquet reader built
// for WebAssembly, run under Node.js by js/parquet.mjs's wasm-read
// command. Its Arrow result passes to apache-arrow as an IPC stream and
// from there into the same canonical JSON form, compared with the same
// code. Besides the tests the other readers have (parquet-testing, one
// file per randdata field with pages v1 and v2), parquet-wasm reads
// Alkaid's files for every codec and for every value encoding forced on
// the columns it suits.

// pqWasmNode returns node and the parquet.mjs script, or skips the test
// when node or the parquet-wasm package is missing.
func pqWasmNode(t *testing.T) (node, script string) {
	t.Helper()
	node, script = pqNode(t, false)
	if _, err := os.Stat(filepath.Join(filepath.Dir(script), "node_modules", "parquet-wasm", "package.json")); err != nil {
		t.Skip("interop/js/node_modules/parquet-wasm is missing: skipping the parquet-wasm checks; run `npm ci` in interop/js (.ci/run does)")
	}
	return node, script
}

// pqWasmConformanceSkips lists the parquet-testing files parquet-wasm
// cannot read, with a part of what it says; the test checks that it
// still cannot.
var pqWasmConformanceSkips = map[string]string{
	// Written by a Dremio build of parquet-mr 1.12.0 that puts a list of
	// structs in field 15 of ColumnMetaData, which the format declares
	// bloom_filter_length (i32). arrow-rs's footer decoder reads the field
	// by its id without looking at its wire type and stops; Alkaid skips
	// a field whose wire type is not the declared one, and hyparquet and
	// DuckDB read the file too.
	"dict-page-offset-zero.parquet": "Parquet error: Expected list element type of I64 but got I16",
	// A dictionary page whose header declares more bytes than the values
	// need: arrow-rs reads past the page (arrow-go, DuckDB and Alkaid
	// read the 25 rows).
	"nation.dict-malformed.parquet": "Invalid page header",
}

// pqWasmDisagreements pins each parquet-testing column where Alkaid and
// parquet-wasm give different values ("file/column" → a part of the
// difference); the test fails when one of them starts agreeing.
// None today: every column parquet-wasm reads equals Alkaid's.
var pqWasmDisagreements = map[string]string{}

// TestParquetConformanceParquetWasm compares every parquet-testing file
// Alkaid reads with parquet-wasm's reading of it, column by column.
func TestParquetConformanceParquetWasm(t *testing.T) {
	node, script := pqWasmNode(t)
	pqConformance(t, node, script, "wasm-read", pqWasmConformanceSkips, pqWasmDisagreements)
}

// pqWrittenWasmDisagreements pins the randdata fields whose values
// parquet-wasm reads from a file Alkaid writes otherwise than Alkaid
// wrote them (field → a part of the difference).
var pqWrittenWasmDisagreements = map[string]string{
	// Intervals other than months have no Parquet type: Alkaid stores
	// them raw (INT64, FIXED_LEN_BYTE_ARRAY(16)) and restores them from
	// its stored Arrow schema; arrow-rs does not take the interval type
	// from that schema for these columns and gives the raw values.
	"interval_day_time": `other reader "-5826831099165941986"`,
	"interval_mdn":      `other reader "1edf03b8fcef22af61175c8136f510e7"`,
}

// TestParquetAlkaidToParquetWasm has parquet-wasm read the files Alkaid
// writes for every randdata type Parquet holds, one codec after another.
func TestParquetAlkaidToParquetWasm(t *testing.T) {
	node, script := pqWasmNode(t)
	pqWritten(t, node, script, "wasm-read", pqWrittenWasmDisagreements)
}

// TestParquetAlkaidV2ToParquetWasm is TestParquetAlkaidToParquetWasm with
// data pages v2.
func TestParquetAlkaidV2ToParquetWasm(t *testing.T) {
	node, script := pqWasmNode(t)
	pqWritten(t, node, script, "wasm-read", pqWrittenWasmDisagreements, parquet.WithDataPageV2())
}

// pqEncodingSuits lists, for each value encoding Alkaid's writer can be
// asked for, the physical types the format allows it for.
var pqEncodingSuits = map[parquet.Encoding][]aparquet.Type{
	parquet.DeltaBinaryPacked:    {aparquet.Types.Int32, aparquet.Types.Int64},
	parquet.DeltaLengthByteArray: {aparquet.Types.ByteArray},
	parquet.DeltaByteArray:       {aparquet.Types.ByteArray, aparquet.Types.FixedLenByteArray},
	parquet.ByteStreamSplit: {aparquet.Types.Int32, aparquet.Types.Int64, aparquet.Types.Float,
		aparquet.Types.Double, aparquet.Types.FixedLenByteArray},
}

// pqWriteCanon writes recs to path with Alkaid's writer and returns their
// canonical columns as they arrive through JSON.
func pqWriteCanon(t *testing.T, path string, s *alkaid.Schema, recs []*alkaid.Record, opts ...parquet.Option) map[string][]any {
	t.Helper()
	var buf bytes.Buffer
	w, err := parquet.NewWriter(&buf, s, opts...)
	require.NoError(t, err)
	want := map[string][]any{}
	for _, r := range recs {
		require.NoError(t, w.Write(r))
		for c := range r.NumCols() {
			for j := range r.NumRows() {
				want[r.ColumnName(c)] = append(want[r.ColumnName(c)], pqCanon(r.Column(c), j))
			}
		}
	}
	require.NoError(t, w.Close())
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	b, err := json.Marshal(want)
	require.NoError(t, err)
	want = map[string][]any{}
	require.NoError(t, json.Unmarshal(b, &want))
	return want
}

// pqLeafTypes gives the dotted path and physical type of every leaf
// column of a Parquet file, as arrow-go's footer reader sees them.
func pqLeafTypes(t *testing.T, path string) map[string]aparquet.Type {
	t.Helper()
	r, err := file.OpenParquetFile(path, false)
	require.NoError(t, err)
	defer r.Close()
	out := map[string]aparquet.Type{}
	sc := r.MetaData().Schema
	for i := range sc.NumColumns() {
		out[sc.Column(i).Path()] = sc.Column(i).PhysicalType()
	}
	return out
}

// pqWasmRawIntervals pins, in files of many fields, the two intervals
// of pqWrittenWasmDisagreements: Alkaid's value is an array of
// components, parquet-wasm's the raw value.
var pqWasmRawIntervals = map[string]string{
	"interval_day_time": `], other reader "`,
	"interval_mdn":      `], other reader "`,
}

// pqWasmEncodingPins pins the fields ("ENCODING/field") parquet-wasm
// cannot read or reads otherwise when Alkaid forces that encoding on them
// (a part of the error or difference); the test fails when one starts
// agreeing.
var pqWasmEncodingPins = map[string]string{}

// TestParquetAlkaidCodecsToParquetWasm has Alkaid write every randdata
// type Parquet holds into one file per codec (all seven, the
// Hadoop-framed LZ4 included), with data pages v1 and v2, small pages and
// row groups; parquet-wasm reads each with the values written but for the
// intervals without a Parquet type.
func TestParquetAlkaidCodecsToParquetWasm(t *testing.T) {
	node, script := pqWasmNode(t)
	fields := pqFields(t)
	s := alkaid.NewSchema(fields, datatype.Metadata{})
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
	}
	recs := alkaidBatches(s, interopSeed, true)
	dir := t.TempDir()
	var files []pqWasmFile
	for _, c := range []parquet.Codec{parquet.Uncompressed, parquet.Snappy, parquet.Gzip, parquet.Brotli,
		parquet.LZ4, parquet.Zstd, parquet.LZ4Raw} {
		for _, v2 := range []bool{false, true} {
			name := c.String()
			opts := []parquet.Option{parquet.WithCompression(c, 0), parquet.WithRowGroupRows(64), parquet.WithPageSize(512)}
			if v2 {
				name, opts = name+"_v2", append(opts, parquet.WithDataPageV2())
			}
			path := filepath.Join(dir, name+".parquet")
			files = append(files, pqWasmFile{name, path, names, pqWriteCanon(t, path, s, recs, opts...)})
		}
	}
	pqWasmCheck(t, node, script, files, func(_, col string) (string, bool) {
		pin, ok := pqWasmRawIntervals[col]
		return pin, ok
	})
}

// TestParquetAlkaidEncodingsToParquetWasm has Alkaid write each randdata
// field Parquet holds once per value encoding that suits one of its leaf
// columns (DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
// BYTE_STREAM_SPLIT), forced on every leaf it suits, dictionaries off,
// data pages v1 and v2, small pages; parquet-wasm reads each file with the
// values written but for the pins of pqWasmEncodingPins and the
// intervals.
func TestParquetAlkaidEncodingsToParquetWasm(t *testing.T) {
	node, script := pqWasmNode(t)
	fields := pqFields(t)
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.parquet")
	all := alkaid.NewSchema(fields, datatype.Metadata{})
	pqWriteCanon(t, plain, all, alkaidBatches(all, interopSeed, true), parquet.WithDictionary(false, 0))
	leaves := pqLeafTypes(t, plain)

	var files []pqWasmFile
	for _, e := range []parquet.Encoding{parquet.DeltaBinaryPacked, parquet.DeltaLengthByteArray,
		parquet.DeltaByteArray, parquet.ByteStreamSplit} {
		forced := 0
		for _, f := range fields {
			opts := []parquet.Option{parquet.WithDictionary(false, 0), parquet.WithRowGroupRows(64), parquet.WithPageSize(512)}
			for path, typ := range leaves {
				if (path == f.Name || strings.HasPrefix(path, f.Name+".")) && slices.Contains(pqEncodingSuits[e], typ) {
					opts = append(opts, parquet.WithColumnEncoding(path, e))
				}
			}
			if len(opts) == 3 {
				continue
			}
			forced++
			s := alkaid.NewSchema([]datatype.Field{f}, datatype.Metadata{})
			recs := alkaidBatches(s, interopSeed, true)
			for _, v2 := range []bool{false, true} {
				name := e.String() + "/" + f.Name
				o := slices.Clone(opts)
				if v2 {
					name, o = name+"_v2", append(o, parquet.WithDataPageV2())
				}
				path := filepath.Join(dir, strings.ReplaceAll(name, "/", "_")+".parquet")
				files = append(files, pqWasmFile{name, path, []string{f.Name}, pqWriteCanon(t, path, s, recs, o...)})
			}
		}
		require.Positive(t, forced, "no field suits %s", e)
		t.Logf("%s forced on %d fields", e, forced)
	}
	seen := map[string]bool{}
	pqWasmCheck(t, node, script, files, func(file, col string) (string, bool) {
		key := strings.TrimSuffix(file, "_v2")
		if pin, ok := pqWasmEncodingPins[key]; ok {
			seen[key] = true
			return pin, true
		}
		pin, ok := pqWrittenWasmDisagreements[col]
		return pin, ok
	})
	for k := range pqWasmEncodingPins {
		require.True(t, seen[k], "pinned %s is no longer written", k)
	}
}

// pqWasmFile is a file Alkaid wrote for parquet-wasm: its test name,
// path, top-level columns and their canonical values.
type pqWasmFile struct {
	name, path string
	cols       []string
	want       map[string][]any
}

// pqWasmCheck reads the files with parquet-wasm in one node process and
// compares every column with what was written; pin gives a part of the
// error or difference expected of a column of a file, if any.
func pqWasmCheck(t *testing.T, node, script string, files []pqWasmFile, pin func(file, col string) (string, bool)) {
	t.Helper()
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.path
	}
	got := independentRead(t, node, script, "wasm-read", paths)
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			r := got[f.path]
			diffs := pqCompare(f.want, r.Columns, f.cols)
			cells := 0
			for _, col := range f.cols {
				d := diffs[col]
				if r.Error != "" {
					d = r.Error
				}
				if p, ok := pin(f.name, col); ok {
					require.NotEmpty(t, d, "parquet-wasm now reads %s of %s as written: take it off its pinned list", col, f.name)
					require.Contains(t, d, p, "%s of %s", col, f.name)
					t.Logf("%s: known disagreement: %.200s", col, d)
					continue
				}
				if assert.Empty(t, d, "%s of %s", col, f.name) {
					cells += len(f.want[col])
				}
			}
			t.Logf("%d columns, %d values equal", len(f.cols), cells)
		})
	}
}

// pqWasmWriteJob is one file for parquet.mjs's wasm-write command.
type pqWasmWriteJob struct {
	In          string `json:"in"`
	Out         string `json:"out"`
	Compression string `json:"compression"`
	V2          bool   `json:"v2"`
	Dictionary  bool   `json:"dictionary"`
}

// pqWasmWriteSkips lists the randdata fields parquet-wasm cannot write,
// with a part of what it says; the test checks that it still cannot.
var pqWasmWriteSkips = map[string]string{
	"interval_mdn": "NYI: Attempting to write an Arrow interval type MonthDayNano to parquet that is not yet implemented",
}

// pqWasmWrittenPin is a part of the type difference and of the first
// value difference expected when Alkaid reads a field parquet-wasm
// wrote; "" where there must be none.
type pqWasmWrittenPin struct{ typ, value string }

// pqWasmWrittenPins pins the fields Alkaid reads from files parquet-wasm
// writes with another type or other values than written; the test fails
// when one starts agreeing.
var pqWasmWrittenPins = map[string]pqWasmWrittenPin{
	// arrow-rs writes a run-end encoded column as its values and stores
	// the values' type in ARROW:schema: the run-end encoding is lost, not
	// the values.
	"run_end_encoded":      {typ: "type float32, written run_end_encoded"},
	"run_end_encoded_utf8": {typ: "type utf8, written run_end_encoded"},
}

// TestParquetWasmToAlkaid has parquet-wasm (arrow-rs's writer) write one
// file per randdata field Parquet holds, from an Arrow IPC stream Alkaid
// writes, with data pages v1 and v2, the codecs taken in turn (LZO, which
// it lacks, left out), dictionaries on and off, row groups of 64 rows and
// small pages; Alkaid reads each with the values and types written.
func TestParquetWasmToAlkaid(t *testing.T) {
	node, script := pqWasmNode(t)
	dir := t.TempDir()
	codecs := []string{"SNAPPY", "ZSTD", "GZIP", "LZ4_RAW", "BROTLI", "LZ4", "UNCOMPRESSED"}
	type written struct {
		name  string
		field datatype.Field
		path  string
		want  map[string][]any
	}
	var files []written
	var jobs []pqWasmWriteJob
	for i, f := range pqFields(t) {
		s := alkaid.NewSchema([]datatype.Field{f}, datatype.Metadata{})
		recs := alkaidBatches(s, interopSeed, true)
		want := map[string][]any{}
		for _, r := range recs {
			for j := range r.NumRows() {
				want[f.Name] = append(want[f.Name], pqCanon(r.Column(0), j))
			}
		}
		b, err := json.Marshal(want)
		require.NoError(t, err)
		want = map[string][]any{}
		require.NoError(t, json.Unmarshal(b, &want))
		in := filepath.Join(dir, f.Name+".ipcs")
		require.NoError(t, os.WriteFile(in, writeAlkaid(t, s, recs, false), 0o644))
		for _, v2 := range []bool{false, true} {
			name := f.Name
			if v2 {
				name += "_v2"
			}
			out := filepath.Join(dir, name+".parquet")
			jobs = append(jobs, pqWasmWriteJob{in, out, codecs[i%len(codecs)], v2, i%2 == 0})
			files = append(files, written{name, f, out, want})
		}
	}
	spec, err := json.Marshal(jobs)
	require.NoError(t, err)
	specPath := filepath.Join(dir, "jobs.json")
	require.NoError(t, os.WriteFile(specPath, spec, 0o644))
	var res map[string]struct {
		Error string `json:"error"`
	}
	require.NoError(t, json.Unmarshal(runJSPeer(t, node, script, "wasm-write", specPath), &res))
	for k, f := range files {
		t.Run(f.name, func(t *testing.T) {
			r, ok := res[f.path]
			require.True(t, ok, "parquet.mjs said nothing of %s", f.path)
			if want, ok := pqWasmWriteSkips[f.field.Name]; ok {
				require.Contains(t, r.Error, want, "parquet-wasm now writes %s: take it off its list", f.field.Name)
				t.Logf("parquet-wasm cannot write it, as expected: %s", r.Error)
				return
			}
			require.Empty(t, r.Error, "parquet-wasm cannot write %s (%s)", f.name, jobs[k].Compression)
			pf, err := parquet.OpenFile(f.path)
			require.NoError(t, err)
			defer pf.Close()
			got := pf.Schema().Field(0)
			typeDiff := ""
			if !datatype.Equal(got.Type, f.field.Type) {
				typeDiff = fmt.Sprintf("type %s, written %s", got.Type, f.field.Type)
			}
			cols, names, err := alkaidParquetColumns(f.path)
			require.NoError(t, err)
			// Read back, the other way round: pqCompare names the first
			// values "Alkaid" and these "other reader".
			diff := pqCompare(cols, f.want, names)[f.field.Name]
			pin := pqWasmWrittenPins[f.field.Name]
			for _, c := range []struct{ what, got, want string }{{"type", typeDiff, pin.typ}, {"values", diff, pin.value}} {
				if c.want == "" {
					require.Empty(t, c.got, c.what)
					continue
				}
				require.NotEmpty(t, c.got, "Alkaid now reads the %s of %s as written: take it off the pinned list", c.what, f.field.Name)
				require.Contains(t, c.got, c.want)
				t.Logf("known disagreement: %s", c.got)
			}
			if pin == (pqWasmWrittenPin{}) {
				t.Logf("%s, %s: %d values equal", jobs[k].Compression, got.Type, len(f.want[f.field.Name]))
			}
		})
	}
}

// TestParquetDuckDBToParquetWasm has parquet-wasm read the file DuckDB
// writes in TestParquetDuckDBToAlkaid (22 columns, nested ones and UUIDs
// included): every column equals Alkaid's reading of it.
func TestParquetDuckDBToParquetWasm(t *testing.T) {
	node, script := pqWasmNode(t)
	pqNode(t, true) // DuckDB too
	path := string(runJSPeer(t, node, script, "duckdb-write", t.TempDir()))
	ours, names, err := alkaidParquetColumns(path)
	require.NoError(t, err)
	require.Len(t, names, 22)
	theirs := independentRead(t, node, script, "wasm-read", []string{path})[path]
	require.Empty(t, theirs.Error)
	require.Empty(t, pqCompare(ours, theirs.Columns, names))
	t.Logf("%d columns of %d rows equal between Alkaid and parquet-wasm", len(names), len(ours[names[0]]))
}
