package integration

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

// The JSON shapes of the schema part of the format.

type jsonKV struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type jsonDictEncoding struct {
	ID        int64    `json:"id"`
	IndexType jsonType `json:"indexType"`
	IsOrdered bool     `json:"isOrdered"`
}

// jsonType holds every parameter any type object may carry. Precision is
// a string for floating point ("SINGLE") and a number for decimals, so it
// stays raw.
type jsonType struct {
	Name       string          `json:"name"`
	BitWidth   int             `json:"bitWidth"`
	IsSigned   bool            `json:"isSigned"`
	Precision  json.RawMessage `json:"precision"`
	Scale      int32           `json:"scale"`
	Unit       string          `json:"unit"`
	Timezone   *string         `json:"timezone"`
	ByteWidth  int             `json:"byteWidth"`
	ListSize   int32           `json:"listSize"`
	KeysSorted bool            `json:"keysSorted"`
	Mode       string          `json:"mode"`
	TypeIDs    []int           `json:"typeIds"`
}

type jsonField struct {
	Name       string            `json:"name"`
	Nullable   bool              `json:"nullable"`
	Type       jsonType          `json:"type"`
	Children   []jsonField       `json:"children"`
	Dictionary *jsonDictEncoding `json:"dictionary"`
	Metadata   []jsonKV          `json:"metadata"`
}

type jsonSchema struct {
	Fields   []jsonField `json:"fields"`
	Metadata []jsonKV    `json:"metadata"`
}

// node mirrors a field's storage type and says where dictionaries are:
// a dictionary node has the dictionary's id (in a file being read) or slot
// (in a file being written) and the node of its value type; other nodes
// have one node per child field.
type node struct {
	dict     *datatype.DictionaryType
	id       int64
	slot     int
	value    *node
	children []*node
}

// Extension metadata keys; JSON is Apache Arrow's format, so it carries
// Arrow's namespace.
const (
	arrowPrefix  = "ARROW:"
	alkaidPrefix = "ALKAID:"
	extNameKey   = "ARROW:extension:name"
	extMetaKey   = "ARROW:extension:metadata"
)

// schemaReader turns the JSON schema into an alkaid schema and the nodes
// of its fields.
type schemaReader struct {
	dictIDs []int64                            // every dictionary field's id, depth first
	dicts   map[int64]*datatype.DictionaryType // first field of each id
	valueOf map[int64]*node                    // value node of each id
	depth   int
}

func (r *schemaReader) schema(js jsonSchema) (*alkaid.Schema, []*node, error) {
	fields := make([]datatype.Field, len(js.Fields))
	nodes := make([]*node, len(js.Fields))
	for i, jf := range js.Fields {
		f, n, err := r.field(jf, fieldPath("", i, jf.Name))
		if err != nil {
			return nil, nil, err
		}
		fields[i], nodes[i] = f, n
	}
	return alkaid.NewSchema(fields, readMetadata(js.Metadata)), nodes, nil
}

func fieldPath(parent string, i int, name string) string {
	if name == "" {
		name = "[" + strconv.Itoa(i) + "]"
	}
	if parent == "" {
		return name
	}
	return parent + "." + name
}

func readMetadata(kvs []jsonKV) datatype.Metadata {
	if len(kvs) == 0 {
		return datatype.Metadata{}
	}
	keys := make([]string, len(kvs))
	values := make([]string, len(kvs))
	for i, kv := range kvs {
		keys[i], values[i] = kv.Key, kv.Value
	}
	return datatype.NewMetadata(keys, values)
}

const maxDepth = 64

