package gorecord

import (
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
)

// kind is how a Go type is laid out in a column.
type kind uint8

const (
	kFixed    kind = iota // fixed-width value stored as is (ints, floats, datatype value types)
	kBool                 // bool
	kString               // string (utf8, large_utf8, utf8_view)
	kBytes                // []byte (binary, large_binary, binary_view)
	kFixedBin             // [N]byte (fixed_size_binary[N])
	kTime                 // time.Time (timestamp)
	kDuration             // time.Duration (duration)
	kPtr                  // *T: T, nullable
	kSlice                // []T (list, large_list, list_view)
	kArray                // [N]T (fixed_size_list)
	kMap                  // map[K]V (map)
	kStruct               // struct (struct)
	kJSON                 // any type, JSON text in a utf8 column
)

// node describes how values of one Go type map to one column type. A
// tree of nodes is built once per Go type and cached.
type node struct {
	kind     kind
	t        reflect.Type
	dt       datatype.DataType // the column type, extension or dictionary included
	value    datatype.DataType // dt without extension and dictionary
	nullable bool              // nil values become nulls (pointers, slices, maps, []byte)
	notNull  bool              // nil values are written as empty values
	unit     datatype.TimeUnit // kTime, kDuration
	dict     bool              // dictionary encoded
	ext      datatype.ExtensionType
	elem     *node    // kPtr, kSlice, kArray, kMap (the value)
	key      *node    // kMap
	fields   []*field // kStruct
	size     int      // kArray, kFixedBin: N
	path     string   // the Go field path, for errors
}

// field is one column of a struct: a Go field found at offset (embedded
// structs flattened into their parent).
type field struct {
	name   string
	offset uintptr
	node   *node
}

// plan is the cached description of a Go row type.
type plan struct {
	t      reflect.Type
	root   *node // kStruct, or a single-column node for non-struct rows
	schema *alkaid.Schema
}

var plans sync.Map // reflect.Type → *planResult

type planResult struct {
	p   *plan
	err error
}

// planFor returns the cached plan of t, building it on first use.
func planFor(t reflect.Type) (*plan, error) {
	if r, ok := plans.Load(t); ok {
		r := r.(*planResult)
		return r.p, r.err
	}
	p, err := buildPlan(t)
	r, _ := plans.LoadOrStore(t, &planResult{p, err})
	return r.(*planResult).p, r.(*planResult).err
}

func buildPlan(t reflect.Type) (*plan, error) {
	if t.Kind() != reflect.Struct || t == timeType || isExtension(t) {
		return nil, fmt.Errorf("gorecord: %w: row type %s is not a struct", ErrNotSupported, t)
	}
	pl := &planner{building: map[reflect.Type]bool{}}
	root, err := pl.build(t, tagOpts{}, t.Name())
	if err != nil {
		return nil, err
	}
	fields := make([]datatype.Field, len(root.fields))
	for i, f := range root.fields {
		fields[i] = datatype.Field{Name: f.name, Type: f.node.dt, Nullable: f.node.nullable}
	}
	return &plan{t: t, root: root, schema: alkaid.NewSchema(fields, datatype.Metadata{})}, nil
}

var (
	timeType     = reflect.TypeFor[time.Time]()
	durationType = reflect.TypeFor[time.Duration]()
	extIface     = reflect.TypeFor[Extension]()
)

// fixedTypes are the datatype value types, mapped by identity before the
// rules for their underlying kinds apply.
var fixedTypes = map[reflect.Type]datatype.Kind{
	reflect.TypeFor[datatype.Float16]():              datatype.KindFloat16,
	reflect.TypeFor[datatype.Date32]():               datatype.KindDate32,
	reflect.TypeFor[datatype.Date64]():               datatype.KindDate64,
	reflect.TypeFor[datatype.Time32]():               datatype.KindTime32,
	reflect.TypeFor[datatype.Time64]():               datatype.KindTime64,
	reflect.TypeFor[datatype.Timestamp]():            datatype.KindTimestamp,
	reflect.TypeFor[datatype.Duration]():             datatype.KindDuration,
	reflect.TypeFor[datatype.MonthInterval]():        datatype.KindMonthInterval,
	reflect.TypeFor[datatype.DayTimeInterval]():      datatype.KindDayTimeInterval,
	reflect.TypeFor[datatype.MonthDayNanoInterval](): datatype.KindMonthDayNanoInterval,
	reflect.TypeFor[datatype.Decimal32]():            datatype.KindDecimal32,
	reflect.TypeFor[datatype.Decimal64]():            datatype.KindDecimal64,
	reflect.TypeFor[datatype.Decimal128]():           datatype.KindDecimal128,
	reflect.TypeFor[datatype.Decimal256]():           datatype.KindDecimal256,
}

