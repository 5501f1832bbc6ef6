package parquet

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

var (
	key128 = []byte("0123456789abcdef")
	key256 = []byte("0123456789abcdef0123456789abcdef")
	keyCol = []byte("fedcba9876543210")
)

// Files written with every combination of the encryption options read
// back with the same keys, equal to what was written.
func TestEncryptionRoundTrip(t *testing.T) {
	s, _ := parquetTypes()
	rec := randRecord(s, 300)
	plain := writeFile(t, []*alkaid.Record{rec})
	pf, err := NewFileBytes(plain)
	if err != nil {
		t.Fatal(err)
	}
	// Two leaves of their own keys: a top-level one and a nested one.
	own := []string{pathString(pf.leaves[0].path), pathString(pf.leaves[len(pf.leaves)-1].path)}
	for _, alg := range []Algorithm{AESGCM, AESGCMCTR} {
		for _, footer := range []bool{false, true} {
			for _, keys := range []string{"uniform", "columns"} {
				for _, aad := range []string{"", "stored", "supplied"} {
					name := fmt.Sprintf("%s/plaintext-footer=%v/%s/aad=%s", alg, footer, keys, aad)
					t.Run(name, func(t *testing.T) {
						e := FileEncryption{Algorithm: alg, FooterKey: key256, FooterKeyMetadata: []byte("kf"), PlaintextFooter: footer}
						d := FileDecryption{FooterKey: key256}
						if keys == "columns" {
							e.ColumnKeys = map[string]ColumnKey{own[0]: {Key: keyCol, KeyMetadata: []byte("kc")}, own[1]: {Key: key128}}
							d.ColumnKeys = map[string][]byte{own[0]: keyCol, own[1]: key128}
						}
						if aad != "" {
							e.AADPrefix, e.DoNotStoreAADPrefix = []byte("file-7.parquet"), aad == "supplied"
						}
						if aad == "supplied" {
							d.AADPrefix = e.AADPrefix
						}
						data := writeFile(t, []*alkaid.Record{rec}, WithEncryption(e), WithRowGroupRows(128), WithPageSize(1024))
						if want := "PARE"; footer {
							want = "PAR1"
						} else if string(data[:4]) != want || string(data[len(data)-4:]) != want {
							t.Fatalf("magic %q", data[:4])
						}
						if bytes.Contains(data, []byte(s.Field(0).Name)) != footer {
							t.Errorf("field names readable in the footer: %v", !footer)
						}
						f, err := NewFileBytes(data, WithDecryption(d))
						if err != nil {
							t.Fatal(err)
						}
						got, err := readAll(f)
						if err != nil {
							t.Fatal(err)
						}
						sameRows(t, []*alkaid.Record{rec}, got)
						// The key metadata reaches a key retriever.
						if keys == "columns" {
							d.ColumnKeys = map[string][]byte{own[1]: key128}
							d.KeyRetriever = func(km []byte) ([]byte, error) {
								if string(km) == "kc" {
									return keyCol, nil
								}
								return nil, errors.New("unknown key")
							}
							f, err := NewFileBytes(data, WithDecryption(d))
							if err != nil {
								t.Fatal(err)
							}
							got, err := readAll(f)
							if err != nil {
								t.Fatal(err)
							}
							sameRows(t, []*alkaid.Record{rec}, got)
						}
					})
				}
			}
		}
	}
}

// Every byte changed in the pages and footer of a file encrypted with
// AES_GCM_V1 is an error (an authentication error naming the column, for
// page headers and pages), never other values; a wrong key is too.
func TestEncryptionTamper(t *testing.T) {
	all, _ := parquetTypes()
	s := alkaid.NewSchema(all.Fields()[:3], datatype.Metadata{})
	rec := randRecord(s, 40)
	data := writeFile(t, []*alkaid.Record{rec}, WithEncryption(FileEncryption{FooterKey: key128}))
	d := FileDecryption{FooterKey: key128}
	footerLen := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	var auth, other int
	for i := 4; i < len(data)-8; i++ {
		bad := bytes.Clone(data)
		bad[i] ^= 0x40
		f, err := NewFileBytes(bad, WithDecryption(d))
		var got []*alkaid.Record
		if err == nil {
			got, err = readAll(f)
		}
		switch {
		case err == nil && i >= len(data)-8-footerLen:
			// A change of the plaintext crypto metadata that does not
			// change its meaning: the same values.
			sameRows(t, []*alkaid.Record{rec}, got)
		case err == nil:
			t.Fatalf("byte %d changed: read without an error", i)
		case !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrNotSupported):
			t.Fatalf("byte %d changed: %v, want ErrInvalid", i, err)
		case errors.Is(err, ErrAuthentication):
			auth++
			if i < len(data)-8-footerLen && !strings.Contains(err.Error(), "column \"") {
				t.Fatalf("byte %d changed: %v names no column", i, err)
			}
		default:
			other++ // a module's length field, the footer's crypto metadata
		}
	}
	if auth < 10*other {
		t.Errorf("%d authentication errors, %d others", auth, other)
	}
	for _, k := range [][]byte{keyCol, key256} {
		if _, err := NewFileBytes(data, WithDecryption(FileDecryption{FooterKey: k})); !errors.Is(err, ErrAuthentication) {
			t.Errorf("wrong key of %d bytes: %v", len(k), err)
		}
	}
	// A column key given to a file whose column uses the footer key is
	// not needed; a column whose key is wrong is refused naming it.
	data = writeFile(t, []*alkaid.Record{rec}, WithEncryption(FileEncryption{FooterKey: key128,
		ColumnKeys: map[string]ColumnKey{s.Field(1).Name: {Key: keyCol}}}))
	f, err := NewFileBytes(data, WithDecryption(FileDecryption{FooterKey: key128, ColumnKeys: map[string][]byte{s.Field(1).Name: key128}}))
	if !errors.Is(err, ErrAuthentication) || !strings.Contains(fmt.Sprint(err), s.Field(1).Name) {
		t.Errorf("wrong column key: %v, %v", f, err)
	}
}

