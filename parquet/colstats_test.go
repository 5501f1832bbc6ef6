package parquet

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

func TestColumnStats(t *testing.T) {
	cols := []struct {
		name, values string
		typ          datatype.DataType
	}{
		{"i32", "[3, null, -7]", datatype.Int32},
		{"i64", "[10, 20, null]", datatype.Int64},
		{"f64", "[1.5, -2.5, 0]", datatype.Float64},
		{"s", `["b", "a", null]`, datatype.String},
		{"u32", "[1, 2, 3]", datatype.Uint32},
		{"d", "[1, 2, 3]", datatype.Date32Type},
		{"l", "[[1], [2], null]", datatype.ListOf(datatype.Int64)},
	}
	fields := make([]datatype.Field, len(cols))
	arrs := make([]array.Array, len(cols))
	for i, c := range cols {
		fields[i] = datatype.Field{Name: c.name, Type: c.typ, Nullable: true}
		arrs[i] = arrayjson.MustParse(c.typ, c.values)
	}
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), arrs, -1)
	require.NoError(t, err)
	f, err := NewFileBytes(writeFile(t, []*alkaid.Record{rec}))
	require.NoError(t, err)
	for _, tc := range []struct {
		column string
		want   ColumnStats
		ok     bool
	}{
		{"i32", ColumnStats{Min: int64(-7), Max: int64(3), NullCount: 1, Rows: 3}, true},
		{"i64", ColumnStats{Min: int64(10), Max: int64(20), NullCount: 1, Rows: 3}, true},
		{"f64", ColumnStats{Min: -2.5, Max: 1.5, NullCount: 0, Rows: 3}, true},
		{"s", ColumnStats{Min: "a", Max: "b", NullCount: 1, Rows: 3}, true},
		// unsigned and temporal columns: counts, but no bounds
		{"u32", ColumnStats{NullCount: 0, Rows: 3}, true},
		{"d", ColumnStats{NullCount: 0, Rows: 3}, true},
		// not a flat column
		{"l", ColumnStats{}, false},
		{"l.list.element", ColumnStats{}, false},
		{"nope", ColumnStats{}, false},
	} {
		got, ok := f.ColumnStats(0, tc.column)
		require.Equal(t, tc.ok, ok, tc.column)
		require.Equal(t, tc.want, got, tc.column)
	}
	_, ok := f.ColumnStats(1, "i64")
	require.False(t, ok, "row group out of range")
}
