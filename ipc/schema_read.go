package ipc

import (
	"fmt"
	"slices"
	"strings"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	fb "github.com/alkaid-go/alkaid/internal/flatbuf"
	"github.com/alkaid-go/alkaid/internal/quote"
)

// Extension metadata keys, in the Alkaid namespace and in Apache Arrow's
// (the same as datatype's, which resolves them).
const (
	ExtensionNameKey          = datatype.ExtensionNameKey
	ExtensionMetadataKey      = datatype.ExtensionMetadataKey
	ArrowExtensionNameKey     = datatype.ArrowExtensionNameKey
	ArrowExtensionMetadataKey = datatype.ArrowExtensionMetadataKey
)

// schemaInfo is a decoded schema plus what record and dictionary batches
// need to be interpreted: the dictionary id of every dictionary type.
type schemaInfo struct {
	schema *alkaid.Schema
	// dictID maps each dictionary type of the schema (each is a distinct
	// value, made here) to its dictionary id.
	dictID map[*datatype.DictionaryType]int64
	// dictType maps ids to their dictionary types.
	dictType map[int64]*datatype.DictionaryType
	// ids lists the dictionary id of every dictionary type in the order a
	// depth-first walk of the fields meets them.
	ids []int64
}

// sameAs reports whether two readings of a schema describe the same
// fields, metadata, byte order and dictionary ids.
func (s *schemaInfo) sameAs(o *schemaInfo) bool {
	return s.schema.Equal(o.schema) && slices.Equal(s.ids, o.ids)
}

// differences names the first way s and o differ (sameAs is false), in
// a short line: the field, metadata, byte order or dictionary ids, each
// field printed with a bound.
func (s *schemaInfo) difference(o *schemaInfo) string {
	a, b := s.schema, o.schema
	switch {
	case a.NumFields() != b.NumFields():
		return fmt.Sprintf("%d fields against %d", a.NumFields(), b.NumFields())
	case a.Endianness() != b.Endianness():
		return fmt.Sprintf("byte order %s against %s", a.Endianness(), b.Endianness())
	}
	for i := range a.NumFields() {
		if fa, fb := a.Field(i), b.Field(i); !datatype.FieldEqual(fa, fb) {
			return fmt.Sprintf("field %d: %s against %s", i, quote.String(fa.String()), quote.String(fb.String()))
		}
	}
	if !datatype.MetadataEqual(a.Metadata(), b.Metadata()) {
		return "the schema metadata differs"
	}
	return fmt.Sprintf("the dictionary ids differ (%d against %d dictionaries)", len(s.ids), len(o.ids))
}

type schemaReader struct {
	info  *schemaInfo
	depth int
	limit int
	path  []string
}

// readSchema converts a verified Flatbuffers schema.
func readSchema(s *fb.Schema, limits Limits) (*schemaInfo, error) {
	info := &schemaInfo{dictID: map[*datatype.DictionaryType]int64{}, dictType: map[int64]*datatype.DictionaryType{}}
	r := &schemaReader{info: info, limit: limits.MaxDepth}
	fields := make([]datatype.Field, s.FieldsLength())
	var f fb.Field
	for i := range fields {
		s.Fields(&f, i)
		field, err := r.field(&f)
		if err != nil {
			return nil, err
		}
		fields[i] = field
	}
	sc := alkaid.NewSchema(fields, readMetadata(s.CustomMetadataLength(), s.CustomMetadata))
	if s.Endianness() == fb.EndiannessBig {
		sc = sc.WithEndianness(alkaid.BigEndian)
	}
	info.schema = sc
	return info, nil
}

func readMetadata(n int, get func(*fb.KeyValue, int) bool) datatype.Metadata {
	if n == 0 {
		return datatype.Metadata{}
	}
	keys, vals := make([]string, n), make([]string, n)
	var kv fb.KeyValue
	for i := range n {
		get(&kv, i)
		keys[i], vals[i] = string(kv.Key()), string(kv.Value())
	}
	return datatype.NewMetadata(keys, vals)
}

func (r *schemaReader) errf(format string, args ...any) error {
	return invalidf("schema field %s: "+format, append([]any{strings.Join(r.path, ".")}, args...)...)
}

