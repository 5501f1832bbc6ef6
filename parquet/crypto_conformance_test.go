package parquet

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
)

// The keys of parquet-testing's encrypted files (data/README.md; the
// README lists them as the digits of these ASCII strings), by key id.
var testingKeys = map[string][]byte{
	"kf":  []byte("0123456789012345"),
	"kc1": []byte("1234567890123450"),
	"kc2": []byte("1234567890123451"),
}

func testingRetriever(km []byte) ([]byte, error) {
	if k, ok := testingKeys[string(km)]; ok {
		return k, nil
	}
	return nil, fmt.Errorf("no key %q", km)
}

// readEncrypted reads a file of parquet-testing with these options; it
// skips the test when the directory is absent.
func readEncrypted(t *testing.T, name string, d FileDecryption, opts ...Option) ([]*alkaid.Record, error) {
	t.Helper()
	f, err := OpenFile(filepath.Join(testingDir, name), WithDecryption(d))
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("../shared/conformance/parquet-testing is absent")
	}
	if err != nil {
		return nil, err
	}
	return readAll(f, opts...)
}

// checkArrowTestData checks the rows of the files Arrow C++ and
// parquet-mr encrypt in their tests: row i holds i%2 == 0, i, the list
// [2i, 2i+1]·10¹², float32(i)·1.1, i·1.1111111, "parquet%03d" on even
// rows (null on odd ones) and ten bytes of i.
func checkArrowTestData(t *testing.T, name string, recs []*alkaid.Record) {
	t.Helper()
	if len(recs) != 1 || recs[0].NumRows() != 50 {
		t.Fatalf("%s: %d records", name, len(recs))
	}
	r := recs[0]
	col := func(n string) array.Array {
		for i := range r.NumCols() {
			if r.ColumnName(i) == n {
				return r.Column(i)
			}
		}
		t.Fatalf("%s: no column %s", name, n)
		return nil
	}
	// int32_field is annotated TIME_MILLIS (read as time32[ms]): its
	// counts are compared, not its printed time of day.
	b, i32 := col("boolean_field").(*array.Boolean), array.Values[int32](col("int32_field").Data())
	f32, f64 := col("float_field").(*array.Primitive[float32]), col("double_field").(*array.Primitive[float64])
	ba, fl, l := col("ba_field").(*array.Binary[int32]), col("flba_field"), col("int64_field")
	for i := range 50 {
		want := []string{fmt.Sprint(i%2 == 0), fmt.Sprint(i), fmt.Sprintf("[%d %d]", 2*int64(i)*1e12, (2*int64(i)+1)*1e12)}
		got := []string{fmt.Sprint(b.Value(i)), fmt.Sprint(i32[i]), array.FormatValue(l, i)}
		for k := range want {
			if got[k] != want[k] {
				t.Fatalf("%s row %d: %s, want %s", name, i, got[k], want[k])
			}
		}
		if f32.Value(i) != float32(i)*1.1 || f64.Value(i) != float64(i)*1.1111111 {
			t.Fatalf("%s row %d: floats %v %v", name, i, f32.Value(i), f64.Value(i))
		}
		if i%2 == 0 && string(ba.Value(i)) != fmt.Sprintf("parquet%03d", i) || i%2 == 1 && !ba.IsNull(i) {
			t.Fatalf("%s row %d: ba_field %s", name, i, array.FormatValue(ba, i))
		}
		if array.FormatValue(fl, i) != fmt.Sprintf("%q", strings.Repeat(string(rune(i)), 10)) {
			t.Fatalf("%s row %d: flba_field %s", name, i, array.FormatValue(fl, i))
		}
	}
}

// arrowTestDataColumns are the columns of Arrow's encryption test files
// but their INT96 one.
var arrowTestDataColumns = []string{"boolean_field", "int32_field", "float_field", "double_field", "ba_field", "flba_field", "int64_field"}

