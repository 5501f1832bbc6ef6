package parquet

import (
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// A v2 data page of one null value with no bytes at all (no levels, no
// values, nothing for the codec), as datapage_v2_empty_datapage.snappy
// holds: one null row, as arrow-rs, DuckDB and Arrow C++ read it.
func TestEmptyDataPageV2(t *testing.T) {
	for _, codec := range []format.Codec{format.Snappy, format.Zstd, format.Gzip, format.Uncompressed} {
		schema := []format.SchemaElement{
			{Name: "schema", NumChildren: ptr(int32(1))},
			{Name: "value", Type: ptr(format.Float), RepetitionType: ptr(format.Optional)},
		}
		page := handPage{h: format.PageHeader{Type: format.DataPageV2, DataPageHeaderV2: &format.DataPageHeaderV2{
			NumValues: 1, NumNulls: 1, NumRows: 1, Encoding: format.Plain}}}
		data := handFile(schema, 1, []handColumn{{typ: format.Float, path: []string{"value"}, codec: codec, numValues: 1, pages: []handPage{page}}})
		f, recs := readFile(t, data)
		if f.NumRows() != 1 || len(recs) != 1 || recs[0].NumRows() != 1 {
			t.Fatalf("%s: %d records", codec, len(recs))
		}
		if c := recs[0].Column(0); c.Len() != 1 || !c.IsNull(0) {
			t.Fatalf("%s: read %s, want one null", codec, array.Format(c))
		}
	}
}
