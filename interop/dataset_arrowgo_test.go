package interop

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/dataset"
	"github.com/alkaid-go/alkaid/parquet"
)

// TestDatasetAlkaidToArrowGo writes a Hive-partitioned dataset with the
// dataset package and reads every file with arrow-go's pqarrow, taking
// the partition values from the path: every row equals the source's.
func TestDatasetAlkaidToArrowGo(t *testing.T) {
	rec := datasetSample(t)
	root := t.TempDir()
	files, err := dataset.Write(context.Background(), dataset.DirFS(root), "ours", oneRecord{rec},
		dataset.WithPartitionBy("year", "city"), dataset.WithMaxRowsPerFile(10),
		dataset.WithParquetOptions(parquet.WithCompression(parquet.Zstd, 0)))
	require.NoError(t, err)

	want := map[string][]any{} // id -> the row in JSON form
	for i := range rec.NumRows() {
		var row []any
		for c := range rec.NumCols() {
			row = append(row, jsonValue(t, rec.Column(c), i))
		}
		want[row[0].(string)] = row
	}
	got := map[string][]any{}
	for _, name := range files {
		part := map[string]any{}
		for _, seg := range strings.Split(filepath.ToSlash(filepath.Dir(name)), "/")[1:] {
			k, v, ok := strings.Cut(seg, "=")
			require.True(t, ok, name)
			if v == dataset.HiveNull {
				part[k] = nil
				continue
			}
			v, err := url.PathUnescape(v)
			require.NoError(t, err)
			part[k] = v
		}
		f, err := os.Open(filepath.Join(root, name))
		require.NoError(t, err)
		tbl, err := pqarrow.ReadTable(context.Background(), f, nil, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
		f.Close()
		require.NoError(t, err)
		cols := map[string]*aarrow.Chunked{}
		for i, fld := range tbl.Schema().Fields() {
			cols[fld.Name] = tbl.Column(i).Data()
		}
		require.Len(t, cols, 3, "id, amount and note: the partition columns are not in the files")
		for r := range int(tbl.NumRows()) {
			at := func(name string) (aarrow.Array, int) {
				k := r
				for _, c := range cols[name].Chunks() {
					if k < c.Len() {
						return c, k
					}
					k -= c.Len()
				}
				t.Fatalf("row %d out of range", r)
				return nil, 0
			}
			idA, i := at("id")
			id := strconv.FormatInt(idA.(*aarray.Int64).Value(i), 10)
			amA, j := at("amount")
			var amount any
			if amA.IsValid(j) {
				amount = amA.(*aarray.Float64).Value(j)
			}
			noA, k := at("note")
			got[id] = []any{id, part["year"], part["city"], amount, noA.(*aarray.String).Value(k)}
		}
		tbl.Release()
	}
	require.Equal(t, want, got)
}
