package interop

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	aparquet "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet"
)

// Parquet modular encryption between Alkaid and arrow-go's pqarrow, both
// ways, over the algorithms, footer modes and key layouts: files one
// writes with keys, the other reads with the same keys.

var (
	cryptFooterKey = []byte("0123456789012345")
	cryptColKey    = []byte("abcdefghijklmnopabcdefghijklmnop") // AES-256
)

type cryptCase struct {
	alg       parquet.Algorithm
	plaintext bool // plaintext (signed) footer
	columnKey bool // "s" of its own key, the others plaintext; else all with the footer key
}

func cryptCases() []cryptCase {
	var out []cryptCase
	for _, alg := range []parquet.Algorithm{parquet.AESGCM, parquet.AESGCMCTR} {
		for _, pt := range []bool{false, true} {
			for _, ck := range []bool{false, true} {
				out = append(out, cryptCase{alg, pt, ck})
			}
		}
	}
	return out
}

func (c cryptCase) String() string {
	return fmt.Sprintf("%s/plaintext-footer=%v/column-key=%v", c.alg, c.plaintext, c.columnKey)
}

func cryptSchema() *alkaid.Schema {
	return alkaid.NewSchema([]datatype.Field{
		{Name: "i", Type: datatype.Int64, Nullable: true},
		{Name: "s", Type: datatype.String, Nullable: true},
		{Name: "l", Type: datatype.ListOf(datatype.Int32), Nullable: true},
		{Name: "d", Type: datatype.Float64},
	}, datatype.Metadata{})
}

// requireSameColumns compares every column of two record lists value by
// value.
func requireSameColumns(t *testing.T, want, got []*alkaid.Record) {
	t.Helper()
	for c := range want[0].NumCols() {
		var w, g []string
		for _, r := range want {
			for i := range r.NumRows() {
				w = append(w, array.FormatValue(r.Column(c), i))
			}
		}
		for _, r := range got {
			for i := range r.NumRows() {
				g = append(g, array.FormatValue(r.Column(c), i))
			}
		}
		require.Equal(t, strings.Join(w, "\n"), strings.Join(g, "\n"), "column %s", want[0].ColumnName(c))
	}
}

func TestParquetEncryptedAlkaidToPqarrow(t *testing.T) {
	s := cryptSchema()
	recs := alkaidBatches(s, interopSeed, true)
	for _, c := range cryptCases() {
		t.Run(c.String(), func(t *testing.T) {
			e := parquet.FileEncryption{Algorithm: c.alg, FooterKey: cryptFooterKey, PlaintextFooter: c.plaintext, AADPrefix: []byte("alkaid")}
			if c.columnKey {
				e.ColumnKeys = map[string]parquet.ColumnKey{"s": {Key: cryptColKey}}
			}
			var buf bytes.Buffer
			w, err := parquet.NewWriter(&buf, s, parquet.WithEncryption(e), parquet.WithRowGroupRows(64))
			require.NoError(t, err)
			for _, r := range recs {
				require.NoError(t, w.Write(r))
			}
			require.NoError(t, w.Close())

			rp := aparquet.NewReaderProperties(memory.DefaultAllocator)
			rp.FileDecryptProps = aparquet.NewFileDecryptionProperties(aparquet.WithFooterKey(string(cryptFooterKey)),
				aparquet.WithColumnKeys(aparquet.ColumnPathToDecryptionPropsMap{
					"s": aparquet.NewColumnDecryptionProperties("s", aparquet.WithDecryptKey(string(cryptColKey)))}))
			tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(buf.Bytes()), rp,
				pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
			require.NoError(t, err)
			defer tbl.Release()
			_, got := readAlkaid(t, tableStream(t, tbl), false)
			requireSameColumns(t, recs, got)
		})
	}
}

func TestParquetEncryptedPqarrowToAlkaid(t *testing.T) {
	s := cryptSchema()
	recs := alkaidBatches(s, interopSeed, true)
	tbl := arrowGoTable(t, writeAlkaid(t, s, recs, false))
	defer tbl.Release()
	for _, c := range cryptCases() {
		t.Run(c.String(), func(t *testing.T) {
			opts := []aparquet.EncryptOption{aparquet.WithAadPrefix("arrow-go")}
			if c.alg == parquet.AESGCMCTR {
				opts = append(opts, aparquet.WithAlg(aparquet.AesCtr))
			}
			if c.plaintext {
				opts = append(opts, aparquet.WithPlaintextFooter())
			}
			if c.columnKey {
				opts = append(opts, aparquet.WithEncryptedColumns(aparquet.ColumnPathToEncryptionPropsMap{
					"s": aparquet.NewColumnEncryptionProperties("s", aparquet.WithKey(string(cryptColKey)), aparquet.WithKeyID("kc"))}))
			}
			props := aparquet.NewWriterProperties(aparquet.WithMaxRowGroupLength(64),
				aparquet.WithEncryptionProperties(aparquet.NewFileEncryptionProperties(string(cryptFooterKey), opts...)))
			var buf bytes.Buffer
			require.NoError(t, pqarrow.WriteTable(tbl, &buf, 50, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema())))

			if c.alg == parquet.AESGCMCTR && c.plaintext {
				// pqarrow labels a plaintext footer AES_GCM_V1 (the
				// signature's algorithm) though its pages are AES-CTR:
				// the file says its pages are authenticated and they
				// are not. pqarrow cannot read it back either.
				rp := aparquet.NewReaderProperties(memory.DefaultAllocator)
				rp.FileDecryptProps = aparquet.NewFileDecryptionProperties(aparquet.WithFooterKey(string(cryptFooterKey)),
					aparquet.WithColumnKeys(aparquet.ColumnPathToDecryptionPropsMap{
						"s": aparquet.NewColumnDecryptionProperties("s", aparquet.WithDecryptKey(string(cryptColKey)))}))
				_, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(buf.Bytes()), rp, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
				require.ErrorContains(t, err, "authentication failed", "pqarrow now reads its CTR files of plaintext footers")
				pf, err := parquet.NewFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()),
					parquet.WithDecryption(parquet.FileDecryption{FooterKey: cryptFooterKey, ColumnKeys: map[string][]byte{"s": cryptColKey}}))
				if err == nil {
					_, err = pqRecords(pf)
				}
				require.ErrorIs(t, err, parquet.ErrAuthentication)
				return
			}
			// The column key by path, or found from its key id.
			for _, d := range []parquet.FileDecryption{
				{FooterKey: cryptFooterKey, ColumnKeys: map[string][]byte{"s": cryptColKey}},
				{FooterKey: cryptFooterKey, KeyRetriever: func(km []byte) ([]byte, error) {
					if string(km) == "kc" {
						return cryptColKey, nil
					}
					return nil, fmt.Errorf("no key %q", km)
				}},
			} {
				pf, err := parquet.NewFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()), parquet.WithDecryption(d))
				require.NoError(t, err)
				got, err := pqRecords(pf)
				require.NoError(t, err)
				requireSameColumns(t, recs, got)
			}
		})
	}
}
