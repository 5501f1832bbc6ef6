package encoding

import (
	"encoding/binary"

	"github.com/alkaid-go/alkaid/internal/simd"
)

// Level is the type levels and indices decode to.
type Level interface{ ~int16 | ~int32 }

// DecodeRLE decodes exactly len(dst) values of bitWidth bits (0..32; at
// most 15 into int16) of the RLE / bit-packed hybrid encoding from data
// (without a length prefix) into dst and returns the number of bytes used.
func DecodeRLE[T Level](dst []T, data []byte, bitWidth int) (int, error) {
	if bitWidth < 0 || bitWidth > 32 {
		return 0, invalidf("RLE bit width %d out of range 0..32", bitWidth)
	}
	var zero T
	if _, narrow := any(zero).(int16); narrow && bitWidth > 15 {
		return 0, invalidf("RLE bit width %d too wide for 16-bit levels", bitWidth)
	}
	pos, got := 0, 0
	valBytes := (bitWidth + 7) / 8
	for got < len(dst) {
		h, n := binary.Uvarint(data[pos:])
		if n <= 0 {
			return 0, invalidf("RLE: bad run header at byte %d (%d of %d values decoded)", pos, got, len(dst))
		}
		pos += n
		if h&1 == 0 {
			run := h >> 1
			if pos+valBytes > len(data) {
				return 0, invalidf("RLE: truncated run value at byte %d", pos)
			}
			var v uint32
			for i := range valBytes {
				v |= uint32(data[pos+i]) << (8 * i)
			}
			pos += valBytes
			if bitWidth < 32 && v>>bitWidth != 0 {
				return 0, invalidf("RLE: run value %d wider than %d bits at byte %d", v, bitWidth, pos)
			}
			k := uint64(len(dst) - got)
			if run < k {
				k = run
			}
			fillLevels(dst[got:got+int(k)], T(v))
			got += int(k)
			continue
		}
		groups := h >> 1
		if groups > uint64(len(data)) {
			return 0, invalidf("RLE: %d bit-packed groups at byte %d exceed the data", groups, pos)
		}
		nbytes := int(groups) * bitWidth
		avail := len(data) - pos
		if nbytes > avail {
			// Writers may cut the last run short: use what is there.
			nbytes = avail
		}
		count := int(groups) * 8
		if bitWidth > 0 && nbytes*8/bitWidth < count {
			count = nbytes * 8 / bitWidth
		}
		if count > len(dst)-got {
			count = len(dst) - got
		}
		if count == 0 && groups > 0 && bitWidth > 0 {
			return 0, invalidf("RLE: empty bit-packed run at byte %d", pos)
		}
		// The bytes after the run let unpackLSB load 8 at a time to its end.
		unpackLSB(dst[got:got+count], data[pos:], bitWidth)
		got += count
		pos += nbytes
	}
	return pos, nil
}

// fillLevels sets every element of dst to v; long runs are copied in
// doubling blocks.
func fillLevels[T Level](dst []T, v T) {
	if len(dst) < 32 {
		for i := range dst {
			dst[i] = v
		}
		return
	}
	for i := range 16 {
		dst[i] = v
	}
	for k := 16; k < len(dst); k *= 2 {
		copy(dst[k:], dst[:k])
	}
}

// vectorUnpack says whether simd.UnpackBits32 runs vector code, faster
// than unpackLSB's loops, rather than its pure-Go reference.
var vectorUnpack = simd.Level() != "generic"

