package interop

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	aparquet "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/parquet"
)

// TestParquetTestingEncryptedPqarrow reads parquet-testing's encrypted
// files (parquet-mr's and Arrow C++'s) with the keys their README gives,
// with Alkaid and with arrow-go's pqarrow, and compares every column.
// external_key_material_java.parquet.encrypted needs parquet-mr's key
// tools, which pqarrow has no counterpart of; parquet/crypto_conformance_test.go
// reads it.
func TestParquetTestingEncryptedPqarrow(t *testing.T) {
	dir := "../../shared/conformance/parquet-testing/data"
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent (../shared is missing in a fresh clone)", dir)
	}
	const footer, col1, col2 = "0123456789012345", "1234567890123450", "1234567890123451"
	for _, c := range []struct {
		name, aad  string
		pqarrowErr string // what pqarrow fails with
	}{
		{"encrypt_columns_and_footer.parquet.encrypted", "", ""},
		{"encrypt_columns_and_footer_aad.parquet.encrypted", "", ""},
		// pqarrow fails on it ("decrypting data page: encrypted payload
		// length prefix is 2773615297, available length is 7564");
		// parquet/crypto_conformance_test.go checks Alkaid's values
		// against those the file was made of.
		{"encrypt_columns_and_footer_bloom_filter.parquet.encrypted", "", "encrypted payload length prefix"},
		{"encrypt_columns_and_footer_ctr.parquet.encrypted", "", ""},
		{"encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", "tester", ""},
		{"encrypt_columns_plaintext_footer.parquet.encrypted", "", ""},
		{"uniform_encryption.parquet.encrypted", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name)
			opts := []aparquet.FileDecryptionOption{aparquet.WithFooterKey(footer),
				aparquet.WithColumnKeys(aparquet.ColumnPathToDecryptionPropsMap{
					"double_field": aparquet.NewColumnDecryptionProperties("double_field", aparquet.WithDecryptKey(col1)),
					"float_field":  aparquet.NewColumnDecryptionProperties("float_field", aparquet.WithDecryptKey(col2))})}
			if c.aad != "" {
				opts = append(opts, aparquet.WithDecryptAadPrefix(c.aad))
			}
			rp := aparquet.NewReaderProperties(memory.DefaultAllocator)
			rp.FileDecryptProps = aparquet.NewFileDecryptionProperties(opts...)
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			rdr, err := file.NewParquetReader(bytes.NewReader(b), file.WithReadProps(rp))
			require.NoError(t, err)
			defer rdr.Close()
			fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
			require.NoError(t, err)
			// The INT96 column holds Julian day 3i: pqarrow refuses such
			// timestamps (outside the nanosecond range); it is left out.
			var leaves []int
			var names []string
			for i := range rdr.MetaData().Schema.NumColumns() {
				if name := rdr.MetaData().Schema.Column(i).Name(); name != "int96_field" {
					leaves = append(leaves, i)
					names = append(names, name)
				}
			}
			groups := make([]int, rdr.NumRowGroups())
			for i := range groups {
				groups[i] = i
			}
			tbl, err := fr.ReadRowGroups(context.Background(), leaves, groups)
			if c.pqarrowErr != "" {
				require.ErrorContains(t, err, c.pqarrowErr, "pqarrow now reads %s: compare it", c.name)
				return
			}
			require.NoError(t, err)
			defer tbl.Release()
			_, want := readAlkaid(t, tableStream(t, tbl), false)

			f, err := parquet.OpenFile(path, parquet.WithDecryption(parquet.FileDecryption{
				FooterKey:  []byte(footer),
				ColumnKeys: map[string][]byte{"double_field": []byte(col1), "float_field": []byte(col2)},
				AADPrefix:  []byte(c.aad)}), parquet.WithColumns(names...))
			require.NoError(t, err)
			defer f.Close()
			got, err := pqRecords(f)
			require.NoError(t, err)
			require.Equal(t, f.NumRows(), tbl.NumRows())
			requireSameColumns(t, want, got)
		})
	}
}