// Options that cannot be honoured fail in NewWriter.
func TestEncryptionOptionErrors(t *testing.T) {
	s, _ := parquetTypes()
	for _, e := range []FileEncryption{
		{FooterKey: []byte("short")},
		{FooterKey: key128, ColumnKeys: map[string]ColumnKey{"no such column": {Key: key128}}},
		{FooterKey: key128, ColumnKeys: map[string]ColumnKey{s.Field(0).Name: {Key: []byte("x")}}},
		{FooterKey: key128, Algorithm: 7},
	} {
		if _, err := NewWriter(&bytes.Buffer{}, s, WithEncryption(e)); err == nil {
			t.Errorf("%+v: no error", e)
		}
	}
	// Encrypted columns have no bloom filter: asking for one is refused.
	name := s.Field(0).Name
	_, err := NewWriter(&bytes.Buffer{}, s, WithBloomFilter(name), WithEncryption(FileEncryption{FooterKey: key128}))
	if !errors.Is(err, ErrNotSupported) {
		t.Errorf("bloom filter of an encrypted column: %v", err)
	}
	if _, err := NewWriter(&bytes.Buffer{}, s, WithBloomFilter(name), WithEncryption(FileEncryption{FooterKey: key128,
		ColumnKeys: map[string]ColumnKey{s.Field(1).Name: {Key: key128}}})); err != nil {
		t.Errorf("bloom filter of a plaintext column of an encrypted file: %v", err)
	}
}

// FuzzEncryptedFile reads whatever bytes it is given with the keys of its
// seeds: errors are fine, panics and hangs are not.
func FuzzEncryptedFile(f *testing.F) {
	own := map[string]ColumnKey{"s": {Key: keyCol, KeyMetadata: []byte("kc")}}
	f.Add(smallFile(WithEncryption(FileEncryption{FooterKey: key128})))
	f.Add(smallFile(WithEncryption(FileEncryption{FooterKey: key128, Algorithm: AESGCMCTR, ColumnKeys: own})))
	f.Add(smallFile(WithEncryption(FileEncryption{FooterKey: key128, PlaintextFooter: true, ColumnKeys: own, AADPrefix: []byte("p")})))
	f.Add(smallFile(WithDataPageV2(), WithPageCRC(true), WithEncryption(FileEncryption{FooterKey: key128, Algorithm: AESGCMCTR, PlaintextFooter: true})))
	d := FileDecryption{FooterKey: key128, ColumnKeys: map[string][]byte{"s": keyCol}}
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := DefaultLimits
		lim.MaxPageSize, lim.MaxPageValues, lim.MaxChunkValues = 1<<20, 1<<16, 1<<18
		pf, err := NewFileBytes(data, WithLimits(lim), WithDecryption(d))
		if err != nil {
			return
		}
		for r, err := range records(pf, WithBatchSize(2)) {
			if err != nil {
				break
			}
			_ = r.NumRows()
		}
	})
}

func TestFileEncryption(t *testing.T) {
	for _, c := range []struct {
		e    *FileEncryption
		want string
	}{
		{nil, ""},
		{&FileEncryption{FooterKey: key128}, "AES_GCM_V1, encrypted footer"},
		{&FileEncryption{FooterKey: key128, Algorithm: AESGCMCTR, PlaintextFooter: true}, "AES_GCM_CTR_V1, plaintext footer (signed)"},
	} {
		var opts []Option
		if c.e != nil {
			opts = append(opts, WithEncryption(*c.e))
		}
		f, err := NewFileBytes(smallFile(opts...), WithDecryption(FileDecryption{FooterKey: key128}))
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Encryption(); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
}
