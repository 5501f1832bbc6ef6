package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// A Parquet file whose ARROW:schema key no longer decodes is invalid:
// validate says so rather than reading the Parquet types.
func TestParquetCorruptSchemaKey(t *testing.T) {
	dir := t.TempDir()
	_, pq := writeParquet(t, dir)
	raw, err := os.ReadFile(pq)
	require.NoError(t, err)
	key := bytes.Index(raw, []byte("ARROW:schema"))
	require.Positive(t, key)
	val := bytes.Index(raw[key:], []byte("/////")) // the base64 continuation marker
	require.Positive(t, val)
	raw[key+val] = '*' // not base64
	bad := filepath.Join(dir, "bad.parquet")
	require.NoError(t, os.WriteFile(bad, raw, 0o644))
	code, _, errs := cli(t, nil, "validate", bad)
	require.Equal(t, exitInvalid, code, errs)
	require.Contains(t, errs, "ARROW:schema key")
}

// -level sets the Parquet codec's level; a level the codec lacks fails.
func TestParquetCompressionLevel(t *testing.T) {
	dir := t.TempDir()
	src, _ := writeParquet(t, dir)
	for _, level := range []string{"1", "19"} {
		out := filepath.Join(dir, "l"+level+".parquet")
		mustCLI(t, "convert", "-q", "-codec", "zstd", "-level", level, src, out)
		requireSameData(t, src, out)
	}
	code, _, errs := cli(t, nil, "convert", "-q", "-codec", "gzip", "-level", "12", src, filepath.Join(dir, "bad.parquet"))
	require.NotEqual(t, 0, code)
	require.Contains(t, errs, "compression level 12")
}

// The Parquet reader's limits are flags of the reading commands: a file
// whose pages exceed a lowered limit is refused naming it, and reads once
// the limit is raised again.
func TestParquetReaderLimitFlags(t *testing.T) {
	dir := t.TempDir()
	_, pq := writeParquet(t, dir)
	for _, cmd := range []string{"cat", "validate", "export"} {
		args := []string{cmd, "-max-page-size", "64", pq}
		if cmd == "export" {
			args = append(args, filepath.Join(dir, "o.csv"))
		}
		code, _, errs := cli(t, nil, args...)
		require.Equal(t, exitInvalid, code, "%s: %s", cmd, errs)
		require.Contains(t, errs, "limit 64", cmd)
	}
	require.Contains(t, mustCLI(t, "validate", "-max-page-size", "1000000", pq), "valid Parquet file")
}
