package shred_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
	"github.com/alkaid-go/alkaid/shred"
)

// entries prints a column as "value/r/d" per entry, NULL where d < MaxDef.
func entries(c shred.Column) string { return strings.Join(entryList(c), " ") }

func entryList(c shred.Column) []string {
	var parts []string
	v := 0
	for k := range c.Len() {
		val := "NULL"
		if int(c.Def[k]) == c.MaxDef {
			val = array.FormatValue(c.Values, v)
			v++
		}
		parts = append(parts, fmt.Sprintf("%s/%d/%d", val, c.Rep[k], c.Def[k]))
	}
	return parts
}

func columnsByPath(cols []shred.Column) map[string]shred.Column {
	m := map[string]shred.Column{}
	for _, c := range cols {
		m[c.PathString()] = c
	}
	return m
}

func checkColumns(t *testing.T, cols []shred.Column, want map[string]string) {
	t.Helper()
	got := columnsByPath(cols)
	if len(got) != len(want) {
		t.Errorf("%d columns, want %d", len(got), len(want))
	}
	for path, w := range want {
		c, ok := got[path]
		if !ok {
			t.Errorf("no column %s", path)
			continue
		}
		if g := entries(c); g != w {
			t.Errorf("%s:\n got  %s\n want %s", path, g, w)
		}
	}
}

func roundTripRecord(t *testing.T, schema *alkaid.Schema, rec *alkaid.Record) []shred.Column {
	t.Helper()
	cols, err := shred.ShredRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	back, err := shred.AssembleRecord(schema, cols)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rec.NumCols() {
		if k, desc, eq := array.FirstDifference(rec.Column(i), back.Column(i)); !eq {
			t.Errorf("column %s differs at %d: %s", rec.ColumnName(i), k, desc)
		}
	}
	return cols
}

// Every column of the spec's record r3.
func TestSpecRecordR3(t *testing.T) {
	schema := documentSchema()
	cols := roundTripRecord(t, schema, documents(schema, r3))
	checkColumns(t, cols, map[string]string{
		"DocId":                 "10/0/0",
		"Links.Backward":        "NULL/0/1",
		"Links.Forward":         "20/0/2 40/1/2 60/1/2",
		"Name.Language.Code":    `"en-us"/0/2 "en"/2/2 "zh-cn"/2/2 NULL/1/1 "en-us"/1/2`,
		"Name.Language.Country": `"us"/0/3 NULL/2/2 "cn"/2/3 NULL/1/1 "gb"/1/3`,
		"Name.Url":              `"http://A"/0/2 "http://B"/1/2 NULL/1/1`,
	})
}

// The Dremel paper's records r1 and r2 (r2 has no Language and a null
// Links.Backward … here an empty one, and Links present).
const r1r2 = `[{
  "DocId": 10,
  "Links": {"Backward": [], "Forward": [20, 40, 60]},
  "Name": [
    {"Language": [{"Code": "en-us", "Country": "us"}, {"Code": "en"}], "Url": "http://A"},
    {"Language": [], "Url": "http://B"},
    {"Language": [{"Code": "en-gb", "Country": "gb"}]}
  ]
}, {
  "DocId": 20,
  "Links": {"Backward": [10, 30], "Forward": [80]},
  "Name": [{"Language": [], "Url": "http://C"}]
}, {
  "DocId": 30,
  "Links": null,
  "Name": []
}]`

func TestPaperRecords(t *testing.T) {
	schema := documentSchema()
	cols := roundTripRecord(t, schema, documents(schema, r1r2))
	checkColumns(t, cols, map[string]string{
		"DocId":                 "10/0/0 20/0/0 30/0/0",
		"Links.Backward":        "NULL/0/1 10/0/2 30/1/2 NULL/0/0",
		"Links.Forward":         "20/0/2 40/1/2 60/1/2 80/0/2 NULL/0/0",
		"Name.Language.Code":    `"en-us"/0/2 "en"/2/2 NULL/1/1 "en-gb"/1/2 NULL/0/1 NULL/0/0`,
		"Name.Language.Country": `"us"/0/3 NULL/2/2 NULL/1/1 "gb"/1/3 NULL/0/1 NULL/0/0`,
		"Name.Url":              `"http://A"/0/2 "http://B"/1/2 NULL/1/1 "http://C"/0/2 NULL/0/0`,
	})
}

func mustShred(t *testing.T, f datatype.Field, a array.Array) []shred.Column {
	t.Helper()
	cols, err := shred.ShredField(f, a)
	if err != nil {
		t.Fatal(err)
	}
	return cols
}

