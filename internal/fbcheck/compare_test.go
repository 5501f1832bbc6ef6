package fbcheck

import (
	"fmt"
	"slices"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/alkaid-go/alkaid/internal/flatbuf"
)

// jsonTypeNames maps the integration JSON's type names to the Type union tag.
var jsonTypeNames = map[string]flatbuf.Type{
	"null":            flatbuf.TypeNull,
	"int":             flatbuf.TypeInt,
	"floatingpoint":   flatbuf.TypeFloatingPoint,
	"binary":          flatbuf.TypeBinary,
	"utf8":            flatbuf.TypeUtf8,
	"bool":            flatbuf.TypeBool,
	"decimal":         flatbuf.TypeDecimal,
	"date":            flatbuf.TypeDate,
	"time":            flatbuf.TypeTime,
	"timestamp":       flatbuf.TypeTimestamp,
	"interval":        flatbuf.TypeInterval,
	"list":            flatbuf.TypeList,
	"struct":          flatbuf.TypeStruct_,
	"union":           flatbuf.TypeUnion,
	"fixedsizebinary": flatbuf.TypeFixedSizeBinary,
	"fixedsizelist":   flatbuf.TypeFixedSizeList,
	"map":             flatbuf.TypeMap,
	"duration":        flatbuf.TypeDuration,
	"largebinary":     flatbuf.TypeLargeBinary,
	"largeutf8":       flatbuf.TypeLargeUtf8,
	"largelist":       flatbuf.TypeLargeList,
	"runendencoded":   flatbuf.TypeRunEndEncoded,
	"binaryview":      flatbuf.TypeBinaryView,
	"utf8view":        flatbuf.TypeUtf8View,
	"listview":        flatbuf.TypeListView,
	"largelistview":   flatbuf.TypeLargeListView,
}

// typeTable returns the parameter table of the field's Type union member.
func typeTable(f *flatbuf.Field) (flatbuffers.Table, bool) {
	var tbl flatbuffers.Table
	ok := f.Type(&tbl)
	return tbl, ok
}

// checkKVs compares key-value metadata with the JSON's, ignoring order (Arrow
// C++ does not keep the order of field metadata, e.g. of the extension keys).
func checkKVs(what string, n int, get func(*flatbuf.KeyValue, int) bool, want []jsonKV) error {
	if n != len(want) {
		return fmt.Errorf("%s: %d key-value pairs, JSON has %d", what, n, len(want))
	}
	var got, exp []string
	var kv flatbuf.KeyValue
	for i := range n {
		if !get(&kv, i) {
			return fmt.Errorf("%s[%d]: missing", what, i)
		}
		got = append(got, fmt.Sprintf("%q:%q", kv.Key(), kv.Value()))
		exp = append(exp, fmt.Sprintf("%q:%q", want[i].Key, want[i].Value))
	}
	slices.Sort(got)
	slices.Sort(exp)
	if !slices.Equal(got, exp) {
		return fmt.Errorf("%s = %v, JSON has %v", what, got, exp)
	}
	return nil
}

// dictIDs maps the dictionary ids of a binary schema to the ids the JSON uses
// for the same fields. Writers may renumber dictionaries (Arrow C++ gives
// every dictionary-encoded field its own id, even where the JSON shares one),
// so the ids are matched by position in the schema, not compared.
type dictIDs map[int64]int64

// checkSchema compares a decoded Schema with its JSON description and records
// the dictionary id correspondence in ids.
func checkSchema(s *flatbuf.Schema, want *jsonSchema, ids dictIDs) error {
	if s.FieldsLength() != len(want.Fields) {
		return fmt.Errorf("schema has %d fields, JSON has %d", s.FieldsLength(), len(want.Fields))
	}
	for i := range want.Fields {
		var f flatbuf.Field
		if !s.Fields(&f, i) {
			return fmt.Errorf("field %d missing", i)
		}
		if err := checkField(&f, &want.Fields[i], fmt.Sprintf("field %d", i), ids, 0); err != nil {
			return err
		}
	}
	return checkKVs("schema metadata", s.CustomMetadataLength(), s.CustomMetadata, want.Metadata)
}

