package gorecord_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/gorecord"
)

// TestListChildNameAnyOnRead: gorecord names a list's element "item" when
// it makes a schema (no name is given), and reads a list whatever its
// element is named, "" included, as other writers name it.
func TestListChildNameAnyOnRead(t *testing.T) {
	type row struct {
		L []int32 `alkaid:"l"`
	}
	s, err := gorecord.SchemaOf[row]()
	require.NoError(t, err)
	require.Equal(t, "item", s.Field(0).Type.(*datatype.ListType).Elem().Name)

	for _, name := range []string{"", "element"} {
		lt := datatype.ListOfField(datatype.Field{Name: name, Type: datatype.Int32, Nullable: true})
		col, err := arrayjson.Parse(lt, `[[1, 2], [], [3]]`)
		require.NoError(t, err)
		schema := alkaid.NewSchema([]datatype.Field{{Name: "l", Type: lt, Nullable: true}}, datatype.Metadata{})
		rec, err := alkaid.NewRecord(schema, []array.Array{col}, 3)
		require.NoError(t, err)
		rows, err := gorecord.ToSlice[row](rec)
		require.NoError(t, err, "element named %q", name)
		require.Equal(t, []row{{L: []int32{1, 2}}, {L: []int32{}}, {L: []int32{3}}}, rows)
	}
}
