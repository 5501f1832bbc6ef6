package interop

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet"
)

// The tests of this file check Alkaid's parquet package against
// independent Parquet readers run under Node.js through js/parquet.mjs:
// hyparquet (pure JS, with hyparquet-compressors for the codecs) and
// DuckDB (@duckdb/node-api, read_parquet) read every parquet-testing file
// Alkaid reads and every file Alkaid writes, and DuckDB writes one file
// (COPY ... TO) that Alkaid reads; parquet_wasmreader_test.go does the
// same with parquet-wasm (arrow-rs). Each column of a file
// is compared row by row through a canonical JSON form, defined alike in
// pqCanon here and in parquet.mjs:
//
//   - null; booleans; floats as JSON numbers, NaN and the infinities as
//     the strings "NaN", "Infinity", "-Infinity";
//   - integers of every width, decimals (the unscaled integer), dates
//     (days since the epoch), times and timestamps (nanoseconds; INT96
//     too) as base-10 strings;
//   - UTF-8 strings (and JSON) as strings; every other byte string,
//     fixed-size ones and UUIDs included, as lowercase hex;
//   - lists as arrays; structs as arrays of their fields in order; maps
//     as arrays of [key, value], the key as a string the way hyparquet
//     keys its objects (an integer in base 10).
//
// The tests skip, saying why, when node or js/node_modules is missing
// (.ci/run installs it with npm ci).

// pqNoCRC lists the files of parquet-testing whose pages carry a CRC
// that does not match them, as the files mean to. Alkaid refuses them by
// default (parquet/conformance_test.go checks that) and reads them with
// WithPageCRC(false) here: none of the other readers checks CRCs, and
// the values they read are compared. The encrypted files
// (*.parquet.encrypted) are read in parquet/crypto_conformance_test.go
// and interop/parquet_crypto_test.go.
var pqNoCRC = map[string]bool{
	"datapage_v1-corrupt-checksum.parquet":           true,
	"rle-dict-uncompressed-corrupt-checksum.parquet": true,
}

// pqHyparquetConformanceSkips lists the files hyparquet cannot read,
// with a part of what it says; the test checks that it still cannot.
var pqHyparquetConformanceSkips = map[string]string{
	// A dictionary page whose header declares more bytes than the
	// values need (arrow-go, DuckDB and Alkaid read the 25 rows).
	"nation.dict-malformed.parquet": "Invalid typed array length",
}

// pqDisagreements pins each column where Alkaid's reader and hyparquet
// give different values ("file/column" → what differs). The test fails
// when one of them starts agreeing, so the list stays true. Each is a
// finding to look into in the parquet package or in hyparquet.
var pqDisagreements = map[string]string{
	// A repeated field with no element is an empty list: it has no
	// definition level that could make it null. hyparquet 1.31.5 gives
	// null; Alkaid's [] is right.
	"repeated_primitive_no_list.parquet/Int32_list":     "row 1: Alkaid [], other reader null",
	"repeated_primitive_no_list.parquet/group_of_lists": "row 1: Alkaid [[],[\"three\"]], other reader [null,[\"three\"]]",
}

// pqNode returns node and the parquet.mjs script, or skips the test.
func pqNode(t *testing.T, withDuckDB bool) (node, script string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: skipping the independent Parquet reader checks; install Node.js and run `npm ci` in interop/js (.ci/run does)")
	}
	dir, err := filepath.Abs("js")
	require.NoError(t, err)
	pkgs := []string{"hyparquet", "hyparquet-compressors"}
	if withDuckDB {
		pkgs = append(pkgs, "@duckdb/node-api")
	}
	for _, p := range pkgs {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", p, "package.json")); err != nil {
			t.Skipf("interop/js/node_modules/%s is missing: skipping the independent Parquet reader checks; run `npm ci` in interop/js (.ci/run does)", p)
		}
	}
	return node, filepath.Join(dir, "parquet.mjs")
}

type pqRead struct {
	Error   string           `json:"error"`
	Columns map[string][]any `json:"columns"`
}

// hyparquetRead reads the files with hyparquet in one node process.
func hyparquetRead(t *testing.T, node, script string, paths []string) map[string]pqRead {
	return independentRead(t, node, script, "read", paths)
}

// pqReaderName names the reader of each parquet.mjs command.
var pqReaderName = map[string]string{"read": "hyparquet", "duckdb-read": "DuckDB", "wasm-read": "parquet-wasm"}

