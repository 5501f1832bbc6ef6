package integration

// Writing the schema part of the JSON format: a schema to JSON text.

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

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
