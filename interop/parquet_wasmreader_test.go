package interop

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/alkaid-go/alkaid/parquet"
)

// The tests of this file add a third independent Parquet reader to those
// of parquet_indep_test.go: parquet-wasm, arrow-rs's Parquet reader built
// for WebAssembly, run under Node.js by js/parquet.mjs's wasm-read
// command. Its Arrow result passes to apache-arrow as an IPC stream and
// from there into the same canonical JSON form, compared with the same
// code.

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
	// by its id without looking at its type and stops; Alkaid, hyparquet
	// and DuckDB skip a field whose type is not the declared one.
	"dict-page-offset-zero.parquet": "Parquet error: Expected list element type of I64 but got I16",
}

// pqWasmDisagreements pins each parquet-testing column where Alkaid and
// parquet-wasm give different values ("file/column" → a part of the
// difference); the test fails when one of them starts agreeing.
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
