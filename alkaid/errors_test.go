package alkaid_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestErrorsWrapInvalid: every error the package makes of bad arguments
// wraps datatype.ErrInvalid and carries the package prefix.
func TestErrorsWrapInvalid(t *testing.T) {
	s, rec := people(t)
	ints := arrayjson.MustParse(datatype.Int64, `[1, 2]`)
	strs := arrayjson.MustParse(datatype.String, `["a", "b"]`)
	other := alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int8}}, datatype.Metadata{})
	otherTable := must(alkaid.NewTable(other, []*alkaid.Chunked{must(alkaid.NewChunked(datatype.Int8, nil))}))
	peopleTable := must(alkaid.TableFromRecords(s, []*alkaid.Record{rec}))
	idChunks := must(alkaid.NewChunked(datatype.Int64, []array.Array{ints}))
	nameChunks := must(alkaid.NewChunked(datatype.String, []array.Array{arrayjson.MustParse(datatype.String, `["a"]`)}))
	otherRec := must(alkaid.NewRecord(other, []array.Array{arrayjson.MustParse(datatype.Int8, `[1]`)}, -1))
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"chunk of another type", func() error { _, err := alkaid.NewChunked(datatype.Int64, []array.Array{strs}); return err }, "chunk 0 has type utf8, want int64"},
		{"table: too few columns", func() error { _, err := alkaid.NewTable(s, []*alkaid.Chunked{idChunks}); return err }, "1 columns for 2 fields"},
		{"table: column of another type", func() error {
			_, err := alkaid.NewTable(s, []*alkaid.Chunked{nameChunks, nameChunks})
			return err
		}, "column 0 (id) has type utf8, field says int64"},
		{"table: different lengths", func() error { _, err := alkaid.NewTable(s, []*alkaid.Chunked{idChunks, nameChunks}); return err }, "column 1 (name) has 1 rows, want 2"},
		{"table of records of another schema", func() error {
			_, err := alkaid.TableFromRecords(s, []*alkaid.Record{rec, otherRec})
			return err
		}, "record 1 has a different schema"},
		{"concatenate no tables", func() error { _, err := alkaid.ConcatTables(); return err }, "concatenate no tables"},
		{"concatenate tables of other schemas", func() error { _, err := alkaid.ConcatTables(peopleTable, otherTable); return err }, "table 1 has schema"},
	}
	for _, tc := range tests {
		err := tc.err()
		require.ErrorIs(t, err, datatype.ErrInvalid, tc.name)
		require.ErrorContains(t, err, "alkaid: ", tc.name)
		require.ErrorContains(t, err, tc.want, tc.name)
	}
}
