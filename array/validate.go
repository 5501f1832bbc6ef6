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

// Validate makes the cheap structural checks of d and its children and
// dictionary, recursively, in O(1) per array: a type is present, length,
// offset and null count are in range, the number of buffers and children
// matches the type, every buffer is large enough for offset+length slots,
// and children are long enough where that does not depend on values. It
// does not read offsets, indices or other values ([ValidateFull] does).
func Validate(d *Data) error { return validateStructure(d, "", 0) }

// maxDepth bounds the nesting that validation follows.
const maxDepth = 64

func validateStructure(d *Data, path string, depth int) error {
	if d == nil {
		return fault(path, -1, "missing data")
	}
	if depth > maxDepth {
		return fault(path, -1, "nesting deeper than %d", maxDepth)
	}
	if d.Type == nil {
		return fault(path, -1, "missing type")
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