type planner struct {
	building map[reflect.Type]bool // struct types on the current path (recursion check)
}

func unsupported(path string, t reflect.Type, why string) error {
	if why != "" {
		why = " (" + why + ")"
	}
	return fmt.Errorf("gorecord: %w: field %s: Go type %s%s", ErrNotSupported, path, t, why)
}

func invalid(path, format string, args ...any) error {
	return fmt.Errorf("gorecord: %w: field %s: %s", ErrInvalidTag, path, fmt.Sprintf(format, args...))
}

// build maps Go type t with the field's tag options to a node.
func (pl *planner) build(t reflect.Type, o tagOpts, path string) (*node, error) {
	if o.json {
		return &node{kind: kJSON, t: t, dt: jsonType, value: datatype.String, nullable: true, path: path}, nil
	}
	if ext, err := extensionOf(t, path); err != nil {
		return nil, err
	} else if ext != nil {
		return pl.buildExtension(t, ext, o, path)
	}
	n, err := pl.buildPlain(t, o, path)
	if err != nil {
		return nil, err
	}
	if err := checkOpts(n, o); err != nil {
		return nil, err
	}
	if o.nullable {
		n.nullable = true
	}
	if o.notNull {
		n.nullable, n.notNull = false, true
	}
	switch n.kind {
	case kPtr, kSlice, kArray, kMap:
		// dict was passed on to the element
	default:
		if o.dict != nil {
			if err := makeDict(n, o.dict); err != nil {
				return nil, err
			}
		}
	}
	return n, nil
}

// checkOpts rejects tag options that do not apply to the node; options
// of pointers, slices, arrays and maps are checked at their elements.
func checkOpts(n *node, o tagOpts) error {
	if o.notNull && n.kind != kPtr && n.kind != kSlice && n.kind != kMap && n.kind != kBytes {
		return invalid(n.path, "notnull applies to pointers, slices, maps and []byte, not %s", n.t)
	}
	switch n.kind {
	case kPtr, kSlice, kArray, kMap:
		return nil
	}
	vk := n.value.Kind()
	isTS := n.kind == kTime || (n.kind == kFixed && vk == datatype.KindTimestamp)
	switch {
	case o.unit != nil && !isTS && n.kind != kDuration && !(n.kind == kFixed &&
		(vk == datatype.KindTime32 || vk == datatype.KindTime64 || vk == datatype.KindDuration)):
		return invalid(n.path, "unit applies to time.Time, time.Duration and the datatype time types, not %s", n.t)
	case o.tz != nil && !isTS:
		return invalid(n.path, "tz applies to timestamps, not %s", n.t)
	case (o.prec != 0 || o.scale != nil) && !(n.kind == kFixed && isDecimal(vk)):
		return invalid(n.path, "precision and scale apply to the datatype decimal types, not %s", n.t)
	case (o.large || o.view) && n.kind != kString && n.kind != kBytes:
		return invalid(n.path, "large and view apply to strings, []byte and slices, not %s", n.t)
	}
	return nil
}

func isDecimal(k datatype.Kind) bool {
	return k >= datatype.KindDecimal32 && k <= datatype.KindDecimal256
}

// makeDict turns a scalar node into a dictionary-encoded one.
func makeDict(n *node, index datatype.DataType) error {
	switch n.kind {
	case kFixed, kBool, kString, kBytes, kFixedBin:
	default:
		return invalid(n.path, "dict needs a string, []byte, [N]byte, bool or fixed-width type, not %s", n.t)
	}
	if n.ext != nil {
		return invalid(n.path, "dict on an extension type")
	}
	dt, err := datatype.NewDictionary(index, n.value, false)
	if err != nil {
		return invalid(n.path, "%v", err)
	}
	n.dt, n.dict = dt, true
	return nil
}

