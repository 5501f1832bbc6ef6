package integration

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/ipc"
)

func roundTrip(t *testing.T, f *File) *File {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, f.Write(&buf))
	back, err := Read(&buf)
	require.NoError(t, err, "%s", buf.String())
	return back
}

// TestRandomAllTypes writes random data of every type, whole and sliced
// (offsets into every layout), and reads it back.
func TestRandomAllTypes(t *testing.T) {
	s := randdata.AllTypes()
	for seed := range uint64(3) {
		rec := randdata.New(seed).Record(s, 50)
		// Slices share the record's dictionaries, which one file can hold.
		f := &File{Schema: s, Records: []*alkaid.Record{rec, rec.Slice(7, 33), rec.Slice(50, 50), rec.Slice(1, 2)}}
		back := roundTrip(t, f)
		require.NoError(t, Compare(f, back))

		// And through both binary formats.
		var sbuf bytes.Buffer
		require.NoError(t, WriteIPCStream(&sbuf, back))
		got, err := ReadIPCStream(&sbuf)
		require.NoError(t, err)
		require.NoError(t, Compare(f, got))
	}
}

const smallJSON = `{
  "schema": {"fields": [
    {"name": "i", "nullable": true, "type": {"name": "int", "isSigned": true, "bitWidth": 64}, "children": []},
    {"name": "s", "nullable": true, "type": {"name": "struct"}, "children": [
      {"name": "a", "nullable": true, "type": {"name": "utf8"}, "children": []},
      {"name": "b", "nullable": false, "type": {"name": "floatingpoint", "precision": "DOUBLE"}, "children": []}
    ]}
  ]},
  "batches": [
    {"count": 2, "columns": [
      {"name": "i", "count": 2, "VALIDITY": [1, 0], "DATA": ["1", "0"]},
      {"name": "s", "count": 2, "VALIDITY": [1, 1], "children": [
        {"name": "a", "count": 2, "VALIDITY": [1, 1], "OFFSET": [0, 1, 3], "DATA": ["x", "yz"]},
        {"name": "b", "count": 2, "VALIDITY": [1, 1], "DATA": [1.5, "NaN"]}
      ]}
    ]},
    {"count": 3, "columns": [
      {"name": "i", "count": 3, "VALIDITY": [1, 1, 1], "DATA": ["-9223372036854775808", 7, "9223372036854775807"]},
      {"name": "s", "count": 3, "VALIDITY": [0, 1, 1], "children": [
        {"name": "a", "count": 3, "VALIDITY": [0, 1, 1], "OFFSET": [0, 0, 2, 5], "DATA": ["", "pq", "rst"]},
        {"name": "b", "count": 3, "VALIDITY": [1, 1, 1], "DATA": [0, "-Infinity", 2.25]}
      ]}
    ]}
  ]
}`

func readString(t *testing.T, s string) *File {
	t.Helper()
	f, err := Read(strings.NewReader(s))
	require.NoError(t, err)
	return f
}

func TestCompareNamesTheFirstDifference(t *testing.T) {
	a := readString(t, smallJSON)
	require.NoError(t, Compare(a, readString(t, smallJSON)), "NaN equals NaN")

	b := readString(t, strings.Replace(smallJSON, `"DATA": ["", "pq", "rst"]`, `"DATA": ["", "pq", "rsu"]`, 1))
	err := Compare(a, b)
	var d *Difference
	require.ErrorAs(t, err, &d)
	require.Equal(t, Difference{Batch: 1, Path: "s.a", Row: 2, What: "values", A: `"rst"`, B: `"rsu"`}, *d)
	require.Equal(t, `batch 1, column s.a, row 2: values differ: "rst" vs "rsu"`, err.Error())

	b = readString(t, strings.Replace(smallJSON, `"9223372036854775807"`, `"9223372036854775806"`, 1))
	require.EqualError(t, Compare(a, b), "batch 1, column i, row 2: values differ: 9223372036854775807 vs 9223372036854775806")

	b = readString(t, strings.Replace(smallJSON, `"VALIDITY": [1, 0], "DATA": ["1", "0"]`, `"VALIDITY": [1, 1], "DATA": ["1", "0"]`, 1))
	require.EqualError(t, Compare(a, b), "batch 0, column i, row 1: values differ: (null) vs 0")

	b = readString(t, strings.Replace(smallJSON, `"name": "b", "nullable": false`, `"name": "b", "nullable": true`, 1))
	require.EqualError(t, Compare(a, b), "schema: field s.b: nullability differ: false vs true")

	b = readString(t, strings.Replace(smallJSON, `"precision": "DOUBLE"`, `"precision": "SINGLE"`, 1))
	require.EqualError(t, Compare(a, b), "schema: field s.b: types differ: float64 vs float32")

	b = &File{Schema: a.Schema, Records: a.Records[:1]}
	require.EqualError(t, Compare(a, b), "file: numbers of batches differ: 2 vs 1")
}