func (r *schemaReader) field(f *fb.Field) (datatype.Field, error) {
	r.depth++
	defer func() { r.depth-- }()
	r.path = append(r.path, string(f.Name()))
	defer func() { r.path = r.path[:len(r.path)-1] }()
	if r.depth > r.limit {
		return datatype.Field{}, limitf("schema field %s: nesting deeper than %d", strings.Join(r.path, "."), r.limit)
	}
	children := make([]datatype.Field, f.ChildrenLength())
	var c fb.Field
	for i := range children {
		f.Children(&c, i)
		child, err := r.field(&c)
		if err != nil {
			return datatype.Field{}, err
		}
		children[i] = child
	}
	t, err := r.typ(f, children)
	if err != nil {
		return datatype.Field{}, err
	}
	md := readMetadata(f.CustomMetadataLength(), f.CustomMetadata)
	if enc := f.Dictionary(nil); enc != nil {
		if t, err = r.dictionary(enc, t); err != nil {
			return datatype.Field{}, err
		}
	}
	if t, md, err = datatype.ResolveExtension(t, md); err != nil {
		return datatype.Field{}, r.errf("%v", err)
	}
	return datatype.Field{Name: string(f.Name()), Type: t, Nullable: f.Nullable(), Metadata: md}, nil
}

func (r *schemaReader) dictionary(enc *fb.DictionaryEncoding, value datatype.DataType) (datatype.DataType, error) {
	index := datatype.Int32
	if it := enc.IndexType(nil); it != nil {
		var err error
		if index, err = datatype.IntType(int(it.BitWidth()), it.IsSigned()); err != nil {
			return nil, r.errf("dictionary index: %v", err)
		}
	}
	dt, err := datatype.NewDictionary(index, value, enc.IsOrdered())
	if err != nil {
		return nil, r.errf("%v", err)
	}
	id := enc.Id()
	if _, dup := r.info.dictType[id]; dup {
		// One dictionary may serve several fields if their types agree.
		if !datatype.Equal(r.info.dictType[id], dt) {
			return nil, r.errf("dictionary id %d used with types %s and %s", id, r.info.dictType[id], dt)
		}
	} else {
		r.info.dictType[id] = dt
	}
	r.info.dictID[dt] = id
	r.info.ids = append(r.info.ids, id)
	return dt, nil
}