func (pl *planner) buildExtension(t reflect.Type, ext datatype.ExtensionType, o tagOpts, path string) (*node, error) {
	o.dict = nil
	n, err := pl.buildPlain(t, o, path)
	if err != nil {
		return nil, err
	}
	if !datatype.Equal(n.dt, ext.StorageType(), datatype.IgnoreFieldNames(), datatype.IgnoreNullability(), datatype.IgnoreMetadata()) {
		return nil, fmt.Errorf("gorecord: %w: field %s: Go type %s maps to %s but extension %s stores %s",
			ErrNotSupported, path, t, n.dt, ext.ExtensionName(), ext.StorageType())
	}
	n.ext, n.dt = ext, ext
	if o.nullable {
		n.nullable = true
	}
	return n, nil
}

// buildPlain maps t by its structure (extension mapping aside).
func (pl *planner) buildPlain(t reflect.Type, o tagOpts, path string) (*node, error) {
	n := &node{t: t, path: path}
	fixed := func(dt datatype.DataType) (*node, error) {
		n.kind, n.dt, n.value = kFixed, dt, dt
		return n, nil
	}
	unit := func(def datatype.TimeUnit) datatype.TimeUnit {
		if o.unit != nil {
			return *o.unit
		}
		return def
	}
	if k, ok := fixedTypes[t]; ok {
		switch k {
		case datatype.KindTime32, datatype.KindTime64:
			u := unit(map[bool]datatype.TimeUnit{true: datatype.Millisecond, false: datatype.Nanosecond}[k == datatype.KindTime32])
			tt, _ := datatype.NewTime(u)
			if tt.Kind() != k {
				return nil, invalid(path, "unit %s does not fit %s", u, t)
			}
			return fixed(tt)
		case datatype.KindTimestamp:
			tt, _ := datatype.NewTimestamp(unit(datatype.Microsecond), tzOf(o))
			return fixed(tt)
		case datatype.KindDuration:
			tt, _ := datatype.NewDuration(unit(datatype.Nanosecond))
			return fixed(tt)
		case datatype.KindDecimal32, datatype.KindDecimal64, datatype.KindDecimal128, datatype.KindDecimal256:
			bits := map[datatype.Kind]int{datatype.KindDecimal32: 32, datatype.KindDecimal64: 64,
				datatype.KindDecimal128: 128, datatype.KindDecimal256: 256}[k]
			prec := o.prec
			if prec == 0 {
				prec = datatype.MaxDecimalPrecision(bits)
			}
			var scale int32
			if o.scale != nil {
				scale = *o.scale
			}
			dt, err := datatype.NewDecimal(bits, prec, scale)
			if err != nil {
				return nil, invalid(path, "%v", err)
			}
			return fixed(dt)
		}
		return fixed(datatype.Primitive(k))
	}
	switch t {
	case timeType:
		dt, _ := datatype.NewTimestamp(unit(datatype.Microsecond), tzOf(o))
		n.kind, n.dt, n.value, n.unit = kTime, dt, dt, dt.Unit
		return n, nil
	case durationType:
		dt, _ := datatype.NewDuration(unit(datatype.Nanosecond))
		n.kind, n.dt, n.value, n.unit = kDuration, dt, dt, dt.Unit
		return n, nil
	}
	switch t.Kind() {
	case reflect.Bool:
		n.kind, n.dt, n.value = kBool, datatype.Bool, datatype.Bool
		return n, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		dt, _ := datatype.IntType(int(t.Size())*8, true)
		return fixed(dt)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		dt, _ := datatype.IntType(int(t.Size())*8, false)
		return fixed(dt)
	case reflect.Float32:
		return fixed(datatype.Float32)
	case reflect.Float64:
		return fixed(datatype.Float64)
	case reflect.String:
		n.kind = kString
		n.dt = pickVariant(o, datatype.String, datatype.LargeString, datatype.StringView)
		n.value = n.dt
		return n, nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !isExtension(t.Elem()) && fixedTypes[t.Elem()] == 0 {
			n.kind, n.nullable = kBytes, true
			n.dt = pickVariant(o, datatype.Binary, datatype.LargeBinary, datatype.BinaryView)
			n.value = n.dt
			return n, nil
		}
		eo := o
		eo.large, eo.view, eo.nullable, eo.notNull = false, false, false, false
		elem, err := pl.build(t.Elem(), eo, path+"[]")
		if err != nil {
			return nil, err
		}
		ef := datatype.Field{Name: "item", Type: elem.dt, Nullable: elem.nullable}
		switch {
		case o.large:
			n.dt = datatype.LargeListOfField(ef)
		case o.view:
			n.dt = datatype.ListViewOfField(ef)
		default:
			n.dt = datatype.ListOfField(ef)
		}
		n.kind, n.value, n.elem, n.nullable = kSlice, n.dt, elem, true
		return n, nil
	case reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && !isExtension(t.Elem()) && fixedTypes[t.Elem()] == 0 {
			dt, _ := datatype.NewFixedSizeBinary(t.Len())
			n.kind, n.dt, n.value, n.size = kFixedBin, dt, dt, t.Len()
			return n, nil
		}
		if o.large || o.view {
			return nil, invalid(path, "large and view do not apply to arrays")
		}
		eo := o
		eo.nullable, eo.notNull = false, false
		elem, err := pl.build(t.Elem(), eo, path+"[]")
		if err != nil {
			return nil, err
		}
		dt, err := datatype.FixedSizeListOfField(datatype.Field{Name: "item", Type: elem.dt, Nullable: elem.nullable}, int32(t.Len()))
		if err != nil {
			return nil, invalid(path, "%v", err)
		}
		n.kind, n.dt, n.value, n.elem, n.size = kArray, dt, dt, elem, t.Len()
		return n, nil
	case reflect.Pointer:
		if t.Elem().Kind() == reflect.Pointer {
			return nil, unsupported(path, t, "pointer to pointer")
		}
		eo := o
		eo.nullable, eo.notNull = false, false
		elem, err := pl.build(t.Elem(), eo, path)
		if err != nil {
			return nil, err
		}
		n.kind, n.dt, n.value, n.elem, n.nullable = kPtr, elem.dt, elem.value, elem, true
		return n, nil
	case reflect.Map:
		if o.large || o.view {
			return nil, invalid(path, "large and view do not apply to maps")
		}
		key, err := pl.build(t.Key(), tagOpts{}, path+"{key}")
		if err != nil {
			return nil, err
		}
		if key.nullable && key.kind != kBytes {
			return nil, unsupported(path, t, "map keys cannot be null; use a non-pointer key type")
		}
		vo := o
		vo.large, vo.view, vo.nullable, vo.notNull = false, false, false, false
		val, err := pl.build(t.Elem(), vo, path+"{value}")
		if err != nil {
			return nil, err
		}
		mt, err := datatype.MapOfFields(datatype.Field{Name: "key", Type: key.dt},
			datatype.Field{Name: "value", Type: val.dt, Nullable: val.nullable}, false)
		if err != nil {
			return nil, invalid(path, "%v", err)
		}
		n.kind, n.dt, n.value, n.key, n.elem, n.nullable = kMap, mt, mt, key, val, true
		return n, nil
	case reflect.Struct:
		if pl.building[t] {
			return nil, unsupported(path, t, "recursive type")
		}
		pl.building[t] = true
		defer delete(pl.building, t)
		fs, err := pl.structFields(t, path)
		if err != nil {
			return nil, err
		}
		dfs := make([]datatype.Field, len(fs))
		for i, f := range fs {
			dfs[i] = datatype.Field{Name: f.name, Type: f.node.dt, Nullable: f.node.nullable}
		}
		st := datatype.StructOf(dfs...)
		n.kind, n.dt, n.value, n.fields = kStruct, st, st, fs
		return n, nil
	case reflect.Interface:
		return nil, unsupported(path, t, "interface fields need the json tag option, or a concrete type")
	}
	return nil, unsupported(path, t, "")
}

