package alkaid

import (
	"fmt"
	"strings"

	"github.com/alkaid-go/alkaid/datatype"
)

// Endianness is the byte order of a schema's data.
type Endianness uint8

// The byte orders. Little is the format's default and this library's
// native order on every supported platform.
const (
	LittleEndian Endianness = iota
	BigEndian
)

// String implements fmt.Stringer: the readable form of the Endianness.
func (e Endianness) String() string {
	if e == BigEndian {
		return "big"
	}
	return "little"
}

// Schema is an ordered list of fields with schema-level metadata and the
// byte order of the data. It is immutable.
type Schema struct {
	fields     []datatype.Field
	metadata   datatype.Metadata
	endianness Endianness
}

// NewSchema returns a little-endian schema of the fields (copied).
func NewSchema(fields []datatype.Field, metadata datatype.Metadata) *Schema {
	return &Schema{fields: append([]datatype.Field(nil), fields...), metadata: metadata}
}

// WithEndianness returns a copy of s declaring the byte order e.
func (s *Schema) WithEndianness(e Endianness) *Schema {
	out := *s
	out.endianness = e
	return &out
}

// WithMetadata returns a copy of s with the schema-level metadata m.
func (s *Schema) WithMetadata(m datatype.Metadata) *Schema {
	out := *s
	out.metadata = m
	return &out
}

// Fields returns the fields (a copy).
func (s *Schema) Fields() []datatype.Field { return append([]datatype.Field(nil), s.fields...) }

// NumFields is the number of fields.
func (s *Schema) NumFields() int { return len(s.fields) }

// Field returns field i.
func (s *Schema) Field(i int) datatype.Field { return s.fields[i] }

// FieldIndices returns the indexes of every field with the name (names
// need not be unique).
func (s *Schema) FieldIndices(name string) []int {
	var out []int
	for i, f := range s.fields {
		if f.Name == name {
			out = append(out, i)
		}
	}
	return out
}

// FieldIndex returns the index of the first field with the name, or -1.
func (s *Schema) FieldIndex(name string) int {
	for i, f := range s.fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// Metadata is the schema-level metadata.
func (s *Schema) Metadata() datatype.Metadata { return s.metadata }

// Endianness is the declared byte order.
func (s *Schema) Endianness() Endianness { return s.endianness }

// Equal reports whether both schemas have equal fields (names, types,
// nullability, metadata), metadata and byte order.
func (s *Schema) Equal(o *Schema, opts ...datatype.EqualOption) bool {
	if s == nil || o == nil {
		return s == o
	}
	if len(s.fields) != len(o.fields) || s.endianness != o.endianness {
		return false
	}
	for i := range s.fields {
		if !datatype.FieldEqual(s.fields[i], o.fields[i], opts...) {
			return false
		}
	}
	return datatype.MetadataEqual(s.metadata, o.metadata, opts...)
}

// String lists the fields one per line.
func (s *Schema) String() string {
	var b strings.Builder
	b.WriteString("schema:")
	for _, f := range s.fields {
		fmt.Fprintf(&b, "\n  %s", f)
		if f.Metadata.Len() > 0 {
			fmt.Fprintf(&b, " %s", f.Metadata)
		}
	}
	if s.metadata.Len() > 0 {
		fmt.Fprintf(&b, "\n  metadata: %s", s.metadata)
	}
	if s.endianness == BigEndian {
		b.WriteString("\n  endianness: big")
	}
	return b.String()
}
