package alkaid_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

func people(t testing.TB) (*alkaid.Schema, *alkaid.Record) {
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "id", Type: datatype.Int64},
		{Name: "name", Type: datatype.String, Nullable: true},
	}, datatype.MetadataFrom("origin", "test"))
	rec, err := alkaid.NewRecord(s, []array.Array{
		arrayjson.MustParse(datatype.Int64, `[1, 2, 3, 4]`),
		arrayjson.MustParse(datatype.String, `["ann", null, "cy", "dee"]`),
	}, -1)
	require.NoError(t, err)
	return s, rec
}

func TestNewRecordChecks(t *testing.T) {
	s, rec := people(t)
	require.Equal(t, 4, rec.NumRows())
	require.Equal(t, "name", rec.ColumnName(1))
	ints := arrayjson.MustParse(datatype.Int64, `[1, 2]`)
	strs := arrayjson.MustParse(datatype.String, `["a", "b", "c", "d"]`)
	tests := []struct {
		name string
		cols []array.Array
		want string
	}{
		{"too few columns", []array.Array{ints}, "1 columns for 2 fields"},
		{"wrong type", []array.Array{strs, strs}, "column 0 (id) has type utf8, field says int64"},
		{"different lengths", []array.Array{ints, strs}, "column 1 (name) has 4 rows, want 2"},
		{"nil column", []array.Array{ints, nil}, "column 1 (name) is nil"},
		{"nulls in a non-nullable field", []array.Array{arrayjson.MustParse(datatype.Int64, `[1, null, 3, 4]`), strs}, "not nullable but has 1 nulls"},
	}
	for _, tc := range tests {
		_, err := alkaid.NewRecord(s, tc.cols, -1)
		require.ErrorContains(t, err, tc.want, tc.name)
		require.ErrorIs(t, err, datatype.ErrInvalid, tc.name)
	}

	// A null-type column is all nulls whatever its field says: Arrow
	// writers (apache-arrow JS) mark such fields non-nullable.
	ns := alkaid.NewSchema([]datatype.Field{{Name: "n", Type: datatype.Null}}, datatype.Metadata{})
	_, err := alkaid.NewRecord(ns, []array.Array{array.NewNull(3)}, -1)
	require.NoError(t, err)
}

func TestSliceAndTable(t *testing.T) {
	s, rec := people(t)
	sl := rec.Slice(1, 3)
	require.Equal(t, 2, sl.NumRows())
	require.Equal(t, `[(null) "cy"]`, sl.Column(1).String())
	require.Panics(t, func() { rec.Slice(3, 9) })

	tbl, err := alkaid.TableFromRecords(s, []*alkaid.Record{rec, sl})
	require.NoError(t, err)
	require.Equal(t, 6, tbl.NumRows())
	require.Equal(t, 2, tbl.Column(1).NullN())
	part := tbl.Slice(3, 5)
	require.Equal(t, 2, part.NumRows())
	chunks := part.Column(0).Chunks()
	require.Len(t, chunks, 2)
	require.Equal(t, "[4]", chunks[0].String())
	require.Equal(t, "[2]", chunks[1].String())

	other := alkaid.NewSchema(s.Fields()[:1], datatype.Metadata{})
	_, err = alkaid.TableFromRecords(other, []*alkaid.Record{rec})
	require.Error(t, err)
}

func TestSchema(t *testing.T) {
	s, _ := people(t)
	require.Equal(t, 1, s.FieldIndex("name"))
	require.Equal(t, -1, s.FieldIndex("zzz"))
	dup := alkaid.NewSchema([]datatype.Field{{Name: "a", Type: datatype.Int8}, {Name: "a", Type: datatype.Int16}}, datatype.Metadata{})
	require.Equal(t, []int{0, 1}, dup.FieldIndices("a"))
	require.True(t, s.Equal(s))
	require.False(t, s.Equal(s.WithMetadata(datatype.Metadata{})))
	require.True(t, s.Equal(s.WithMetadata(datatype.Metadata{}), datatype.IgnoreMetadata()))
	require.False(t, s.Equal(s.WithEndianness(alkaid.BigEndian)))
	require.Equal(t, "schema:\n  id: int64 not null\n  name: utf8\n  metadata: {\"origin\": \"test\"}", s.String())
}

func ExampleNewRecord() {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "star", Type: datatype.String},
		{Name: "magnitude", Type: datatype.Float64, Nullable: true},
	}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.String, `["Alkaid", "Mizar"]`),
		arrayjson.MustParse(datatype.Float64, `[1.86, null]`),
	}, -1)
	if err != nil {
		panic(err)
	}
	fmt.Print(rec)
	// Output:
	// record: 2 rows
	//   star: ["Alkaid" "Mizar"]
	//   magnitude: [1.86 (null)]
}

func TestRecordBuilder(t *testing.T) {
	s, want := people(t)
	b, err := alkaid.NewRecordBuilder(s)
	require.NoError(t, err)
	for round := range 2 {
		b.Reserve(4)
		b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2, 3, 4}, nil)
		names := b.Field(1).(*array.BinaryBuilder[int32])
		names.AppendString("ann")
		names.AppendNull()
		names.AppendStrings([]string{"cy", "dee"}, nil)
		rec, err := b.NewRecord()
		require.NoError(t, err, "round %d", round)
		require.Equal(t, want.String(), rec.String())
	}
	b.Field(0).AppendNull()
	_, err = b.NewRecord()
	require.ErrorContains(t, err, "column 0 (id) is not nullable")
}

// A new user looked for Record.ColumnByName: it finds the first field of
// the name, and says when there is none.
func TestRecordColumnByName(t *testing.T) {
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "a", Type: datatype.Int64}, {Name: "b", Type: datatype.String}, {Name: "a", Type: datatype.String},
	}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{
		arrayjson.MustParse(datatype.Int64, `[1]`),
		arrayjson.MustParse(datatype.String, `["x"]`),
		arrayjson.MustParse(datatype.String, `["y"]`),
	}, -1)
	require.NoError(t, err)
	col, ok := rec.ColumnByName("a")
	require.True(t, ok)
	require.Same(t, rec.Column(0), col)
	col, ok = rec.ColumnByName("b")
	require.True(t, ok)
	require.Equal(t, "x", col.(*array.String).ValueString(0))
	col, ok = rec.ColumnByName("c")
	require.False(t, ok)
	require.Nil(t, col)
}
