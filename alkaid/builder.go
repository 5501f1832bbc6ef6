package alkaid

import (
	"fmt"

	"github.com/alkaid-go/alkaid/array"
)

// RecordBuilder builds records of one schema, one array builder per
// field. Append to the field builders (type-assert them to the concrete
// builder, e.g. *array.Int64Builder), then call NewRecord; the builder is
// then empty and can be reused. It is not safe for concurrent use.
type RecordBuilder struct {
	schema *Schema
	fields []array.Builder
}

// NewRecordBuilder returns a builder for the schema; it fails for a type
// no builder exists for.
func NewRecordBuilder(schema *Schema, opts ...array.BuilderOption) (*RecordBuilder, error) {
	b := &RecordBuilder{schema: schema, fields: make([]array.Builder, schema.NumFields())}
	for i := range b.fields {
		fb, err := array.TryNewBuilder(schema.Field(i).Type, opts...)
		if err != nil {
			return nil, fmt.Errorf("alkaid: field %d (%s): %w", i, schema.Field(i).Name, err)
		}
		b.fields[i] = fb
	}
	return b, nil
}

// Schema is the schema of the records built.
func (b *RecordBuilder) Schema() *Schema { return b.schema }

// Field returns the builder of field i.
func (b *RecordBuilder) Field(i int) array.Builder { return b.fields[i] }

// Reserve makes room for n more rows in every field.
func (b *RecordBuilder) Reserve(n int) {
	for _, f := range b.fields {
		f.Reserve(n)
	}
}

// NewRecord finishes every field into a record and resets the builder.
// It fails when the fields were given different numbers of values or a
// non-nullable field holds nulls; the builder is reset either way.
func (b *RecordBuilder) NewRecord() (*Record, error) {
	cols := make([]array.Array, len(b.fields))
	for i, f := range b.fields {
		cols[i] = f.NewArray()
	}
	return NewRecord(b.schema, cols, -1)
}
