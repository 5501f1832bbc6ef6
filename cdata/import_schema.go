package cdata

/*
#include "abi.h"
*/
import "C"

import (
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

// ImportField reads the field s describes and releases s (schemas are
// copied into Go values: nothing of the producer's is kept). Of the
// options only [WithMaxNodes] applies.
func ImportField(s *ArrowSchema, opts ...Option) (datatype.Field, error) {
	if err := checkLive(s); err != nil {
		return datatype.Field{}, err
	}
	defer C.alk_call_schema_release(s)
	b := &budget{maxNodes: newConfig(opts).maxNodes}
	f, err := importField(s, nil, 0, b)
	if err != nil {
		return datatype.Field{}, fmt.Errorf("cdata: import schema: %w", err)
	}
	return f, nil
}

// ImportSchema reads a record batch schema, a struct field ("+s") whose
// children are the fields, and releases s. Of the options only
// [WithMaxNodes] applies.
func ImportSchema(s *ArrowSchema, opts ...Option) (*alkaid.Schema, error) {
	f, err := ImportField(s, opts...)
	if err != nil {
		return nil, err
	}
	return schemaOf(f)
}

func schemaOf(f datatype.Field) (*alkaid.Schema, error) {
	st, ok := f.Type.(*datatype.StructType)
	if !ok {
		return nil, invalidf("import schema: a record batch schema must be a struct, got %s", f.Type)
	}
	return alkaid.NewSchema(st.Fields(), f.Metadata), nil
}

func checkLive(s *ArrowSchema) error {
	if s == nil {
		return invalidf("import: nil ArrowSchema")
	}
	if s.release == nil {
		return invalidf("import: the ArrowSchema is released (release is NULL)")
	}
	return nil
}

// nodePath names a schema or array node in errors: the names from the
// root, or child indexes where a name is empty. It is built as the import
// descends and turned into text only when an error is reported, so that
// a node costs no string of its depth.
type nodePath struct {
	parent *nodePath
	name   func() string // the node's name; nil for a dictionary
	child  int
}

// childPath is the path of child i of parent, named by name.
func childPath(parent *nodePath, i int, name func() string) *nodePath {
	return &nodePath{parent: parent, name: name, child: i}
}

// dictPath is the path of the dictionary of the node at parent.
func dictPath(parent *nodePath) *nodePath { return &nodePath{parent: parent} }

// String joins the names from the root with dots, each cut to 32 bytes
// and the whole to its last 256 (a producer's names have any length).
func (p *nodePath) String() string {
	const maxName, maxPath = 32, 256
	s := p.join(maxName)
	if len(s) > maxPath {
		cut := len(s) - maxPath
		for cut < len(s) && !utf8.RuneStart(s[cut]) {
			cut++
		}
		s = "…" + s[cut:]
	}
	return s
}

func (p *nodePath) join(maxName int) string {
	if p == nil {
		return ""
	}
	parent := p.parent.join(maxName)
	if p.name == nil {
		return parent + "<dictionary>"
	}
	name := p.name()
	if name == "" {
		name = fmt.Sprintf("<child %d>", p.child)
	} else if len(name) > maxName {
		name = strings.ToValidUTF8(name[:maxName], "") + "…"
	}
	if parent == "" {
		return name
	}
	return parent + "." + name
}

func importField(s *ArrowSchema, path *nodePath, depth int, b *budget) (datatype.Field, error) {
	at := func() string {
		if path == nil {
			return "the root field"
		}
		return "field " + path.String()
	}
	if depth > maxDepth {
		return datatype.Field{}, invalidf("%s nests deeper than %d levels", at(), maxDepth)
	}
	if err := b.visit(at); err != nil {
		return datatype.Field{}, err
	}
	if s.format == nil {
		return datatype.Field{}, invalidf("%s: format is NULL", at())
	}
	format := C.GoString(s.format)
	var f datatype.Field
	if s.name != nil {
		f.Name = C.GoString(s.name)
	}
	f.Nullable = s.flags&flagNullable != 0
	if s.metadata != nil {
		md, err := decodeMetadata(cReader(unsafe.Pointer(s.metadata), &b.metadata))
		if err != nil {
			return datatype.Field{}, fmt.Errorf("%s: metadata: %w", at(), err)
		}
		f.Metadata = md
	}
	n := int64(s.n_children)
	if n < 0 || n > maxChildren {
		return datatype.Field{}, invalidf("%s: n_children is %d", at(), n)
	}
	if n > 0 && s.children == nil {
		return datatype.Field{}, invalidf("%s: n_children is %d but children is NULL", at(), n)
	}
	var children []datatype.Field
	for i := range int(n) {
		c := *(**ArrowSchema)(unsafe.Add(unsafe.Pointer(s.children), uintptr(i)*unsafe.Sizeof(uintptr(0))))
		if c == nil {
			return datatype.Field{}, invalidf("%s: child %d is NULL", at(), i)
		}
		if c.release == nil {
			return datatype.Field{}, invalidf("%s: child %d is released", at(), i)
		}
		name := func() string {
			if c.name == nil {
				return ""
			}
			return C.GoString(c.name)
		}
		cf, err := importField(c, childPath(path, i, name), depth+1, b)
		if err != nil {
			return datatype.Field{}, err
		}
		children = append(children, cf)
	}
	var t datatype.DataType
	if s.dictionary != nil {
		if s.dictionary.release == nil {
			return datatype.Field{}, invalidf("%s: dictionary is released", at())
		}
		value, err := importField(s.dictionary, dictPath(path), depth+1, b)
		if err != nil {
			return datatype.Field{}, err
		}
		index, err := parseFormat(format, children, int64(s.flags))
		if err != nil {
			return datatype.Field{}, fmt.Errorf("%s: %w", at(), err)
		}
		// The flag belongs on this node; producers that follow arrow-go
		// put it on the dictionary's node, which means nothing else there
		// unless the values are themselves dictionary-encoded.
		ordered := s.flags&flagDictionaryOrdered != 0 ||
			(s.dictionary.flags&flagDictionaryOrdered != 0 && s.dictionary.dictionary == nil)
		dt, err := datatype.NewDictionary(index, value.Type, ordered)
		if err != nil {
			return datatype.Field{}, invalidf("%s: %v", at(), err)
		}
		t = dt
	} else {
		var err error
		if t, err = parseFormat(format, children, int64(s.flags)); err != nil {
			return datatype.Field{}, fmt.Errorf("%s: %w", at(), err)
		}
	}
	t, md, err := datatype.ResolveExtension(t, f.Metadata)
	if err != nil {
		return datatype.Field{}, fmt.Errorf("%s: %w: %w", at(), ErrInvalid, err)
	}
	f.Type, f.Metadata = t, md
	return f, nil
}

// cReader reads serialized metadata at p, whose length only its own
// length fields tell. used is the bytes of metadata the import has
// decoded so far, which may not pass maxMetadataSize: this node's
// furthest byte read is added to it.
func cReader(p unsafe.Pointer, used *int) byteReader {
	base, end := *used, 0
	limit := maxMetadataSize - base
	return func(off, n int) ([]byte, error) {
		if n < 0 || off > limit || n > limit-off {
			if base > 0 {
				return nil, limitf("metadata of all nodes together longer than %d bytes (shared nodes count once per reference)", maxMetadataSize)
			}
			return nil, invalidf("metadata longer than %d bytes", maxMetadataSize)
		}
		if off+n > end {
			end = off + n
			*used = base + end
		}
		if n == 0 {
			return nil, nil
		}
		return unsafe.Slice((*byte)(unsafe.Add(p, off)), n), nil
	}
}
