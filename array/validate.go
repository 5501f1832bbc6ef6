package array

import (
	"fmt"

	"github.com/alkaid-go/alkaid/datatype"
)

// ValidationError is a fault found by validation: the path to the faulty
// array (e.g. "col1.b" or "[2]" for a child without a name) and, where one
// slot is at fault, its index. It unwraps to [ErrInvalid].
type ValidationError struct {
	Path  string
	Index int // -1 when the fault is not one slot's
	Msg   string
}

// Error implements error.
func (e *ValidationError) Error() string {
	loc := e.Path
	if e.Index >= 0 {
		loc = fmt.Sprintf("%s[%d]", loc, e.Index)
	}
	if loc == "" {
		return "array: " + e.Msg
	}
	return "array: " + loc + ": " + e.Msg
}

// Unwrap returns [ErrInvalid].
func (e *ValidationError) Unwrap() error { return ErrInvalid }

func fault(path string, index int, format string, args ...any) error {
	return &ValidationError{Path: path, Index: index, Msg: fmt.Sprintf(format, args...)}
}

func childPath(path string, i int, name string) string {
	if name == "" {
		name = fmt.Sprintf("<child %d>", i)
	}
	if path == "" {
		return name
	}
	return path + "." + name
}

// validateAtStructure makes the checks of [ValidateStructure] on d and its
// children and dictionary, recursively, in O(1) per array (O(size of the
// type) for the type checks): the type is well formed (every kind has the
// Go type and parameters this package relies on, nesting is bounded, so a
// type that contains itself is an error rather than a hang); length,
// offset and null count are in range; the number of buffers and children
// matches the type; every buffer is large enough for offset+length slots;
// children and dictionaries have the right types; and children are long
// enough where that does not depend on values. It never panics, whatever
// d holds. It does not read offsets, indices or other values:
// [ValidateSafe] does, and [ValidateFull] checks the rest of what the spec
// requires.
func validateAtStructure(d *Data) error { return validateStructure(d, "", 0) }

// maxDepth bounds the nesting that validation follows.
const maxDepth = 64

func validateStructure(d *Data, path string, depth int) error {
	if d == nil {
		return fault(path, -1, "missing data")
	}
	if depth > maxDepth {
		return fault(path, -1, "nesting deeper than %d", maxDepth)
	}
	if msg := checkType(d.Type, 0); msg != "" {
		return fault(path, -1, "%s", msg)
	}
	if d.Length < 0 || d.Offset < 0 || d.Offset > maxLen-d.Length {
		return fault(path, -1, "length %d and offset %d out of range", d.Length, d.Offset)
	}
	if d.NullCount < 0 || d.NullCount > d.Length {
		return fault(path, -1, "null count %d out of range for length %d", d.NullCount, d.Length)
	}
	t := datatype.StorageOf(d.Type)
	layout := datatype.LayoutOf(t)
	nb := len(layout.Buffers)
	if layout.Variadic {
		if len(d.Buffers) < nb {
			return fault(path, -1, "%s has %d buffers, want at least %d", t, len(d.Buffers), nb)
		}
	} else if len(d.Buffers) != nb {
		return fault(path, -1, "%s has %d buffers, want %d", t, len(d.Buffers), nb)
	}
	end := d.Offset + d.Length
	for i, spec := range layout.Buffers {
		var need int
		switch spec.Kind {
		case datatype.BufferValidity:
			if d.Buffers[i] == nil {
				if d.NullCount != 0 {
					return fault(path, -1, "null count %d but no validity bitmap", d.NullCount)
				}
				continue
			}
			need = (end + 7) / 8
		case datatype.BufferBitmap:
			need = (end + 7) / 8
		case datatype.BufferFixedWidth:
			slots := end
			if isOffsetBuffer(t.Kind(), i) {
				slots = end + 1
				if d.Length == 0 && d.Buffers[i].Len() == 0 {
					continue // an empty array may omit its offsets
				}
			}
			if spec.ByteWidth > 0 && slots > maxLen/spec.ByteWidth {
				return fault(path, -1, "buffer %d too large for length %d", i, d.Length)
			}
			need = slots * spec.ByteWidth
		}
		if d.Buffers[i].Len() < need {
			return fault(path, -1, "buffer %d (%s) has %d bytes, needs %d for %d slots at offset %d",
				i, bufferName(t.Kind(), i), d.Buffers[i].Len(), need, d.Length, d.Offset)
		}
	}
	if (t.Kind() == datatype.KindDictionary) != (d.Dictionary != nil) {
		if d.Dictionary == nil {
			return fault(path, -1, "dictionary array without a dictionary")
		}
		return fault(path, -1, "%s array with a dictionary", t)
	}
	if d.Dictionary != nil {
		dt := t.(*datatype.DictionaryType)
		if msg := checkType(d.Dictionary.Type, 0); msg != "" {
			return fault(path+"<dictionary>", -1, "%s", msg)
		}
		if !datatype.Equal(dt.Value, d.Dictionary.Type) {
			return fault(path, -1, "dictionary of type %s, want %s", d.Dictionary.Type, dt.Value)
		}
		if err := validateStructure(d.Dictionary, path+"<dictionary>", depth+1); err != nil {
			return err
		}
	}
	return validateChildren(d, t, path, depth)
}

