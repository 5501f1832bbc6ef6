package cdata

/*
#include "abi.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

// ImportField reads the field s describes and releases s (schemas are
// copied into Go values: nothing of the producer's is kept).
func ImportField(s *ArrowSchema) (datatype.Field, error) {
	if err := checkLive(s); err != nil {
		return datatype.Field{}, err
	}
	defer C.alk_call_schema_release(s)
	f, err := importField(s, "", 0)
	if err != nil {
		return datatype.Field{}, fmt.Errorf("cdata: import schema: %w", err)
	}
	return f, nil
}

// ImportSchema reads a record batch schema, a struct field ("+s") whose
// children are the fields, and releases s.
func ImportSchema(s *ArrowSchema) (*alkaid.Schema, error) {
	f, err := ImportField(s)
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

// fieldPath names a schema node in errors: the names from the root, or
// child indexes where a name is empty.
func fieldPath(parent, name string, i int) string {
	if name == "" {
		name = fmt.Sprintf("<child %d>", i)
	}
	if parent == "" {
		return name
	}
	return parent + "." + name
}

func importField(s *ArrowSchema, path string, depth int) (datatype.Field, error) {
	at := func() string {
		if path == "" {
			return "the root field"
		}
		return "field " + path
	}
	if depth > maxDepth {
		return datatype.Field{}, invalidf("%s nests deeper than %d levels", at(), maxDepth)
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
		md, err := decodeMetadata(cReader(unsafe.Pointer(s.metadata)))
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
		name := ""
		if c.name != nil {
			name = C.GoString(c.name)
		}
		cf, err := importField(c, fieldPath(path, name, i), depth+1)
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
		value, err := importField(s.dictionary, path+"<dictionary>", depth+1)
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
	t, md, err := resolveExtension(t, f.Metadata)
	if err != nil {
		return datatype.Field{}, fmt.Errorf("%s: %w", at(), err)
	}
	f.Type, f.Metadata = t, md
	return f, nil
}

// resolveExtension turns a storage type whose metadata names a registered
// extension type into that type, removing the two keys; unknown
// extensions stay as their storage with the metadata kept.
func resolveExtension(storage datatype.DataType, md datatype.Metadata) (datatype.DataType, datatype.Metadata, error) {
	nameKey, metaKey := extensionNameKey, extensionMetadataKey
	name, ok := md.Get(nameKey)
	if !ok {
		nameKey, metaKey = alkaidExtensionNameKey, alkaidExtensionMetaKey
		if name, ok = md.Get(nameKey); !ok {
			return storage, md, nil
		}
	}
	ext, ok := datatype.LookupExtension(name)
	if !ok {
		return storage, md, nil
	}
	serialized, _ := md.Get(metaKey)
	t, err := ext.Deserialize(storage, serialized)
	if err != nil {
		return nil, md, fmt.Errorf("cdata: %w: extension type %q: %w", ErrInvalid, name, err)
	}
	return t, md.Without(nameKey, metaKey), nil
}

// cReader reads serialized metadata at p, whose length only its own
// length fields tell, within maxMetadataSize bytes.
func cReader(p unsafe.Pointer) byteReader {
	return func(off, n int) ([]byte, error) {
		if n < 0 || off > maxMetadataSize || n > maxMetadataSize-off {
			return nil, invalidf("metadata longer than %d bytes", maxMetadataSize)
		}
		if n == 0 {
			return nil, nil
		}
		return unsafe.Slice((*byte)(unsafe.Add(p, off)), n), nil
	}
}
