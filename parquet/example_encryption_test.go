package parquet_test

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet"
)

// A file whose footer and "ssn" column are encrypted with keys of their
// own, read with a key retriever that knows the key ids the writer
// stored; a wrong key is an authentication error.
func ExampleWithEncryption() {
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "name", Type: datatype.String},
		{Name: "ssn", Type: datatype.String},
	}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(s, []array.Array{
		arrayjson.MustParse(datatype.String, `["ada", "alan"]`),
		arrayjson.MustParse(datatype.String, `["078-05-1120", "219-09-9999"]`),
	}, 2)
	keys := map[string][]byte{"footer-1": []byte("0123456789abcdef"), "ssn-1": []byte("fedcba9876543210")}

	var buf bytes.Buffer
	w, _ := parquet.NewWriter(&buf, s, parquet.WithEncryption(parquet.FileEncryption{
		FooterKey: keys["footer-1"], FooterKeyMetadata: []byte("footer-1"),
		ColumnKeys: map[string]parquet.ColumnKey{"ssn": {Key: keys["ssn-1"], KeyMetadata: []byte("ssn-1")}},
	}))
	_ = w.Write(rec)
	_ = w.Close()

	retrieve := func(id []byte) ([]byte, error) {
		if k, ok := keys[string(id)]; ok {
			return k, nil
		}
		return nil, fmt.Errorf("unknown key %q", id)
	}
	f, _ := parquet.NewFileBytes(buf.Bytes(), parquet.WithDecryption(parquet.FileDecryption{KeyRetriever: retrieve}))
	got, _ := alkaid.ReadAll(f)
	fmt.Println(got.Column(1).Chunks()[0])

	_, err := parquet.NewFileBytes(buf.Bytes(), parquet.WithDecryption(parquet.FileDecryption{
		FooterKey: keys["footer-1"], ColumnKeys: map[string][]byte{"ssn": keys["footer-1"]}}))
	fmt.Println(errors.Is(err, parquet.ErrAuthentication), err)
	// Output:
	// ["078-05-1120" "219-09-9999"]
	// true parquet: authentication failed: row group 0 column "ssn": column metadata: decryption failed (wrong key or changed bytes)
}