// checkField compares a field with the JSON's. Inside a map (skipNames > 0)
// the names of the entries struct and of its key and value fields are not
// compared: Arrow C++ writes the canonical names entries/key/value whatever
// the JSON says.
func checkField(f *flatbuf.Field, want *jsonField, path string, ids dictIDs, skipNames int) error {
	path = fmt.Sprintf("%s %q", path, want.Name)
	if got := string(f.Name()); got != want.Name && skipNames == 0 {
		return fmt.Errorf("%s: name %q", path, got)
	}
	if f.Nullable() != want.Nullable {
		return fmt.Errorf("%s: nullable %v, JSON %v", path, f.Nullable(), want.Nullable)
	}
	if err := checkType(f, want.Type); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := checkDictionary(f.Dictionary(nil), want.Dictionary, ids); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := checkKVs(path+" metadata", f.CustomMetadataLength(), f.CustomMetadata, want.Metadata); err != nil {
		return err
	}
	if f.ChildrenLength() != len(want.Children) {
		return fmt.Errorf("%s: %d children, JSON has %d", path, f.ChildrenLength(), len(want.Children))
	}
	for i := range want.Children {
		var c flatbuf.Field
		if !f.Children(&c, i) {
			return fmt.Errorf("%s: child %d missing", path, i)
		}
		childSkip := max(skipNames-1, 0)
		if f.TypeType() == flatbuf.TypeMap {
			childSkip = 2
		}
		if err := checkField(&c, &want.Children[i], path+" child", ids, childSkip); err != nil {
			return err
		}
	}
	return nil
}

func checkInt(i *flatbuf.Int, want map[string]any) error {
	bw, signed := jsonInt(want, "bitWidth", -1), want["isSigned"] == true
	if int64(i.BitWidth()) != bw || i.IsSigned() != signed {
		return fmt.Errorf("Int{bitWidth %d, signed %v}, JSON {bitWidth %d, signed %v}", i.BitWidth(), i.IsSigned(), bw, signed)
	}
	return nil
}

func checkDictionary(d *flatbuf.DictionaryEncoding, want *jsonDictEncode, ids dictIDs) error {
	switch {
	case d == nil && want == nil:
		return nil
	case d == nil:
		return fmt.Errorf("no dictionary encoding, JSON has id %d", want.ID)
	case want == nil:
		return fmt.Errorf("dictionary encoding id %d, JSON has none", d.Id())
	}
	if j, seen := ids[d.Id()]; seen && j != want.ID {
		return fmt.Errorf("dictionary id %d stands for JSON ids %d and %d", d.Id(), j, want.ID)
	}
	ids[d.Id()] = want.ID
	if d.IsOrdered() != want.IsOrdered || d.DictionaryKind() != flatbuf.DictionaryKindDenseArray {
		return fmt.Errorf("dictionary {ordered %v, kind %v}, JSON {ordered %v}", d.IsOrdered(), d.DictionaryKind(), want.IsOrdered)
	}
	it := d.IndexType(nil)
	if it == nil {
		return fmt.Errorf("dictionary %d: no index type", d.Id())
	}
	if err := checkInt(it, want.IndexType); err != nil {
		return fmt.Errorf("dictionary %d index type: %w", d.Id(), err)
	}
	return nil
}

var timeUnits = map[string]flatbuf.TimeUnit{
	"SECOND": flatbuf.TimeUnitSECOND, "MILLISECOND": flatbuf.TimeUnitMILLISECOND,
	"MICROSECOND": flatbuf.TimeUnitMICROSECOND, "NANOSECOND": flatbuf.TimeUnitNANOSECOND,
}