// independentRead reads the files with parquet.mjs's command cmd
// ("read": hyparquet, "duckdb-read": DuckDB, "wasm-read": parquet-wasm)
// in one node process.
func independentRead(t *testing.T, node, script, cmd string, paths []string) map[string]pqRead {
	t.Helper()
	var got map[string]pqRead
	require.NoError(t, json.Unmarshal(runJSPeer(t, node, script, append([]string{cmd}, paths...)...), &got))
	return got
}

// pqFloat is the canonical form of a float.
func pqFloat(f float64) any {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return f
}

// pqScale multiplies v by n as a base-10 string, without overflow.
func pqScale(v int64, n int64) string {
	return new(big.Int).Mul(big.NewInt(v), big.NewInt(n)).String()
}

// pqCanon is slot i of an Alkaid array in the canonical JSON form.
func pqCanon(a array.Array, i int) any {
	switch a := a.(type) {
	case *array.Extension:
		return pqCanon(a.Storage(), i)
	case *array.Dictionary:
		if a.IsNull(i) {
			return nil
		}
		return pqCanon(a.Dictionary(), a.ValueIndex(i))
	case *array.RunEndEncoded:
		return pqCanon(a.Values(), a.PhysicalIndex(i))
	}
	if a.IsNull(i) {
		return nil
	}
	switch a := a.(type) {
	case *array.Float16:
		return pqFloat(float64(a.Value(i).Float32()))
	case *array.Float32:
		return pqFloat(float64(a.Value(i)))
	case *array.Float64:
		return pqFloat(a.Value(i))
	case *array.Timestamp:
		u := a.DataType().(*datatype.TimestampType).Unit
		return pqScale(int64(a.Value(i)), 1e9/u.PerSecond())
	case *array.Time32:
		u := a.DataType().(*datatype.TimeType).Unit
		return pqScale(int64(a.Value(i)), 1e9/u.PerSecond())
	case *array.Time64:
		u := a.DataType().(*datatype.TimeType).Unit
		return pqScale(int64(a.Value(i)), 1e9/u.PerSecond())
	case *array.Date64:
		return strconv.FormatInt(int64(a.Value(i))/86400000, 10)
	case *array.Map:
		s, e := a.ValueOffsets(i)
		out := make([]any, 0, e-s)
		for j := s; j < e; j++ {
			k := pqCanon(a.Keys(), j)
			out = append(out, []any{fmt.Sprint(k), pqCanon(a.Items(), j)})
		}
		return out
	case array.ListLike:
		s, e := a.ValueOffsets(i)
		out := make([]any, 0, e-s)
		for j := s; j < e; j++ {
			out = append(out, pqCanon(a.ListValues(), j))
		}
		return out
	case *array.Struct:
		out := make([]any, 0, a.NumField())
		for f := range a.NumField() {
			out = append(out, pqCanon(a.Field(f), i))
		}
		return out
	}
	v := alkaidValue(a, i)
	switch v := v.(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case uint64:
		return strconv.FormatUint(v, 10)
	case decimalValue:
		return string(v)
	case binaryValue:
		return hex.EncodeToString([]byte(v))
	case []any: // intervals
		return jsonCanon(v)
	}
	return v
}

// alkaidParquetColumns reads a file with Alkaid's reader into canonical
// columns, keyed by top-level name, and gives the names in order.
func alkaidParquetColumns(path string, opts ...parquet.Option) (map[string][]any, []string, error) {
	f, err := parquet.OpenFile(path, opts...)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	cols := map[string][]any{}
	var names []string
	for rec, err := range f.Records() {
		if err != nil {
			return nil, nil, err
		}
		if names == nil {
			for c := range rec.NumCols() {
				names = append(names, rec.ColumnName(c))
			}
		}
		for c := range rec.NumCols() {
			col := rec.Column(c)
			for i := range col.Len() {
				cols[rec.ColumnName(c)] = append(cols[rec.ColumnName(c)], pqCanon(col, i))
			}
		}
	}
	// Through JSON, as the other side arrives.
	b, err := json.Marshal(cols)
	if err != nil {
		return nil, nil, err
	}
	out := map[string][]any{}
	return out, names, json.Unmarshal(b, &out)
}

// pqCompare compares every column of ours with theirs; it returns the
// first difference of each column, keyed by column name.
func pqCompare(ours, theirs map[string][]any, names []string) map[string]string {
	diffs := map[string]string{}
	for _, name := range names {
		o, h := ours[name], theirs[name]
		if len(o) != len(h) {
			diffs[name] = fmt.Sprintf("%d rows, other reader %d", len(o), len(h))
			continue
		}
		for i := range o {
			if !reflect.DeepEqual(o[i], h[i]) {
				ob, _ := json.Marshal(o[i])
				hb, _ := json.Marshal(h[i])
				diffs[name] = fmt.Sprintf("row %d: Alkaid %.200s, other reader %.200s", i, ob, hb)
				break
			}
		}
	}
	return diffs
}