func roundTrip(t *testing.T, f datatype.Field, a array.Array) []shred.Column {
	t.Helper()
	cols := mustShred(t, f, a)
	back, err := shred.Assemble(f, cols)
	if err != nil {
		t.Fatal(err)
	}
	if k, desc, eq := array.FirstDifference(a, back); !eq {
		t.Fatalf("assembled %s differs at %d: %s\n in  %s\n out %s", f.Type, k, desc, a, back)
	}
	if err := array.Validate(back.Data(), array.ValidateFull); err != nil {
		t.Fatalf("assembled array is invalid: %v", err)
	}
	return cols
}

func nullable(name string, t datatype.DataType) datatype.Field {
	return datatype.Field{Name: name, Type: t, Nullable: true}
}

func required(name string, t datatype.DataType) datatype.Field {
	return datatype.Field{Name: name, Type: t}
}

// Empty lists, null lists and lists of nulls differ in their levels.
func TestEmptyNullAndNullElements(t *testing.T) {
	typ := datatype.ListOf(datatype.Int32) // nullable elements
	a := arrayjson.MustParse(typ, `[[1, null], null, [], [null], [2]]`)
	cols := roundTrip(t, nullable("a", typ), a)
	if got, want := entries(cols[0]), "1/0/3 NULL/1/2 NULL/0/0 NULL/0/1 NULL/0/2 2/0/3"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if cols[0].MaxRep != 1 || cols[0].MaxDef != 3 {
		t.Errorf("max levels r=%d d=%d, want 1 3", cols[0].MaxRep, cols[0].MaxDef)
	}
}

// Sliced arrays shred the slots of the slice only, at every level.
func TestSlicedInput(t *testing.T) {
	typ := datatype.ListOf(datatype.StructOf(
		nullable("a", datatype.Int64),
		nullable("b", datatype.ListOf(datatype.String)),
	))
	full := arrayjson.MustParse(typ, `[
		[{"a": 1, "b": ["x"]}], null, [{"a": null, "b": []}, {"a": 3, "b": ["y", null, "z"]}],
		[], [{"a": 5, "b": null}], [{"a": 6, "b": ["w"]}]]`)
	f := nullable("s", typ)
	fullRows := rowEntries(mustShred(t, f, full))
	for i := 0; i <= full.Len(); i++ {
		for j := i; j <= full.Len(); j++ {
			got := rowEntries(roundTrip(t, f, array.Slice(full, i, j)))
			for c := range got {
				if want := fullRows[c][i:j]; !slices.Equal(got[c], want) {
					t.Errorf("slice [%d:%d] column %d:\n got  %q\n want %q", i, j, c, got[c], want)
				}
			}
		}
	}
}

// rowEntries splits each column's entries into records.
func rowEntries(cols []shred.Column) [][]string {
	out := make([][]string, len(cols))
	for i, c := range cols {
		for k, e := range entryList(c) {
			if c.Rep[k] == 0 {
				out[i] = append(out[i], e)
			} else {
				out[i][len(out[i])-1] += " " + e
			}
		}
	}
	return out
}

// Fixed-size lists keep their size under nulls at every level, size 0
// included.
func TestFixedSizeLists(t *testing.T) {
	inner := datatype.StructOf(required("x", datatype.Int32), nullable("y", datatype.ListOf(datatype.String)))
	fsl, _ := datatype.FixedSizeListOfField(nullable("item", inner), 2)
	typ := datatype.StructOf(nullable("f", fsl), required("n", datatype.Int8))
	a := arrayjson.MustParse(typ, `[
		{"f": [{"x": 1, "y": ["a"]}, null], "n": 1},
		null,
		{"f": null, "n": 2},
		{"f": [{"x": 2, "y": null}, {"x": 3, "y": []}], "n": 3}]`)
	cols := roundTrip(t, nullable("s", typ), a)
	checkColumns(t, cols, map[string]string{
		"s.f.x": "1/0/4 NULL/1/3 NULL/0/0 NULL/0/1 2/0/4 3/1/4",
		"s.f.y": `"a"/0/7 NULL/1/3 NULL/0/0 NULL/0/1 NULL/0/4 NULL/1/5`,
		"s.n":   "1/0/1 NULL/0/0 2/0/1 3/0/1",
	})

	// Fixed-size lists of fixed-size lists, under a null and not.
	in, _ := datatype.FixedSizeListOf(datatype.Int32, 2)
	out, _ := datatype.FixedSizeListOfField(required("item", in), 3)
	a = arrayjson.MustParse(out, `[[[1, 2], [3, null], [5, 6]], null, [[7, 8], [9, 10], [11, 12]]]`)
	roundTrip(t, nullable("ff", out), array.Slice(a, 1, 3))
	roundTrip(t, nullable("ff", out), a)

	// Size 0: every value is empty, nulls stay null.
	zero, _ := datatype.FixedSizeListOf(datatype.Int32, 0)
	a = arrayjson.MustParse(zero, `[[], null, []]`)
	cols = roundTrip(t, nullable("z", zero), a)
	if got, want := entries(cols[0]), "NULL/0/1 NULL/0/0 NULL/0/1"; got != want {
		t.Errorf("size 0: got %s, want %s", got, want)
	}
	// Size 0 inside a list of non-nullable fixed-size lists.
	lz := datatype.ListOfField(required("item", zero))
	roundTrip(t, nullable("lz", lz), arrayjson.MustParse(lz, `[[[], []], [], null]`))
}