// checkType compares the field's Type union tag and parameters with the JSON
// type object.
func checkType(f *flatbuf.Field, want map[string]any) error {
	name := jsonString(want, "name")
	tag, ok := jsonTypeNames[name]
	if !ok {
		return fmt.Errorf("JSON type %q unknown to the test", name)
	}
	if f.TypeType() != tag {
		return fmt.Errorf("type tag %d (%v), JSON type %q wants %d (%v)", f.TypeType(), f.TypeType(), name, tag, tag)
	}
	tbl, ok := typeTable(f)
	if !ok {
		return fmt.Errorf("type %v: parameter table missing", tag)
	}
	mismatch := func(got, want any) error {
		return fmt.Errorf("type %v: got %v, JSON %v", tag, got, want)
	}
	switch tag {
	case flatbuf.TypeInt:
		var t flatbuf.Int
		t.Init(tbl.Bytes, tbl.Pos)
		return checkInt(&t, want)
	case flatbuf.TypeFloatingPoint:
		var t flatbuf.FloatingPoint
		t.Init(tbl.Bytes, tbl.Pos)
		if t.Precision().String() != jsonString(want, "precision") {
			return mismatch(t.Precision(), want["precision"])
		}
	case flatbuf.TypeDecimal:
		var t flatbuf.Decimal
		t.Init(tbl.Bytes, tbl.Pos)
		got := [3]int64{int64(t.Precision()), int64(t.Scale()), int64(t.BitWidth())}
		exp := [3]int64{jsonInt(want, "precision", -1), jsonInt(want, "scale", 0), jsonInt(want, "bitWidth", 128)}
		if got != exp {
			return mismatch(got, exp)
		}
	case flatbuf.TypeDate:
		var t flatbuf.Date
		t.Init(tbl.Bytes, tbl.Pos)
		if t.Unit().String() != jsonString(want, "unit") {
			return mismatch(t.Unit(), want["unit"])
		}
	case flatbuf.TypeTime:
		var t flatbuf.Time
		t.Init(tbl.Bytes, tbl.Pos)
		if t.Unit() != timeUnits[jsonString(want, "unit")] || int64(t.BitWidth()) != jsonInt(want, "bitWidth", -1) {
			return mismatch(fmt.Sprint(t.Unit(), t.BitWidth()), want)
		}
	case flatbuf.TypeTimestamp:
		var t flatbuf.Timestamp
		t.Init(tbl.Bytes, tbl.Pos)
		if t.Unit() != timeUnits[jsonString(want, "unit")] || string(t.Timezone()) != jsonString(want, "timezone") {
			return mismatch(fmt.Sprintf("%v %q", t.Unit(), t.Timezone()), want)
		}
	case flatbuf.TypeDuration:
		var t flatbuf.Duration
		t.Init(tbl.Bytes, tbl.Pos)
		if t.Unit() != timeUnits[jsonString(want, "unit")] {
			return mismatch(t.Unit(), want["unit"])
		}
	case flatbuf.TypeInterval:
		var t flatbuf.Interval
		t.Init(tbl.Bytes, tbl.Pos)
		if t.Unit().String() != jsonString(want, "unit") {
			return mismatch(t.Unit(), want["unit"])
		}
	case flatbuf.TypeFixedSizeBinary:
		var t flatbuf.FixedSizeBinary
		t.Init(tbl.Bytes, tbl.Pos)
		if int64(t.ByteWidth()) != jsonInt(want, "byteWidth", -1) {
			return mismatch(t.ByteWidth(), want["byteWidth"])
		}
	case flatbuf.TypeFixedSizeList:
		var t flatbuf.FixedSizeList
		t.Init(tbl.Bytes, tbl.Pos)
		if int64(t.ListSize()) != jsonInt(want, "listSize", -1) {
			return mismatch(t.ListSize(), want["listSize"])
		}
	case flatbuf.TypeMap:
		var t flatbuf.Map
		t.Init(tbl.Bytes, tbl.Pos)
		if t.KeysSorted() != (want["keysSorted"] == true) {
			return mismatch(t.KeysSorted(), want["keysSorted"])
		}
	case flatbuf.TypeUnion:
		var t flatbuf.Union
		t.Init(tbl.Bytes, tbl.Pos)
		mode := map[string]flatbuf.UnionMode{"SPARSE": flatbuf.UnionModeSparse, "DENSE": flatbuf.UnionModeDense}[jsonString(want, "mode")]
		var ids, wantIDs []int64
		for i := range t.TypeIdsLength() {
			ids = append(ids, int64(t.TypeIds(i)))
		}
		raw, _ := want["typeIds"].([]any)
		for _, v := range raw {
			wantIDs = append(wantIDs, int64(v.(float64)))
		}
		if t.Mode() != mode || !slices.Equal(ids, wantIDs) {
			return mismatch(fmt.Sprint(t.Mode(), ids), want)
		}
	}
	return nil
}