// unpackLSB reads len(dst) values of bw bits, least significant bit
// first; data holds at least len(dst)*bw bits.
func unpackLSB[T Level](dst []T, data []byte, bw int) {
	if bw == 0 {
		clear(dst)
		return
	}
	if bw == 1 {
		unpackBits(dst, data)
		return
	}
	mask := uint64(1)<<bw - 1
	bit := 0
	i := 0
	if d, ok := any(dst).([]int32); ok && vectorUnpack && bw <= simd.MaxUnpackBits {
		i = simd.UnpackBits32(d, data, bw)
		bit = i * bw
	}
	if bw <= 8 {
		// Eight values take bw bytes: one load serves a group of eight.
		for ; i+8 <= len(dst) && bit>>3+8 <= len(data); i += 8 {
			w := binary.LittleEndian.Uint64(data[bit>>3:])
			d := dst[i : i+8 : i+8]
			d[0], d[1] = T(w&mask), T(w>>bw&mask)
			d[2], d[3] = T(w>>(2*bw)&mask), T(w>>(3*bw)&mask)
			d[4], d[5] = T(w>>(4*bw)&mask), T(w>>(5*bw)&mask)
			d[6], d[7] = T(w>>(6*bw)&mask), T(w>>(7*bw)&mask)
			bit += 8 * bw
		}
	}
	if bw > 8 && bw <= 16 {
		// Eight values take bw bytes; four values and a shift of at most
		// 4 fit in 64 bits: two loads serve a group of eight.
		half := 4 * bw
		for ; i+8 <= len(dst) && bit>>3+bw+8 <= len(data); i += 8 {
			at := bit >> 3 // a group starts on a byte boundary
			lo := binary.LittleEndian.Uint64(data[at:])
			hi := binary.LittleEndian.Uint64(data[at+half>>3:]) >> (half & 7)
			d := dst[i : i+8 : i+8]
			d[0], d[1] = T(lo&mask), T(lo>>bw&mask)
			d[2], d[3] = T(lo>>(2*bw)&mask), T(lo>>(3*bw)&mask)
			d[4], d[5] = T(hi&mask), T(hi>>bw&mask)
			d[6], d[7] = T(hi>>(2*bw)&mask), T(hi>>(3*bw)&mask)
			bit += 8 * bw
		}
	}
	if bw > 8 && bw <= 19 {
		// Three values and a shift of at most 7 fit in 64 bits: one load
		// serves three (indices of dictionaries of up to 2^19 values).
		for ; i+3 <= len(dst) && bit>>3+8 <= len(data); i += 3 {
			w := binary.LittleEndian.Uint64(data[bit>>3:]) >> (bit & 7)
			d := dst[i : i+3 : i+3]
			d[0], d[1], d[2] = T(w&mask), T(w>>bw&mask), T(w>>(2*bw)&mask)
			bit += 3 * bw
		}
	}
	// While 8 bytes can be loaded at once, one load serves each value
	// (bw <= 32 and a shift of at most 7 fit in 64 bits).
	for ; i < len(dst) && bit>>3+8 <= len(data); i++ {
		w := binary.LittleEndian.Uint64(data[bit>>3:])
		dst[i] = T((w >> (bit & 7)) & mask)
		bit += bw
	}
	for ; i < len(dst); i++ {
		byteIdx, shift := bit>>3, bit&7
		var w uint64
		for k := 0; k < 5 && byteIdx+k < len(data); k++ {
			w |= uint64(data[byteIdx+k]) << (8 * k)
		}
		dst[i] = T((w >> shift) & mask)
		bit += bw
	}
}

// unpackBits reads len(dst) one-bit values, eight from each byte.
func unpackBits[T Level](dst []T, data []byte) {
	i := 0
	for ; i+8 <= len(dst); i += 8 {
		b := data[i>>3]
		d := dst[i : i+8 : i+8]
		d[0], d[1], d[2], d[3] = T(b&1), T(b>>1&1), T(b>>2&1), T(b>>3&1)
		d[4], d[5], d[6], d[7] = T(b>>4&1), T(b>>5&1), T(b>>6&1), T(b>>7)
	}
	for ; i < len(dst); i++ {
		dst[i] = T(data[i>>3] >> (i & 7) & 1)
	}
}

// DecodeLengthPrefixedRLE decodes an RLE stream preceded by its 4-byte
// little-endian length (data page v1 levels) and returns the bytes used.
func DecodeLengthPrefixedRLE[T Level](dst []T, data []byte, bitWidth int) (int, error) {
	if len(data) < 4 {
		return 0, invalidf("RLE: missing 4-byte length")
	}
	n := binary.LittleEndian.Uint32(data)
	if uint64(n) > uint64(len(data)-4) {
		return 0, invalidf("RLE: length %d exceeds the %d bytes left", n, len(data)-4)
	}
	if _, err := DecodeRLE(dst, data[4:4+n], bitWidth); err != nil {
		return 0, err
	}
	return 4 + int(n), nil
}