func (r *schemaReader) typ(f *fb.Field, children []datatype.Field) (datatype.DataType, error) {
	var tbl flatbuffers.Table
	tt := f.TypeType()
	if tt != fb.TypeNONE && !f.Type(&tbl) {
		return nil, r.errf("type table missing")
	}
	want := func(n int) error {
		if len(children) != n {
			return r.errf("%s type with %d children, want %d", tt, len(children), n)
		}
		return nil
	}
	if tt != fb.TypeStruct_ && tt != fb.TypeUnion && !isListType(tt) && tt != fb.TypeMap && tt != fb.TypeRunEndEncoded {
		if err := want(0); err != nil {
			return nil, err
		}
	}
	switch tt {
	case fb.TypeNull:
		return datatype.Null, nil
	case fb.TypeBool:
		return datatype.Bool, nil
	case fb.TypeInt:
		var t fb.Int
		t.Init(tbl.Bytes, tbl.Pos)
		it, err := datatype.IntType(int(t.BitWidth()), t.IsSigned())
		if err != nil {
			return nil, r.errf("%v", err)
		}
		return it, nil
	case fb.TypeFloatingPoint:
		var t fb.FloatingPoint
		t.Init(tbl.Bytes, tbl.Pos)
		switch t.Precision() {
		case fb.PrecisionHALF:
			return datatype.Float16Type, nil
		case fb.PrecisionSINGLE:
			return datatype.Float32, nil
		case fb.PrecisionDOUBLE:
			return datatype.Float64, nil
		}
		return nil, r.errf("floating-point precision %d", t.Precision())
	case fb.TypeDecimal:
		var t fb.Decimal
		t.Init(tbl.Bytes, tbl.Pos)
		dt, err := datatype.NewDecimal(int(t.BitWidth()), t.Precision(), t.Scale())
		if err != nil {
			return nil, r.errf("%v", err)
		}
		return dt, nil
	case fb.TypeDate:
		var t fb.Date
		t.Init(tbl.Bytes, tbl.Pos)
		switch t.Unit() {
		case fb.DateUnitDAY:
			return datatype.Date32Type, nil
		case fb.DateUnitMILLISECOND:
			return datatype.Date64Type, nil
		}
		return nil, r.errf("date unit %d", t.Unit())
	case fb.TypeTime:
		var t fb.Time
		t.Init(tbl.Bytes, tbl.Pos)
		u, err := r.unit(t.Unit())
		if err != nil {
			return nil, err
		}
		tm, _ := datatype.NewTime(u)
		if want := 32 + 32*int32(u/2); t.BitWidth() != want {
			return nil, r.errf("time unit %s with bit width %d, want %d", u, t.BitWidth(), want)
		}
		return tm, nil
	case fb.TypeTimestamp:
		var t fb.Timestamp
		t.Init(tbl.Bytes, tbl.Pos)
		u, err := r.unit(t.Unit())
		if err != nil {
			return nil, err
		}
		ts, _ := datatype.NewTimestamp(u, string(t.Timezone()))
		return ts, nil
	case fb.TypeDuration:
		var t fb.Duration
		t.Init(tbl.Bytes, tbl.Pos)
		u, err := r.unit(t.Unit())
		if err != nil {
			return nil, err
		}
		d, _ := datatype.NewDuration(u)
		return d, nil
	case fb.TypeInterval:
		var t fb.Interval
		t.Init(tbl.Bytes, tbl.Pos)
		switch t.Unit() {
		case fb.IntervalUnitYEAR_MONTH:
			return datatype.MonthIntervalType, nil
		case fb.IntervalUnitDAY_TIME:
			return datatype.DayTimeIntervalType, nil
		case fb.IntervalUnitMONTH_DAY_NANO:
			return datatype.MonthDayNanoIntervalType, nil
		}
		return nil, r.errf("interval unit %d", t.Unit())
	case fb.TypeFixedSizeBinary:
		var t fb.FixedSizeBinary
		t.Init(tbl.Bytes, tbl.Pos)
		dt, err := datatype.NewFixedSizeBinary(int(t.ByteWidth()))
		if err != nil {
			return nil, r.errf("%v", err)
		}
		return dt, nil
	case fb.TypeBinary:
		return datatype.Binary, nil
	case fb.TypeUtf8:
		return datatype.String, nil
	case fb.TypeLargeBinary:
		return datatype.LargeBinary, nil
	case fb.TypeLargeUtf8:
		return datatype.LargeString, nil
	case fb.TypeBinaryView:
		return datatype.BinaryView, nil
	case fb.TypeUtf8View:
		return datatype.StringView, nil
	case fb.TypeList, fb.TypeLargeList, fb.TypeListView, fb.TypeLargeListView, fb.TypeFixedSizeList:
		if err := want(1); err != nil {
			return nil, err
		}
		switch tt {
		case fb.TypeList:
			return datatype.ListOfField(children[0]), nil
		case fb.TypeLargeList:
			return datatype.LargeListOfField(children[0]), nil
		case fb.TypeListView:
			return datatype.ListViewOfField(children[0]), nil
		case fb.TypeLargeListView:
			return datatype.LargeListViewOfField(children[0]), nil
		}
		var t fb.FixedSizeList
		t.Init(tbl.Bytes, tbl.Pos)
		dt, err := datatype.FixedSizeListOfField(children[0], t.ListSize())
		if err != nil {
			return nil, r.errf("%v", err)
		}
		return dt, nil
	case fb.TypeStruct_:
		return datatype.StructOf(children...), nil
	case fb.TypeMap:
		if err := want(1); err != nil {
			return nil, err
		}
		var t fb.Map
		t.Init(tbl.Bytes, tbl.Pos)
		dt, err := datatype.MapOfEntries(children[0], t.KeysSorted())
		if err != nil {
			return nil, r.errf("%v", err)
		}
		return dt, nil
	case fb.TypeUnion:
		var t fb.Union
		t.Init(tbl.Bytes, tbl.Pos)
		mode := datatype.Sparse
		switch t.Mode() {
		case fb.UnionModeSparse:
		case fb.UnionModeDense:
			mode = datatype.Dense
		default:
			return nil, r.errf("union mode %d", t.Mode())
		}
		var codes []int8
		if n := t.TypeIdsLength(); n > 0 {
			if n != len(children) {
				return nil, r.errf("union with %d children and %d type ids", len(children), n)
			}
			codes = make([]int8, n)
			for i := range codes {
				id := t.TypeIds(i)
				if id < 0 || id > 127 {
					return nil, r.errf("union type id %d outside [0, 127]", id)
				}
				codes[i] = int8(id)
			}
		}
		dt, err := datatype.NewUnion(mode, children, codes)
		if err != nil {
			return nil, r.errf("%v", err)
		}
		return dt, nil
	case fb.TypeRunEndEncoded:
		if err := want(2); err != nil {
			return nil, err
		}
		dt, err := datatype.NewRunEndEncodedFields(children[0], children[1])
		if err != nil {
			return nil, r.errf("%v", err)
		}
		return dt, nil
	}
	return nil, unsupportedf("schema field %s: type %d", strings.Join(r.path, "."), tt)
}

func isListType(t fb.Type) bool {
	switch t {
	case fb.TypeList, fb.TypeLargeList, fb.TypeListView, fb.TypeLargeListView, fb.TypeFixedSizeList:
		return true
	}
	return false
}

func (r *schemaReader) unit(u fb.TimeUnit) (datatype.TimeUnit, error) {
	switch u {
	case fb.TimeUnitSECOND:
		return datatype.Second, nil
	case fb.TimeUnitMILLISECOND:
		return datatype.Millisecond, nil
	case fb.TimeUnitMICROSECOND:
		return datatype.Microsecond, nil
	case fb.TimeUnitNANOSECOND:
		return datatype.Nanosecond, nil
	}
	return 0, r.errf("time unit %d", u)
}
