package parquet

import (
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
	"github.com/alkaid-go/alkaid/memory"
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

// The UUID logical type is the arrow.uuid extension, both ways, and
// Arrow's null type is an optional column annotated UNKNOWN, with or
// without the stored schema.
func TestUUIDAndNullTypes(t *testing.T) {
	ut := extension.NewUUIDType()
	ln := datatype.ListOfField(datatype.Field{Name: "element", Type: datatype.Null, Nullable: true})
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "u", Type: ut, Nullable: true},
		{Name: "n", Type: datatype.Null, Nullable: true},
		{Name: "ln", Type: ln, Nullable: true},
	}, datatype.Metadata{})
	u1, u2 := extension.MustParseUUID("f81d4fae-7dec-11d0-a765-00a0c91e6bf6"), extension.MustParseUUID("00112233-4455-6677-8899-aabbccddeeff")
	cols := []array.Array{
		uuidArray(t, []extension.UUID{u1, {}, u2}, []bool{true, false, true}),
		arrayjson.MustParse(datatype.Null, "[null, null, null]"),
		arrayjson.MustParse(ln, "[[null], null, []]"),
	}
	rec, err := alkaid.NewRecord(s, cols, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range [][]WriterOption{nil, {WithoutStoredSchema()}} {
		data := writeFile(t, []*alkaid.Record{rec}, opts...)
		f, recs := readFile(t, data)
		if e := f.leaves[0].elem; e.LogicalType == nil || e.LogicalType.UUID == nil {
			t.Fatalf("column u: logical type %+v, want UUID", e.LogicalType)
		}
		if e := f.leaves[1].elem; e.LogicalType == nil || e.LogicalType.Unknown == nil {
			t.Fatalf("column n: logical type %+v, want UNKNOWN", e.LogicalType)
		}
		sameRows(t, []*alkaid.Record{rec}, recs)
	}
}

// uuidArray builds an arrow.uuid array of these values, null where valid
// is false.
func uuidArray(t *testing.T, vals []extension.UUID, valid []bool) array.Array {
	t.Helper()
	raw := make([]byte, 0, 16*len(vals))
	bits := make([]byte, (len(vals)+7)/8)
	nulls := 0
	for i, u := range vals {
		raw = append(raw, u[:]...)
		if valid[i] {
			bitutil.SetBit(bits, i)
		} else {
			nulls++
		}
	}
	a, err := array.Make(array.NewData(extension.NewUUIDType(), len(vals), []*memory.Buffer{memory.NewBuffer(bits), memory.NewBuffer(raw)}, nil, nulls, 0))
	if err != nil {
		t.Fatal(err)
	}
	return a
}