func TestMapFieldNames(t *testing.T) {
	m, err := datatype.MapOfFields(datatype.Field{Name: "k", Type: datatype.String}, datatype.Field{Name: "v", Type: datatype.Int32, Nullable: true}, false)
	require.NoError(t, err)
	s := alkaid.NewSchema([]datatype.Field{{Name: "m", Type: m, Nullable: true}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{arrayjson.MustParse(m, `[[["a", 1]], null, [["b", null], ["c", 3]]]`)}, -1)
	require.NoError(t, err)
	a := &File{Schema: s, Records: []*alkaid.Record{rec}}

	canon := datatype.MapOf(datatype.String, datatype.Int32, false)
	cs := alkaid.NewSchema([]datatype.Field{{Name: "m", Type: canon, Nullable: true}}, datatype.Metadata{})
	crec, err := alkaid.NewRecord(cs, []array.Array{arrayjson.MustParse(canon, `[[["a", 1]], null, [["b", null], ["c", 3]]]`)}, -1)
	require.NoError(t, err)
	b := &File{Schema: cs, Records: []*alkaid.Record{crec}}

	require.EqualError(t, Compare(a, b), `schema: field m.entries.k: names differ: "k" vs "key"`)
	require.NoError(t, Compare(a, b, IgnoreMapFieldNames()))

	crec2, err := alkaid.NewRecord(cs, []array.Array{arrayjson.MustParse(canon, `[[["a", 1]], null, [["b", null], ["c", 4]]]`)}, -1)
	require.NoError(t, err)
	err = Compare(a, &File{Schema: cs, Records: []*alkaid.Record{crec2}}, IgnoreMapFieldNames())
	require.ErrorContains(t, err, "batch 0, column m, row 2: values differ")
}

// TestSpecialValues covers what the golden files do not: float16, floats
// that are not finite, long utf8 views, sliced run-end encoding.
func TestSpecialValues(t *testing.T) {
	ree, err := datatype.NewRunEndEncoded(datatype.Int16, datatype.String)
	require.NoError(t, err)
	fields := []datatype.Field{
		{Name: "h", Type: datatype.Float16Type, Nullable: true},
		{Name: "f", Type: datatype.Float32, Nullable: true},
		{Name: "v", Type: datatype.StringView, Nullable: true},
		{Name: "r", Type: ree, Nullable: true},
	}
	s := alkaid.NewSchema(fields, datatype.MetadataFrom("k", "v"))
	cols := []array.Array{
		arrayjson.MustParse(datatype.Float16Type, `[1.5, null, "Inf", -0.25, 65504]`),
		arrayjson.MustParse(datatype.Float32, `["NaN", "-Inf", 3.4e38, 1e-45, null]`),
		arrayjson.MustParse(datatype.StringView, `["short", "a value longer than twelve bytes", null, "", "another long value here"]`),
		arrayjson.MustParse(ree, `["a", "a", "b", null, null]`),
	}
	rec, err := alkaid.NewRecord(s, cols, -1)
	require.NoError(t, err)
	f := &File{Schema: s, Records: []*alkaid.Record{rec, rec.Slice(1, 4), rec.Slice(3, 5)}}
	back := roundTrip(t, f)
	require.NoError(t, Compare(f, back))
	require.Equal(t, "[1.5 (null) +Inf -0.25 65504]", back.Records[0].Column(0).String())
}

// TestDictionaries: one dictionary per id for the whole file; a dictionary
// that grows is written whole, one that changes is refused.
func TestDictionaries(t *testing.T) {
	dt, err := datatype.NewDictionary(datatype.Int8, datatype.String, false)
	require.NoError(t, err)
	s := alkaid.NewSchema([]datatype.Field{{Name: "d", Type: dt, Nullable: true}, {Name: "e", Type: dt, Nullable: true}}, datatype.Metadata{})
	mk := func(dict string, idx ...string) *alkaid.Record {
		t.Helper()
		var cols []array.Array
		for _, ix := range idx {
			d := *arrayjson.MustParse(datatype.Int8, ix).Data()
			d.Type, d.Dictionary = dt, arrayjson.MustParse(datatype.String, dict).Data()
			cols = append(cols, array.MustMake(&d))
		}
		rec, err := alkaid.NewRecord(s, cols, -1)
		require.NoError(t, err)
		return rec
	}
	grow := &File{Schema: s, Records: []*alkaid.Record{mk(`["a"]`, `[0, 0]`, `[0, null]`), mk(`["a", "b"]`, `[1, 0]`, `[null, 1]`)}}
	var buf bytes.Buffer
	require.NoError(t, grow.Write(&buf))
	require.Contains(t, buf.String(), `"dictionaries":[{"id":0,`)
	require.Contains(t, buf.String(), `{"id":1,"data":{"count":2,`)
	back, err := Read(&buf)
	require.NoError(t, err)
	require.NoError(t, Compare(grow, back))
	require.Equal(t, []int64{0, 1}, back.DictionaryIDs)
	require.Equal(t, `["a" "b"]`, back.Dictionaries[1].String())

	// One dictionary object serving two fields gets one id.
	shared := *grow.Records[1].Column(0).Data()
	shared.Dictionary = grow.Records[1].Column(1).Data().Dictionary
	rec, err := alkaid.NewRecord(s, []array.Array{array.MustMake(&shared), grow.Records[1].Column(1)}, -1)
	require.NoError(t, err)
	buf.Reset()
	require.NoError(t, Write(&buf, s, []*alkaid.Record{rec}))
	require.NotContains(t, buf.String(), `"id":1`)

	// Given ids are kept: both fields share dictionary 7.
	back.DictionaryIDs = []int64{7, 7}
	buf.Reset()
	require.NoError(t, back.Write(&buf))
	require.Contains(t, buf.String(), `"dictionaries":[{"id":7,`)
	again, err := Read(&buf)
	require.NoError(t, err)
	require.Equal(t, []int64{7, 7}, again.DictionaryIDs)
	require.NoError(t, Compare(grow, again))

	changed := &File{Schema: s, Records: []*alkaid.Record{mk(`["a"]`, `[0]`, `[0]`), mk(`["b"]`, `[0]`, `[0]`)}}
	err = changed.Write(&bytes.Buffer{})
	require.ErrorContains(t, err, "dictionary id 0")
	require.ErrorContains(t, err, "one dictionary per id")
}

// testExt is a registered extension type over int32.
type testExt struct{ param string }

func (e *testExt) Kind() datatype.Kind            { return datatype.KindExtension }
func (e *testExt) String() string                 { return datatype.ExtensionString(e) }
func (e *testExt) ExtensionName() string          { return "alkaid.test.integration" }
func (e *testExt) StorageType() datatype.DataType { return datatype.Int32 }
func (e *testExt) Serialize() string              { return e.param }
func (e *testExt) Deserialize(storage datatype.DataType, s string) (datatype.ExtensionType, error) {
	if !datatype.Equal(storage, datatype.Int32) {
		return nil, errors.New("storage must be int32")
	}
	return &testExt{param: s}, nil
}
func (e *testExt) ExtensionEqual(o datatype.ExtensionType) bool { return o.(*testExt).param == e.param }

func TestExtensionsAndNamespaces(t *testing.T) {
	require.NoError(t, datatype.RegisterExtension(&testExt{}))
	defer datatype.UnregisterExtension("alkaid.test.integration")
	ext := &testExt{param: "p=1"}
	storage := arrayjson.MustParse(datatype.Int32, `[1, null, 3]`)
	col, err := array.NewExtension(ext, storage)
	require.NoError(t, err)
	// An unregistered extension kept as storage and metadata, in Alkaid's
	// namespace.
	md := datatype.MetadataFrom("ALKAID:extension:name", "unknown.ext", "ALKAID:extension:metadata", "m")
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "x", Type: ext, Nullable: true},
		{Name: "u", Type: datatype.Int32, Nullable: true, Metadata: md},
	}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{col, storage}, -1)
	require.NoError(t, err)
	f := &File{Schema: s, Records: []*alkaid.Record{rec}}

	var buf bytes.Buffer
	require.NoError(t, f.Write(&buf))
	js := buf.String()
	require.Contains(t, js, `{"key":"ARROW:extension:name","value":"alkaid.test.integration"},{"key":"ARROW:extension:metadata","value":"p=1"}`)
	require.Contains(t, js, `{"key":"ARROW:extension:name","value":"unknown.ext"}`)
	require.NotContains(t, js, "ALKAID:")

	back, err := Read(&buf)
	require.NoError(t, err)
	require.IsType(t, &testExt{}, back.Schema.Field(0).Type)
	require.Equal(t, "p=1", back.Schema.Field(0).Type.(*testExt).param)
	require.Equal(t, 0, back.Schema.Field(0).Metadata.Len())
	require.NoError(t, Compare(f, back), "ALKAID: keys equal ARROW: keys")

	// Through an Alkaid file and back.
	var fbuf bytes.Buffer
	require.NoError(t, WriteIPCFile(&fbuf, back))
	fr, err := ipc.NewFileReader(bytes.NewReader(fbuf.Bytes()), int64(fbuf.Len()))
	require.NoError(t, err)
	rec0, err := fr.Record(0)
	require.NoError(t, err)
	require.NoError(t, Compare(f, &File{Schema: fr.Schema(), Records: []*alkaid.Record{rec0}}))
}

