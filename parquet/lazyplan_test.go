package parquet

import (
	"sync"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/stretchr/testify/require"
)

// TestLazyPlan: a File that reads the whole file makes its plan at its
// first read, not when opened, nor for its schema or row group facts, and
// reads (also from several goroutines at once) and describes row groups
// as a File planned when opened does.
func TestLazyPlan(t *testing.T) {
	ts, err := datatype.NewTimestamp(datatype.Millisecond, "UTC")
	require.NoError(t, err)
	st := datatype.StructOf(datatype.Field{Name: "x", Type: datatype.Float64, Nullable: true})
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "a", Type: datatype.Int64, Nullable: true},
		{Name: "s", Type: datatype.String},
		{Name: "l", Type: datatype.ListOf(datatype.Int32), Nullable: true},
		{Name: "st", Type: st, Nullable: true},
		{Name: "t", Type: ts, Nullable: true},
	}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.Int64, "[1, null, 3, 4, 5]"),
		arrayjson.MustParse(datatype.String, `["a", "b", "", "d", "e"]`),
		arrayjson.MustParse(datatype.ListOf(datatype.Int32), "[[1, 2], null, [], [3], [null]]"),
		arrayjson.MustParse(st, `[{"x": 1.5}, null, {"x": null}, {"x": 2}, {"x": 3}]`),
		arrayjson.MustParse(ts, "[1, 2, null, 4, 5]"),
	}, 5)
	require.NoError(t, err)
	data := writeFile(t, []*alkaid.Record{rec}, WithRowGroupRows(2))

	lazy, err := NewFileBytes(data)
	require.NoError(t, err)
	eager, err := NewFileBytes(data, WithRowGroups(0, 1, 2))
	require.NoError(t, err)
	require.Nil(t, lazy.plan)
	require.NotNil(t, eager.plan)
	require.True(t, lazy.Schema().Equal(eager.Schema()), "%s, want %s", lazy.Schema(), eager.Schema())
	for g := range lazy.NumRowGroups() {
		require.Equal(t, eager.RowGroup(g), lazy.RowGroup(g), "row group %d", g)
	}
	require.Nil(t, lazy.lazy.plan, "planned for the schema or row group facts")

	want, err := alkaid.ReadAll(eager)
	require.NoError(t, err)
	var wg sync.WaitGroup
	got := make([]*alkaid.Table, 4)
	errs := make([]error, len(got))
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = alkaid.ReadAll(lazy)
		}()
	}
	wg.Wait()
	for i := range got {
		require.NoError(t, errs[i])
		require.Equal(t, want.String(), got[i].String(), "read %d", i)
	}
	require.NotNil(t, lazy.lazy.plan)
}

// TestSchemaTreeHostile: flattened schemas whose elements claim more
// children than there are elements, or leaves without a type, are errors
// wrapping ErrInvalid (the tree's nodes and children come out of
// allocations sized by the element count).
func TestSchemaTreeHostile(t *testing.T) {
	group := func(name string, kids int32) format.SchemaElement {
		return format.SchemaElement{Name: name, NumChildren: &kids}
	}
	typ := format.Int64
	leaf := format.SchemaElement{Name: "v", Type: &typ}
	for _, tc := range []struct {
		name  string
		elems []format.SchemaElement
	}{
		{"empty", nil},
		{"claims beyond the elements", []format.SchemaElement{group("schema", 3), group("a", 2), leaf, leaf}},
		{"nested claims beyond the elements", []format.SchemaElement{group("schema", 2), group("a", 1), group("b", 1), leaf}},
		{"more children than elements", []format.SchemaElement{group("schema", 5), leaf}},
		{"a leaf without a type", []format.SchemaElement{group("schema", 1), {Name: "x"}}},
		{"elements beyond the root's", []format.SchemaElement{group("schema", 1), leaf, leaf}},
	} {
		_, _, err := schemaTree(tc.elems)
		require.ErrorIs(t, err, ErrInvalid, tc.name)
	}
	root, leaves, err := schemaTree([]format.SchemaElement{group("schema", 2), group("a", 2), leaf, leaf, leaf})
	require.NoError(t, err)
	require.Len(t, leaves, 3)
	require.Len(t, root.children, 2)
	require.Equal(t, []string{"a", "v"}, root.children[0].children[1].path)
	require.Equal(t, []string{"v"}, root.children[1].path)
	require.Equal(t, 2, leaves[2].column)
}