func TestParquetConformanceHyparquet(t *testing.T) {
	node, script := pqNode(t, false)
	pqConformance(t, node, script, "read", pqHyparquetConformanceSkips, pqDisagreements)
}

// pqDuckDBConformanceSkips lists the files DuckDB cannot read, with what
// it says; the test checks that it still cannot.
var pqDuckDBConformanceSkips = map[string]string{
	"hadoop_lz4_compressed.parquet":     `Unsupported compression codec "LZ4"`,
	"non_hadoop_lz4_compressed.parquet": `Unsupported compression codec "LZ4"`,
}

// TestParquetConformanceDuckDB compares the same files with DuckDB's
// reading; DuckDB agrees with Alkaid on every column it reads.
func TestParquetConformanceDuckDB(t *testing.T) {
	node, script := pqNode(t, true)
	pqConformance(t, node, script, "duckdb-read", pqDuckDBConformanceSkips, map[string]string{})
}

// pqConformance reads every parquet-testing file with Alkaid and with
// parquet.mjs's command cmd and compares each column; cannot lists the
// files the other reader must fail on (with a part of its error), pins
// the columns where the two must differ.
func pqConformance(t *testing.T, node, script, cmd string, cannot, pins map[string]string) {
	dir := "../../shared/conformance/parquet-testing/data"
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent (../shared is missing in a fresh clone)", dir)
	} else if err != nil {
		t.Fatal(err)
	}
	type file struct {
		name, path string
		cols       map[string][]any
		names      []string
	}
	var files []file
	var paths []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".parquet") {
			continue
		}
		path := filepath.Join(dir, name)
		var opts []parquet.Option
		if pqNoCRC[name] {
			opts = append(opts, parquet.WithPageCRC(false))
		}
		cols, names, err := alkaidParquetColumns(path, opts...)
		if err != nil {
			t.Errorf("%s: Alkaid's reader refuses it: %v", name, err)
			continue
		}
		files = append(files, file{name, path, cols, names})
		paths = append(paths, path)
	}
	got := independentRead(t, node, script, cmd, paths)
	seen := map[string]bool{}
	cells := 0
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			r := got[f.path]
			if want, ok := cannot[f.name]; ok {
				require.Contains(t, r.Error, want, "%s now reads %s: take it off its list", pqReaderName[cmd], f.name)
				t.Logf("%s cannot read it, as expected: %s", pqReaderName[cmd], r.Error)
				return
			}
			require.Empty(t, r.Error, "%s cannot read %s", pqReaderName[cmd], f.name)
			diffs := pqCompare(f.cols, r.Columns, f.names)
			for _, name := range f.names {
				key := f.name + "/" + name
				want, pinned := pins[key]
				if pinned {
					seen[key] = true
					require.NotEmpty(t, diffs[name], "%s now agrees with %s: take it off the pinned list", key, pqReaderName[cmd])
					require.Contains(t, diffs[name], want, key)
					t.Logf("%s: known disagreement: %s", key, diffs[name])
					continue
				}
				if d := diffs[name]; d != "" {
					t.Errorf("%s: %s", key, d)
					continue
				}
				cells += len(f.cols[name])
			}
		})
	}
	var stale []string
	for k := range pins {
		if !seen[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(stale)
	require.Empty(t, stale, "pinned columns no longer compared")
	t.Logf("%d files, %d column values equal between Alkaid and %s", len(files), cells, pqReaderName[cmd])
}

// pqWrittenDisagreements pins the randdata fields whose values hyparquet
// reads from a file Alkaid writes otherwise than Alkaid wrote them
// (field → what differs); the test fails when one starts agreeing.
var pqWrittenDisagreements = map[string]string{
	// Parquet has no seconds unit: Alkaid stores timestamp[s] as a plain
	// INT64 (its stored Arrow schema restores the type), so hyparquet
	// gives the raw count of seconds.
	"timestamp_s": `other reader "-5826831099165941986"`,
	// Intervals other than months have no Parquet type: Alkaid stores
	// them raw (INT64, FIXED_LEN_BYTE_ARRAY(16)), read back through the
	// stored Arrow schema; hyparquet gives the raw value.
	"interval_day_time": `other reader "-5826831099165941986"`,
	"interval_mdn":      `other reader "1edf03b8fcef22af61175c8136f510e7"`,
	// randdata's maps repeat keys; Alkaid writes them as they are and
	// hyparquet, building a JS object per map, keeps the last value of a
	// repeated key.
	"map": `row 51: Alkaid [["denebalkaid€","824147342"],["phecda矢","889455528"],["phecda矢","886140551"]], other reader [["denebalkaid€","824147342"],["phecda矢","886140551"]]`,
}

func TestParquetAlkaidToHyparquet(t *testing.T) {
	node, script := pqNode(t, false)
	pqWritten(t, node, script, "read", pqWrittenDisagreements)
}

// TestParquetAlkaidV2ToHyparquet is TestParquetAlkaidToHyparquet with
// data pages v2.
func TestParquetAlkaidV2ToHyparquet(t *testing.T) {
	node, script := pqNode(t, false)
	pqWritten(t, node, script, "read", pqWrittenDisagreements, parquet.WithDataPageV2())
}

// pqWrittenDuckDBDisagreements is pqWrittenDisagreements for DuckDB.
var pqWrittenDuckDBDisagreements = map[string]string{
	// DuckDB limits: decimals of more than 38 digits read as DOUBLE,
	// TIME(NANOS) read as microseconds.
	"decimal256": `other reader 0.006841268531789093`,
	"time64ns":   `Alkaid "59108560114657", other reader "59108560114000"`,
	// As for hyparquet: no Parquet type for these.
	"timestamp_s":       `other reader "-5826831099165941986"`,
	"interval_day_time": `other reader "-5826831099165941986"`,
	"interval_mdn":      `other reader "1edf03b8fcef22af61175c8136f510e7"`,
}

func TestParquetAlkaidToDuckDB(t *testing.T) {
	node, script := pqNode(t, true)
	pqWritten(t, node, script, "duckdb-read", pqWrittenDuckDBDisagreements)
}

// TestParquetAlkaidV2ToDuckDB is TestParquetAlkaidToDuckDB with data
// pages v2.
func TestParquetAlkaidV2ToDuckDB(t *testing.T) {
	node, script := pqNode(t, true)
	pqWritten(t, node, script, "duckdb-read", pqWrittenDuckDBDisagreements, parquet.WithDataPageV2())
}

// pqWritten writes one file per randdata field Parquet holds with
// Alkaid's writer, the codecs taken in turn (dictionaries off for every
// other field, small pages with CRCs for every third), and reads them with
// parquet.mjs's command cmd: the values must equal those written but for
// the fields pinned (field → a part of the difference). Every file is
// also written with the options extra.
func pqWritten(t *testing.T, node, script, cmd string, pins map[string]string, extra ...parquet.Option) {
	dir := t.TempDir()
	codecs := []parquet.Codec{parquet.Snappy, parquet.Zstd, parquet.Gzip, parquet.LZ4Raw, parquet.Brotli, parquet.Uncompressed}
	type written struct {
		name, path string
		want       map[string][]any
	}
	var files []written
	var paths []string
	for i, f := range pqFields(t) {
		s := alkaid.NewSchema([]datatype.Field{f}, datatype.Metadata{})
		recs := alkaidBatches(s, interopSeed, true)
		var buf bytes.Buffer
		opts := []parquet.Option{parquet.WithCompression(codecs[i%len(codecs)], 0), parquet.WithRowGroupRows(64)}
		if i%2 == 1 {
			opts = append(opts, parquet.WithDictionary(false, 0))
		}
		if i%3 == 2 {
			opts = append(opts, parquet.WithPageSize(512), parquet.WithPageCRC(true))
		}
		opts = append(opts, extra...)
		w, err := parquet.NewWriter(&buf, s, opts...)
		require.NoError(t, err)
		want := map[string][]any{}
		for _, r := range recs {
			require.NoError(t, w.Write(r))
			for j := range r.NumRows() {
				want[f.Name] = append(want[f.Name], pqCanon(r.Column(0), j))
			}
		}
		require.NoError(t, w.Close())
		b, err := json.Marshal(want)
		require.NoError(t, err)
		want = map[string][]any{}
		require.NoError(t, json.Unmarshal(b, &want))
		path := filepath.Join(dir, f.Name+".parquet")
		require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
		files = append(files, written{f.Name, path, want})
		paths = append(paths, path)
	}
	got := independentRead(t, node, script, cmd, paths)
	for _, w := range files {
		t.Run(w.name, func(t *testing.T) {
			r := got[w.path]
			diff := r.Error
			if diff == "" {
				diff = pqCompare(w.want, r.Columns, []string{w.name})[w.name]
			}
			if pin, ok := pins[w.name]; ok {
				require.NotEmpty(t, diff, "%s now reads %s as written: take it off the pinned list", pqReaderName[cmd], w.name)
				require.Contains(t, diff, pin)
				t.Logf("known disagreement: %s", diff)
				return
			}
			require.Empty(t, diff)
			t.Logf("%d values equal", len(w.want[w.name]))
		})
	}
}

// TestParquetDuckDBToAlkaid has DuckDB write a file (COPY ... TO, zstd,
// row groups of 128 rows) with integers of several widths, floats with
// nulls, decimals of 9, 18 and 38 digits, strings, blobs, booleans,
// dates, timestamps with and without time zone, times, lists, a struct
// holding a list, a map, a list of structs and UUIDs; Alkaid reads it and
// every column equals hyparquet's and DuckDB's own reading of it, and a
// few values equal what the SQL of parquet.mjs computes.
func TestParquetDuckDBToAlkaid(t *testing.T) {
	node, script := pqNode(t, true)
	dir := t.TempDir()
	path := string(runJSPeer(t, node, script, "duckdb-write", dir))
	ours, names, err := alkaidParquetColumns(path)
	require.NoError(t, err)
	require.Len(t, names, 22)
	theirs := hyparquetRead(t, node, script, []string{path})[path]
	require.Empty(t, theirs.Error)
	require.Empty(t, pqCompare(ours, theirs.Columns, names))
	duck := independentRead(t, node, script, "duckdb-read", []string{path})[path]
	require.Empty(t, duck.Error)
	require.Empty(t, pqCompare(ours, duck.Columns, names))
	for _, c := range []struct {
		col  string
		row  int
		want any
	}{
		{"i32", 299, "299"},
		{"u64", 299, "1196000000000"},
		{"f64", 5, nil},
		{"d9", 2, "24690"},               // 2 × 12.345, scale 3
		{"d38", 1, "123456789012345678"}, // scale 3
		{"d18", 1, "-987654321"},         // scale 4
		{"s", 7, "row 7"},
		{"b", 255, "ff"},
		{"flag", 3, false},
		{"dt", 1, "10958"},         // 2000-01-02
		{"tm", 0, "3723000000000"}, // 01:02:03
		{"ints", 3, []any{"0", "1", "2"}},
		{"ints", 4, nil},
		{"st", 2, []any{"2", "x2", []any{2.0, nil}}},
		{"m", 1, []any{[]any{"k1", "1"}, []any{"z", nil}}},
		{"lst", 1, []any{[]any{"1", []any{"u", nil}}, nil}},
	} {
		require.Len(t, ours[c.col], 300, c.col)
		require.Equal(t, c.want, ours[c.col][c.row], "%s row %d", c.col, c.row)
	}
	t.Logf("%d columns of %d rows equal between Alkaid, hyparquet and DuckDB", len(names), len(ours[names[0]]))
}

// TestParquetCompareFindsDifferences shows that the comparison of
// canonical columns reports what differs: a test that could not fail
// would prove nothing.
func TestParquetCompareFindsDifferences(t *testing.T) {
	ours := map[string][]any{"a": {"1", nil, []any{"x", 1.5}}, "b": {"NaN"}}
	for _, c := range []struct {
		name   string
		theirs map[string][]any
		want   map[string]string
	}{
		{"equal", map[string][]any{"a": {"1", nil, []any{"x", 1.5}}, "b": {"NaN"}}, map[string]string{}},
		{"value", map[string][]any{"a": {"1", nil, []any{"x", 2.5}}, "b": {"NaN"}}, map[string]string{"a": "row 2"}},
		{"null", map[string][]any{"a": {"1", "0", []any{"x", 1.5}}, "b": {"NaN"}}, map[string]string{"a": "row 1"}},
		{"rows", map[string][]any{"a": {"1"}, "b": {"NaN"}}, map[string]string{"a": "3 rows, other reader 1"}},
		{"missing", map[string][]any{"a": {"1", nil, []any{"x", 1.5}}}, map[string]string{"b": "1 rows, other reader 0"}},
		{"nan", map[string][]any{"a": {"1", nil, []any{"x", 1.5}}, "b": {nil}}, map[string]string{"b": "row 0"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := pqCompare(ours, c.theirs, []string{"a", "b"})
			require.Len(t, got, len(c.want))
			for k, w := range c.want {
				require.Contains(t, got[k], w)
			}
		})
	}
	require.Equal(t, "NaN", pqFloat(math.NaN()))
	require.Equal(t, "-Infinity", pqFloat(math.Inf(-1)))
	require.Equal(t, "-5000000000000000000000", pqScale(-5e9, 1e12))
}