func (r *schemaReader) field(jf jsonField, path string) (datatype.Field, *node, error) {
	r.depth++
	defer func() { r.depth-- }()
	if r.depth > maxDepth {
		return datatype.Field{}, nil, invalidf("field %s: nesting deeper than %d", path, maxDepth)
	}
	var dictNode *node
	if jf.Dictionary != nil {
		// Ids are noted before the value's own dictionaries: depth first,
		// as writers number them.
		dictNode = &node{id: jf.Dictionary.ID}
		r.dictIDs = append(r.dictIDs, jf.Dictionary.ID)
	}
	children := make([]datatype.Field, len(jf.Children))
	childNodes := make([]*node, len(jf.Children))
	for i, jc := range jf.Children {
		c, n, err := r.field(jc, fieldPath(path, i, jc.Name))
		if err != nil {
			return datatype.Field{}, nil, err
		}
		children[i], childNodes[i] = c, n
	}
	t, err := readType(jf.Type, children)
	if err != nil {
		return datatype.Field{}, nil, invalidf("field %s: %v", path, err)
	}
	n := &node{children: childNodes}
	if dictNode != nil {
		index, err := readIntType(jf.Dictionary.IndexType)
		if err != nil {
			return datatype.Field{}, nil, invalidf("field %s: dictionary index: %v", path, err)
		}
		dt, err := datatype.NewDictionary(index, t, jf.Dictionary.IsOrdered)
		if err != nil {
			return datatype.Field{}, nil, invalidf("field %s: %v", path, err)
		}
		id := jf.Dictionary.ID
		if prev, ok := r.dicts[id]; ok {
			if !datatype.Equal(prev.Value, dt.Value) {
				return datatype.Field{}, nil, invalidf("field %s: dictionary id %d used with value types %s and %s", path, id, prev.Value, dt.Value)
			}
		} else {
			r.dicts[id] = dt
			r.valueOf[id] = n
		}
		dictNode.dict, dictNode.value = dt, n
		t, n = dt, dictNode
	}
	md := readMetadata(jf.Metadata)
	t, md, err = datatype.ResolveExtension(t, md)
	if err != nil {
		return datatype.Field{}, nil, invalidf("field %s: %v", path, err)
	}
	return datatype.Field{Name: jf.Name, Type: t, Nullable: jf.Nullable, Metadata: md}, n, nil
}

func readIntType(jt jsonType) (datatype.DataType, error) {
	if jt.Name != "int" {
		return nil, fmt.Errorf("type %q is not an integer type", jt.Name)
	}
	return datatype.IntType(jt.BitWidth, jt.IsSigned)
}

func readUnit(s string) (datatype.TimeUnit, error) {
	switch s {
	case "SECOND":
		return datatype.Second, nil
	case "MILLISECOND":
		return datatype.Millisecond, nil
	case "MICROSECOND":
		return datatype.Microsecond, nil
	case "NANOSECOND":
		return datatype.Nanosecond, nil
	}
	return 0, fmt.Errorf("time unit %q", s)
}

var unitNames = [...]string{"SECOND", "MILLISECOND", "MICROSECOND", "NANOSECOND"}