// List views may place their values anywhere in the child, overlapping
// and out of order.
func TestListViews(t *testing.T) {
	child := arrayjson.MustParse(datatype.Int64, `[0, 1, 2, null, 4, 5]`)
	typ := datatype.ListViewOf(datatype.Int64)
	offsets := []int32{4, 0, 2, 0, 1}
	sizes := []int32{2, 3, 0, 0, 4}
	valid := []byte{0b11011} // slot 2 null
	d := array.NewData(typ, 5, []*memory.Buffer{memory.NewBuffer(valid), memory.FromSlice(offsets), memory.FromSlice(sizes)},
		[]*array.Data{child.Data()}, array.UnknownNullCount, 0)
	a := array.MustMake(d)
	cols := roundTrip(t, nullable("v", typ), a)
	if got, want := entries(cols[0]), "4/0/3 5/1/3 0/0/3 1/1/3 2/1/3 NULL/0/0 NULL/0/1 1/0/3 2/1/3 NULL/1/2 4/1/3"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	roundTrip(t, nullable("v", typ), array.Slice(a, 1, 4))

	large := datatype.LargeListViewOfField(required("item", datatype.StructOf(nullable("s", datatype.String))))
	roundTrip(t, required("lv", large), arrayjson.MustParse(large, `[[{"s": "a"}, {"s": null}], [], [{"s": "b"}]]`))
	ll := datatype.LargeListOf(datatype.LargeString)
	roundTrip(t, nullable("ll", ll), arrayjson.MustParse(ll, `[["a", null], null, [], ["bcd"]]`))
}

func TestMaps(t *testing.T) {
	typ := datatype.MapOf(datatype.String, datatype.ListOf(datatype.Int32), false)
	a := arrayjson.MustParse(typ, `[[["a", [1]], ["b", null]], null, [], [["c", []], ["d", [null, 2]]]]`)
	cols := roundTrip(t, nullable("m", typ), a)
	checkColumns(t, cols, map[string]string{
		"m.key":   `"a"/0/2 "b"/1/2 NULL/0/0 NULL/0/1 "c"/0/2 "d"/1/2`,
		"m.value": `1/0/5 NULL/1/2 NULL/0/0 NULL/0/1 NULL/0/3 NULL/1/4 2/2/5`,
	})
	roundTrip(t, nullable("m", typ), array.Slice(a, 1, 4))
}

// Dictionary-encoded and run-end encoded leaves shred through their
// values and are encoded again on assembly.
func TestEncodedLeaves(t *testing.T) {
	dict, _ := datatype.NewDictionary(datatype.Int8, datatype.String, false)
	ree, _ := datatype.NewRunEndEncoded(datatype.Int16, datatype.Int64)
	typ := datatype.ListOf(datatype.StructOf(nullable("d", dict), nullable("r", ree)))
	a := arrayjson.MustParse(typ, `[
		[{"d": "x", "r": 1}, {"d": "y", "r": 1}, {"d": "x", "r": null}],
		null,
		[{"d": null, "r": 7}, {"d": "x", "r": 7}]]`)
	cols := roundTrip(t, nullable("l", typ), a)
	checkColumns(t, cols, map[string]string{
		"l.d": `"x"/0/4 "y"/1/4 "x"/1/4 NULL/0/0 NULL/0/3 "x"/1/4`,
		"l.r": `1/0/4 1/1/4 NULL/1/3 NULL/0/0 7/0/4 7/1/4`,
	})
	for _, c := range cols {
		if k := c.Values.DataType().Kind(); k != datatype.KindString && k != datatype.KindInt64 {
			t.Errorf("%s values are %s, want the decoded type", c.PathString(), c.Values.DataType())
		}
	}
	roundTrip(t, nullable("l", typ), array.Slice(a, 2, 3))
}

