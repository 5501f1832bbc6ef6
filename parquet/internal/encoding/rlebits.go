package encoding

import (
	"encoding/binary"

	"github.com/alkaid-go/alkaid/bitutil"
)

// DecodeRLEBits decodes n one-bit values of the RLE / bit-packed hybrid
// (levels whose maximum is 1) into bits [off, off+n) of dst, which must
// be clear, and returns the bytes of data used. Runs become bit ranges
// and bit-packed groups are copied as they are: no value is handled on
// its own.
func DecodeRLEBits(dst []byte, off, n int, data []byte) (int, error) {
	if n < 0 || off < 0 || off+n > len(dst)*8 {
		return 0, invalidf("RLE: %d bits at bit %d of a %d-byte bitmap", n, off, len(dst))
	}
	pos, got := 0, 0
	for got < n {
		h, k := binary.Uvarint(data[pos:])
		if k <= 0 {
			return 0, invalidf("RLE: bad run header at byte %d (%d of %d values decoded)", pos, got, n)
		}
		pos += k
		if h&1 == 0 {
			if pos >= len(data) {
				return 0, invalidf("RLE: truncated run value at byte %d", pos)
			}
			v := data[pos]
			pos++
			if v > 1 {
				return 0, invalidf("RLE: run value %d wider than 1 bit at byte %d", v, pos)
			}
			run := int(min(h>>1, uint64(n-got)))
			if v == 1 {
				bitutil.SetBitsTo(dst, off+got, run, true)
			}
			got += run
			continue
		}
		groups := h >> 1
		if groups > uint64(len(data)) {
			return 0, invalidf("RLE: %d bit-packed groups at byte %d exceed the data", groups, pos)
		}
		// A group of eight one-bit values is one byte; writers may cut
		// the last run short.
		nbytes := min(int(groups), len(data)-pos)
		count := min(nbytes*8, n-got)
		if count == 0 && groups > 0 {
			return 0, invalidf("RLE: empty bit-packed run at byte %d", pos)
		}
		orBits(dst, off+got, data[pos:], count)
		got += count
		pos += nbytes
	}
	return pos, nil
}

// DecodeLengthPrefixedRLEBits is DecodeRLEBits for an RLE stream preceded
// by its 4-byte little-endian length (data page v1 levels); it returns
// the bytes used, the prefix included.
func DecodeLengthPrefixedRLEBits(dst []byte, off, n int, data []byte) (int, error) {
	if len(data) < 4 {
		return 0, invalidf("RLE: missing 4-byte length")
	}
	size := binary.LittleEndian.Uint32(data)
	if uint64(size) > uint64(len(data)-4) {
		return 0, invalidf("RLE: length %d exceeds the %d bytes left", size, len(data)-4)
	}
	if _, err := DecodeRLEBits(dst, off, n, data[4:4+size]); err != nil {
		return 0, err
	}
	return 4 + int(size), nil
}

// orBits ORs the first n bits of src into dst from bit off on: 64 bits
// per step while both slices have room for whole words, then a byte.
func orBits(dst []byte, off int, src []byte, n int) {
	i := 0 // bits done, a multiple of 8
	for ; n-i >= 64 && i>>3+8 <= len(src) && (off+i)>>3+9 <= len(dst); i += 64 {
		w := binary.LittleEndian.Uint64(src[i>>3:])
		p, s := (off+i)>>3, uint(off+i)&7
		d := dst[p : p+9 : p+9]
		binary.LittleEndian.PutUint64(d, binary.LittleEndian.Uint64(d)|w<<s)
		d[8] |= byte(w >> (64 - s)) // nothing when s is 0
	}
	for ; i < n; i += 8 {
		b := uint16(src[i>>3])
		if n-i < 8 {
			b &= 1<<(n-i) - 1
		}
		p, s := (off+i)>>3, uint(off+i)&7
		v := b << s
		dst[p] |= byte(v)
		if v>>8 != 0 { // set bits spill into the next byte only when in range
			dst[p+1] |= byte(v >> 8)
		}
	}
}
