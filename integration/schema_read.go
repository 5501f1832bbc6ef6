package integration

// Reading the schema part of the JSON format: JSON shapes to a schema.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
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
