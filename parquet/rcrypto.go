package parquet

// Reading encrypted files: the footer (encrypted, or plaintext and
// signed), the column metadata, and the pages of each chunk, decrypted
// into the layout of a plaintext chunk before they are decoded.

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"

	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

// FileDecryption gives what reading an encrypted file needs: keys given
// directly (the footer's, and columns' by dotted Parquet path) or found
// from the key metadata the writer stored by KeyRetriever, and the AAD
// prefix when the file does not store it. Columns whose key is missing
// can still be left out of a read ([WithColumns]); reading them fails.
type FileDecryption struct {
	FooterKey    []byte
	ColumnKeys   map[string][]byte
	AADPrefix    []byte
	KeyRetriever KeyRetriever
}

// fileDecryptor holds the state of an encrypted file being read.
type fileDecryptor struct {
	keys   FileDecryption
	alg    Algorithm
	aad    []byte   // the file's AAD: prefix and unique part
	footer *cryptor // nil without a footer key
	// chunks[g][c] decrypts chunk c of row group g (nil: plaintext);
	// locked[g][c] is why it cannot be read (a missing key).
	chunks [][]*cryptor
	locked [][]error
	// checkCRC verifies page checksums (WithPageCRC).
	checkCRC bool
	// signed: the footer is plaintext, signed.
	signed bool
}

