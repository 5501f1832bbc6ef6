package dataset

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/files"
)

func TestWiden(t *testing.T) {
	ts := func(u datatype.TimeUnit, tz string) datatype.DataType {
		x, err := datatype.NewTimestamp(u, tz)
		require.NoError(t, err)
		return x
	}
	tests := []struct {
		a, b, want datatype.DataType // want nil: a conflict
	}{
		{datatype.Int32, datatype.Int64, datatype.Int64},
		{datatype.Int8, datatype.Int16, datatype.Int16},
		{datatype.Uint8, datatype.Uint32, datatype.Uint32},
		{datatype.Int32, datatype.Uint32, datatype.Int64},
		{datatype.Uint16, datatype.Int8, datatype.Int32},
		{datatype.Uint64, datatype.Int8, nil},
		{datatype.Int64, datatype.Float32, datatype.Float64},
		{datatype.Float32, datatype.Float64, datatype.Float64},
		{datatype.String, datatype.LargeString, datatype.LargeString},
		{datatype.Binary, datatype.LargeBinary, datatype.LargeBinary},
		{datatype.Null, datatype.String, datatype.String},
		{ts(datatype.Millisecond, "UTC"), ts(datatype.Nanosecond, "UTC"), ts(datatype.Nanosecond, "UTC")},
		{ts(datatype.Second, ""), ts(datatype.Millisecond, ""), ts(datatype.Millisecond, "")},
		{ts(datatype.Second, "UTC"), ts(datatype.Second, ""), nil},
		{datatype.String, datatype.Int64, nil},
		{datatype.Binary, datatype.String, nil},
		{datatype.Date32Type, datatype.Int32, nil},
	}
	for _, tc := range tests {
		t.Run(tc.a.String()+"+"+tc.b.String(), func(t *testing.T) {
			for _, order := range [][2]datatype.DataType{{tc.a, tc.b}, {tc.b, tc.a}} {
				got, ok := widen(order[0], order[1])
				if tc.want == nil {
					require.False(t, ok, "got %v", got)
					continue
				}
				require.True(t, ok)
				require.True(t, datatype.Equal(tc.want, got), "got %s", got)
			}
		})
	}
}

func TestUnifiedSchema(t *testing.T) {
	fsys := fstest.MapFS{
		"a.parquet": pqFile(t, mkRec(t, col{"id:int32", "[1,2]"}, col{"s:utf8", `["a","b"]`}, col{"ts:timestamp[ms, tz=UTC]", "[1000, 2000]"})),
		"b.parquet": pqFile(t, mkRec(t, col{"id:int64", "[3]"}, col{"s:large_utf8", `["c"]`}, col{"ts:timestamp[us, tz=UTC]", "[3000000]"}, col{"extra:float64", "[0.5]"})),
		"c.arrow":   {Data: encode(t, files.FormatIPCFile, []*alkaid.Record{mkRec(t, col{"id:int8", "[4]"})})},
	}
	d, err := Open(fsys, ".")
	require.NoError(t, err)
	require.Equal(t, "id: int64, s: large_utf8, ts: timestamp[us, tz=UTC], extra: float64",
		joinComma(fieldStrings(d.Schema())))
	got, _ := scanAll(t, d)
	require.Equal(t, map[string]string{
		"id":    "[1 2 3 4]",
		"s":     `["a" "b" "c" (null)]`,
		"ts":    "[1970-01-01T00:00:01Z 1970-01-01T00:00:02Z 1970-01-01T00:00:03Z (null)]",
		"extra": "[(null) (null) 0.5 (null)]",
	}, got)

	t.Run("conflict", func(t *testing.T) {
		fsys := fstest.MapFS{
			"a.parquet": pqFile(t, mkRec(t, col{"id:int64", "[1]"})),
			"b.parquet": pqFile(t, mkRec(t, col{"id:utf8", `["x"]`})),
		}
		_, err := Open(fsys, ".")
		require.ErrorIs(t, err, ErrSchemaConflict)
		require.ErrorIs(t, err, ErrInvalid)
		require.ErrorContains(t, err, `column "id" is int64 in a.parquet and utf8 in b.parquet`)
	})
	t.Run("given", func(t *testing.T) {
		given := alkaid.NewSchema([]datatype.Field{{Name: "id", Type: datatype.Float64, Nullable: true}, {Name: "z", Type: datatype.Bool, Nullable: true}}, datatype.Metadata{})
		d, err := Open(fsys, ".", WithSchema(given))
		require.NoError(t, err)
		got, _ := scanAll(t, d)
		require.Equal(t, map[string]string{"id": "[1 2 3 4]", "z": "[(null) (null) (null) (null)]"}, got)
	})
}

func fieldStrings(s *alkaid.Schema) []string {
	var out []string
	for _, f := range s.Fields() {
		out = append(out, f.Name+": "+f.Type.String())
	}
	return out
}

func TestDuplicateColumn(t *testing.T) {
	fsys := fstest.MapFS{"a.csv": {Data: []byte("x,y,x\n1,2,3\n")}}
	_, err := Open(fsys, ".")
	require.ErrorIs(t, err, ErrInvalid)
	require.ErrorContains(t, err, `a.csv: invalid: column "x" appears twice`)
}

func TestUnifiedSchemaMetadata(t *testing.T) {
	withMeta := func(m datatype.Metadata) []byte {
		r := mkRec(t, col{"id:int64", "[1]"})
		r, err := alkaid.NewRecord(alkaid.NewSchema(r.Schema().Fields(), m), r.Columns(), r.NumRows())
		require.NoError(t, err)
		return encode(t, files.FormatIPCFile, []*alkaid.Record{r})
	}
	same := datatype.MetadataFrom("origin", "test")
	d, err := Open(fstest.MapFS{"a.arrow": {Data: withMeta(same)}, "b.arrow": {Data: withMeta(same)}}, ".")
	require.NoError(t, err)
	require.True(t, d.Schema().Metadata().Equal(same), "%v", d.Schema().Metadata())

	d, err = Open(fstest.MapFS{"a.arrow": {Data: withMeta(same)}, "b.arrow": {Data: withMeta(datatype.MetadataFrom("origin", "other"))}}, ".")
	require.NoError(t, err)
	require.Zero(t, d.Schema().Metadata().Len())
}