// Every encrypted file of parquet-testing, read with its keys (given
// directly or through a key retriever) and its values checked.
func TestConformanceEncrypted(t *testing.T) {
	byID := FileDecryption{KeyRetriever: testingRetriever}
	direct := FileDecryption{FooterKey: testingKeys["kf"], ColumnKeys: map[string][]byte{"double_field": testingKeys["kc1"], "float_field": testingKeys["kc2"]}}
	for _, c := range []struct {
		name string
		aad  string
	}{
		{"encrypt_columns_and_footer.parquet.encrypted", ""},
		{"encrypt_columns_and_footer_aad.parquet.encrypted", ""},
		{"encrypt_columns_and_footer_ctr.parquet.encrypted", ""},
		{"encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", "tester"},
		{"encrypt_columns_plaintext_footer.parquet.encrypted", ""},
		{"uniform_encryption.parquet.encrypted", ""},
	} {
		for _, d := range []FileDecryption{byID, direct} {
			d.AADPrefix = []byte(c.aad)
			recs, err := readEncrypted(t, c.name, d, WithColumns(arrowTestDataColumns...))
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			checkArrowTestData(t, c.name, recs)
			// Its INT96 column holds Julian days 0 to 49 (4713 BC), which
			// timestamp[ns] cannot hold: refused, not wrapped into 1677.
			_, err = readEncrypted(t, c.name, d, WithColumns("int96_field"))
			if !errors.Is(err, ErrNotSupported) || !strings.Contains(err.Error(), "outside timestamp[ns]'s range") {
				t.Fatalf("%s: int96_field read with %v, want the range refused", c.name, err)
			}
		}
	}
	recs, err := readEncrypted(t, "encrypt_columns_and_footer_bloom_filter.parquet.encrypted", byID)
	if err != nil {
		t.Fatal(err)
	}
	r := recs[0]
	for i := range r.NumRows() {
		d, f := r.Column(0).(*array.Primitive[float64]).Value(i), r.Column(1).(*array.Primitive[float32]).Value(i)
		if d != float64(i)+0.5 || f != float32(i)+0.25 || array.FormatValue(r.Column(3), i) != fmt.Sprintf("%q", fmt.Sprintf("name_%d", i)) {
			t.Fatalf("bloom filter file row %d: %v %v %s", i, d, f, array.FormatValue(r.Column(3), i))
		}
	}
	if r.NumRows() != 2000 {
		t.Fatalf("bloom filter file: %d rows", r.NumRows())
	}
}

// Wrong or missing keys and AAD prefixes are authentication errors that
// name what failed; a plaintext footer's unencrypted columns read
// without keys.
func TestConformanceEncryptedRefusals(t *testing.T) {
	wrong := []byte("0000000000000000")
	for _, c := range []struct {
		name, file string
		d          FileDecryption
		cols       []string
		errHas     string
	}{
		{"no keys", "encrypt_columns_and_footer.parquet.encrypted", FileDecryption{}, nil, "no footer key"},
		{"wrong footer key", "encrypt_columns_and_footer.parquet.encrypted", FileDecryption{FooterKey: wrong}, nil, "footer"},
		{"wrong column key", "encrypt_columns_and_footer.parquet.encrypted",
			FileDecryption{FooterKey: testingKeys["kf"], ColumnKeys: map[string][]byte{"double_field": wrong, "float_field": testingKeys["kc2"]}}, nil, `column "double_field"`},
		{"missing column key", "encrypt_columns_and_footer.parquet.encrypted", FileDecryption{FooterKey: testingKeys["kf"]}, nil, `_field": no key for the column`},
		{"no AAD prefix", "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", FileDecryption{KeyRetriever: testingRetriever}, nil, "AAD prefix"},
		{"wrong AAD prefix", "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", FileDecryption{KeyRetriever: testingRetriever, AADPrefix: []byte("other")}, nil, "footer"},
		{"AAD prefix unlike the stored one", "encrypt_columns_and_footer_aad.parquet.encrypted", FileDecryption{KeyRetriever: testingRetriever, AADPrefix: []byte("other")}, nil, "AAD prefix"},
		{"wrong footer key, plaintext footer", "encrypt_columns_plaintext_footer.parquet.encrypted", FileDecryption{FooterKey: wrong}, nil, "signature"},
		{"plaintext footer, no keys, encrypted column", "encrypt_columns_plaintext_footer.parquet.encrypted", FileDecryption{}, []string{"double_field"}, `"double_field": no key`},
	} {
		_, err := readEncrypted(t, c.file, c.d, WithColumns(c.cols...))
		if c.cols == nil {
			_, err = readEncrypted(t, c.file, c.d)
		}
		if !errors.Is(err, ErrAuthentication) || !errors.Is(err, ErrInvalid) || !strings.Contains(fmt.Sprint(err), c.errHas) {
			t.Errorf("%s: %v, want ErrAuthentication naming %q", c.name, err, c.errHas)
		}
	}
	// The plaintext columns of a file in plaintext footer mode read
	// without any key.
	recs, err := readEncrypted(t, "encrypt_columns_plaintext_footer.parquet.encrypted", FileDecryption{}, WithColumns("int32_field", "ba_field"))
	if err != nil {
		t.Fatal(err)
	}
	if got := array.FormatValue(recs[0].Column(1), 48); got != `"parquet048"` {
		t.Errorf("ba_field row 48: %s", got)
	}
}

