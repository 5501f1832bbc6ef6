package parquet

// Parquet modular encryption: the modules (footer, column metadata, page
// headers, pages) of AES_GCM_V1 and AES_GCM_CTR_V1, and their AADs.

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
)

// Algorithm is a modular encryption algorithm.
type Algorithm int

const (
	// AESGCM (AES_GCM_V1) encrypts and authenticates every module with
	// AES-GCM.
	AESGCM Algorithm = iota
	// AESGCMCTR (AES_GCM_CTR_V1) encrypts pages with AES-CTR, without
	// authenticating them, and the other modules with AES-GCM.
	AESGCMCTR
)

// String is the algorithm's name in the format.
func (a Algorithm) String() string {
	if a == AESGCMCTR {
		return "AES_GCM_CTR_V1"
	}
	return "AES_GCM_V1"
}

// KeyRetriever returns the key that key metadata (as a writer stored it,
// e.g. a key id) names; no key management service is built in.
type KeyRetriever func(keyMetadata []byte) ([]byte, error)

// ErrAuthentication is wrapped by the errors of an encrypted file read
// with a wrong or missing key or an AAD prefix not its own, or whose
// bytes were changed: a module failed its AES-GCM authentication. It
// wraps ErrInvalid.
var ErrAuthentication error = authError{}

type authError struct{}

func (authError) Error() string { return "authentication failed" }
func (authError) Unwrap() error { return ErrInvalid }

func authf(format string, args ...any) error {
	return fmt.Errorf("parquet: %w: "+format, append([]any{ErrAuthentication}, args...)...)
}

// Module types of the AAD suffix.
const (
	modFooter byte = iota
	modColumnMetaData
	modDataPage
	modDictionaryPage
	modDataPageHeader
	modDictionaryPageHeader
	modColumnIndex
	modOffsetIndex
	modBloomFilterHeader
	modBloomFilterBitset
)

const (
	nonceLen = 12
	tagLen   = 16
	// gcmOverhead and ctrOverhead are what a module adds to its
	// plaintext: the length, the nonce and (GCM) the tag.
	gcmOverhead = 4 + nonceLen + tagLen
	ctrOverhead = 4 + nonceLen
)

// cryptor encrypts and decrypts the modules of one key.
type cryptor struct {
	block cipher.Block
	gcm   cipher.AEAD
	ctr   bool // pages use AES-CTR
}

func newCryptor(key []byte, alg Algorithm) (*cryptor, error) {
	switch len(key) {
	case 16, 24, 32:
	default:
		return nil, fmt.Errorf("parquet: %w: a key of %d bytes (AES wants 16, 24 or 32)", ErrInvalid, len(key))
	}
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("parquet: %w: %v", ErrInvalid, err)
	}
	g, err := cipher.NewGCM(b)
	if err != nil {
		return nil, fmt.Errorf("parquet: %w: %v", ErrInvalid, err)
	}
	return &cryptor{block: b, gcm: g, ctr: alg == AESGCMCTR}, nil
}

// moduleAAD is the AAD of a module: the file's AAD (prefix and unique
// part), the module type, and the ordinals the type takes (row group,
// column and page, as little-endian 16-bit integers; negative ones left
// out).
func moduleAAD(fileAAD []byte, mod byte, rg, col, page int) []byte {
	out := append(append(make([]byte, 0, len(fileAAD)+7), fileAAD...), mod)
	for _, o := range []int{rg, col, page} {
		if o >= 0 {
			out = binary.LittleEndian.AppendUint16(out, uint16(o))
		}
	}
	return out
}

// checkOrdinal refuses ordinals the AAD's 16 bits cannot carry.
func checkOrdinal(what string, v int) error {
	if v > 1<<15-1 {
		return unsupportedf("encryption: %s ordinal %d exceeds 32767", what, v)
	}
	return nil
}

