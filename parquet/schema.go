package parquet

import (
	"fmt"
	"strings"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// maxSchemaDepth bounds the nesting of a file's schema.
const maxSchemaDepth = 64

// node is one element of a file's schema tree.
type node struct {
	elem     *format.SchemaElement
	children []*node
	path     []string // Parquet path from the root's child down
	// Leaves only: the column index and maximum levels.
	column         int
	maxDef, maxRep int16
	// optionalKey: an optional map key (a legacy form), read as the
	// required key Arrow maps have: its definition levels drop by one
	// once decoded (see foldOptionalKey).
	optionalKey bool
}

func (n *node) repetition() format.Repetition {
	if n.elem.RepetitionType == nil {
		return format.Required
	}
	return *n.elem.RepetitionType
}

// schemaTree rebuilds the tree of a flattened schema and numbers its
// leaves; it returns the root and the leaves in column order.
func schemaTree(elems []format.SchemaElement) (*node, []*node, error) {
	if len(elems) == 0 {
		return nil, nil, invalidf("empty schema")
	}
	// The nodes, their children and paths are carved out of a few
	// allocations: every element is a node, every node but the root a
	// child.
	t := &treeBuilder{elems: elems, nodes: make([]node, len(elems)), kids: make([]*node, len(elems)-1)}
	root, err := t.build(0, 0, nil, 0)
	if err != nil {
		return nil, nil, err
	}
	if t.pos != len(elems) {
		return nil, nil, invalidf("schema has %d elements beyond its root's children", len(elems)-t.pos)
	}
	return root, t.leaves, nil
}

// treeBuilder holds what schemaTree has built so far.
type treeBuilder struct {
	elems  []format.SchemaElement
	pos    int // the next element
	nodes  []node
	kids   []*node // not given to a node yet
	paths  []string
	leaves []*node
}

// build builds the node of the next element, at depth (0: the root)
// below path, and its subtree; def and rep are the levels above it.
func (t *treeBuilder) build(def, rep int16, path []string, depth int) (*node, error) {
	if depth > maxSchemaDepth {
		return nil, invalidf("schema nested deeper than %d", maxSchemaDepth)
	}
	elems := t.elems
	if t.pos >= len(elems) {
		return nil, invalidf("schema ends inside a group (%d elements)", len(elems))
	}
	e := &elems[t.pos]
	n := &t.nodes[t.pos]
	t.pos++
	*n = node{elem: e, column: -1}
	if depth > 0 {
		if cap(t.paths)-len(t.paths) <= len(path) {
			t.paths = make([]string, 0, max(2*len(path)+2, len(elems)))
		}
		at := len(t.paths)
		t.paths = append(append(t.paths, path...), e.Name)
		n.path = t.paths[at:len(t.paths):len(t.paths)]
		switch n.repetition() {
		case format.Optional:
			def++
		case format.Repeated:
			def++
			rep++
		case format.Required:
		default:
			return nil, invalidf("schema element %q: repetition %d", e.Name, n.repetition())
		}
	}
	kids := 0
	if e.NumChildren != nil {
		kids = int(*e.NumChildren)
	}
	if kids < 0 || kids > len(elems)-t.pos {
		return nil, invalidf("schema element %q: %d children, %d elements left", e.Name, kids, len(elems)-t.pos)
	}
	if kids == 0 && depth > 0 {
		if e.Type == nil {
			return nil, invalidf("schema element %q: a leaf without a physical type", e.Name)
		}
		n.column, n.maxDef, n.maxRep = len(t.leaves), def, rep
		t.leaves = append(t.leaves, n)
		return n, nil
	}
	if kids <= len(t.kids) {
		n.children, t.kids = t.kids[:0:kids], t.kids[kids:]
	} else {
		// More children than elements left to be them: building them
		// runs out of elements.
		n.children = make([]*node, 0, kids)
	}
	for range kids {
		c, err := t.build(def, rep, n.path, depth+1)
		if err != nil {
			return nil, err
		}
		n.children = append(n.children, c)
	}
	return n, nil
}

// field maps a schema node to an Alkaid field.
func (n *node) field() (datatype.Field, error) {
	e := n.elem
	nullable := n.repetition() == format.Optional
	var t datatype.DataType
	var err error
	switch {
	case len(n.children) == 0:
		t, err = leafType(e)
		if err == nil {
			t = annotatedType(e, t)
		}
	case isList(e):
		t, err = n.listType()
	case isMap(e):
		t, err = n.mapType()
	default:
		fields := make([]datatype.Field, len(n.children))
		for i, c := range n.children {
			if fields[i], err = c.field(); err != nil {
				return datatype.Field{}, err
			}
		}
		t = datatype.StructOf(fields...)
	}
	if err != nil {
		return datatype.Field{}, err
	}
	if n.repetition() == format.Repeated {
		// An unannotated repeated field is a list of required elements.
		t = datatype.ListOfField(datatype.Field{Name: e.Name, Type: t})
	}
	return datatype.Field{Name: e.Name, Type: t, Nullable: nullable}, nil
}

func isList(e *format.SchemaElement) bool {
	return (e.LogicalType != nil && e.LogicalType.List != nil) || (e.ConvertedType != nil && *e.ConvertedType == format.List)
}

func isMap(e *format.SchemaElement) bool {
	return (e.LogicalType != nil && e.LogicalType.Map != nil) ||
		(e.ConvertedType != nil && (*e.ConvertedType == format.Map || *e.ConvertedType == format.MapKeyValue))
}

// listType applies the list rules of the Parquet format, the backward
// compatible ones included.
func (n *node) listType() (datatype.DataType, error) {
	if len(n.children) != 1 || n.children[0].repetition() != format.Repeated {
		return nil, unsupportedf("list %q: want one repeated child", strings.Join(n.path, "."))
	}
	r := n.children[0]
	var elem datatype.Field
	var err error
	switch {
	case len(r.children) == 0, len(r.children) > 1, r.elem.Name == "array", r.elem.Name == n.elem.Name+"_tuple":
		// Two-level list: the repeated field is the element.
		elem, err = r.fieldAs(format.Required)
	default:
		elem, err = r.children[0].field()
	}
	if err != nil {
		return nil, err
	}
	return datatype.ListOfField(elem), nil
}

// fieldAs maps n as if its repetition were rep.
func (n *node) fieldAs(rep format.Repetition) (datatype.Field, error) {
	e := *n.elem
	e.RepetitionType = &rep
	c := *n
	c.elem = &e
	return c.field()
}

func (n *node) mapType() (datatype.DataType, error) {
	name := strings.Join(n.path, ".")
	if len(n.children) != 1 || n.children[0].repetition() != format.Repeated {
		return nil, unsupportedf("map %q: want one repeated child", name)
	}
	kv := n.children[0]
	if len(kv.children) != 1 && len(kv.children) != 2 {
		return nil, unsupportedf("map %q: key_value has %d fields, want 2", name, len(kv.children))
	}
	key, err := kv.children[0].field()
	if err != nil {
		return nil, err
	}
	if key.Nullable {
		// Legacy writers made keys optional; Arrow's are required, and
		// a null key read is an error.
		k := kv.children[0]
		if k.column < 0 {
			return nil, unsupportedf("map %q: optional key of a nested type", name)
		}
		k.optionalKey, key.Nullable = true, false
	}
	if len(kv.children) == 1 {
		// A map without values (the format allows it): a list of its
		// keys, as arrow-rs and Arrow C++ read it.
		return datatype.ListOfField(key), nil
	}
	val, err := kv.children[1].field()
	if err != nil {
		return nil, err
	}
	return datatype.MapOfFields(key, val, false)
}

// annotatedType gives the Alkaid type of logical types whose values are
// read as those of another type t: UUID (the arrow.uuid extension over
// fixed_size_binary[16]) and UNKNOWN (null, whatever the physical type:
// the column holds no value).
func annotatedType(e *format.SchemaElement, t datatype.DataType) datatype.DataType {
	lt := e.LogicalType
	switch {
	case lt == nil:
		return t
	case lt.UUID != nil && typeLength(e) == 16 && *e.Type == format.FixedLenByteArray:
		return extension.NewUUIDType()
	case lt.Unknown != nil && e.RepetitionType != nil && *e.RepetitionType == format.Optional:
		return datatype.Null
	}
	return t
}

// leafType maps a primitive element to an Alkaid type.
func leafType(e *format.SchemaElement) (datatype.DataType, error) {
	lt := e.LogicalType
	if lt == nil {
		lt = &format.LogicalType{}
	}
	ct := format.ConvertedType(-1)
	if e.ConvertedType != nil {
		ct = *e.ConvertedType
	}
	if lt.Decimal != nil || ct == format.Decimal {
		return decimalType(e, lt)
	}
	switch *e.Type {
	case format.Boolean:
		return datatype.Bool, nil
	case format.Int32:
		switch {
		case lt.Integer != nil:
			return intType(int(lt.Integer.BitWidth), lt.Integer.IsSigned, 32)
		case lt.Date != nil || ct == format.Date:
			return datatype.Date32Type, nil
		case lt.Time != nil:
			return timeType(lt.Time.Unit)
		case ct == format.TimeMillis:
			return datatype.NewTime(datatype.Millisecond)
		case ct >= format.Uint8 && ct <= format.Int64C:
			w := [...]int{8, 16, 32, 64}[(ct-format.Uint8)%4]
			return intType(w, ct >= format.Int8, 32)
		}
		return datatype.Int32, nil
	case format.Int64:
		switch {
		case lt.Integer != nil:
			return intType(int(lt.Integer.BitWidth), lt.Integer.IsSigned, 64)
		case lt.Time != nil:
			return timeType(lt.Time.Unit)
		case lt.Timestamp != nil:
			u, err := unit(lt.Timestamp.Unit)
			if err != nil {
				return nil, err
			}
			return datatype.NewTimestamp(u, utc(lt.Timestamp.IsAdjustedToUTC))
		case ct == format.TimeMicros:
			return datatype.NewTime(datatype.Microsecond)
		case ct == format.TimestampMillis:
			return datatype.NewTimestamp(datatype.Millisecond, "UTC")
		case ct == format.TimestampMicros:
			return datatype.NewTimestamp(datatype.Microsecond, "UTC")
		case ct >= format.Uint8 && ct <= format.Int64C:
			w := [...]int{8, 16, 32, 64}[(ct-format.Uint8)%4]
			return intType(w, ct >= format.Int8, 64)
		}
		return datatype.Int64, nil
	case format.Int96:
		return datatype.NewTimestamp(datatype.Nanosecond, "")
	case format.Float:
		return datatype.Float32, nil
	case format.Double:
		return datatype.Float64, nil
	case format.ByteArray:
		if lt.String != nil || lt.Enum != nil || lt.JSON != nil || ct == format.UTF8 || ct == format.Enum || ct == format.JSON {
			return datatype.String, nil
		}
		return datatype.Binary, nil
	case format.FixedLenByteArray:
		w := typeLength(e)
		if w <= 0 {
			return nil, invalidf("column %q: FIXED_LEN_BYTE_ARRAY of length %d", e.Name, w)
		}
		if lt.Float16 != nil && w == 2 {
			return datatype.Float16Type, nil
		}
		return datatype.NewFixedSizeBinary(w)
	}
	return nil, unsupportedf("column %q: physical type %s", e.Name, *e.Type)
}

func typeLength(e *format.SchemaElement) int {
	if e.TypeLength == nil {
		return 0
	}
	return int(*e.TypeLength)
}

func utc(adjusted bool) string {
	if adjusted {
		return "UTC"
	}
	return ""
}

func intType(bits int, signed bool, physical int) (datatype.DataType, error) {
	if bits > physical {
		return nil, invalidf("INT(%d) annotation on INT%d", bits, physical)
	}
	t, err := datatype.IntType(bits, signed)
	if err != nil {
		return nil, fmt.Errorf("parquet: %w: %v", ErrInvalid, err)
	}
	return t, nil
}

func unit(u format.TimeUnit) (datatype.TimeUnit, error) {
	switch {
	case u.Millis != nil:
		return datatype.Millisecond, nil
	case u.Micros != nil:
		return datatype.Microsecond, nil
	case u.Nanos != nil:
		return datatype.Nanosecond, nil
	}
	return 0, unsupportedf("time unit without a known member")
}

func timeType(u format.TimeUnit) (datatype.DataType, error) {
	tu, err := unit(u)
	if err != nil {
		return nil, err
	}
	return datatype.NewTime(tu)
}

func decimalType(e *format.SchemaElement, lt *format.LogicalType) (datatype.DataType, error) {
	var p, s int32
	if lt.Decimal != nil {
		p, s = lt.Decimal.Precision, lt.Decimal.Scale
	} else {
		if e.Precision != nil {
			p = *e.Precision
		}
		if e.Scale != nil {
			s = *e.Scale
		}
	}
	bits := 128
	switch *e.Type {
	case format.Int32:
		bits = 32
	case format.Int64:
		bits = 64
	case format.ByteArray, format.FixedLenByteArray:
		if p > 38 {
			bits = 256
		}
	default:
		return nil, invalidf("column %q: DECIMAL on %s", e.Name, *e.Type)
	}
	t, err := datatype.NewDecimal(bits, p, s)
	if err != nil {
		return nil, fmt.Errorf("parquet: %w: column %q: %v", ErrInvalid, e.Name, err)
	}
	return t, nil
}

// ptr returns a pointer to a copy of v, for the optional fields of the
// format's structs.
func ptr[T any](v T) *T { return &v }
