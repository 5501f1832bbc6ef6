package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	aparquet "github.com/apache/arrow-go/v18/parquet"
	afile "github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet"
)

// fallbackRecord is a batch whose string, integer and list columns have
// too many distinct values for a small dictionary: Alkaid's writer
// starts each chunk dictionary-encoded and falls back to PLAIN part way.
func fallbackRecord(t *testing.T) *alkaid.Record {
	const n = 4000
	lt := datatype.ListOf(datatype.String)
	var ss, ns, is, ls []string
	for i := range n {
		if i%13 == 5 {
			ss = append(ss, "null")
		} else {
			ss = append(ss, fmt.Sprintf("%q", fmt.Sprintf("name-%05d", i/2)))
		}
		ns = append(ns, fmt.Sprint(int64(i)*7919-1<<40))
		is = append(is, fmt.Sprint(int32(i*104729)))
		var elems []string
		for k := range i % 4 {
			elems = append(elems, fmt.Sprintf("%q", fmt.Sprintf("e%05d", i+k)))
		}
		ls = append(ls, "["+strings.Join(elems, ",")+"]")
	}
	join := func(v []string) string { return "[" + strings.Join(v, ",") + "]" }
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "s", Type: datatype.String, Nullable: true},
		{Name: "n", Type: datatype.Int64},
		{Name: "i", Type: datatype.Int32},
		{Name: "l", Type: lt, Nullable: true},
	}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{arrayjson.MustParse(datatype.String, join(ss)),
		arrayjson.MustParse(datatype.Int64, join(ns)), arrayjson.MustParse(datatype.Int32, join(is)),
		arrayjson.MustParse(lt, join(ls))}, n)
	require.NoError(t, err)
	return rec
}

// TestParquetDictionaryFallbackReaders: files whose column chunks switch
// from dictionary-encoded pages to PLAIN ones part way (data pages v1 and
// v2) read with the values written by pqarrow, hyparquet, DuckDB and
// parquet-wasm.
func TestParquetDictionaryFallbackReaders(t *testing.T) {
	rec := fallbackRecord(t)
	want := map[string][]any{}
	for c := range rec.NumCols() {
		name := rec.Schema().Field(c).Name
		for r := range rec.NumRows() {
			want[name] = append(want[name], pqCanon(rec.Column(c), r))
		}
	}
	b, err := json.Marshal(want)
	require.NoError(t, err)
	want = map[string][]any{}
	require.NoError(t, json.Unmarshal(b, &want))
	names := []string{"s", "n", "i", "l"}

	dir := t.TempDir()
	var paths []string
	for _, v2 := range []bool{false, true} {
		opts := []parquet.Option{parquet.WithDictionary(true, 2048), parquet.WithPageSize(600),
			parquet.WithRowGroupRows(2500), parquet.WithCompression(parquet.Snappy, 0)}
		name := "fallback_v1.parquet"
		if v2 {
			opts, name = append(opts, parquet.WithDataPageV2()), "fallback_v2.parquet"
		}
		var buf bytes.Buffer
		w, err := parquet.NewWriter(&buf, rec.Schema(), opts...)
		require.NoError(t, err)
		require.NoError(t, w.Write(rec))
		require.NoError(t, w.Close())

		// Every chunk holds dictionary-encoded and PLAIN pages.
		pf, err := afile.NewParquetReader(bytes.NewReader(buf.Bytes()))
		require.NoError(t, err)
		for g := range pf.NumRowGroups() {
			rg := pf.MetaData().RowGroup(g)
			for c := range rg.NumColumns() {
				cc, err := rg.ColumnChunk(c)
				require.NoError(t, err)
				encs := cc.Encodings()
				require.True(t, slices.Contains(encs, aparquet.Encodings.RLEDict) && slices.Contains(encs, aparquet.Encodings.Plain),
					"%s row group %d column %d: encodings %v", name, g, c, encs)
			}
		}
		require.NoError(t, pf.Close())

		// pqarrow.
		tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(buf.Bytes()), nil, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
		require.NoError(t, err)
		_, got := readAlkaid(t, tableStream(t, tbl), false)
		tbl.Release()
		gotCols := map[string][]any{}
		for _, r := range got {
			for c := range r.NumCols() {
				n := r.Schema().Field(c).Name
				for i := range r.NumRows() {
					gotCols[n] = append(gotCols[n], pqCanon(r.Column(c), i))
				}
			}
		}
		b, err := json.Marshal(gotCols)
		require.NoError(t, err)
		gotCols = map[string][]any{}
		require.NoError(t, json.Unmarshal(b, &gotCols))
		for col, d := range pqCompare(want, gotCols, names) {
			require.Empty(t, d, "pqarrow, %s column %s", name, col)
		}

		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
		paths = append(paths, path)
	}
	node, script := pqWasmNode(t)
	if _, err := os.Stat(filepath.Join(filepath.Dir(script), "node_modules", "@duckdb", "node-api", "package.json")); err != nil {
		t.Skip("interop/js/node_modules/@duckdb/node-api is missing: run `npm ci` in interop/js (.ci/run does)")
	}
	for _, cmd := range []string{"read", "duckdb-read", "wasm-read"} {
		got := independentRead(t, node, script, cmd, paths)
		for _, p := range paths {
			r := got[p]
			require.Empty(t, r.Error, "%s reading %s", pqReaderName[cmd], filepath.Base(p))
			for col, d := range pqCompare(want, r.Columns, names) {
				require.Empty(t, d, "%s, %s column %s", pqReaderName[cmd], filepath.Base(p), col)
			}
		}
	}
}
