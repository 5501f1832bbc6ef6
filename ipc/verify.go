package ipc

import (
	"encoding/binary"
	"fmt"
)

// The Go Flatbuffers runtime has no verifier, and its generated accessors
// index slices without checks, so a malformed message would panic. Every
// metadata buffer is therefore walked here first, against a description
// of the tables of format/*.fbs, before any accessor touches it: each
// table, vtable, scalar, string and vector must lie inside the buffer,
// nesting is bounded, and so is the number of tables visited (shared
// sub-tables could otherwise make a small buffer cost exponential time).

// fbKind is the kind of one table field.
type fbKind uint8

const (
	fbScalar     fbKind = iota // size bytes inline
	fbString                   // offset to a string
	fbSubtable                 // offset to a table of spec table
	fbVecScalar                // offset to a vector of size-byte scalars or structs
	fbVecTable                 // offset to a vector of offsets to tables of spec table
	fbVecString                // offset to a vector of strings
	fbUnionValue               // offset to a table chosen by the union type field before it
)

type fbField struct {
	kind  fbKind
	size  int      // scalar size, or element size of fbVecScalar
	table *fbTable // for fbSubtable, fbVecTable
	// for fbUnionValue: the table of each union type code (nil = no checks)
	union map[byte]*fbTable
}

type fbTable struct {
	name   string
	fields []fbField
}

func scalar(n int) fbField { return fbField{kind: fbScalar, size: n} }

var (
	tEmpty     = &fbTable{name: "type"}
	tKeyValue  = &fbTable{name: "KeyValue", fields: []fbField{{kind: fbString}, {kind: fbString}}}
	tInt       = &fbTable{name: "Int", fields: []fbField{scalar(4), scalar(1)}}
	tFloat     = &fbTable{name: "FloatingPoint", fields: []fbField{scalar(2)}}
	tDecimal   = &fbTable{name: "Decimal", fields: []fbField{scalar(4), scalar(4), scalar(4)}}
	tUnit      = &fbTable{name: "unit", fields: []fbField{scalar(2)}}
	tTime      = &fbTable{name: "Time", fields: []fbField{scalar(2), scalar(4)}}
	tTimestamp = &fbTable{name: "Timestamp", fields: []fbField{scalar(2), {kind: fbString}}}
	tWidth     = &fbTable{name: "width", fields: []fbField{scalar(4)}}
	tMap       = &fbTable{name: "Map", fields: []fbField{scalar(1)}}
	tUnion     = &fbTable{name: "Union", fields: []fbField{scalar(2), {kind: fbVecScalar, size: 4}}}
	tDictEnc   = &fbTable{name: "DictionaryEncoding", fields: []fbField{scalar(8), {kind: fbSubtable, table: tInt}, scalar(1), scalar(2)}}
	tField     = &fbTable{name: "Field"}
	tSchema    = &fbTable{name: "Schema"}
	tBodyComp  = &fbTable{name: "BodyCompression", fields: []fbField{scalar(1), scalar(1)}}
	tRecBatch  = &fbTable{name: "RecordBatch", fields: []fbField{
		scalar(8), {kind: fbVecScalar, size: 16}, {kind: fbVecScalar, size: 16},
		{kind: fbSubtable, table: tBodyComp}, {kind: fbVecScalar, size: 8}}}
	tDictBatch = &fbTable{name: "DictionaryBatch", fields: []fbField{scalar(8), {kind: fbSubtable, table: tRecBatch}, scalar(1)}}
	tMessage   = &fbTable{name: "Message"}
	tFooter    = &fbTable{name: "Footer"}
)

func init() {
	typeTables := map[byte]*fbTable{
		1: tEmpty, 2: tInt, 3: tFloat, 4: tEmpty, 5: tEmpty, 6: tEmpty, 7: tDecimal, 8: tUnit, 9: tTime,
		10: tTimestamp, 11: tUnit, 12: tEmpty, 13: tEmpty, 14: tUnion, 15: tWidth, 16: tWidth, 17: tMap,
		18: tUnit, 19: tEmpty, 20: tEmpty, 21: tEmpty, 22: tEmpty, 23: tEmpty, 24: tEmpty, 25: tEmpty, 26: tEmpty,
	}
	meta := fbField{kind: fbVecTable, table: tKeyValue}
	tField.fields = []fbField{
		{kind: fbString}, scalar(1), scalar(1), {kind: fbUnionValue, union: typeTables},
		{kind: fbSubtable, table: tDictEnc}, {kind: fbVecTable, table: tField}, meta,
	}
	tSchema.fields = []fbField{scalar(2), {kind: fbVecTable, table: tField}, meta, {kind: fbVecScalar, size: 8}}
	tMessage.fields = []fbField{
		scalar(2), scalar(1),
		{kind: fbUnionValue, union: map[byte]*fbTable{1: tSchema, 2: tDictBatch, 3: tRecBatch}},
		scalar(8), meta,
	}
	tFooter.fields = []fbField{
		scalar(2), {kind: fbSubtable, table: tSchema}, {kind: fbVecScalar, size: 24}, {kind: fbVecScalar, size: 24}, meta,
	}
}

// maxTableDepth bounds table nesting (fields nest 64 deep, 2 tables each).
const maxTableDepth = 128

// tableCost is what one visited table counts against the copy budget:
// about what a reader allocates for it (a field, a type, a key-value pair).
const tableCost = 16

// copyAllowance is what any buffer may copy out beyond its expansion
// ratio, so that small legitimate messages never hit the ratio.
const copyAllowance = 64 << 10