// DecodeBitPacked decodes len(dst) values of the legacy BIT_PACKED
// encoding (most significant bit first) and returns the bytes used.
func DecodeBitPacked[T Level](dst []T, data []byte, bitWidth int) (int, error) {
	if bitWidth < 0 || bitWidth > 32 {
		return 0, invalidf("BIT_PACKED bit width %d out of range 0..32", bitWidth)
	}
	var zero T
	if _, narrow := any(zero).(int16); narrow && bitWidth > 15 {
		return 0, invalidf("BIT_PACKED bit width %d too wide for 16-bit levels", bitWidth)
	}
	nbytes := (len(dst)*bitWidth + 7) / 8
	if nbytes > len(data) {
		return 0, invalidf("BIT_PACKED: %d values of %d bits need %d bytes, have %d", len(dst), bitWidth, nbytes, len(data))
	}
	bit := 0
	for i := range dst {
		var v uint32
		for range bitWidth {
			b := data[bit>>3] >> (7 - bit&7) & 1
			v = v<<1 | uint32(b)
			bit++
		}
		dst[i] = T(v)
	}
	return nbytes, nil
}

// AppendBitPacked appends vals in the legacy BIT_PACKED encoding.
func AppendBitPacked(dst []byte, vals []int32, bitWidth int) []byte {
	start := len(dst)
	dst = append(dst, make([]byte, (len(vals)*bitWidth+7)/8)...)
	out := dst[start:]
	bit := 0
	for _, v := range vals {
		for k := bitWidth - 1; k >= 0; k-- {
			if uint32(v)>>k&1 != 0 {
				out[bit>>3] |= 0x80 >> (bit & 7)
			}
			bit++
		}
	}
	return dst
}

// AppendRLE appends vals (each below 1<<bitWidth) in the RLE / bit-packed
// hybrid encoding: runs of eight or more equal values as RLE runs, the
// rest bit-packed in groups of eight.
func AppendRLE[T Level](dst []byte, vals []T, bitWidth int) []byte {
	runAt := func(i int) int {
		j := i + 1
		for j < len(vals) && vals[j] == vals[i] {
			j++
		}
		return j - i
	}
	valBytes := (bitWidth + 7) / 8
	for i := 0; i < len(vals); {
		if r := runAt(i); r >= 8 {
			dst = binary.AppendUvarint(dst, uint64(r)<<1)
			for k := range valBytes {
				dst = append(dst, byte(uint32(vals[i])>>(8*k)))
			}
			i += r
			continue
		}
		j := i
		for {
			j += 8
			if j >= len(vals) || runAt(j) >= 8 {
				break
			}
		}
		if j > len(vals) {
			j = len(vals)
		}
		groups := (j - i + 7) / 8
		dst = binary.AppendUvarint(dst, uint64(groups)<<1|1)
		dst = packLSB(dst, vals[i:j], groups*8, bitWidth)
		i = j
	}
	return dst
}

// packLSB appends vals bit-packed least significant bit first, padded
// with zeros to n values.
func packLSB[T Level](dst []byte, vals []T, n, bw int) []byte {
	start := len(dst)
	dst = append(dst, make([]byte, (n*bw+7)/8)...)
	out := dst[start:]
	// An accumulator of fewer than 8 pending bits plus one value of at
	// most 32 bits fits 64 bits.
	var acc uint64
	nb, o := 0, 0
	for _, v := range vals {
		acc |= uint64(uint32(v)) << nb
		nb += bw
		for nb >= 8 {
			out[o] = byte(acc)
			o++
			acc >>= 8
			nb -= 8
		}
	}
	if nb > 0 {
		out[o] = byte(acc)
	}
	return dst
}