func TestReadErrors(t *testing.T) {
	for _, tt := range []struct{ name, from, to, msg string }{
		{"not JSON", `{`, `[`, "decoding JSON"},
		{"count", `{"name": "i", "count": 2,`, `{"name": "i", "count": 3,`, "batch 0, column i: count 3, want 2"},
		{"int range", `"DATA": [1.5, "NaN"]`, `"DATA": [1.5, "NaN", 3]`, "batch 0, column s.b: 3 DATA values for count 2"},
		{"bad int", `["1", "0"]`, `["1", "x"]`, `batch 0, column i: [1]: "x" is not a 64-bit integer`},
		{"offsets", `"OFFSET": [0, 1, 3]`, `"OFFSET": [0, 2, 3]`, "batch 0, column s.a: DATA[0] has 1 bytes but the offsets give 2"},
		{"validity", `"VALIDITY": [1, 0], "DATA"`, `"VALIDITY": [1, 2], "DATA"`, "VALIDITY[1] is 2, want 0 or 1"},
		{"type", `"precision": "DOUBLE"`, `"precision": "QUAD"`, `field s.b: floatingpoint precision "QUAD"`},
		{"no validity", `{"name": "i", "count": 2, "VALIDITY": [1, 0], `, `{"name": "i", "count": 2, `, "batch 0, column i: no VALIDITY"},
		{"union type id", `{"name": "i", "nullable": true, "type": {"name": "int", "isSigned": true, "bitWidth": 64}`, `{"name": "i", "nullable": true, "type": {"name": "union", "mode": "SPARSE", "typeIds": [200]}`, "union type id 200 out of range"},
		{"columns", `{"count": 2, "columns": [`, `{"count": 2, "columns": [{"name": "extra", "count": 2},`, "batch 0 has 3 columns for 2 fields"},
		{"huge batch count", `{"count": 2, "columns": [`, `{"count": 1000000000000000, "columns": [`, "batch 0 has count 1000000000000000 (0 to 2147483647)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := smallJSON
			if tt.from == `{` {
				src = `{`
			} else {
				require.Contains(t, src, tt.from)
				src = strings.Replace(src, tt.from, tt.to, 1)
			}
			_, err := Read(strings.NewReader(src))
			require.ErrorIs(t, err, ErrInvalid)
			require.ErrorContains(t, err, tt.msg)
		})
	}
	// Offsets need not start at zero.
	moved := readString(t, strings.Replace(smallJSON, `"OFFSET": [0, 1, 3]`, `"OFFSET": [5, 6, 8]`, 1))
	require.NoError(t, Compare(readString(t, smallJSON), moved))

	// Nulls take no memory: only the bound on counts stops a short file
	// from declaring 10^15 rows.
	_, err := Read(strings.NewReader(`{"schema": {"fields": [{"name": "n", "type": {"name": "null"}, "nullable": true, "children": []}]},
		"batches": [{"count": 1, "columns": [{"name": "n", "count": 1000000000000000}]}]}`))
	require.ErrorIs(t, err, ErrInvalid)
	require.ErrorContains(t, err, "batch 0, column n: count 1000000000000000 (0 to 2147483647)")

	_, err = ReadFile("testdata/does-not-exist.json")
	require.Error(t, err)
}
