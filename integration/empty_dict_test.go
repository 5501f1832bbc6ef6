package integration

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestWriteDictionaryWithoutBuilder: a schema read from untrusted bytes may
// nest a dictionary of nested values that no builder can make; writing
// such a schema with no records must give an error, not a panic.
func TestWriteDictionaryWithoutBuilder(t *testing.T) {
	inner, err := datatype.NewDictionary(datatype.Int8, datatype.ListOf(datatype.Int8), false)
	require.NoError(t, err)
	outer, err := datatype.NewDictionary(datatype.Int8, datatype.StructOf(datatype.Field{Name: "d", Type: inner, Nullable: true}), false)
	require.NoError(t, err)
	s := alkaid.NewSchema([]datatype.Field{{Name: "x", Type: outer, Nullable: true}}, datatype.Metadata{})
	var buf bytes.Buffer
	require.NotPanics(t, func() { err = Write(&buf, s, nil) })
	require.ErrorContains(t, err, "dictionary of")
}