// newFileDecryptor prepares the decryption of a file of algorithm alg
// whose footer key the key metadata km names.
func newFileDecryptor(cfg *FileDecryption, alg *format.EncryptionAlgorithm, km []byte) (*fileDecryptor, error) {
	d := &fileDecryptor{}
	if cfg != nil {
		d.keys = *cfg
	}
	p := alg.AESGCMV1
	if p == nil {
		if p = alg.AESGCMCTRV1; p == nil {
			return nil, unsupportedf("encryption algorithm of neither AES_GCM_V1 nor AES_GCM_CTR_V1")
		}
		d.alg = AESGCMCTR
	}
	prefix := p.AADPrefix
	switch {
	case len(d.keys.AADPrefix) > 0 && len(prefix) > 0 && !bytes.Equal(d.keys.AADPrefix, prefix):
		return nil, authf("the AAD prefix given is not the one the file stores")
	case len(d.keys.AADPrefix) > 0:
		prefix = d.keys.AADPrefix
	case p.SupplyAADPrefix != nil && *p.SupplyAADPrefix && len(prefix) == 0:
		return nil, authf("the file's AAD prefix is not stored in it and was not given")
	}
	d.aad = append(append([]byte(nil), prefix...), p.AADFileUnique...)
	key, err := d.key(d.keys.FooterKey, km)
	if err != nil {
		return nil, wrapf(err, "footer key")
	}
	if key != nil {
		if d.footer, err = newCryptor(key, d.alg); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// key returns the given key, or the one KeyRetriever finds for the key
// metadata km; nil when there is neither.
func (d *fileDecryptor) key(given, km []byte) ([]byte, error) {
	if len(given) > 0 {
		return given, nil
	}
	if d.keys.KeyRetriever != nil && len(km) > 0 {
		k, err := d.keys.KeyRetriever(km)
		if err != nil {
			return nil, wrapKind(ErrAuthentication, err, "key retriever, key metadata %.64q", km)
		}
		return k, nil
	}
	return nil, nil
}

// openEncryptedFooter reads a footer in encrypted footer mode: the
// plaintext FileCryptoMetaData, then the footer module.
func (f *File) openEncryptedFooter(footer []byte) error {
	var cm format.FileCryptoMetaData
	n, err := thrift.Unmarshal(footer, &cm)
	if err != nil {
		return fmt.Errorf("parquet: %w: file crypto metadata: %v", ErrInvalid, err)
	}
	d, err := newFileDecryptor(f.cfg.decrypt, &cm.EncryptionAlgorithm, cm.KeyMetadata)
	if err != nil {
		return err
	}
	if d.footer == nil {
		return authf("the footer is encrypted and no footer key was given")
	}
	plain, _, err := d.footer.open(nil, footer[n:], moduleAAD(d.aad, modFooter, -1, -1, -1))
	if err != nil {
		return cryptoErr(err, "footer")
	}
	if _, err := thrift.Unmarshal(plain, &f.meta); err != nil {
		return fmt.Errorf("parquet: %w: file metadata: %v", ErrInvalid, err)
	}
	f.dec = d
	return nil
}

// checkSignedFooter prepares a file in plaintext footer mode whose
// footer (n bytes of metadata, then the signature) was read into meta;
// the signature is checked when the footer key is known.
func (f *File) checkSignedFooter(footer []byte, n int) error {
	d, err := newFileDecryptor(f.cfg.decrypt, f.meta.EncryptionAlgorithm, f.meta.FooterSigningKeyMetadata)
	if err != nil {
		return err
	}
	if d.footer != nil && !d.footer.verifyFooter(footer[:n], footer[n:], moduleAAD(d.aad, modFooter, -1, -1, -1)) {
		return authf("the plaintext footer's signature does not match (wrong footer key or changed footer)")
	}
	d.signed = true
	f.dec = d
	return nil
}

// cryptoErr names the module of a decryption failure.
func cryptoErr(err error, where string) error {
	if errors.Is(err, ErrAuthentication) {
		return authf("%s: decryption failed (wrong key or changed bytes)", where)
	}
	return invalidf("%s: encrypted %v", where, err)
}

// decryptColumns resolves the key of every encrypted chunk and decrypts
// the metadata of those encrypted with their own key. Their page index
// and bloom filters are not read (they stay encrypted).
func (f *File) decryptColumns() error {
	d := f.dec
	d.checkCRC = f.cfg.checkCRC
	keyed := map[string]*cryptor{} // by path: one key per column
	d.chunks = make([][]*cryptor, len(f.meta.RowGroups))
	d.locked = make([][]error, len(f.meta.RowGroups))
	for g := range f.meta.RowGroups {
		rg := &f.meta.RowGroups[g]
		d.chunks[g] = make([]*cryptor, len(rg.Columns))
		d.locked[g] = make([]error, len(rg.Columns))
		for j := range rg.Columns {
			cc := &rg.Columns[j]
			cm := cc.CryptoMetadata
			if cm == nil {
				continue
			}
			if j >= len(f.leaves) {
				return invalidf("row group %d has %d columns, the schema %d", g, len(rg.Columns), len(f.leaves))
			}
			path := pathString(f.leaves[j].path)
			where := fmt.Sprintf("row group %d column %q", g, path)
			cc.ColumnIndexOffset, cc.OffsetIndexOffset = nil, nil
			if cm.EncryptionWithColumnKey == nil {
				if d.footer == nil {
					d.locked[g][j] = authf("%s: encrypted with the footer key, which was not given", where)
					cc.MetaData = nil
					continue
				}
				d.chunks[g][j] = d.footer
				if cc.MetaData != nil {
					cc.MetaData.BloomFilterOffset = nil
				}
				continue
			}
			c, ok := keyed[path]
			if !ok {
				key, err := d.key(d.keys.ColumnKeys[path], cm.EncryptionWithColumnKey.KeyMetadata)
				if err != nil {
					return wrapf(err, "%s", where)
				}
				if key != nil {
					if c, err = newCryptor(key, d.alg); err != nil {
						return wrapf(err, "%s", where)
					}
				}
				keyed[path] = c
			}
			if c == nil {
				d.locked[g][j] = authf("%s: no key for the column", where)
				cc.MetaData = nil
				continue
			}
			if len(cc.EncryptedColumnMetadata) > 0 {
				if err := checkOrdinal("row group", g); err != nil {
					return err
				}
				plain, _, err := c.open(nil, cc.EncryptedColumnMetadata, moduleAAD(d.aad, modColumnMetaData, g, j, -1))
				if err != nil {
					return cryptoErr(err, where+": column metadata")
				}
				var m format.ColumnMetaData
				if _, err := thrift.Unmarshal(plain, &m); err != nil {
					return fmt.Errorf("parquet: %w: %s: column metadata: %v", ErrInvalid, where, err)
				}
				cc.MetaData = &m
			}
			if cc.MetaData != nil {
				cc.MetaData.BloomFilterOffset = nil
			}
			d.chunks[g][j] = c
		}
	}
	return nil
}

// decryptChunk turns the encrypted pages of chunk col of row group g
// (data, holding want values) into a plaintext chunk: each page's header
// and body decrypted, the header's compressed size made the body's.
func (d *fileDecryptor) decryptChunk(c *cryptor, g, col int, data []byte, want int64, dictFirst bool, where string) ([]byte, error) {
	if err := checkOrdinal("row group", g); err != nil {
		return nil, err
	}
	if err := checkOrdinal("column", col); err != nil {
		return nil, err
	}
	// Pooled, not cleared: every byte is appended before it is read, and
	// the caller gives it back with the chunk (see release).
	out := pageBuffer(len(data))
	var hbuf []byte
	var got int64
	pos, page := 0, 0
	for got < want && pos < len(data) {
		at := fmt.Sprintf("%s: page at chunk byte %d", where, pos)
		// The header's type is known once decrypted: try the AAD of the
		// header expected there first.
		dataAAD := moduleAAD(d.aad, modDataPageHeader, g, col, page)
		dictAAD := moduleAAD(d.aad, modDictionaryPageHeader, g, col, -1)
		first, second := dataAAD, dictAAD
		if pos == 0 && dictFirst {
			first, second = dictAAD, dataAAD
		}
		plain, n, err := c.open(hbuf, data[pos:], first)
		if errors.Is(err, ErrAuthentication) && pos == 0 {
			plain, n, err = c.open(hbuf, data[pos:], second)
		}
		if err != nil {
			return nil, cryptoErr(err, at+" header")
		}
		hbuf = plain
		var h format.PageHeader
		if _, err := thrift.Unmarshal(plain, &h); err != nil {
			return nil, fmt.Errorf("parquet: %w: %s header: %v", ErrInvalid, at, err)
		}
		pos += n
		if h.CompressedPageSize < 0 || int(h.CompressedPageSize) > len(data)-pos {
			return nil, invalidf("%s: page of %d bytes exceeds the chunk's %d bytes left", at, h.CompressedPageSize, len(data)-pos)
		}
		body := data[pos : pos+int(h.CompressedPageSize)]
		pos += len(body)
		var aad []byte
		switch h.Type {
		case format.DictionaryPage:
			aad = moduleAAD(d.aad, modDictionaryPage, g, col, -1)
		case format.DataPage, format.DataPageV2:
			if err := checkOrdinal("page", page); err != nil {
				return nil, err
			}
			aad = moduleAAD(d.aad, modDataPage, g, col, page)
			page++
			if h.DataPageHeader != nil {
				got += int64(h.DataPageHeader.NumValues)
			} else if h.DataPageHeaderV2 != nil {
				got += int64(h.DataPageHeaderV2.NumValues)
			}
		default:
			continue // carries no values
		}
		if len(body) < c.pageOverhead() {
			return nil, invalidf("%s: encrypted page of %d bytes, shorter than its %d bytes of framing", at, len(body), c.pageOverhead())
		}
		if h.CRC != nil {
			// The checksum covers the page as stored, encrypted (as
			// parquet-mr writes it): checked here, not after.
			if d.checkCRC && crc32.ChecksumIEEE(body) != uint32(*h.CRC) {
				return nil, invalidf("%s: CRC mismatch", at)
			}
			h.CRC = nil
		}
		// The header goes first: its compressed size is that of the
		// plaintext body, known before decryption. The body is then
		// decrypted in place after it.
		h.CompressedPageSize = int32(len(body) - c.pageOverhead())
		out = thrift.Marshal(out, &h)
		start := len(out)
		out = slices.Grow(out, len(body))
		plainBody, m, err := c.openPage(out[start:start], body, aad)
		if err != nil {
			return nil, cryptoErr(err, at)
		}
		if m != len(body) {
			return nil, invalidf("%s: a module of %d bytes in a page of %d", at, m, len(body))
		}
		out = out[:start+len(plainBody)]
	}
	return out, nil
}

// chunkCryptor returns the decryptor of chunk col of row group g; nil
// for a plaintext chunk.
func (f *File) chunkCryptor(g, col int) *cryptor {
	if f.dec == nil {
		return nil
	}
	return f.dec.chunks[g][col]
}

// Encryption describes the file's modular encryption, e.g.
// "AES_GCM_V1, encrypted footer"; empty for a file not encrypted.
func (f *File) Encryption() string {
	if f.dec == nil {
		return ""
	}
	if f.dec.signed {
		return f.dec.alg.String() + ", plaintext footer (signed)"
	}
	return f.dec.alg.String() + ", encrypted footer"
}
