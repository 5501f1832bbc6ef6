package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParquetCommand(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.ipc")
	pq := filepath.Join(dir, "out.parquet")
	back := filepath.Join(dir, "back.ipc")
	cols := "bool,int32,float64,decimal128,date32,timestamp_us_utc,utf8,binary,list,struct,map,dictionary,list_of_dictionary,run_end_encoded"
	mustCLI(t, "gen", "-rows", "50", "-batches", "2", "-seed", "5", "-columns", cols, "-to", "file", "-o", in)
	mustCLI(t, "parquet", "from-ipc", "-codec", "zstd", "-rows", "20", in, pq)
	mustCLI(t, "parquet", "to-ipc", pq, back)
	requireSameData(t, in, back)

	schema := mustCLI(t, "parquet", "schema", pq)
	require.Contains(t, schema, "timestamp_us_utc: timestamp[us, tz=UTC]")
	info := mustCLI(t, "parquet", "info", pq)
	require.Contains(t, info, "rows: 50\nrow groups: 3\n")
	require.Contains(t, mustCLI(t, "parquet", "cat", pq), "record: 20 rows")

	// A type Parquet cannot hold: an error, and no output file.
	mustCLI(t, "gen", "-rows", "5", "-columns", "dense_union", "-to", "file", "-o", in)
	bad := filepath.Join(dir, "bad.parquet")
	code, _, errs := cli(t, nil, "parquet", "from-ipc", in, bad)
	require.Equal(t, 1, code)
	require.Contains(t, errs, "not supported")
	_, err := os.Stat(bad)
	require.True(t, os.IsNotExist(err), "a failed conversion left %s", bad)

	// Not a Parquet file.
	code, _, errs = cli(t, nil, "parquet", "cat", in)
	require.Equal(t, 1, code)
	require.True(t, strings.Contains(errs, "PAR1"), errs)

	code, _, _ = cli(t, nil, "parquet", "nonsense", pq)
	require.Equal(t, 2, code)
}
