package parquet

import (
	"errors"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
	"github.com/alkaid-go/alkaid/memory"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
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
	for _, opts := range [][]Option{nil, {WithoutStoredSchema()}} {
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

func TestParquetMRBefore129(t *testing.T) {
	for in, want := range map[string]bool{
		"parquet-mr": true, "parquet-mr version 1.2.8": true, "parquet-mr version 1.2.9": false,
		"parquet-mr version 1.1.0 (build abc)": true, "parquet-mr version 1.10.1 (build x)": false,
		"parquet-mr version 0.9": true, "parquet-cpp-arrow version 14.0.0": false, "": false,
		"parquet-mr version x.y": true,
	} {
		if got := parquetMRBefore129(in); got != want {
			t.Errorf("%q: %v, want %v", in, got, want)
		}
	}
}

// parquet-mr before 1.2.9 left the dictionary page header out of a
// chunk's size (PARQUET-816; nation.dict-malformed.parquet is such a
// file): the chunk is read past its stated end as far as that header
// may reach, for those writers only.
func TestDictionaryHeaderOutOfChunkSize(t *testing.T) {
	schema := []format.SchemaElement{
		{Name: "m", NumChildren: ptr(int32(1))},
		{Name: "name", Type: ptr(format.ByteArray), RepetitionType: ptr(format.Required)},
	}
	dict := []byte{5, 0, 0, 0, 'A', 'L', 'G', 'E', 'R', 6, 0, 0, 0, 'B', 'R', 'A', 'Z', 'I', 'L'}
	idx := []byte{1, 3, 0b0100} // bit width 1, one bit-packed group: 0, 0, 1
	pages := []handPage{
		{h: format.PageHeader{Type: format.DictionaryPage, UncompressedPageSize: int32(len(dict)), CompressedPageSize: int32(len(dict)),
			DictionaryPageHeader: &format.DictionaryPageHeader{NumValues: 2, Encoding: format.PlainDictionary}}, body: dict},
		{h: format.PageHeader{Type: format.DataPage, UncompressedPageSize: int32(len(idx)), CompressedPageSize: int32(len(idx)),
			DataPageHeader: &format.DataPageHeader{NumValues: 3, Encoding: format.PlainDictionary, DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.BitPacked}}, body: idx},
	}
	good := handFile(schema, 3, []handColumn{{typ: format.ByteArray, path: []string{"name"}, codec: format.Uncompressed, numValues: 3, pages: pages}})
	dictHeader := len(thrift.Marshal(nil, &pages[0].h))
	for _, c := range []struct {
		createdBy string
		ok        bool
	}{{"parquet-mr", true}, {"parquet-mr version 1.2.8", true}, {"parquet-mr version 1.2.9", false}, {"parquet-cpp-arrow version 20.0.0", false}} {
		bad := patchFooter(good, func(m *format.FileMetaData) {
			m.CreatedBy = ptr(c.createdBy)
			m.RowGroups[0].Columns[0].MetaData.TotalCompressedSize -= int64(dictHeader)
		})
		f, err := NewFileBytes(bad)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := readAll(f)
		if !c.ok {
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("%s: %v, want ErrInvalid", c.createdBy, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.createdBy, err)
		}
		if got := array.Format(recs[0].Column(0)); got != `["ALGER" "ALGER" "BRAZIL"]` {
			t.Errorf("%s: read %s", c.createdBy, got)
		}
	}
}

// Legacy maps: a key_value group of a key only (map_no_value.parquet) is
// a list of its keys, as arrow-rs and Arrow C++ read it (the format says
// such a map may be read as a set of keys or as a map of null values; a
// list keeps the keys without inventing values); an optional key
// (incorrect_map_schema.parquet) is read as the required key of an Arrow
// map, and a null key is an error.
func TestLegacyMaps(t *testing.T) {
	i32 := ptr(format.Int32)
	mapOf := func(keyRep format.Repetition, withValue bool) []format.SchemaElement {
		kids := int32(1)
		if withValue {
			kids = 2
		}
		s := []format.SchemaElement{
			{Name: "schema", NumChildren: ptr(int32(1))},
			{Name: "m", RepetitionType: ptr(format.Optional), NumChildren: ptr(int32(1)), ConvertedType: ptr(format.Map), LogicalType: &format.LogicalType{Map: &format.Empty{}}},
			{Name: "key_value", RepetitionType: ptr(format.Repeated), NumChildren: ptr(kids)},
			{Name: "key", Type: i32, RepetitionType: ptr(keyRep)},
		}
		if withValue {
			s = append(s, format.SchemaElement{Name: "value", Type: i32, RepetitionType: ptr(format.Optional)})
		}
		return s
	}
	col := func(name string, p handPage, n int64) handColumn {
		return handColumn{typ: format.Int32, path: []string{"m", "key_value", name}, codec: format.Uncompressed, numValues: n, pages: []handPage{p}}
	}
	// Rows: {1, 2}, null, {}, {3}.
	rep := []int16{0, 1, 0, 0, 0}
	t.Run("no value", func(t *testing.T) {
		data := handFile(mapOf(format.Required, false), 4, []handColumn{col("key", v2Page(rep, []int16{2, 2, 0, 1, 2}, 1, 2, []int32{1, 2, 3}), 5)})
		f, recs := readFile(t, data)
		if got := f.Schema().Field(0).Type.String(); got != "list<key: int32 not null>" {
			t.Errorf("type %s", got)
		}
		if got := array.Format(recs[0].Column(0)); got != "[[1 2] (null) [] [3]]" {
			t.Errorf("read %s", got)
		}
	})
	t.Run("optional key", func(t *testing.T) {
		keys := v2Page(rep, []int16{3, 3, 0, 1, 3}, 1, 3, []int32{1, 2, 3})
		vals := v2Page(rep, []int16{3, 2, 0, 1, 3}, 1, 3, []int32{10, 30})
		data := handFile(mapOf(format.Optional, true), 4, []handColumn{col("key", keys, 5), col("value", vals, 5)})
		f, recs := readFile(t, data)
		if k := f.Schema().Field(0).Type.(*datatype.MapType).Key(); k.Nullable {
			t.Errorf("key field %v is nullable", k)
		}
		if got := array.Format(recs[0].Column(0)); got != "[{1: 10, 2: (null)} (null) {} {3: 30}]" {
			t.Errorf("read %s", got)
		}
		nullKey := v2Page(rep, []int16{3, 2, 0, 1, 3}, 1, 3, []int32{1, 3})
		data = handFile(mapOf(format.Optional, true), 4, []handColumn{col("key", nullKey, 5), col("value", vals, 5)})
		f, err := NewFileBytes(data)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := readAll(f); !errors.Is(err, ErrInvalid) {
			t.Errorf("a null key: %v, want ErrInvalid", err)
		}
	})
}
