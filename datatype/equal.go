package datatype

// EqualOption changes what [Equal] compares.
type EqualOption func(*equalConfig)

type equalConfig struct {
	ignoreNames, ignoreMetadata, ignoreNullability bool
}

// IgnoreFieldNames makes [Equal] ignore the names of child fields.
func IgnoreFieldNames() EqualOption { return func(c *equalConfig) { c.ignoreNames = true } }

// IgnoreMetadata makes [Equal] ignore the metadata of child fields.
func IgnoreMetadata() EqualOption { return func(c *equalConfig) { c.ignoreMetadata = true } }

// IgnoreNullability makes [Equal] ignore whether child fields are nullable.
func IgnoreNullability() EqualOption { return func(c *equalConfig) { c.ignoreNullability = true } }

// Equal reports whether a and b are the same type with the same
// parameters, children compared recursively.
func Equal(a, b DataType, opts ...EqualOption) bool {
	if len(opts) == 0 {
		var plain equalConfig // stays on the stack: no option sees its address
		return plain.types(a, b)
	}
	var c equalConfig
	for _, o := range opts {
		o(&c)
	}
	return c.types(a, b)
}

// FieldEqual reports whether two fields are equal: name, type,
// nullability and metadata, subject to the options.
func FieldEqual(a, b Field, opts ...EqualOption) bool {
	if len(opts) == 0 {
		var plain equalConfig
		return plain.fields(a, b)
	}
	var c equalConfig
	for _, o := range opts {
		o(&c)
	}
	return c.fields(a, b)
}

func (c *equalConfig) fields(a, b Field) bool {
	return (c.ignoreNames || a.Name == b.Name) &&
		(c.ignoreNullability || a.Nullable == b.Nullable) &&
		(c.ignoreMetadata || a.Metadata.Equal(b.Metadata)) &&
		c.types(a.Type, b.Type)
}

func (c *equalConfig) fieldList(a, b []Field) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !c.fields(a[i], b[i]) {
			return false
		}
	}
	return true
}

func (c *equalConfig) types(a, b DataType) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if a.Kind() != b.Kind() {
		return false
	}
	switch a := a.(type) {
	case *primitive:
		return true
	case *TimeType:
		return a.Unit == b.(*TimeType).Unit
	case *TimestampType:
		bb := b.(*TimestampType)
		return a.Unit == bb.Unit && a.TimeZone == bb.TimeZone
	case *DurationType:
		return a.Unit == b.(*DurationType).Unit
	case *DecimalType:
		return *a == *b.(*DecimalType)
	case *FixedSizeBinaryType:
		return a.ByteWidth == b.(*FixedSizeBinaryType).ByteWidth
	case *ListType:
		bb := b.(*ListType)
		return a.size == bb.size && c.fields(a.elem, bb.elem)
	case *StructType:
		return c.fieldList(a.fields, b.(*StructType).fields)
	case *MapType:
		bb := b.(*MapType)
		return a.KeysSorted == bb.KeysSorted && c.fields(a.entries, bb.entries)
	case *UnionType:
		bb := b.(*UnionType)
		if len(a.codes) != len(bb.codes) {
			return false
		}
		for i := range a.codes {
			if a.codes[i] != bb.codes[i] {
				return false
			}
		}
		return c.fieldList(a.fields, bb.fields)
	case *DictionaryType:
		bb := b.(*DictionaryType)
		return a.Ordered == bb.Ordered && c.types(a.Index, bb.Index) && c.types(a.Value, bb.Value)
	case *RunEndEncodedType:
		bb := b.(*RunEndEncodedType)
		return c.fields(a.runEnds, bb.runEnds) && c.fields(a.values, bb.values)
	case ExtensionType:
		bb := b.(ExtensionType)
		return a.ExtensionName() == bb.ExtensionName() && c.types(a.StorageType(), bb.StorageType()) &&
			a.ExtensionEqual(bb)
	}
	return false
}

// MetadataEqual reports whether a and b are equal, or true when the
// options include [IgnoreMetadata]; for containers (schemas, messages)
// that compare their own metadata under the same options as their fields.
func MetadataEqual(a, b Metadata, opts ...EqualOption) bool {
	var c equalConfig
	for _, o := range opts {
		o(&c)
	}
	return c.ignoreMetadata || a.Equal(b)
}
