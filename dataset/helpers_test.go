package dataset

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/ndjson"
	"github.com/alkaid-go/alkaid/parquet"
)

// col is a column of a test record: "name:type" (datatype.ParseType
// syntax) and a JSON array literal.
type col struct{ field, values string }

// mkRec builds a record from cols.
func mkRec(t testing.TB, cols ...col) *alkaid.Record {
	t.Helper()
	fields := make([]datatype.Field, len(cols))
	arrs := make([]array.Array, len(cols))
	for i, c := range cols {
		name, typ, _ := strings.Cut(c.field, ":")
		dt, err := datatype.ParseType(typ)
		require.NoError(t, err, typ)
		fields[i] = datatype.Field{Name: name, Type: dt, Nullable: true}
		arrs[i] = arrayjson.MustParse(dt, c.values)
	}
	r, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), arrs, -1)
	require.NoError(t, err)
	return r
}

// encode writes recs in format f.
func encode(t testing.TB, f files.Format, recs []*alkaid.Record, pqOpts ...parquet.Option) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w interface {
		Write(*alkaid.Record) error
		Close() error
	}
	var err error
	s := recs[0].Schema()
	switch f {
	case files.FormatParquet:
		w, err = parquet.NewWriter(&buf, s, pqOpts...)
	case files.FormatIPCFile:
		w, err = ipc.NewFileWriter(&buf, s)
	case files.FormatIPCStream:
		w, err = ipc.NewStreamWriter(&buf, s)
	case files.FormatCSV:
		w, err = csv.NewWriter(&buf, s)
	case files.FormatNDJSON:
		w, err = ndjson.NewWriter(&buf, s)
	}
	require.NoError(t, err)
	for _, r := range recs {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// pqFile is a Parquet file of recs in a MapFS.
func pqFile(t testing.TB, recs ...*alkaid.Record) *fstest.MapFile {
	return &fstest.MapFile{Data: encode(t, files.FormatParquet, recs)}
}

// scanAll runs a scan of d and returns each output column's values as
// array.Format prints them, by name, with the scan's stats.
func scanAll(t testing.TB, d *Dataset, opts ...Option) (map[string]string, Stats) {
	t.Helper()
	s, err := d.Scan(context.Background(), opts...)
	require.NoError(t, err)
	var recs []*alkaid.Record
	for r, err := range s.Records() {
		require.NoError(t, err)
		require.Equal(t, s.Schema().NumFields(), r.NumCols())
		recs = append(recs, r)
	}
	out := map[string]string{}
	for i, f := range s.Schema().Fields() {
		var parts []array.Array
		for _, r := range recs {
			parts = append(parts, r.Column(i))
		}
		if len(parts) == 0 {
			out[f.Name] = "[]"
			continue
		}
		a, err := array.Concatenate(parts...)
		require.NoError(t, err)
		out[f.Name] = array.Format(a)
	}
	return out, s.Stats()
}

// where parses a filter expression.
func where(t testing.TB, text string) *expr.Expr {
	t.Helper()
	e, err := expr.Parse(text)
	require.NoError(t, err)
	return e
}