func readType(jt jsonType, children []datatype.Field) (datatype.DataType, error) {
	want := func(n int) error {
		if len(children) != n {
			return fmt.Errorf("type %s has %d children, want %d", jt.Name, len(children), n)
		}
		return nil
	}
	switch jt.Name {
	case "list", "largelist", "listview", "largelistview", "fixedsizelist", "map":
		if err := want(1); err != nil {
			return nil, err
		}
	case "struct", "union":
	case "runendencoded":
		if err := want(2); err != nil {
			return nil, err
		}
	default:
		if err := want(0); err != nil {
			return nil, err
		}
	}
	switch jt.Name {
	case "null":
		return datatype.Null, nil
	case "bool":
		return datatype.Bool, nil
	case "int":
		return readIntType(jt)
	case "floatingpoint":
		var p string
		if err := json.Unmarshal(jt.Precision, &p); err != nil {
			return nil, fmt.Errorf("floatingpoint precision %s", jt.Precision)
		}
		switch p {
		case "HALF":
			return datatype.Float16Type, nil
		case "SINGLE":
			return datatype.Float32, nil
		case "DOUBLE":
			return datatype.Float64, nil
		}
		return nil, fmt.Errorf("floatingpoint precision %q", p)
	case "binary":
		return datatype.Binary, nil
	case "utf8":
		return datatype.String, nil
	case "largebinary":
		return datatype.LargeBinary, nil
	case "largeutf8":
		return datatype.LargeString, nil
	case "binaryview":
		return datatype.BinaryView, nil
	case "utf8view":
		return datatype.StringView, nil
	case "fixedsizebinary":
		return datatype.NewFixedSizeBinary(jt.ByteWidth)
	case "decimal":
		var p int32
		if err := json.Unmarshal(jt.Precision, &p); err != nil {
			return nil, fmt.Errorf("decimal precision %s", jt.Precision)
		}
		bw := jt.BitWidth
		if bw == 0 {
			bw = 128 // the format's default
		}
		return datatype.NewDecimal(bw, p, jt.Scale)
	case "date":
		switch jt.Unit {
		case "DAY":
			return datatype.Date32Type, nil
		case "MILLISECOND":
			return datatype.Date64Type, nil
		}
		return nil, fmt.Errorf("date unit %q", jt.Unit)
	case "time":
		u, err := readUnit(jt.Unit)
		if err != nil {
			return nil, err
		}
		t, err := datatype.NewTime(u)
		if err != nil {
			return nil, err
		}
		if bw := 8 * datatype.ByteWidth(t); jt.BitWidth != 0 && jt.BitWidth != bw {
			return nil, fmt.Errorf("time unit %s with bit width %d (want %d)", jt.Unit, jt.BitWidth, bw)
		}
		return t, nil
	case "timestamp":
		u, err := readUnit(jt.Unit)
		if err != nil {
			return nil, err
		}
		tz := ""
		if jt.Timezone != nil {
			tz = *jt.Timezone
		}
		return datatype.NewTimestamp(u, tz)
	case "duration":
		u, err := readUnit(jt.Unit)
		if err != nil {
			return nil, err
		}
		return datatype.NewDuration(u)
	case "interval":
		switch jt.Unit {
		case "YEAR_MONTH":
			return datatype.MonthIntervalType, nil
		case "DAY_TIME":
			return datatype.DayTimeIntervalType, nil
		case "MONTH_DAY_NANO":
			return datatype.MonthDayNanoIntervalType, nil
		}
		return nil, fmt.Errorf("interval unit %q", jt.Unit)
	case "list":
		return datatype.ListOfField(children[0]), nil
	case "largelist":
		return datatype.LargeListOfField(children[0]), nil
	case "listview":
		return datatype.ListViewOfField(children[0]), nil
	case "largelistview":
		return datatype.LargeListViewOfField(children[0]), nil
	case "fixedsizelist":
		return datatype.FixedSizeListOfField(children[0], jt.ListSize)
	case "struct":
		return datatype.StructOf(children...), nil
	case "map":
		return datatype.MapOfEntries(children[0], jt.KeysSorted)
	case "union":
		var mode datatype.UnionMode
		switch strings.ToUpper(jt.Mode) {
		case "SPARSE":
			mode = datatype.Sparse
		case "DENSE":
			mode = datatype.Dense
		default:
			return nil, fmt.Errorf("union mode %q", jt.Mode)
		}
		var codes []int8
		if jt.TypeIDs != nil {
			codes = make([]int8, len(jt.TypeIDs))
			for i, c := range jt.TypeIDs {
				if c < 0 || c > 127 {
					return nil, fmt.Errorf("union type id %d out of range [0, 127]", c)
				}
				codes[i] = int8(c)
			}
		}
		return datatype.NewUnion(mode, children, codes)
	case "runendencoded":
		return datatype.NewRunEndEncodedFields(children[0], children[1])
	}
	return nil, fmt.Errorf("unknown type %q", jt.Name)
}

// jsonWriter emits JSON by hand so that keys keep the format's order and
// numbers their exact text.
type jsonWriter struct {
	buf bytes.Buffer
}

