package parquet

// Writing encrypted files: each encrypted chunk's pages sealed once
// encoded, column metadata sealed with column keys, and the footer
// encrypted or signed.

import (
	"crypto/rand"
	"encoding/binary"
	"hash/crc32"

	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

// FileEncryption says how a Writer encrypts a file (Parquet modular
// encryption). Keys are 16, 24 or 32 bytes (AES-128, -192, -256); key
// metadata is stored beside what it names, for readers to find the key
// with (e.g. a key id; see [KeyRetriever]).
type FileEncryption struct {
	// Algorithm is AESGCM (the default) or AESGCMCTR.
	Algorithm Algorithm
	// FooterKey encrypts the footer (or signs it, with PlaintextFooter)
	// and the columns without a key of their own.
	FooterKey         []byte
	FooterKeyMetadata []byte
	// ColumnKeys encrypts the columns named (dotted Parquet paths, e.g.
	// "a.list.element") with their own keys; the other columns are then
	// not encrypted. Without ColumnKeys every column is encrypted with
	// the footer key.
	ColumnKeys map[string]ColumnKey
	// PlaintextFooter leaves the footer readable by readers without
	// encryption support (the metadata of columns of their own keys
	// without statistics), signed with the footer key.
	PlaintextFooter bool
	// AADPrefix is bound into every module (e.g. a file name), so that
	// modules cannot be swapped between files; it is stored in the file
	// unless DoNotStoreAADPrefix, when readers must be given it.
	AADPrefix           []byte
	DoNotStoreAADPrefix bool
}

// ColumnKey is the key of one column and its key metadata.
type ColumnKey struct {
	Key         []byte
	KeyMetadata []byte
}

// fileEncryptor holds the state of a file being encrypted.
type fileEncryptor struct {
	cfg     FileEncryption
	aad     []byte // prefix and unique part
	unique  []byte
	footer  *cryptor
	columns []*cryptor // by leaf; nil: plaintext
	own     []bool     // the leaf has its own key
}

// newFileEncryptor checks the keys and column names against the leaves.
func newFileEncryptor(e *FileEncryption, leaves []*wleaf) (*fileEncryptor, error) {
	if e.Algorithm != AESGCM && e.Algorithm != AESGCMCTR {
		return nil, unsupportedf("encryption algorithm %d", e.Algorithm)
	}
	fe := &fileEncryptor{cfg: *e, unique: make([]byte, 8), columns: make([]*cryptor, len(leaves)), own: make([]bool, len(leaves))}
	rand.Read(fe.unique) // never fails (crypto/rand)
	fe.aad = append(append([]byte(nil), e.AADPrefix...), fe.unique...)
	var err error
	if fe.footer, err = newCryptor(e.FooterKey, e.Algorithm); err != nil {
		return nil, wrapf(err, "WithEncryption: footer key")
	}
	byPath := map[string]int{}
	for i, l := range leaves {
		byPath[pathString(l.path)] = i
		if len(e.ColumnKeys) == 0 {
			fe.columns[i] = fe.footer
		}
	}
	for path, k := range e.ColumnKeys {
		i, ok := byPath[path]
		if !ok {
			return nil, invalidf("WithEncryption: a key for column %q, which the schema does not have", path)
		}
		if fe.columns[i], err = newCryptor(k.Key, e.Algorithm); err != nil {
			return nil, wrapf(err, "WithEncryption: column %q key", path)
		}
		fe.own[i] = true
	}
	return fe, nil
}

// magic is the file's magic: PARE with an encrypted footer.
func (fe *fileEncryptor) magic() []byte {
	if fe.cfg.PlaintextFooter {
		return magic
	}
	return magicEnc
}

// sealChunk encrypts the pages of chunk col of row group g, laid out in
// pieces with cc's metadata (offsets from the chunk's start), and returns
// the new pieces.
func (fe *fileEncryptor) sealChunk(cc *format.ColumnChunk, pieces [][]byte, g, col int) ([][]byte, error) {
	c := fe.columns[col]
	for _, o := range []struct {
		what string
		v    int
	}{{"row group", g}, {"column", col}} {
		if err := checkOrdinal(o.what, o.v); err != nil {
			return nil, err
		}
	}
	var plain []byte
	for _, p := range pieces {
		plain = append(plain, p...)
	}
	m := cc.MetaData
	out := make([]byte, 0, len(plain)+len(plain)/16+256)
	firstData := true
	page := 0
	for pos := 0; pos < len(plain); {
		var h format.PageHeader
		n, err := thrift.Unmarshal(plain[pos:], &h)
		if err != nil {
			return nil, invalidf("encrypting a page header: %v", err)
		}
		body := plain[pos+n : pos+n+int(h.CompressedPageSize)]
		pos += n + len(body)
		var hMod, bMod byte
		pg := -1
		switch h.Type {
		case format.DictionaryPage:
			hMod, bMod = modDictionaryPageHeader, modDictionaryPage
			m.DictionaryPageOffset = ptr(int64(len(out)))
		default:
			if err := checkOrdinal("page", page); err != nil {
				return nil, err
			}
			hMod, bMod, pg = modDataPageHeader, modDataPage, page
			page++
			if firstData {
				m.DataPageOffset, firstData = int64(len(out)), false
			}
		}
		sealed := c.sealPage(nil, body, moduleAAD(fe.aad, bMod, g, col, pg))
		h.CompressedPageSize = int32(len(sealed))
		if h.CRC != nil {
			// Over the page as stored, as parquet-mr checks it.
			h.CRC = ptr(int32(crc32.ChecksumIEEE(sealed)))
		}
		out = c.seal(out, thrift.Marshal(nil, &h), moduleAAD(fe.aad, hMod, g, col, pg))
		out = append(out, sealed...)
	}
	m.TotalCompressedSize = int64(len(out))
	return [][]byte{out}, nil
}

// sealColumns sets the crypto metadata of every encrypted chunk; the
// metadata of chunks of their own keys is sealed with them.
func (fe *fileEncryptor) sealColumns(groups []format.RowGroup) {
	for g := range groups {
		for j := range groups[g].Columns {
			cc := &groups[g].Columns[j]
			if fe.columns[j] == nil {
				continue
			}
			if !fe.own[j] {
				cc.CryptoMetadata = &format.ColumnCryptoMetaData{EncryptionWithFooterKey: &format.Empty{}}
				continue
			}
			m := cc.MetaData
			k := fe.cfg.ColumnKeys[pathString(m.PathInSchema)]
			cc.CryptoMetadata = &format.ColumnCryptoMetaData{EncryptionWithColumnKey: &format.EncryptionWithColumnKey{
				PathInSchema: m.PathInSchema, KeyMetadata: k.KeyMetadata}}
			cc.EncryptedColumnMetadata = fe.columns[j].seal(nil, thrift.Marshal(nil, m), moduleAAD(fe.aad, modColumnMetaData, g, j, -1))
			if fe.cfg.PlaintextFooter {
				redacted := *m
				redacted.Statistics, redacted.EncodingStats = nil, nil
				cc.MetaData = &redacted
			} else {
				cc.MetaData = nil
			}
		}
	}
}

// algorithm is the format's description of the file's encryption.
func (fe *fileEncryptor) algorithm() *format.EncryptionAlgorithm {
	// supply_aad_prefix is always written: arrow-go needs it.
	p := &format.AESGCM{AADFileUnique: fe.unique, SupplyAADPrefix: ptr(false)}
	if len(fe.cfg.AADPrefix) > 0 {
		if fe.cfg.DoNotStoreAADPrefix {
			p.SupplyAADPrefix = ptr(true)
		} else {
			p.AADPrefix = fe.cfg.AADPrefix
		}
	}
	if fe.cfg.Algorithm == AESGCMCTR {
		return &format.EncryptionAlgorithm{AESGCMCTRV1: p}
	}
	return &format.EncryptionAlgorithm{AESGCMV1: p}
}

// tail returns the end of the file: the footer, encrypted (after its crypto
// metadata) or signed, its length and the magic.
func (fe *fileEncryptor) tail(md *format.FileMetaData) []byte {
	aad := moduleAAD(fe.aad, modFooter, -1, -1, -1)
	var out []byte
	if fe.cfg.PlaintextFooter {
		md.EncryptionAlgorithm, md.FooterSigningKeyMetadata = fe.algorithm(), fe.cfg.FooterKeyMetadata
		out = thrift.Marshal(nil, md)
		out = append(out, fe.footer.signFooter(out, aad)...)
	} else {
		out = thrift.Marshal(nil, &format.FileCryptoMetaData{EncryptionAlgorithm: *fe.algorithm(), KeyMetadata: fe.cfg.FooterKeyMetadata})
		out = fe.footer.seal(out, thrift.Marshal(nil, md), aad)
	}
	out = binary.LittleEndian.AppendUint32(out, uint32(len(out)))
	return append(out, fe.magic()...)
}