// maxLen bounds lengths and offsets so that byte sizes cannot overflow.
const maxLen = 1<<62 - 1

func isOffsetBuffer(k datatype.Kind, i int) bool {
	switch k {
	case datatype.KindBinary, datatype.KindString, datatype.KindLargeBinary, datatype.KindLargeString,
		datatype.KindList, datatype.KindLargeList, datatype.KindMap:
		return i == 1
	}
	return false
}

func bufferName(k datatype.Kind, i int) string {
	if i == 0 && k != datatype.KindSparseUnion && k != datatype.KindDenseUnion {
		return "validity"
	}
	switch {
	case isOffsetBuffer(k, i):
		return "offsets"
	case k == datatype.KindBinary || k == datatype.KindString || k == datatype.KindLargeBinary || k == datatype.KindLargeString:
		return "data"
	case k == datatype.KindListView || k == datatype.KindLargeListView:
		return map[int]string{1: "offsets", 2: "sizes"}[i]
	case k == datatype.KindBinaryView || k == datatype.KindStringView:
		return "views"
	case k == datatype.KindSparseUnion || k == datatype.KindDenseUnion:
		return map[int]string{0: "type ids", 1: "offsets"}[i]
	}
	return "values"
}

func validateChildren(d *Data, t datatype.DataType, path string, depth int) error {
	fields := datatype.Children(t)
	if len(d.Children) != len(fields) {
		return fault(path, -1, "%s has %d children, want %d", t, len(d.Children), len(fields))
	}
	for i, f := range fields {
		c := d.Children[i]
		cp := childPath(path, i, f.Name)
		if c == nil {
			return fault(cp, -1, "missing child data")
		}
		if msg := checkType(c.Type, 0); msg != "" {
			return fault(cp, -1, "%s", msg)
		}
		if !datatype.Equal(c.Type, f.Type) {
			return fault(cp, -1, "child of type %s, want %s", c.Type, f.Type)
		}
		if err := validateStructure(c, cp, depth+1); err != nil {
			return err
		}
		switch t.Kind() {
		case datatype.KindStruct, datatype.KindSparseUnion:
			if c.Length < d.Offset+d.Length {
				return fault(cp, -1, "child length %d shorter than parent's offset+length %d", c.Length, d.Offset+d.Length)
			}
		case datatype.KindFixedSizeList:
			size := int(t.(*datatype.ListType).Size())
			if size > 0 && d.Offset+d.Length > c.Length/size {
				return fault(cp, -1, "child length %d shorter than %d lists of %d", c.Length, d.Offset+d.Length, size)
			}
		case datatype.KindRunEndEncoded:
			if i == 0 && c.NullCount != 0 {
				return fault(cp, -1, "run ends hold %d nulls", c.NullCount)
			}
			if i == 0 && d.Length > 0 && c.Length == 0 {
				return fault(cp, -1, "no run ends for %d slots", d.Length)
			}
			if i == 1 && c.Length < d.Children[0].Length {
				return fault(cp, -1, "%d values for %d runs", c.Length, d.Children[0].Length)
			}
		}
	}
	return nil
}

