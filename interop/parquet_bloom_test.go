package interop

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet"
)

// TestParquetBloomFilterDuckDB probes the bloom filters our writer makes
// with DuckDB (parquet_bloom_probe): a value of a row group is never
// excluded from it, and absent values mostly are.
func TestParquetBloomFilterDuckDB(t *testing.T) {
	node, script := pqNode(t, true)
	const n, groupRows = 4000, 1000
	s := alkaid.NewSchema([]datatype.Field{{Name: "v", Type: datatype.Int64}}, datatype.Metadata{})
	b := array.NewPrimitiveBuilder[int64](datatype.Int64)
	for i := range n {
		b.Append(int64(i) * 2) // even values: odd ones are absent
	}
	rec, err := alkaid.NewRecord(s, []array.Array{b.Finish()}, n)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "bloom.parquet")
	out, err := os.Create(path)
	require.NoError(t, err)
	w, err := parquet.NewWriter(out, s, parquet.WithRowGroupRows(groupRows), parquet.WithBloomFilter("v"))
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	require.NoError(t, out.Close())

	var values []string
	for i := range 200 {
		values = append(values, strconv.Itoa(i*40))   // present, in row group i*40/2/1000
		values = append(values, strconv.Itoa(i*40+1)) // absent
	}
	var got map[string][]bool
	require.NoError(t, json.Unmarshal(runJSPeer(t, node, script, append([]string{"duckdb-bloom", path, "v"}, values...)...), &got))
	excludedAbsent := 0
	for i := range 200 {
		present, absent := got[strconv.Itoa(i*40)], got[strconv.Itoa(i*40+1)]
		require.Len(t, present, n/groupRows)
		require.False(t, present[i*40/2/groupRows], "value %d excluded from its row group", i*40)
		for _, x := range absent {
			if x {
				excludedAbsent++
			}
		}
	}
	t.Logf("DuckDB excluded %d of 800 probes of absent values", excludedAbsent)
	// 800 probes of absent values at a 1% false-positive rate.
	require.Greater(t, excludedAbsent, 700, "DuckDB excluded %d of 800 absent probes", excludedAbsent)
}