// testExt is an extension type for tests.
type testExt struct{ storage datatype.DataType }

func (e *testExt) Kind() datatype.Kind            { return datatype.KindExtension }
func (e *testExt) String() string                 { return datatype.ExtensionString(e) }
func (e *testExt) ExtensionName() string          { return "shred.test" }
func (e *testExt) StorageType() datatype.DataType { return e.storage }
func (e *testExt) Serialize() string              { return "" }
func (e *testExt) Deserialize(s datatype.DataType, _ string) (datatype.ExtensionType, error) {
	return &testExt{s}, nil
}
func (e *testExt) ExtensionEqual(datatype.ExtensionType) bool { return true }

func TestExtensionsAndNull(t *testing.T) {
	leaf := &testExt{datatype.Int32}
	nested := &testExt{datatype.StructOf(nullable("a", leaf), nullable("n", datatype.Null))}
	typ := datatype.ListOf(nested)
	a := arrayjson.MustParse(typ, `[[{"a": 1, "n": null}, null], [], [{"a": null, "n": null}]]`)
	cols := roundTrip(t, nullable("e", typ), a)
	if !datatype.Equal(cols[0].Values.DataType(), leaf) {
		t.Errorf("extension leaf values are %s, want %s", cols[0].Values.DataType(), leaf)
	}
	checkColumns(t, cols, map[string]string{
		"e.a": "1/0/4 NULL/1/2 NULL/0/1 NULL/0/3",
		"e.n": "NULL/0/3 NULL/1/2 NULL/0/1 NULL/0/3",
	})
	// A non-nullable field of type null still counts a level.
	ls, err := shred.Leaves(required("n", datatype.Null))
	if err != nil || ls[0].MaxDef != 1 {
		t.Errorf("null type: %v %v", ls, err)
	}
}

