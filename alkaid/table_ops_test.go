package alkaid_test

import (
	"errors"
	"iter"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// unevenTable has columns cut at different rows: id in [0,1) [1,4),
// name in [0,2) [2,4).
func unevenTable(t *testing.T) *alkaid.Table {
	s, rec := people(t)
	id, err := alkaid.NewChunked(datatype.Int64, []array.Array{array.Slice(rec.Column(0), 0, 1), array.Slice(rec.Column(0), 1, 4)})
	require.NoError(t, err)
	name, err := alkaid.NewChunked(datatype.String, []array.Array{array.Slice(rec.Column(1), 0, 2), array.Slice(rec.Column(1), 2, 4)})
	require.NoError(t, err)
	tbl, err := alkaid.NewTable(s, []*alkaid.Chunked{id, name})
	require.NoError(t, err)
	return tbl
}

func TestTableRecords(t *testing.T) {
	tbl := unevenTable(t)
	var lens []int
	var ids []string
	for r, err := range tbl.Records() {
		require.NoError(t, err)
		lens = append(lens, r.NumRows())
		ids = append(ids, r.Column(0).String()+r.Column(1).String())
	}
	require.Equal(t, []int{1, 1, 2}, lens)
	require.Equal(t, []string{`[1]["ann"]`, `[2][(null)]`, `[3 4]["cy" "dee"]`}, ids)

	// Stopping early is fine.
	n := 0
	for range tbl.Records() {
		n++
		break
	}
	require.Equal(t, 1, n)

	// Table -> reader -> table.
	var _ alkaid.RecordReader = tbl
	back, err := alkaid.ReadAll(tbl)
	require.NoError(t, err)
	require.Equal(t, tbl.String(), back.String())
	require.Equal(t, 3, len(back.Column(0).Chunks()))

	empty := tbl.Slice(2, 2)
	for range empty.Records() {
		t.Fatal("an empty table yields no record")
	}
	back, err = alkaid.ReadAll(empty)
	require.NoError(t, err)
	require.Equal(t, 0, back.NumRows())
}

func TestTableString(t *testing.T) {
	tbl := unevenTable(t)
	require.Equal(t, "table: 4 rows\n  id: [1 2 3 4]\n  name: [\"ann\" (null) \"cy\" \"dee\"]\n", tbl.String())
	_, rec := people(t)
	require.Equal(t, rec.String()[len("record"):], tbl.String()[len("table"):])
}

func TestConcatTables(t *testing.T) {
	tbl := unevenTable(t)
	both, err := alkaid.ConcatTables(tbl, tbl.Slice(1, 3))
	require.NoError(t, err)
	require.Equal(t, 6, both.NumRows())
	require.Equal(t, "table: 6 rows\n  id: [1 2 3 4 2 3]\n  name: [\"ann\" (null) \"cy\" \"dee\" (null) \"cy\"]\n", both.String())

	_, err = alkaid.ConcatTables()
	require.Error(t, err)
	other := alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int8}}, datatype.Metadata{})
	o, err := alkaid.NewTable(other, []*alkaid.Chunked{must(alkaid.NewChunked(datatype.Int8, nil))})
	require.NoError(t, err)
	_, err = alkaid.ConcatTables(tbl, o)
	require.ErrorContains(t, err, "table 1 has schema")
}

type failing struct{ s *alkaid.Schema }

func (f failing) Schema() *alkaid.Schema { return f.s }
func (f failing) Close() error           { return nil }
func (f failing) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) { yield(nil, errors.New("disk on fire")) }
}

func TestReadAllError(t *testing.T) {
	s, _ := people(t)
	_, err := alkaid.ReadAll(failing{s})
	require.ErrorContains(t, err, "after 0 record batches: disk on fire")
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