func (w *jsonWriter) raw(s string) { w.buf.WriteString(s) }
func (w *jsonWriter) byte(c byte)  { w.buf.WriteByte(c) }
func (w *jsonWriter) str(s string) { writeJSONString(&w.buf, s) }
func (w *jsonWriter) key(k string) { w.str(k); w.byte(':') }
func (w *jsonWriter) int(v int64)  { w.buf.WriteString(strconv.FormatInt(v, 10)) }
func (w *jsonWriter) bool(v bool)  { w.buf.WriteString(strconv.FormatBool(v)) }
func (w *jsonWriter) comma(i int) {
	if i > 0 {
		w.byte(',')
	}
}
func (w *jsonWriter) qint(v int64) { w.byte('"'); w.int(v); w.byte('"') }
func (w *jsonWriter) quint(v uint64) {
	w.byte('"')
	w.buf.WriteString(strconv.FormatUint(v, 10))
	w.byte('"')
}

// writeJSONString writes s as a JSON string. A JSON text cannot hold bytes
// that are not UTF-8; they are written as the code points of their byte
// values (\u00XX), so only invalid UTF-8 (never a valid utf8 value) is
// changed on the way through.
func writeJSONString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			switch {
			case c == '"' || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			case c < 0x20 || c == 0x7f:
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&15])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			i++
			continue
		}
		b.WriteString(s[i : i+size])
		i += size
	}
	b.WriteByte('"')
}

// writeSchema emits the schema object; ids gives each dictionary slot's id.
func (w *jsonWriter) schema(s *alkaid.Schema, nodes []*node, ids []int64) {
	w.raw(`{"fields":[`)
	for i := range s.NumFields() {
		w.comma(i)
		w.field(s.Field(i), nodes[i], ids)
	}
	w.byte(']')
	if md := s.Metadata(); md.Len() > 0 {
		w.raw(`,"metadata":`)
		w.metadata(md)
	}
	w.byte('}')
}

func (w *jsonWriter) metadata(md datatype.Metadata) {
	w.byte('[')
	for i := range md.Len() {
		w.comma(i)
		w.raw(`{"key":`)
		w.str(jsonKey(md.Key(i)))
		w.raw(`,"value":`)
		w.str(md.Value(i))
		w.byte('}')
	}
	w.byte(']')
}

// jsonKey maps the Alkaid reserved namespace to Arrow's, the one JSON files
// use.
func jsonKey(k string) string {
	if strings.HasPrefix(k, alkaidPrefix) {
		return arrowPrefix + k[len(alkaidPrefix):]
	}
	return k
}

func (w *jsonWriter) field(f datatype.Field, n *node, ids []int64) {
	t, md := f.Type, f.Metadata
	if ext, ok := t.(datatype.ExtensionType); ok {
		md = md.With(extNameKey, ext.ExtensionName()).With(extMetaKey, ext.Serialize())
		t = ext.StorageType()
	}
	var dict *datatype.DictionaryType
	if dt, ok := t.(*datatype.DictionaryType); ok {
		dict, t = dt, dt.Value
		if ext, ok := t.(datatype.ExtensionType); ok {
			md = md.With(extNameKey, ext.ExtensionName()).With(extMetaKey, ext.Serialize())
			t = ext.StorageType()
		}
	}
	w.raw(`{"name":`)
	w.str(f.Name)
	w.raw(`,"nullable":`)
	w.bool(f.Nullable)
	w.raw(`,"type":`)
	w.typ(t)
	children := datatype.Children(t)
	childNodes := n.children
	if dict != nil {
		childNodes = n.value.children
	}
	w.raw(`,"children":[`)
	for i, c := range children {
		w.comma(i)
		w.field(c, childNodes[i], ids)
	}
	w.byte(']')
	if dict != nil {
		w.raw(`,"dictionary":{"id":`)
		w.int(ids[n.slot])
		w.raw(`,"indexType":`)
		w.typ(dict.Index)
		w.raw(`,"isOrdered":`)
		w.bool(dict.Ordered)
		w.byte('}')
	}
	if md.Len() > 0 {
		w.raw(`,"metadata":`)
		w.metadata(md)
	}
	w.byte('}')
}