func tzOf(o tagOpts) string {
	if o.tz != nil {
		return *o.tz
	}
	return "UTC"
}

func pickVariant(o tagOpts, plain, large, view datatype.DataType) datatype.DataType {
	switch {
	case o.large:
		return large
	case o.view:
		return view
	}
	return plain
}

// candidate is a struct field before name conflicts are resolved.
type candidate struct {
	field
	depth  int
	tagged bool
}

// structFields lists the columns of struct type t, flattening embedded
// structs; a name found at several depths goes to the shallowest, ties
// go to the tagged field, and other ties are an error.
func (pl *planner) structFields(t reflect.Type, path string) ([]*field, error) {
	var cands []candidate
	if err := pl.collect(t, path, 0, 0, &cands, map[reflect.Type]bool{}); err != nil {
		return nil, err
	}
	var out []*field
	for i, c := range cands {
		best, tie := -1, false
		for j := range cands {
			d := cands[j]
			if d.name != c.name {
				continue
			}
			if best < 0 {
				best = j
				continue
			}
			b := cands[best]
			switch {
			case d.depth < b.depth || (d.depth == b.depth && d.tagged && !b.tagged):
				best, tie = j, false
			case d.depth == b.depth && d.tagged == b.tagged:
				tie = true
			}
		}
		if tie {
			return nil, fmt.Errorf("gorecord: %w: %s: column name %q is used by two fields at the same depth (tag one of them)",
				ErrInvalidTag, path, c.name)
		}
		if best != i {
			continue // the winner is emitted at its own position
		}
		f := c.field
		out = append(out, &f)
	}
	return out, nil
}