// externalKeyRetriever finds the keys of a file of parquet-mr's key tools
// with external key material (double wrapping): the key metadata names an
// entry of the key material file, whose data key is wrapped by a key
// encryption key, itself wrapped by a master key of the test KMS. This is
// the caller's side of KeyRetriever; the package has no KMS.
func externalKeyRetriever(t *testing.T, material []byte) KeyRetriever {
	var entries map[string]string
	if err := json.Unmarshal(material, &entries); err != nil {
		t.Fatal(err)
	}
	unwrap := func(key, wrapped, aad []byte) ([]byte, error) {
		b, err := aes.NewCipher(key)
		if err != nil {
			return nil, err
		}
		g, err := cipher.NewGCM(b)
		if err != nil || len(wrapped) < 12 {
			return nil, fmt.Errorf("wrapped key of %d bytes", len(wrapped))
		}
		return g.Open(nil, wrapped[:12], wrapped[12:], aad)
	}
	return func(km []byte) ([]byte, error) {
		var ref struct{ KeyReference string }
		if err := json.Unmarshal(km, &ref); err != nil {
			return nil, err
		}
		var m struct{ MasterKeyID, WrappedDEK, WrappedKEK, KeyEncryptionKeyID string }
		if err := json.Unmarshal([]byte(entries[ref.KeyReference]), &m); err != nil {
			return nil, err
		}
		dec := func(s string) []byte { b, _ := base64.StdEncoding.DecodeString(s); return b }
		kek, err := unwrap(testingKeys[m.MasterKeyID], dec(m.WrappedKEK), []byte(m.MasterKeyID))
		if err != nil {
			return nil, err
		}
		return unwrap(kek, dec(m.WrappedDEK), dec(m.KeyEncryptionKeyID))
	}
}

func TestConformanceEncryptedExternalKeyMaterial(t *testing.T) {
	material, err := os.ReadFile(filepath.Join(testingDir, "_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json"))
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("../shared/conformance/parquet-testing is absent")
	}
	if err != nil {
		t.Fatal(err)
	}
	recs, err := readEncrypted(t, "external_key_material_java.parquet.encrypted", FileDecryption{KeyRetriever: externalKeyRetriever(t, material)})
	if err != nil {
		t.Fatal(err)
	}
	// 100 rows: i, and a letter (a to j by the last digit) then i.
	r := recs[0]
	if len(recs) != 1 || r.NumRows() != 100 {
		t.Fatalf("%d records", len(recs))
	}
	for i := range 100 {
		if got, want := array.FormatValue(r.Column(0), i)+" "+array.FormatValue(r.Column(1), i), fmt.Sprintf("%d \"%c%d\"", i, 'a'+i%10, i); got != want {
			t.Fatalf("row %d: %s, want %s", i, got, want)
		}
	}
}