// typ emits the type object of a type that is neither an extension nor a
// dictionary.
func (w *jsonWriter) typ(t datatype.DataType) {
	name := func(n string) { w.raw(`{"name":`); w.str(n) }
	switch t := t.(type) {
	case *datatype.TimeType:
		name("time")
		w.raw(`,"unit":`)
		w.str(unitNames[t.Unit&3])
		w.raw(`,"bitWidth":`)
		w.int(int64(8 * datatype.ByteWidth(t)))
	case *datatype.TimestampType:
		name("timestamp")
		w.raw(`,"unit":`)
		w.str(unitNames[t.Unit&3])
		if t.TimeZone != "" {
			w.raw(`,"timezone":`)
			w.str(t.TimeZone)
		}
	case *datatype.DurationType:
		name("duration")
		w.raw(`,"unit":`)
		w.str(unitNames[t.Unit&3])
	case *datatype.DecimalType:
		name("decimal")
		w.raw(`,"precision":`)
		w.int(int64(t.Precision))
		w.raw(`,"scale":`)
		w.int(int64(t.Scale))
		w.raw(`,"bitWidth":`)
		w.int(int64(t.BitWidth))
	case *datatype.FixedSizeBinaryType:
		name("fixedsizebinary")
		w.raw(`,"byteWidth":`)
		w.int(int64(t.ByteWidth))
	case *datatype.ListType:
		switch t.Kind() {
		case datatype.KindList:
			name("list")
		case datatype.KindLargeList:
			name("largelist")
		case datatype.KindListView:
			name("listview")
		case datatype.KindLargeListView:
			name("largelistview")
		default:
			name("fixedsizelist")
			w.raw(`,"listSize":`)
			w.int(int64(t.Size()))
		}
	case *datatype.StructType:
		name("struct")
	case *datatype.MapType:
		name("map")
		w.raw(`,"keysSorted":`)
		w.bool(t.KeysSorted)
	case *datatype.UnionType:
		name("union")
		w.raw(`,"mode":`)
		if t.Mode() == datatype.Dense {
			w.str("DENSE")
		} else {
			w.str("SPARSE")
		}
		w.raw(`,"typeIds":[`)
		for i, c := range t.TypeCodes() {
			w.comma(i)
			w.int(int64(c))
		}
		w.byte(']')
	case *datatype.RunEndEncodedType:
		name("runendencoded")
	default:
		switch k := t.Kind(); {
		case k.IsInteger():
			name("int")
			w.raw(`,"isSigned":`)
			w.bool(k.IsSignedInteger())
			w.raw(`,"bitWidth":`)
			w.int(int64(8 * datatype.ByteWidth(t)))
		case k.IsFloat():
			name("floatingpoint")
			w.raw(`,"precision":`)
			w.str(map[datatype.Kind]string{datatype.KindFloat16: "HALF", datatype.KindFloat32: "SINGLE", datatype.KindFloat64: "DOUBLE"}[k])
		default:
			name(simpleTypeNames[k])
			switch k {
			case datatype.KindDate32:
				w.raw(`,"unit":"DAY"`)
			case datatype.KindDate64:
				w.raw(`,"unit":"MILLISECOND"`)
			case datatype.KindMonthInterval:
				w.raw(`,"unit":"YEAR_MONTH"`)
			case datatype.KindDayTimeInterval:
				w.raw(`,"unit":"DAY_TIME"`)
			case datatype.KindMonthDayNanoInterval:
				w.raw(`,"unit":"MONTH_DAY_NANO"`)
			}
		}
	}
	w.byte('}')
}

var simpleTypeNames = map[datatype.Kind]string{
	datatype.KindNull: "null", datatype.KindBool: "bool", datatype.KindBinary: "binary",
	datatype.KindString: "utf8", datatype.KindLargeBinary: "largebinary", datatype.KindLargeString: "largeutf8",
	datatype.KindBinaryView: "binaryview", datatype.KindStringView: "utf8view",
	datatype.KindDate32: "date", datatype.KindDate64: "date", datatype.KindMonthInterval: "interval",
	datatype.KindDayTimeInterval: "interval", datatype.KindMonthDayNanoInterval: "interval",
}