func (pl *planner) collect(t reflect.Type, path string, base uintptr, depth int, out *[]candidate, seen map[reflect.Type]bool) error {
	if seen[t] {
		return nil // embedded twice along one path: Go itself hides it
	}
	seen[t] = true
	defer delete(seen, t)
	for i := range t.NumField() {
		sf := t.Field(i)
		fpath := path + "." + sf.Name
		tag, tagged := sf.Tag.Lookup("alkaid")
		o, err := parseTag(tag, fpath)
		if err != nil {
			return err
		}
		if o.skip {
			continue
		}
		if sf.Anonymous && o.name == "" {
			ft := sf.Type
			if ft.Kind() == reflect.Struct && ft != timeType && !isExtension(ft) {
				if err := pl.collect(ft, fpath, base+sf.Offset, depth+1, out, seen); err != nil {
					return err
				}
				continue
			}
			if ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct {
				return unsupported(fpath, ft, "embedded pointers are not flattened; give the field a name in its alkaid tag")
			}
		}
		if !sf.IsExported() {
			continue
		}
		name := o.name
		if name == "" {
			name = sf.Name
		}
		n, err := pl.build(sf.Type, o, fpath)
		if err != nil {
			return err
		}
		*out = append(*out, candidate{field: field{name: name, offset: base + sf.Offset, node: n}, depth: depth, tagged: tagged && o.name != ""})
	}
	return nil
}

// Extension is implemented by Go types stored as a custom extension type.
// AlkaidExtension is called once per Go type, on its zero value, when the
// type's plan is built; it returns the extension type, whose storage type
// must be what the Go type's own layout maps to by the ordinary rules (a
// [16]byte for fixed_size_binary[16], a string for utf8, …). The values
// are stored and read as that layout: no method is called per value.
//
// For a type you do not own, use [RegisterType] instead.
type Extension interface {
	AlkaidExtension() datatype.ExtensionType
}

var registered sync.Map // reflect.Type → datatype.ExtensionType

// jsonType is the column type of fields with the json option.
var jsonType, _ = extension.NewJSONType(datatype.String)

// The canonical extension types with a Go value type are mapped out of
// the box.
func init() {
	registered.Store(reflect.TypeFor[extension.UUID](), extension.NewUUIDType())
}

// RegisterType makes values of Go type G be stored as the extension type
// ext, as if G implemented [Extension]. Call it before the first use of a
// row type containing G (typically in an init function); registering
// again replaces the earlier mapping, a nil ext removes it, and either
// forgets the cached plans.
func RegisterType[G any](ext datatype.ExtensionType) {
	if ext == nil {
		registered.Delete(reflect.TypeFor[G]())
	} else {
		registered.Store(reflect.TypeFor[G](), ext)
	}
	plans.Clear()
}

func isExtension(t reflect.Type) bool {
	if _, ok := registered.Load(t); ok {
		return true
	}
	if t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface {
		return false
	}
	return t.Implements(extIface) || reflect.PointerTo(t).Implements(extIface)
}

// extensionOf returns the extension type that t is stored as, or nil.
func extensionOf(t reflect.Type, path string) (datatype.ExtensionType, error) {
	if e, ok := registered.Load(t); ok {
		return e.(datatype.ExtensionType), nil
	}
	if t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface {
		return nil, nil // *T implementing Extension is mapped through T
	}
	var v Extension
	switch {
	case t.Implements(extIface):
		v = reflect.Zero(t).Interface().(Extension)
	case t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(extIface):
		v = reflect.New(t).Interface().(Extension)
	default:
		return nil, nil
	}
	ext := v.AlkaidExtension()
	if ext == nil {
		return nil, fmt.Errorf("gorecord: %w: field %s: %s.AlkaidExtension returned nil", ErrNotSupported, path, t)
	}
	return ext, nil
}