// Shred treats the array as a nullable column.
func TestShredTopLevel(t *testing.T) {
	a := arrayjson.MustParse(datatype.Int32, `[1, null, 3]`)
	cols, err := shred.Shred(a, "x")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := entries(cols[0]), "1/0/1 NULL/0/0 3/0/1"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	back, err := shred.Assemble(nullable("x", datatype.Int32), cols)
	if err != nil || !array.Equal(a, back) {
		t.Errorf("assembled %v, %v", back, err)
	}
	// Levels whose maximum is 0 may be left out.
	req := required("x", datatype.StructOf(required("y", datatype.Int32)))
	ys := arrayjson.MustParse(datatype.Int32, `[1, 2]`)
	back, err = shred.Assemble(req, []shred.Column{{Path: []string{"x", "y"}, Values: ys}})
	if err != nil || back.String() != `[{y: 1} {y: 2}]` {
		t.Errorf("nil levels: %v, %v", back, err)
	}
	// Empty arrays and records of zero columns.
	empty := arrayjson.MustParse(datatype.ListOf(datatype.Int32), `[]`)
	roundTrip(t, nullable("e", empty.DataType()), empty)
	s := alkaid.NewSchema(nil, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(s, nil, 0)
	roundTripRecord(t, s, rec)
}

func TestShredErrors(t *testing.T) {
	u, _ := datatype.NewUnion(datatype.Sparse, []datatype.Field{nullable("i", datatype.Int32)}, nil)
	dictOfList, _ := datatype.NewDictionary(datatype.Int32, datatype.ListOf(datatype.Int32), false)
	tests := []struct {
		f    datatype.Field
		is   error
		want string
	}{
		{nullable("s", datatype.StructOf(nullable("a", datatype.Int32), nullable("u", u))), shred.ErrNotSupported, "shred: s.u: not supported: sparse_union<i: int32=0>: unions have no Dremel representation"},
		{nullable("l", datatype.ListOf(datatype.StructOf())), shred.ErrNotSupported, "shred: l: not supported: a struct without fields has no leaf to shred into"},
		{nullable("d", dictOfList), shred.ErrNotSupported, "shred: d: not supported: dictionary of list<item: int32> values: only leaf values are shredded through an encoding"},
	}
	for _, tt := range tests {
		_, err := shred.Leaves(tt.f)
		if !errors.Is(err, tt.is) || err.Error() != tt.want {
			t.Errorf("%s:\n got  %v\n want %s", tt.f, err, tt.want)
		}
	}

	// A null in a non-nullable field whose parents are present.
	typ := datatype.StructOf(required("a", datatype.Int32))
	a := arrayjson.MustParse(typ, `[{"a": 1}, {"a": null}]`)
	_, err := shred.ShredField(nullable("s", typ), a)
	if want := "shred: s.a: invalid: null in a non-nullable field (slot 1)"; !errors.Is(err, shred.ErrInvalid) || err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	// Under a null parent it is fine.
	roundTrip(t, nullable("s", typ), arrayjson.MustParse(typ, `[{"a": 1}, null]`))
	// Offsets and dictionary indices out of range are errors, not panics.
	lt := datatype.ListOf(datatype.Int32)
	child := arrayjson.MustParse(datatype.Int32, `[1, 2]`).Data()
	bad := array.MustMake(array.NewData(lt, 1, []*memory.Buffer{nil, memory.FromSlice([]int32{0, 5})}, []*array.Data{child}, 0, 0))
	if _, err := shred.Shred(bad, "l"); err == nil || err.Error() != "shred: l: invalid: list slot 0 spans [0, 5) of 2 values" {
		t.Errorf("bad offsets: %v", err)
	}
	dt, _ := datatype.NewDictionary(datatype.Int8, datatype.String, false)
	dd := array.NewData(dt, 1, []*memory.Buffer{nil, memory.FromSlice([]int8{3})}, nil, 0, 0)
	dd.Dictionary = arrayjson.MustParse(datatype.String, `["a"]`).Data()
	if _, err := shred.Shred(array.MustMake(dd), "d"); err == nil || err.Error() != "shred: d: invalid: dictionary index 3 at slot 0 out of range [0, 1)" {
		t.Errorf("bad index: %v", err)
	}
	// A type mismatch.
	if _, err := shred.ShredField(nullable("s", datatype.Int64), a); !errors.Is(err, shred.ErrInvalid) {
		t.Errorf("type mismatch: %v", err)
	}
}

func TestAssembleErrors(t *testing.T) {
	fsl, _ := datatype.FixedSizeListOf(datatype.Int32, 2)
	typ := datatype.StructOf(nullable("a", datatype.ListOf(datatype.Int32)), required("b", fsl))
	f := nullable("s", typ)
	a := arrayjson.MustParse(typ, `[{"a": [1, 2], "b": [1, 2]}, {"a": [], "b": [3, 4]}]`)
	good := mustShred(t, f, a)
	clone := func() []shred.Column {
		out := slices.Clone(good)
		for i := range out {
			out[i].Rep, out[i].Def = slices.Clone(out[i].Rep), slices.Clone(out[i].Def)
		}
		return out
	}
	tests := []struct {
		name   string
		change func([]shred.Column) []shred.Column
		want   string
	}{
		{"count", func(c []shred.Column) []shred.Column { return c[:1] }, "shred: s: invalid: 1 columns for 2 leaves"},
		{"path", func(c []shred.Column) []shred.Column { c[0].Path = []string{"s", "x"}; return c },
			"shred: s.x: invalid: column 0, want path s.a"},
		{"max", func(c []shred.Column) []shred.Column { c[0].MaxDef = 3; return c },
			"shred: s.a: invalid: maximum levels r=1 d=3, the schema says r=1 d=4"},
		{"range", func(c []shred.Column) []shred.Column { c[0].Def[1] = 5; return c },
			"shred: s.a: invalid: entry 1: levels r=1 d=5 out of range (max r=1 d=4)"},
		{"first", func(c []shred.Column) []shred.Column { c[0].Rep[0] = 1; return c },
			"shred: s.a: invalid: entry 0 has repetition level 1, want 0"},
		{"repeat into nothing", func(c []shred.Column) []shred.Column { c[0].Rep[2] = 1; return c },
			"shred: s.a: invalid: entry 2 repeats at level 1 but d=2 (previous d=4) does not reach that list's elements (d ≥ 3)"},
		{"values", func(c []shred.Column) []shred.Column { c[0].Values = array.Slice(c[0].Values, 0, 1); return c },
			"shred: s.a: invalid: 2 entries with d=4 but 1 values"},
		{"value type", func(c []shred.Column) []shred.Column {
			c[0].Values = arrayjson.MustParse(datatype.Int64, `[1, 2]`)
			return c
		}, "shred: s.a: invalid: values of type int64, want int32"},
		{"disagree", func(c []shred.Column) []shred.Column {
			c[1].Rep, c[1].Def = c[1].Rep[:2], c[1].Def[:2]
			c[1].Values = array.Slice(c[1].Values, 0, 2)
			return c
		}, "shred: s.b: invalid: column gives s 1 slots, column s.a 2"},
		{"fixed size", func(c []shred.Column) []shred.Column {
			c[1].Rep, c[1].Def = c[1].Rep[:3], c[1].Def[:3]
			c[1].Values = array.Slice(c[1].Values, 0, 3)
			return c
		}, "shred: s.b: invalid: slot 1 of fixed-size list s.b has 1 values, want 2"},
	}
	for _, tt := range tests {
		_, err := shred.Assemble(f, tt.change(clone()))
		if !errors.Is(err, shred.ErrInvalid) || err.Error() != tt.want {
			t.Errorf("%s:\n got  %v\n want %s", tt.name, err, tt.want)
		}
	}
	if _, err := shred.Assemble(f, clone()); err != nil {
		t.Errorf("unchanged columns: %v", err)
	}
}

// Columns that agree on counts but not on which slot holds what are
// refused: assembling them would move values to other records.
func TestAssembleColumnsDisagree(t *testing.T) {
	l := nullable("l", datatype.ListOf(datatype.StructOf(nullable("a", datatype.Int32), nullable("b", datatype.Int32))))
	col := func(name string, rep, def []int16, values string) shred.Column {
		return shred.Column{Path: []string{"l", name}, MaxRep: 1, MaxDef: 4, Rep: rep, Def: def,
			Values: arrayjson.MustParse(datatype.Int32, values)}
	}
	a := col("a", []int16{0, 0}, []int16{0, 4}, `[1]`)
	tests := []struct {
		name string
		b    shred.Column
		want string
	}{
		{"swapped records", col("b", []int16{0, 0}, []int16{4, 0}, `[2]`),
			"shred: l.b: invalid: slot 0 of l is valid here but null in column l.a"},
		{"other list lengths", col("b", []int16{0, 0, 1}, []int16{0, 4, 4}, `[2, 3]`),
			"shred: l.b: invalid: slot 1 of l has 2 elements here but 1 in column l.a"},
		{"a record missing", col("b", []int16{}, []int16{}, `[]`),
			"shred: l.b: invalid: column gives l 0 slots, column l.a 2"},
		{"null element", col("b", []int16{0, 0}, []int16{0, 2}, `[]`),
			"shred: l.b: invalid: element 0 of l is null here but valid in column l.a"},
	}
	for _, tt := range tests {
		_, err := shred.Assemble(l, []shred.Column{a, tt.b})
		if !errors.Is(err, shred.ErrInvalid) || err.Error() != tt.want {
			t.Errorf("%s:\n got  %v\n want %s", tt.name, err, tt.want)
		}
	}
	if _, err := shred.Assemble(l, []shred.Column{a, col("b", []int16{0, 0}, []int16{0, 3}, `[]`)}); err != nil {
		t.Errorf("agreeing columns: %v", err)
	}
}

// Children with offsets of their own (a list over a sliced child, a
// struct over sliced fields) shred from the right slots.
func TestChildOffsets(t *testing.T) {
	child := arrayjson.MustParse(datatype.Int32, `[100, 101, 1, null, 3, 4]`).Data().Slice(2, 6)
	typ := datatype.ListOf(datatype.Int32)
	d := array.NewData(typ, 3, []*memory.Buffer{nil, memory.FromSlice([]int32{0, 2, 2, 4})}, []*array.Data{child}, 0, 0)
	cols := roundTrip(t, required("l", typ), array.MustMake(d))
	if got, want := entries(cols[0]), "1/0/2 NULL/1/1 NULL/0/0 3/0/2 4/1/2"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	st := datatype.StructOf(nullable("a", datatype.String))
	fa := arrayjson.MustParse(datatype.String, `["x", "y", null, "z"]`).Data().Slice(1, 4)
	sd := array.NewData(st, 2, []*memory.Buffer{nil}, []*array.Data{fa}, 0, 1)
	cols = roundTrip(t, required("s", st), array.MustMake(sd))
	if got, want := entries(cols[0]), `NULL/0/0 "z"/0/1`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
