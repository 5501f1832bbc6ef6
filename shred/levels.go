package shred

import (
	"fmt"
	"math"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

// Errors a caller can branch on with [errors.Is]. Every error of this
// package wraps one of them and names the path of the column or field at
// fault.
var (
	// ErrNotSupported is datatype.ErrNotSupported: the type has no Dremel
	// representation (unions, structs without fields, dictionaries or
	// run-end encodings of nested values).
	ErrNotSupported = datatype.ErrNotSupported
	// ErrInvalid is datatype.ErrInvalid: the data does not fit its schema
	// (a null in a non-nullable field, a fixed-size list of the wrong
	// size) or columns do not fit the schema or each other.
	ErrInvalid = datatype.ErrInvalid
	// ErrLimit is datatype.ErrLimit: Assemble's values have more
	// distinct values than a dictionary's index type can number.
	ErrLimit = datatype.ErrLimit
)

func errorf(sentinel error, path []string, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if len(path) > 0 {
		return fmt.Errorf("shred: %s: %w: %s", PathString(path), sentinel, msg)
	}
	return fmt.Errorf("shred: %w: %s", sentinel, msg)
}

// PathString joins a path with dots: "Name.Language.Country".
func PathString(path []string) string { return strings.Join(path, ".") }

// Leaf describes one column of a shredded field: its path, its maximum
// repetition and definition levels, and the type of its values.
type Leaf struct {
	// Path holds the names of the fields from the top-level field down to
	// the leaf. List elements and map entries add no name of their own:
	// the values of list<item: int64> "a" are at path "a", the keys of a
	// map "m" at "m.key".
	Path []string
	// MaxRep is the number of repeated fields (lists of every layout and
	// maps) on the path.
	MaxRep int
	// MaxDef is the number of optional fields on the path (nullable fields,
	// and every field of type null), plus the number of repeated fields,
	// the leaf included.
	MaxDef int
	// Type is the type of the column's values: the leaf field's type, with
	// dictionary and run-end encodings replaced by their value type.
	Type datatype.DataType
}

// Leaves returns the columns that shredding a field gives, in the order
// [Shred] returns them (depth first, struct fields in order). It fails
// with [ErrNotSupported] for types that have no Dremel representation.
func Leaves(f datatype.Field) ([]Leaf, error) {
	t, err := newTree(f)
	if err != nil {
		return nil, err
	}
	return t.leafInfo(), nil
}

// RecordLeaves returns the columns of every field of the schema, field
// after field.
func RecordLeaves(s *alkaid.Schema) ([]Leaf, error) {
	var out []Leaf
	for _, f := range s.Fields() {
		ls, err := Leaves(f)
		if err != nil {
			return nil, err
		}
		out = append(out, ls...)
	}
	return out, nil
}

type nodeKind uint8

const (
	leafNode nodeKind = iota
	structNode
	listNode
)

// node is one field of the schema tree with the levels that describe it.
//
// An entry of a leaf column (r, d) belongs to a slot of node n when
// r ≤ slotRep: it starts a slot when d ≥ slotDef, and otherwise stands
// for ph[d] placeholder slots (the children that fixed-size lists hold
// under a null or absent value). Entries with r > slotRep continue the
// current slot.
type node struct {
	field datatype.Field
	// typ is the storage type for struct and list nodes (extension types
	// over nested storage are unwrapped here and restored on assembly),
	// the field's type for leaves.
	typ      datatype.DataType
	kind     nodeKind
	children []*node // struct fields, or the list element
	path     []string
	nullable bool  // counts a definition level
	def      int16 // d ≥ def: the slot is present and not null
	elemDef  int16 // lists: d ≥ elemDef: the list has elements
	rep      int16 // lists: the repetition level of their elements
	slotRep  int16 // repetition level of the innermost enclosing list
	slotDef  int16 // elemDef of the innermost enclosing list (0 at top)
	ph       []int // placeholders per d < slotDef
	size     int   // fixed-size lists: the size; -1 for the other lists
	leaf     int   // index of the first leaf column under the node
	elem     bool  // the element node of a list or map (same path as it)
	// Leaves only.
	valueType datatype.DataType // type of Column.Values
	listDefs  []int16           // elemDef of the list at each repetition level 1…MaxRep
}

// tree is the schema of one field with its leaves in column order.
type tree struct {
	root   *node
	leaves []*node
}

// maxLevel bounds the levels so that they fit an int16.
const maxLevel = math.MaxInt16

// ancestor is an enclosing list, as seen from a node below it.
type ancestor struct {
	elemDef int16
	size    int // -1 for variable-size lists
}

func newTree(f datatype.Field) (*tree, error) {
	t := &tree{}
	root, err := t.build(f, []string{f.Name}, 0, 0, 0, nil, nil, 0)
	if err != nil {
		return nil, err
	}
	t.root = root
	return t, nil
}

// maxTreeDepth bounds the nesting followed.
const maxTreeDepth = 64

// build makes the node of field f whose parent's present level is base;
// the innermost enclosing list has repetition level slotRep and elemDef
// slotDef; ancs are the enclosing lists, outermost first, and listDefs
// their elemDefs.
func (t *tree) build(f datatype.Field, path []string, base, slotDef, slotRep int16, ancs []ancestor, listDefs []int16, depth int) (*node, error) {
	if depth > maxTreeDepth {
		return nil, errorf(ErrNotSupported, path, "nesting deeper than %d", maxTreeDepth)
	}
	if f.Type == nil {
		return nil, errorf(ErrInvalid, path, "field has no type")
	}
	n := &node{field: f, path: path, slotDef: slotDef, slotRep: slotRep, size: -1, leaf: len(t.leaves)}
	storage := datatype.StorageOf(f.Type)
	n.nullable = f.Nullable || storage.Kind() == datatype.KindNull
	n.def = base
	if n.nullable {
		n.def++
	}
	if n.def > maxLevel {
		return nil, errorf(ErrNotSupported, path, "more than %d definition levels", maxLevel)
	}
	n.ph = placeholders(slotDef, ancs)
	switch st := storage.(type) {
	case *datatype.StructType:
		if st.NumFields() == 0 {
			return nil, errorf(ErrNotSupported, path, "a struct without fields has no leaf to shred into")
		}
		n.kind, n.typ = structNode, st
		for _, cf := range st.Fields() {
			c, err := t.build(cf, appendPath(path, cf.Name), n.def, slotDef, slotRep, ancs, listDefs, depth+1)
			if err != nil {
				return nil, err
			}
			n.children = append(n.children, c)
		}
		return n, nil
	case *datatype.ListType, *datatype.MapType:
		var elem datatype.Field
		if lt, ok := st.(*datatype.ListType); ok {
			elem = lt.Elem()
			if lt.Kind() == datatype.KindFixedSizeList {
				n.size = int(lt.Size())
			}
		} else {
			elem = st.(*datatype.MapType).Entries()
		}
		n.kind, n.typ = listNode, st
		n.rep, n.elemDef = slotRep+1, n.def+1
		if n.elemDef > maxLevel {
			return nil, errorf(ErrNotSupported, path, "more than %d definition levels", maxLevel)
		}
		ancs = append(ancs[:len(ancs):len(ancs)], ancestor{elemDef: n.elemDef, size: n.size})
		listDefs = append(listDefs[:len(listDefs):len(listDefs)], n.elemDef)
		c, err := t.build(elem, path, n.elemDef, n.elemDef, n.rep, ancs, listDefs, depth+1)
		if err != nil {
			return nil, err
		}
		c.elem = true
		n.children = []*node{c}
		return n, nil
	case *datatype.UnionType:
		return nil, errorf(ErrNotSupported, path, "%s: unions have no Dremel representation", f.Type)
	}
	vt, err := valueType(f.Type, path)
	if err != nil {
		return nil, err
	}
	n.kind, n.typ, n.valueType, n.listDefs = leafNode, f.Type, vt, listDefs
	t.leaves = append(t.leaves, n)
	return n, nil
}

func appendPath(path []string, name string) []string {
	return append(path[:len(path):len(path)], name)
}

// placeholders returns, for each d < slotDef, how many slots of a node an
// entry that stops at d stands for: the entry reaches the elements of the
// enclosing lists up to some list, and every list below it is absent. When
// all of those are fixed-size lists, their placeholder elements multiply
// down to the node; a variable-size list among them holds no elements.
func placeholders(slotDef int16, ancs []ancestor) []int {
	ph := make([]int, slotDef)
	for d := range ph {
		count := 1
		for _, a := range ancs {
			if int(a.elemDef) <= d {
				continue // reached: its elements are real
			}
			if a.size < 0 {
				count = 0
				break
			}
			count *= a.size
		}
		ph[d] = count
	}
	return ph
}

// isNested reports whether a storage type has children that shredding
// descends into (or refuses).
func isNested(t datatype.DataType) bool {
	k := t.Kind()
	return k == datatype.KindStruct || k.IsListLike() || k.IsUnion()
}

// valueType is the type of a leaf's Column.Values: dictionary and run-end
// encodings are replaced by their value type; an extension type is kept
// when its storage is a plain leaf type.
func valueType(t datatype.DataType, path []string) (datatype.DataType, error) {
	switch tt := t.(type) {
	case datatype.ExtensionType:
		s := datatype.StorageOf(tt)
		if k := s.Kind(); k != datatype.KindDictionary && k != datatype.KindRunEndEncoded {
			return t, nil
		}
		return valueType(tt.StorageType(), path)
	case *datatype.DictionaryType:
		return encodedValueType(tt.Value, path, "dictionary")
	case *datatype.RunEndEncodedType:
		return encodedValueType(tt.Values().Type, path, "run-end encoding")
	}
	return t, nil
}

func encodedValueType(v datatype.DataType, path []string, what string) (datatype.DataType, error) {
	if v == nil {
		return nil, errorf(ErrInvalid, path, "%s without a value type", what)
	}
	s := datatype.StorageOf(v)
	if isNested(s) || s.Kind() == datatype.KindDictionary || s.Kind() == datatype.KindRunEndEncoded {
		return nil, errorf(ErrNotSupported, path, "%s of %s values: only leaf values are shredded through an encoding", what, v)
	}
	return v, nil
}

func (t *tree) leafInfo() []Leaf {
	out := make([]Leaf, len(t.leaves))
	for i, l := range t.leaves {
		out[i] = Leaf{
			Path:   append([]string(nil), l.path...),
			MaxRep: len(l.listDefs),
			MaxDef: int(l.def),
			Type:   l.valueType,
		}
	}
	return out
}