// seal appends the GCM module of plaintext to dst.
func (c *cryptor) seal(dst, plaintext, aad []byte) []byte {
	var nonce [nonceLen]byte
	rand.Read(nonce[:]) // never fails (crypto/rand)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(nonceLen+len(plaintext)+tagLen))
	dst = append(dst, nonce[:]...)
	return c.gcm.Seal(dst, nonce[:], plaintext, aad)
}

// sealPage appends the module of a page body: GCM, or CTR for AES_GCM_CTR_V1.
func (c *cryptor) sealPage(dst, plaintext, aad []byte) []byte {
	if !c.ctr {
		return c.seal(dst, plaintext, aad)
	}
	var nonce [nonceLen]byte
	rand.Read(nonce[:])
	dst = binary.LittleEndian.AppendUint32(dst, uint32(nonceLen+len(plaintext)))
	dst = append(dst, nonce[:]...)
	start := len(dst)
	dst = append(dst, plaintext...)
	cipher.NewCTR(c.block, ctrIV(nonce[:])).XORKeyStream(dst[start:], dst[start:])
	return dst
}

// pageOverhead is what sealPage adds to a page body.
func (c *cryptor) pageOverhead() int {
	if c.ctr {
		return ctrOverhead
	}
	return gcmOverhead
}

func ctrIV(nonce []byte) []byte {
	iv := make([]byte, 16)
	copy(iv, nonce)
	iv[15] = 1 // the counter starts at 1
	return iv
}

var errModule = errors.New("module")

// moduleLen returns the size of the module at the start of buf (its
// length field included), checked against buf and the minimum size.
func moduleLen(buf []byte, min int) (int, error) {
	if len(buf) < 4 {
		return 0, fmt.Errorf("%w of %d bytes has no length", errModule, len(buf))
	}
	n := int64(binary.LittleEndian.Uint32(buf))
	if n < int64(min) || n > int64(len(buf)-4) {
		return 0, fmt.Errorf("%w length %d outside [%d, %d]", errModule, n, min, len(buf)-4)
	}
	return 4 + int(n), nil
}

// open decrypts the GCM module at the start of buf into dst[:0]; it
// returns the plaintext and the module's size.
func (c *cryptor) open(dst, buf, aad []byte) ([]byte, int, error) {
	n, err := moduleLen(buf, nonceLen+tagLen)
	if err != nil {
		return nil, 0, err
	}
	out, err := c.gcm.Open(dst[:0], buf[4:4+nonceLen], buf[4+nonceLen:n], aad)
	if err != nil {
		return nil, 0, ErrAuthentication
	}
	return out, n, nil
}

// openPage decrypts the page module at the start of buf (GCM, or CTR for
// AES_GCM_CTR_V1) into dst[:0].
func (c *cryptor) openPage(dst, buf, aad []byte) ([]byte, int, error) {
	if !c.ctr {
		return c.open(dst, buf, aad)
	}
	n, err := moduleLen(buf, nonceLen)
	if err != nil {
		return nil, 0, err
	}
	ct := buf[4+nonceLen : n]
	if cap(dst) < len(ct) {
		dst = make([]byte, len(ct))
	}
	out := dst[:len(ct)]
	cipher.NewCTR(c.block, ctrIV(buf[4:4+nonceLen])).XORKeyStream(out, ct)
	return out, n, nil
}

// signFooter returns the nonce and tag that sign a plaintext footer.
func (c *cryptor) signFooter(footer, aad []byte) []byte {
	nonce := make([]byte, nonceLen)
	rand.Read(nonce)
	sealed := c.gcm.Seal(nil, nonce, footer, aad)
	return append(nonce, sealed[len(sealed)-tagLen:]...)
}

// verifyFooter checks the signature (nonce and tag) of a plaintext footer.
func (c *cryptor) verifyFooter(footer, sig, aad []byte) bool {
	if len(sig) != nonceLen+tagLen {
		return false
	}
	sealed := c.gcm.Seal(nil, sig[:nonceLen], footer, aad)
	return subtle.ConstantTimeCompare(sealed[len(sealed)-tagLen:], sig[nonceLen:]) == 1
}
