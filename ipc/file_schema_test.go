package ipc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// fileWithSchemas builds a file without batches whose stream part starts
// with lead (a framed message, or nothing) and whose footer holds
// footerSchema.
func fileWithSchemas(t *testing.T, lead []byte, footerSchema *alkaid.Schema) []byte {
	t.Helper()
	raw := writeFile(t, footerSchema, nil)
	tail := len(Magic) + 4
	footerLen := int(binary.LittleEndian.Uint32(raw[len(raw)-tail:]))
	footer := raw[len(raw)-tail-footerLen:]
	eos := []byte{0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0}
	return cat([]byte(Magic+"\x00"), lead, eos, footer)
}

func TestFileSchemaCopiesMustAgree(t *testing.T) {
	base := schemaOf(field("alpha", datatype.Int64), field("beta", datatype.String))
	cases := []struct {
		name   string
		lead   []byte
		reject bool
	}{
		{"same", schemaMsg(base), false},
		{"renamed field", schemaMsg(schemaOf(field("omega", datatype.Int64), field("beta", datatype.String))), true},
		{"other type", schemaMsg(schemaOf(field("alpha", datatype.Int32), field("beta", datatype.String))), true},
		{"field missing", schemaMsg(schemaOf(field("alpha", datatype.Int64))), true},
		{"other nullability", schemaMsg(schemaOf(datatype.Field{Name: "alpha", Type: datatype.Int64}, field("beta", datatype.String))), true},
		{"other metadata", schemaMsg(base.WithMetadata(datatype.NewMetadata([]string{"k"}, []string{"v"}))), true},
		// Arrow JS starts the stream part of a file at its first batch.
		{"no schema message", rb(func(bt *batch) { bt.dictID = 0 }), false},
		{"nothing before the footer", nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw := fileWithSchemas(t, c.lead, base)
			fr, err := NewFileReader(bytes.NewReader(raw), int64(len(raw)), WithValidation(array.ValidateFull))
			if !c.reject {
				require.NoError(t, err)
				require.True(t, fr.Schema().Equal(base))
				return
			}
			require.ErrorIs(t, err, ErrInvalid)
			require.ErrorContains(t, err, "schema message at byte 8: disagrees with the footer's schema (message against footer: ")
			// One short line naming the difference, not both schemas.
			require.NotContains(t, err.Error(), "\n")
			require.Less(t, len(err.Error()), 300, err.Error())
			// Lesser validation skips the comparison, as Arrow's readers
			// do: the footer's copy is read.
			for _, v := range []array.ValidationLevel{array.ValidateSafe, array.ValidateStructure} {
				fr, err = NewFileReader(bytes.NewReader(raw), int64(len(raw)), WithValidation(v))
				require.NoError(t, err)
				require.True(t, fr.Schema().Equal(base))
			}
		})
	}
}

func TestSchemaInfoSameAsComparesDictionaryIDs(t *testing.T) {
	s := schemaOf(field("alpha", datatype.Int64))
	a := &schemaInfo{schema: s, ids: []int64{0, 1}}
	require.True(t, a.sameAs(&schemaInfo{schema: s, ids: []int64{0, 1}}))
	require.False(t, a.sameAs(&schemaInfo{schema: s, ids: []int64{1, 0}}))
}

// The difference of two schemas is named in one short line however wide
// they are (two 53-field schemas were printed whole on one 4 KB line).
func TestSchemaInfoDifference(t *testing.T) {
	wide := func(rename int, typ datatype.DataType) *schemaInfo {
		fields := make([]datatype.Field, 53)
		for i := range fields {
			fields[i] = field(fmt.Sprintf("column_%02d", i), datatype.Int64)
		}
		if rename >= 0 {
			fields[rename] = field("renamed", typ)
		}
		return &schemaInfo{schema: alkaid.NewSchema(fields, datatype.Metadata{})}
	}
	for _, c := range []struct {
		a, b *schemaInfo
		want string
	}{
		{wide(-1, nil), wide(7, datatype.Int64), `field 7: "column_07: int64" against "renamed: int64"`},
		{wide(-1, nil), &schemaInfo{schema: schemaOf(field("a", datatype.Int64))}, "53 fields against 1"},
		{wide(-1, nil), &schemaInfo{schema: wide(-1, nil).schema.WithMetadata(datatype.MetadataFrom("k", "v"))}, "the schema metadata differs"},
		{wide(-1, nil), &schemaInfo{schema: wide(-1, nil).schema, ids: []int64{3}}, "the dictionary ids differ (0 against 1 dictionaries)"},
	} {
		require.False(t, c.a.sameAs(c.b))
		got := c.a.difference(c.b)
		require.Equal(t, c.want, got)
	}
	deep := datatype.DataType(datatype.Int64)
	for range 40 {
		deep = datatype.StructOf(field("nested_field_name", deep))
	}
	got := wide(-1, nil).difference(wide(0, deep))
	require.Less(t, len(got), 300, got)
}
