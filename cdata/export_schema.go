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

// ExportField fills out, a struct the caller allocated, with f. out's
// release callback frees everything this function allocated; on error
// nothing stays allocated and out is left released.
func ExportField(f datatype.Field, out *ArrowSchema) error {
	return exportRoot(out, func() error { return exportField(f, out, 0) })
}

// ExportSchema fills out with s as a struct field ("+s") whose children
// are s's fields and whose metadata is s's, as the interface carries
// record batch schemas.
func ExportSchema(s *alkaid.Schema, out *ArrowSchema) error {
	return exportRoot(out, func() error { return exportSchema(s, out) })
}

func exportSchema(s *alkaid.Schema, out *ArrowSchema) error {
	if s.Endianness() != alkaid.LittleEndian {
		return fmt.Errorf("cdata: %w: export: a big-endian schema (the C Data Interface carries native data)", ErrNotSupported)
	}
	f := datatype.Field{Type: datatype.StructOf(s.Fields()...), Metadata: s.Metadata()}
	return exportField(f, out, 0)
}

func exportRoot(out *ArrowSchema, fill func() error) error {
	if out == nil {
		return fmt.Errorf("cdata: %w: export: nil ArrowSchema", ErrInvalid)
	}
	*out = ArrowSchema{} // released, until exportField fills it
	if err := fill(); err != nil {
		C.alk_release_schema(out)
		return err
	}
	return nil
}

// exportField fills one schema node; out is zeroed and marked releasable
// first, so that a failure anywhere below leaves a tree that
// alk_release_schema frees.
func exportField(f datatype.Field, out *ArrowSchema, depth int) error {
	*out = ArrowSchema{}
	C.alk_set_schema_release(out)
	if depth > maxDepth {
		return fmt.Errorf("cdata: %w: export: field %q nests deeper than %d", ErrNotSupported, f.Name, maxDepth)
	}
	if f.Type == nil {
		return fmt.Errorf("cdata: %w: export: field %q has no type", ErrInvalid, f.Name)
	}
	t, md := f.Type, f.Metadata
	if ext, ok := t.(datatype.ExtensionType); ok {
		md = md.With(extensionNameKey, ext.ExtensionName()).With(extensionMetadataKey, ext.Serialize())
		t = ext.StorageType()
	}
	out.name = cstring(f.Name)
	if f.Nullable {
		out.flags |= flagNullable
	}
	var format string
	var children []datatype.Field
	if dt, ok := t.(*datatype.DictionaryType); ok {
		var err error
		if format, err = formatOf(dt.Index); err != nil {
			return err
		}
		if dt.Ordered {
			out.flags |= flagDictionaryOrdered
		}
		out.dictionary = (*ArrowSchema)(C.calloc(1, C.size_t(unsafe.Sizeof(ArrowSchema{}))))
		if err := exportField(datatype.Field{Type: dt.Value, Nullable: true}, out.dictionary, depth+1); err != nil {
			return err
		}
		if dt.Ordered && dt.Value.Kind() != datatype.KindDictionary {
			// The flag belongs on this node, but arrow-go (v18.8.0) reads
			// it from the dictionary's node; there it means nothing else.
			out.dictionary.flags |= flagDictionaryOrdered
		}
	} else {
		var err error
		if format, err = formatOf(t); err != nil {
			return fmt.Errorf("export: field %q: %w", f.Name, err)
		}
		children = datatype.Children(t)
		if m, ok := t.(*datatype.MapType); ok && m.KeysSorted {
			out.flags |= flagMapKeysSorted
		}
	}
	out.format = cstring(format)
	meta, err := encodeMetadata(md)
	if err != nil {
		return err
	}
	out.metadata = cbytes(meta)
	if len(children) > 0 {
		ptrs, structs := allocChildren[ArrowSchema](len(children))
		out.children = (**ArrowSchema)(unsafe.Pointer(&ptrs[0]))
		out.n_children = C.int64_t(len(children))
		for i, c := range children {
			ptrs[i] = &structs[i]
			if err := exportField(c, &structs[i], depth+1); err != nil {
				return fmt.Errorf("field %q: %w", f.Name, err)
			}
		}
	}
	return nil
}

// allocChildren allocates, in one zeroed C block, n pointers followed by
// the n structs they will point to.
func allocChildren[T ArrowSchema | ArrowArray](n int) ([]*T, []T) {
	var zero T
	ptrSize := unsafe.Sizeof(uintptr(0))
	block := C.calloc(C.size_t(n), C.size_t(ptrSize+unsafe.Sizeof(zero)))
	ptrs := unsafe.Slice((**T)(block), n)
	structs := unsafe.Slice((*T)(unsafe.Add(block, uintptr(n)*ptrSize)), n)
	return ptrs, structs
}