// checkType makes sure a type is one this package can handle without
// panicking: every kind has the Go type its accessors assert, parameters
// are in range, nested types are finite (bounded depth, so a type that
// contains itself is rejected rather than followed forever) and every
// nested type is present. It returns "" for a good type, else the fault.
func checkType(t datatype.DataType, depth int) string {
	if t == nil {
		return "missing type"
	}
	if depth > maxDepth {
		return typeTooDeep
	}
	k := t.Kind()
	if e, ok := t.(datatype.ExtensionType); ok || k == datatype.KindExtension {
		if !ok || k != datatype.KindExtension {
			return fmt.Sprintf("type %T of kind %s is not a proper extension type", t, k)
		}
		if msg := checkType(e.StorageType(), depth+1); msg != "" {
			return wrapTypeMsg("extension storage: ", msg)
		}
		return ""
	}
	bad := func() string { return fmt.Sprintf("type %T cannot be of kind %s", t, k) }
	switch k {
	case datatype.KindTime32, datatype.KindTime64:
		if _, ok := t.(*datatype.TimeType); !ok {
			return bad()
		}
	case datatype.KindTimestamp:
		if _, ok := t.(*datatype.TimestampType); !ok {
			return bad()
		}
	case datatype.KindDuration:
		if _, ok := t.(*datatype.DurationType); !ok {
			return bad()
		}
	case datatype.KindDecimal32, datatype.KindDecimal64, datatype.KindDecimal128, datatype.KindDecimal256:
		dt, ok := t.(*datatype.DecimalType)
		if !ok {
			return bad()
		}
		max := datatype.MaxDecimalPrecision(dt.BitWidth)
		if max == 0 || dt.Precision < 1 || dt.Precision > max {
			return fmt.Sprintf("decimal of bit width %d and precision %d", dt.BitWidth, dt.Precision)
		}
	case datatype.KindFixedSizeBinary:
		ft, ok := t.(*datatype.FixedSizeBinaryType)
		if !ok {
			return bad()
		}
		if ft.ByteWidth < 0 {
			return fmt.Sprintf("fixed_size_binary width %d is negative", ft.ByteWidth)
		}
	case datatype.KindFixedSizeList, datatype.KindList, datatype.KindLargeList, datatype.KindListView, datatype.KindLargeListView:
		lt, ok := t.(*datatype.ListType)
		if !ok {
			return bad()
		}
		if lt.Size() < 0 {
			return fmt.Sprintf("fixed_size_list size %d is negative", lt.Size())
		}
		return checkFieldTypes([]datatype.Field{lt.Elem()}, depth)
	case datatype.KindStruct:
		st, ok := t.(*datatype.StructType)
		if !ok {
			return bad()
		}
		return checkFieldTypes(st.Fields(), depth)
	case datatype.KindMap:
		mt, ok := t.(*datatype.MapType)
		if !ok {
			return bad()
		}
		st, ok := mt.Entries().Type.(*datatype.StructType)
		if !ok || st.NumFields() != 2 {
			return "map entries are not a struct of two fields"
		}
		return checkFieldTypes(st.Fields(), depth)
	case datatype.KindSparseUnion, datatype.KindDenseUnion:
		ut, ok := t.(*datatype.UnionType)
		if !ok {
			return bad()
		}
		if len(ut.TypeCodes()) != ut.NumFields() {
			return "union type codes do not match its fields"
		}
		return checkFieldTypes(ut.Fields(), depth)
	case datatype.KindDictionary:
		dt, ok := t.(*datatype.DictionaryType)
		if !ok {
			return bad()
		}
		if dt.Index == nil || !dt.Index.Kind().IsInteger() {
			return fmt.Sprintf("dictionary index type %v is not an integer type", dt.Index)
		}
		if msg := checkType(dt.Value, depth+1); msg != "" {
			return wrapTypeMsg("dictionary value: ", msg)
		}
	case datatype.KindRunEndEncoded:
		rt, ok := t.(*datatype.RunEndEncodedType)
		if !ok {
			return bad()
		}
		switch re := rt.RunEnds().Type; {
		case re == nil:
			return "missing run-end type"
		case re.Kind() != datatype.KindInt16 && re.Kind() != datatype.KindInt32 && re.Kind() != datatype.KindInt64:
			return fmt.Sprintf("run-end type %s is not int16, int32 or int64", re)
		}
		return checkFieldTypes([]datatype.Field{rt.RunEnds(), rt.Values()}, depth)
	default:
		if k > datatype.KindExtension {
			return fmt.Sprintf("unknown type kind %s", k)
		}
	}
	return ""
}

func checkFieldTypes(fs []datatype.Field, depth int) string {
	for _, f := range fs {
		if msg := checkType(f.Type, depth+1); msg != "" {
			return wrapTypeMsg(fmt.Sprintf("field %q: ", f.Name), msg)
		}
	}
	return ""
}

var typeTooDeep = fmt.Sprintf("type nested deeper than %d", maxDepth)

// wrapTypeMsg says where in a type a fault is, except for a type nested
// too deep, where the path would be as long as the nesting.
func wrapTypeMsg(prefix, msg string) string {
	if msg == typeTooDeep {
		return msg
	}
	return prefix + msg
}
