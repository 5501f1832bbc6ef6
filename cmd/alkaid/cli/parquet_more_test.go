package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet"
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
	require.Contains(t, errs, "WithCompression(GZIP, 12): level outside")
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

// Encryption flags: convert encrypts a Parquet output with -footer-key
// and -column-key; the reading commands need the keys to read it, and
// fail naming the column without them.
func TestParquetEncryptionFlags(t *testing.T) {
	dir := t.TempDir()
	src, _ := writeParquet(t, dir)
	enc := filepath.Join(dir, "enc.parquet")
	const fk, ck = "000102030405060708090a0b0c0d0e0f", "0f0e0d0c0b0a09080706050403020100"
	keys := []string{"-footer-key", fk, "-column-key", "utf8=" + ck, "-aad-prefix", "enc.parquet"}
	mustCLI(t, append(append([]string{"convert", "-q"}, keys...), src, enc)...)
	raw, err := os.ReadFile(enc)
	require.NoError(t, err)
	require.Equal(t, "PARE", string(raw[:4]))
	require.Contains(t, mustCLI(t, append(append([]string{"validate"}, keys...), enc)...), "valid Parquet file")
	require.Contains(t, mustCLI(t, append(append([]string{"info"}, keys...), enc)...), "format:         Parquet (magic PARE), encrypted: AES_GCM_V1, encrypted footer\n")
	back := filepath.Join(dir, "back.ipc")
	mustCLI(t, append(append([]string{"convert", "-q"}, keys...), enc, back)...)
	requireSameData(t, src, back)
	// A directory holding it is a dataset read with the same keys.
	ds := filepath.Join(dir, "ds")
	require.NoError(t, os.MkdirAll(ds, 0o777))
	require.NoError(t, os.WriteFile(filepath.Join(ds, "enc.parquet"), raw, 0o666))
	backDS := filepath.Join(dir, "back_ds.ipc")
	mustCLI(t, append(append([]string{"convert", "-q"}, keys...), ds, backDS)...)
	requireSameData(t, src, backDS)

	code, _, errs := cli(t, nil, "cat", enc)
	require.Equal(t, exitInvalid, code)
	require.Contains(t, errs, "no footer key")
	code, _, errs = cli(t, nil, "cat", "-footer-key", fk, enc)
	require.Equal(t, exitInvalid, code)
	require.Contains(t, errs, `column "utf8": no key`)
	code, _, errs = cli(t, nil, "validate", "-footer-key", fk, "-column-key", "utf8="+fk, "-aad-prefix", "enc.parquet", enc)
	require.Equal(t, exitInvalid, code)
	require.Contains(t, errs, "authentication failed")
	code, _, _ = cli(t, nil, "cat", "-footer-key", "xyz", enc)
	require.Equal(t, exitUsage, code)
	code, _, _ = cli(t, nil, "convert", "-q", "-column-key", "utf8="+ck, src, filepath.Join(dir, "x.parquet"))
	require.Equal(t, exitUsage, code)
}

// -max-compression-ratio bounds what a read decodes against the file's
// size: a small file of one long string repeated (a dictionary page and
// indices) is refused at ratio 1 naming the limit, and reads at the
// default.
func TestParquetMaxCompressionRatioFlag(t *testing.T) {
	dir := t.TempDir()
	dt, err := datatype.NewDictionary(datatype.Int32, datatype.String, false)
	require.NoError(t, err)
	const rows = 700
	idx := make([]string, rows)
	for i := range idx {
		idx[i] = "0"
	}
	long := strings.Repeat("z", 100<<10) // 70 MiB decoded, more than 64 MiB
	dict, err := array.NewDictionaryArray(dt, arrayjson.MustParse(datatype.Int32, "["+strings.Join(idx, ",")+"]"),
		arrayjson.MustParse(datatype.String, `["`+long+`"]`))
	require.NoError(t, err)
	s := alkaid.NewSchema([]datatype.Field{{Name: "s", Type: dt}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{dict}, rows)
	require.NoError(t, err)
	var buf bytes.Buffer
	w, err := parquet.NewWriter(&buf, s, parquet.WithoutStoredSchema()) // read as utf8
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	pq := filepath.Join(dir, "long.parquet")
	require.NoError(t, os.WriteFile(pq, buf.Bytes(), 0o644))
	require.Less(t, buf.Len(), 1<<20)

	code, _, errs := cli(t, nil, "validate", "-max-compression-ratio", "1", pq)
	require.Equal(t, exitInvalid, code, errs)
	require.Contains(t, errs, "MaxCompressionRatio")
	require.Contains(t, mustCLI(t, "validate", pq), "valid Parquet file")
}