type verifier struct {
	buf       []byte
	tables    int
	maxTables int
	// copied counts the bytes of strings and vectors, and tableCost per
	// table, once per reference: what readers copy out of the buffer.
	copied, budget int64
}

func (v *verifier) errf(format string, args ...any) error {
	return fmt.Errorf("ipc: %w: flatbuffer: "+format, append([]any{ErrInvalid}, args...)...)
}

// verifyRoot checks the buffer's root table against spec, within the
// table count and copy budget of limits (zero fields take the defaults).
func verifyRoot(buf []byte, spec *fbTable, limits Limits) error {
	limits = limits.withDefaults()
	v := &verifier{buf: buf, maxTables: limits.MaxTables,
		budget: int64(limits.MaxMetadataExpansion)*int64(len(buf)) + copyAllowance}
	if len(buf) < 4 {
		return v.errf("%d bytes, too short for a root offset", len(buf))
	}
	root := int(binary.LittleEndian.Uint32(buf))
	return v.table(root, spec, 0)
}

// in reports whether [pos, pos+n) lies inside the buffer.
func (v *verifier) in(pos, n int) bool {
	return pos >= 0 && n >= 0 && pos <= len(v.buf) && n <= len(v.buf)-pos
}

func (v *verifier) table(pos int, spec *fbTable, depth int) error {
	if depth > maxTableDepth {
		return v.errf("tables nested deeper than %d", maxTableDepth)
	}
	if v.tables++; v.tables > v.maxTables {
		return limitf("flatbuffer: more than %d tables (Limits.MaxTables)", v.maxTables)
	}
	if err := v.copy(tableCost); err != nil {
		return err
	}
	if pos%4 != 0 || !v.in(pos, 4) {
		return v.errf("%s table at %d outside the %d-byte buffer or misaligned", spec.name, pos, len(v.buf))
	}
	vt := pos - int(int32(binary.LittleEndian.Uint32(v.buf[pos:])))
	if vt%2 != 0 || !v.in(vt, 4) {
		return v.errf("%s vtable at %d outside the buffer", spec.name, vt)
	}
	vtSize := int(binary.LittleEndian.Uint16(v.buf[vt:]))
	if vtSize < 4 || vtSize%2 != 0 || !v.in(vt, vtSize) {
		return v.errf("%s vtable size %d invalid", spec.name, vtSize)
	}
	nslots := (vtSize - 4) / 2
	slot := func(i int) int { return int(binary.LittleEndian.Uint16(v.buf[vt+4+2*i:])) }
	for i, f := range spec.fields {
		if i >= nslots {
			break
		}
		off := slot(i)
		if off == 0 {
			continue
		}
		size := f.size
		if f.kind != fbScalar {
			size = 4
		}
		// Fields are checked against the buffer, not against the table size
		// the vtable states: the Go Flatbuffers builder shares vtables
		// between tables whose field offsets agree but whose sizes differ,
		// so that size may be too small (the reference verifier ignores it
		// as well).
		at := pos + off
		if !v.in(at, size) {
			return v.errf("%s field %d at %d runs past the %d-byte buffer", spec.name, i, at, len(v.buf))
		}
		if f.kind == fbScalar {
			continue
		}
		var unionType byte // the union's type is the field declared just before it
		if f.kind == fbUnionValue {
			if toff := slot(i - 1); toff != 0 && v.in(pos+toff, 1) {
				unionType = v.buf[pos+toff]
			}
		}
		target := at + int(binary.LittleEndian.Uint32(v.buf[at:]))
		if err := v.field(f, target, spec.name, i, unionType, depth); err != nil {
			return err
		}
	}
	return nil
}

func (v *verifier) field(f fbField, target int, name string, i int, unionType byte, depth int) error {
	switch f.kind {
	case fbString:
		return v.vector(target, 1, true, name, i)
	case fbSubtable:
		return v.table(target, f.table, depth+1)
	case fbUnionValue:
		t := f.union[unionType]
		if t == nil {
			return nil // unknown member: the reader reports it as unsupported without reading it
		}
		return v.table(target, t, depth+1)
	case fbVecScalar:
		return v.vector(target, f.size, false, name, i)
	case fbVecTable, fbVecString:
		if err := v.vector(target, 4, false, name, i); err != nil {
			return err
		}
		n := int(binary.LittleEndian.Uint32(v.buf[target:]))
		for j := range n {
			at := target + 4 + 4*j
			elem := at + int(binary.LittleEndian.Uint32(v.buf[at:]))
			var err error
			if f.kind == fbVecString {
				err = v.vector(elem, 1, true, name, i)
			} else {
				err = v.table(elem, f.table, depth+1)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// vector checks a length-prefixed vector of n elements of size bytes
// (plus a terminating zero for strings).
func (v *verifier) vector(pos, size int, str bool, name string, i int) error {
	if pos%4 != 0 || !v.in(pos, 4) {
		return v.errf("%s field %d: vector at %d outside the buffer or misaligned", name, i, pos)
	}
	n := int(binary.LittleEndian.Uint32(v.buf[pos:]))
	bytes := n * size
	if str {
		bytes++
	}
	if n > len(v.buf) || !v.in(pos+4, bytes) {
		return v.errf("%s field %d: vector of %d elements runs past the %d-byte buffer", name, i, n, len(v.buf))
	}
	return v.copy(bytes)
}

// copy counts n bytes against the copy budget.
func (v *verifier) copy(n int) error {
	if v.copied += int64(n); v.copied > v.budget {
		return limitf("flatbuffer: the %d-byte buffer refers to more than %d bytes of strings, vectors and tables, counted once per reference (Limits.MaxMetadataExpansion)",
			len(v.buf), v.budget)
	}
	return nil
}
