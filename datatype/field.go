package datatype

import (
	"iter"
	"slices"
	"strconv"
	"strings"
)

// Field is a named, typed column or child: name, type, nullability and
// key–value metadata. Names need not be unique.
type Field struct {
	Name     string
	Type     DataType
	Nullable bool
	Metadata Metadata
}

// String is "name: type" with " not null" for non-nullable fields.
func (f Field) String() string {
	var b strings.Builder
	b.WriteString(f.Name)
	b.WriteString(": ")
	if f.Type == nil {
		b.WriteString("<nil>")
	} else {
		b.WriteString(f.Type.String())
	}
	if !f.Nullable {
		b.WriteString(" not null")
	}
	return b.String()
}

// Metadata is an ordered list of key–value string pairs. The zero value is
// empty. Metadata is immutable: the methods that change it return a copy.
type Metadata struct {
	keys, values []string
}

// NewMetadata pairs keys with values in order; it panics if the lengths
// differ (a programmer error).
func NewMetadata(keys, values []string) Metadata {
	if len(keys) != len(values) {
		panic("datatype: metadata keys and values differ in length")
	}
	if len(keys) == 0 {
		return Metadata{}
	}
	return Metadata{keys: slices.Clone(keys), values: slices.Clone(values)}
}

// MetadataFrom builds metadata from alternating keys and values: k1, v1, k2, v2…
// It panics on an odd count.
func MetadataFrom(pairs ...string) Metadata {
	if len(pairs)%2 != 0 {
		panic("datatype: odd number of metadata strings")
	}
	var m Metadata
	for i := 0; i < len(pairs); i += 2 {
		m.keys = append(m.keys, pairs[i])
		m.values = append(m.values, pairs[i+1])
	}
	return m
}

// Len is the number of pairs.
func (m Metadata) Len() int { return len(m.keys) }

// Keys returns the keys in order (a copy).
func (m Metadata) Keys() []string { return slices.Clone(m.keys) }

// Values returns the values in order (a copy).
func (m Metadata) Values() []string { return slices.Clone(m.values) }

// Key returns the i'th key.
func (m Metadata) Key(i int) string { return m.keys[i] }

// Value returns the i'th value.
func (m Metadata) Value(i int) string { return m.values[i] }

// Get returns the value of the first pair with the key.
func (m Metadata) Get(key string) (string, bool) {
	if i := slices.Index(m.keys, key); i >= 0 {
		return m.values[i], true
	}
	return "", false
}

// All iterates over the pairs in order.
func (m Metadata) All() iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		for i, k := range m.keys {
			if !yield(k, m.values[i]) {
				return
			}
		}
	}
}

// With returns a copy with key set to value (replacing the first pair with
// that key, or appended at the end).
func (m Metadata) With(key, value string) Metadata {
	out := Metadata{keys: slices.Clone(m.keys), values: slices.Clone(m.values)}
	if i := slices.Index(out.keys, key); i >= 0 {
		out.values[i] = value
		return out
	}
	out.keys = append(out.keys, key)
	out.values = append(out.values, value)
	return out
}

// Without returns a copy with every pair of the given keys removed.
func (m Metadata) Without(keys ...string) Metadata {
	var out Metadata
	for i, k := range m.keys {
		if !slices.Contains(keys, k) {
			out.keys = append(out.keys, k)
			out.values = append(out.values, m.values[i])
		}
	}
	return out
}

// Equal reports whether both hold the same pairs in the same order.
func (m Metadata) Equal(o Metadata) bool {
	return slices.Equal(m.keys, o.keys) && slices.Equal(m.values, o.values)
}

// String is "{k1: v1, k2: v2}" with quoted strings.
func (m Metadata) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range m.keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(k))
		b.WriteString(": ")
		b.WriteString(strconv.Quote(m.values[i]))
	}
	b.WriteByte('}')
	return b.String()
}
