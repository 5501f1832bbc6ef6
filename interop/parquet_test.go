package interop

import (
	"bytes"
	"context"
	"strings"
	"testing"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	aipc "github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	aparquet "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/parquet"
)

// The Parquet round trips of this file take every randdata type that
// Parquet holds, one field per file, between Alkaid's parquet package and
// arrow-go's pqarrow: files Alkaid writes are read by pqarrow, files
// pqarrow writes (with its stored schema) are read by Alkaid. Values pass
// between the two libraries through the IPC stream format, and every
// slot is compared with array.Equal against randdata's record.

// pqSkip lists the types pqarrow does not write or read back as written,
// with the reason.
var pqSkip = map[string]string{
	"sparse_union":    "no Parquet representation",
	"dense_union":     "no Parquet representation",
	"list_view":       "pqarrow does not handle list views",
	"large_list_view": "pqarrow does not handle list views",
}

func pqFields(t *testing.T) []datatype.Field {
	var out []datatype.Field
	for _, f := range randdata.AllTypes().Fields() {
		if r, ok := pqSkip[f.Name]; ok {
			t.Logf("%s left out: %s", f.Name, r)
			continue
		}
		out = append(out, f)
	}
	return out
}

// arrowGoTable turns IPC stream bytes into an arrow-go table.
func arrowGoTable(t *testing.T, b []byte) aarrow.Table {
	r, err := aipc.NewReader(bytes.NewReader(b))
	require.NoError(t, err)
	defer r.Release()
	var recs []aarrow.RecordBatch
	for r.Next() {
		rec := r.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	require.NoError(t, r.Err())
	return aarray.NewTableFromRecords(r.Schema(), recs)
}

// tableStream writes an arrow-go table as an IPC stream.
func tableStream(t *testing.T, tbl aarrow.Table) []byte {
	var buf bytes.Buffer
	w := aipc.NewWriter(&buf, aipc.WithSchema(tbl.Schema()))
	tr := aarray.NewTableReader(tbl, 1<<20)
	defer tr.Release()
	for tr.Next() {
		require.NoError(t, w.Write(tr.RecordBatch()))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// requireSameColumn compares the first column of two record lists: the
// types printed with list elements named alike (pqarrow names them
// "element", as the Parquet format does) and every value.
func requireSameColumn(t *testing.T, want, got []*alkaid.Record) {
	t.Helper()
	concat := func(recs []*alkaid.Record) array.Array {
		var parts []array.Array
		for _, r := range recs {
			parts = append(parts, r.Column(0))
		}
		a, err := array.Concatenate(parts...)
		require.NoError(t, err)
		return a
	}
	w, g := concat(want), concat(got)
	norm := func(s string) string { return strings.ReplaceAll(s, "<element:", "<item:") }
	require.Equal(t, norm(w.DataType().String()), norm(g.DataType().String()))
	require.Equal(t, w.Len(), g.Len())
	for i := range w.Len() {
		require.Equal(t, array.FormatValue(w, i), array.FormatValue(g, i), "row %d", i)
	}
}

// pqarrowReads lists the types that pqarrow reads back as another type
// from a file Alkaid writes, with what it gives; the values of these are
// not compared.
var pqarrowReads = map[string]string{
	"decimal32":              "decimal128(9, 2): pqarrow widens INT32 decimals",
	"decimal64":              "decimal128(18, 4): pqarrow widens INT64 decimals",
	"timestamp_s":            "int64: Alkaid stores seconds raw, since they do not always fit milliseconds",
	"interval_months":        "int32: pqarrow does not read intervals",
	"interval_day_time":      "int64: pqarrow does not read intervals",
	"interval_mdn":           "fixed_size_binary[16]: pqarrow does not read intervals",
	"duration_ms":            "an error: pqarrow does not read durations",
	"binary_view":            "binary: pqarrow does not restore views",
	"utf8_view":              "utf8: pqarrow does not restore views",
	"dictionary_uint8_int64": "int64: pqarrow restores dictionaries of byte strings only",
	"struct_of_dictionary":   "dictionary of utf8 where large_utf8 was written",
	"date64":                 "date32: pqarrow does not restore date64 from the stored schema",
	"time32s":                "time32[ms]: pqarrow does not restore seconds from the stored schema",
	"run_end_encoded":        "float32: pqarrow does not restore run-end encoding",
	"run_end_encoded_utf8":   "utf8: pqarrow does not restore run-end encoding",
}

// pqarrowCannotWrite lists the types pqarrow.WriteTable refuses, with its
// error.
var pqarrowCannotWrite = map[string]string{
	"decimal32":            "not implemented: support for DECIMAL32",
	"decimal64":            "not implemented: support for DECIMAL64",
	"timestamp_s":          "casting timestamp from s to ms would overflow",
	"interval_months":      "support for INTERVAL_MONTHS",
	"interval_day_time":    "support for INTERVAL_DAY_TIME",
	"interval_mdn":         "support for INTERVAL_MONTH_DAY_NANO",
	"duration_ms":          "support for DURATION",
	"binary_view":          "support for BINARY_VIEW",
	"utf8_view":            "support for STRING_VIEW",
	"fixed_size_list":      "lists with non-zero length null components are not supported",
	"list_of_struct":       "lists with non-zero length null components are not supported",
	"list_of_dictionary":   "writing DictionaryArray with null encoded in dictionary",
	"run_end_encoded":      "support for RUN_END_ENCODED",
	"run_end_encoded_utf8": "support for RUN_END_ENCODED",
}

func TestParquetAlkaidToPqarrow(t *testing.T) {
	testParquetAlkaidToPqarrow(t)
}

// TestParquetAlkaidV2ToPqarrow is TestParquetAlkaidToPqarrow with data
// pages v2, small pages and CRCs.
func TestParquetAlkaidV2ToPqarrow(t *testing.T) {
	testParquetAlkaidToPqarrow(t, parquet.WithDataPageV2(), parquet.WithPageSize(512), parquet.WithPageCRC(true))
}

func testParquetAlkaidToPqarrow(t *testing.T, extra ...parquet.Option) {
	for _, f := range pqFields(t) {
		t.Run(f.Name, func(t *testing.T) {
			s := alkaid.NewSchema([]datatype.Field{f}, datatype.Metadata{})
			recs := alkaidBatches(s, interopSeed, true)
			var buf bytes.Buffer
			opts := append([]parquet.Option{parquet.WithCompression(parquet.Zstd, 0), parquet.WithRowGroupRows(64)}, extra...)
			w, err := parquet.NewWriter(&buf, s, opts...)
			require.NoError(t, err)
			for _, r := range recs {
				require.NoError(t, w.Write(r))
			}
			require.NoError(t, w.Close())

			tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(buf.Bytes()), nil,
				pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
			if why, ok := pqarrowReads[f.Name]; ok {
				t.Logf("pqarrow reads %s as %s", f.Name, why)
				if err == nil {
					tbl.Release()
				}
				return
			}
			require.NoError(t, err)
			defer tbl.Release()
			_, got := readAlkaid(t, tableStream(t, tbl), false)
			requireSameColumn(t, recs, got)
		})
	}
}

func TestParquetPqarrowToAlkaid(t *testing.T) {
	codecs := []compress.Compression{compress.Codecs.Snappy, compress.Codecs.Zstd, compress.Codecs.Gzip, compress.Codecs.Lz4Raw, compress.Codecs.Brotli}
	for i, f := range pqFields(t) {
		t.Run(f.Name, func(t *testing.T) {
			s := alkaid.NewSchema([]datatype.Field{f}, datatype.Metadata{})
			recs := alkaidBatches(s, interopSeed, true)
			tbl := arrowGoTable(t, writeAlkaid(t, s, recs, false))
			defer tbl.Release()
			var buf bytes.Buffer
			props := aparquet.NewWriterProperties(aparquet.WithCompression(codecs[i%len(codecs)]),
				aparquet.WithDataPageVersion(aparquet.DataPageVersion(i%2)), aparquet.WithMaxRowGroupLength(64))
			err := pqarrow.WriteTable(tbl, &buf, 50, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
			if want, ok := pqarrowCannotWrite[f.Name]; ok {
				require.ErrorContains(t, err, want, "pqarrow now writes %s: move it out of pqarrowCannotWrite", f.Name)
				return
			}
			require.NoError(t, err)

			pf, err := parquet.NewFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()), parquet.WithBatchSize(33))
			require.NoError(t, err)
			got, err := pqRecords(pf)
			require.NoError(t, err)
			requireSameColumn(t, recs, got)
		})
	}
}

// pqRecords collects the records of pf.
func pqRecords(pf *parquet.File) ([]*alkaid.Record, error) {
	var out []*alkaid.Record
	for rec, err := range pf.Records() {
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}
