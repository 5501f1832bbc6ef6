package ipc

import (
	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

// Writers check what a message's metadata will cost before they build
// it: the Flatbuffers builder cannot grow past 2 GiB (it panics), and a
// message that default readers would refuse (more than MaxTables tables,
// or more than MaxMetadataSize bytes) must not be written at all. The
// table count is exact; the byte sizes below are upper bounds of what the
// Go builder lays out (vtables counted as if never shared, every object
// padded), so they are compared with a bound far below the builder's
// limit before building, and the metadata actually built is compared
// with MaxMetadataSize before it is written.

// Upper bounds, in bytes, of the objects of a metadata buffer.
const (
	costMessage = 96 // Message table, its vtable, root offset, alignment
	costSchema  = 64 // Schema table and vtable
	costField   = 64 // Field table (7 fields) and vtable
	costType    = 40 // a type table (at most three scalars or a string) and vtable
	costDict    = 96 // DictionaryEncoding and its Int index type
	costKV      = 32 // KeyValue table and vtable
	costBatch   = 128
)

// metaCost is what a metadata buffer costs: bytes and tables (as the
// reader's verifier counts them).
type metaCost struct {
	bytes  int64
	tables int64
	depth  int // of field nesting
	// strs is the bytes of its strings alone (names, keys, values, time
	// zones): a lower bound of the built size, known before building.
	strs int64
}

func (c *metaCost) add(o metaCost) {
	c.bytes += o.bytes
	c.tables += o.tables
	c.strs += o.strs
	c.depth = max(c.depth, o.depth)
}

// str is the cost of a string: length prefix, bytes, terminator, padding.
func str(n int) int64 { return int64(n) + 12 }

// vec is the cost of a vector of n offsets or 4-byte scalars.
func vec(n int) int64 { return 8 + 4*int64(n) }

// kvCost is the cost of a key-value vector (none when empty).
func kvCost(m datatype.Metadata) metaCost {
	if m.Len() == 0 {
		return metaCost{}
	}
	c := metaCost{bytes: vec(m.Len()), tables: int64(m.Len())}
	for i := range m.Len() {
		c.bytes += costKV + str(len(m.Key(i))) + str(len(m.Value(i)))
		c.strs += int64(len(m.Key(i)) + len(m.Value(i)))
	}
	return c
}

// mapCost is kvCost for message-level metadata.
func mapCost(m map[string]string) metaCost {
	if len(m) == 0 {
		return metaCost{}
	}
	c := metaCost{bytes: vec(len(m)), tables: int64(len(m))}
	for k, v := range m {
		c.bytes += costKV + str(len(k)) + str(len(v))
		c.strs += int64(len(k) + len(v))
	}
	return c
}

// schemaCost is the cost of a Schema table (without the Message around it).
func schemaCost(s *alkaid.Schema) metaCost {
	c := metaCost{bytes: costSchema + vec(s.NumFields()), tables: 1}
	for _, f := range s.Fields() {
		c.add(fieldCost(f))
	}
	c.add(kvCost(s.Metadata()))
	return c
}

// fieldCost follows schemaWriter.field: extension and dictionary types
// add two key-value pairs each, a dictionary its encoding tables.
func fieldCost(f datatype.Field) metaCost {
	c := metaCost{bytes: costField + str(len(f.Name)), tables: 1, strs: int64(len(f.Name))}
	c.add(kvCost(f.Metadata))
	t := f.Type
	extKV := func(ext datatype.ExtensionType) {
		name, meta := ext.ExtensionName(), ext.Serialize()
		c.add(metaCost{bytes: vec(2) + 2*costKV + str(len(ArrowExtensionMetadataKey)) + str(len(ArrowExtensionNameKey)) +
			str(len(name)) + str(len(meta)), tables: 2,
			strs: int64(len(ArrowExtensionMetadataKey) + len(ArrowExtensionNameKey) + len(name) + len(meta))})
	}
	if ext, ok := t.(datatype.ExtensionType); ok {
		extKV(ext)
		t = ext.StorageType()
	}
	if dt, ok := t.(*datatype.DictionaryType); ok {
		c.add(metaCost{bytes: costDict, tables: 2})
		t = dt.Value
		if ext, ok := t.(datatype.ExtensionType); ok {
			extKV(ext)
			t = ext.StorageType()
		}
	}
	c.add(metaCost{bytes: costType, tables: 1})
	switch tt := t.(type) {
	case *datatype.TimestampType:
		c.bytes += str(len(tt.TimeZone))
		c.strs += int64(len(tt.TimeZone))
	case *datatype.UnionType:
		c.bytes += vec(len(tt.TypeCodes()))
	}
	children := datatype.Children(t)
	c.bytes += vec(len(children))
	deepest := 0
	for _, ch := range children {
		cc := fieldCost(ch)
		deepest = max(deepest, cc.depth)
		c.add(cc)
	}
	c.depth = deepest + 1
	return c
}

// maxBuild bounds the estimated size of metadata the writers build: well
// below the builder's 2 GiB, well above what readers accept by default.
const maxBuild = 1 << 30

// checkCost refuses metadata that default readers would refuse, or that
// the Flatbuffers builder could not build.
func checkCost(c metaCost, what string) error {
	l := DefaultLimits
	if c.strs > int64(l.MaxMetadataSize) {
		// Refused before the builder copies the strings (and grows to
		// several times their size).
		return limitf("%s metadata would take at least %d bytes (its names and metadata strings); readers accept %d (Limits.MaxMetadataSize)", what, c.strs, l.MaxMetadataSize)
	}
	if c.bytes > maxBuild {
		return limitf("%s metadata would take about %d bytes; readers accept %d (Limits.MaxMetadataSize)", what, c.bytes, l.MaxMetadataSize)
	}
	if c.depth > l.MaxDepth {
		return limitf("%s: fields nest %d deep; readers accept %d (Limits.MaxDepth)", what, c.depth, l.MaxDepth)
	}
	if c.tables > int64(l.MaxTables) {
		return limitf("%s metadata would hold %d tables; readers accept %d (Limits.MaxTables)", what, c.tables, l.MaxTables)
	}
	return nil
}

// schemaMessageCost is the cost of the schema message.
func schemaMessageCost(s *alkaid.Schema) metaCost {
	c := schemaCost(s)
	c.add(metaCost{bytes: costMessage, tables: 1})
	return c
}

// batchMessageCost is the cost of a record or dictionary batch message of
// nodes field nodes, buffers buffers and variadic counts, with meta.
func batchMessageCost(nodes, buffers, variadic int, meta map[string]string) metaCost {
	c := metaCost{bytes: costMessage + 2*costBatch + 8 + 16*int64(nodes) + 16*int64(buffers) + 8*int64(variadic), tables: 4}
	c.add(mapCost(meta))
	return c
}

// footerCost is the cost of a file footer: the schema, the blocks and
// the footer's metadata.
func footerCost(s *alkaid.Schema, blocks int, meta map[string]string) metaCost {
	c := schemaCost(s)
	c.add(metaCost{bytes: costMessage + 2*vec(0) + 24*int64(blocks), tables: 1})
	c.add(mapCost(meta))
	return c
}

// checkBuilt refuses built metadata that default readers would refuse.
func checkBuilt(meta []byte, what string) error {
	if n := len(meta); n > DefaultLimits.MaxMetadataSize {
		return limitf("%s metadata takes %d bytes; readers accept %d (Limits.MaxMetadataSize)", what, n, DefaultLimits.MaxMetadataSize)
	}
	return nil
}
