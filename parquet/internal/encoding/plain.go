package encoding

import (
	"encoding/binary"
	"math"
	"slices"
)

// DecodePlainFixed returns the n values of width bytes at the start of
// data (PLAIN encoding of INT32, INT64, INT96, FLOAT, DOUBLE and
// FIXED_LEN_BYTE_ARRAY) and the bytes used. The result aliases data.
func DecodePlainFixed(data []byte, n, width int) ([]byte, error) {
	if width <= 0 {
		return nil, invalidf("PLAIN: value width %d", width)
	}
	if n < 0 || n > len(data)/width {
		return nil, invalidf("PLAIN: %d values of %d bytes need %d bytes, have %d", n, width, n*width, len(data))
	}
	return data[:n*width], nil
}

// DecodePlainBool decodes n PLAIN booleans (bit-packed, least significant
// bit first) into one byte (0 or 1) per value.
func DecodePlainBool(dst []byte, data []byte) (int, error) {
	n := len(dst)
	if (n+7)/8 > len(data) {
		return 0, invalidf("PLAIN: %d booleans need %d bytes, have %d", n, (n+7)/8, len(data))
	}
	for i := range dst {
		dst[i] = data[i>>3] >> (i & 7) & 1
	}
	return (n + 7) / 8, nil
}

// DecodePlainBinary decodes n PLAIN byte arrays (4-byte little-endian
// length, then the bytes) and returns them with the bytes used. The
// values are copied out of data.
func DecodePlainBinary(data []byte, n int) (Binary, int, error) {
	var out Binary
	used, err := DecodePlainBinaryTo(&out, data, n)
	if err != nil {
		return Binary{}, 0, err
	}
	return out, used, nil
}

// DecodePlainBinaryTo decodes n PLAIN byte arrays like DecodePlainBinary,
// appends them to dst and returns the bytes used. On error dst may hold
// part of the values.
func DecodePlainBinaryTo(dst *Binary, data []byte, n int) (int, error) {
	if n < 0 || n > len(data)/4 {
		return 0, invalidf("PLAIN: %d byte arrays need at least %d bytes, have %d", n, 4*n, len(data))
	}
	if len(dst.Offsets) == 0 {
		dst.Offsets = make([]int32, 1, n+1)
	}
	dst.Offsets = slicesGrow(dst.Offsets, n)
	dst.Data = slicesGrow(dst.Data, len(data)-4*n)
	offs := dst.Offsets
	// The values are written into buf's capacity at w, short ones with
	// Copy32.
	buf := dst.Data[:cap(dst.Data)]
	w := len(dst.Data)
	pos := 0
	for i := range n {
		if len(data)-pos < 4 {
			return 0, invalidf("PLAIN: byte array %d: truncated length at byte %d", i, pos)
		}
		l := int(binary.LittleEndian.Uint32(data[pos:]))
		pos += 4
		if l > len(data)-pos {
			return 0, invalidf("PLAIN: byte array %d of %d bytes at byte %d exceeds the %d bytes left", i, l, pos, len(data)-pos)
		}
		if w+l > math.MaxInt32 {
			return 0, invalidf("PLAIN: byte arrays exceed %d bytes", math.MaxInt32)
		}
		if l <= 32 && len(data)-pos >= 32 && len(buf)-w >= 32 {
			Copy32(buf[w:], data[pos:])
		} else {
			if len(buf)-w < l {
				buf = Grow(buf[:w], l)
				buf = buf[:cap(buf)]
			}
			copy(buf[w:w+l], data[pos:pos+l])
		}
		w += l
		pos += l
		offs = append(offs, int32(w))
	}
	dst.Offsets, dst.Data = offs, buf[:w]
	return pos, nil
}

// Copy32 copies the first 32 bytes of from to to as four 8-byte words.
// Callers move a value of up to 32 bytes with it when both slices have 32
// bytes there, cheaper than a copy call for short values; the bytes
// written past the value's end must be spare room that the next value
// overwrites or that lies beyond the end.
func Copy32(to, from []byte) {
	to, from = to[:32:32], from[:32:32]
	binary.LittleEndian.PutUint64(to, binary.LittleEndian.Uint64(from))
	binary.LittleEndian.PutUint64(to[8:], binary.LittleEndian.Uint64(from[8:]))
	binary.LittleEndian.PutUint64(to[16:], binary.LittleEndian.Uint64(from[16:]))
	binary.LittleEndian.PutUint64(to[24:], binary.LittleEndian.Uint64(from[24:]))
}

// slicesGrow makes room for n more elements of s, at least doubling its
// capacity when it must move (append grows large slices by a quarter,
// which copies a growing chunk buffer many times over).
func slicesGrow[T any](s []T, n int) []T {
	return Grow(s, n)
}

// Grow makes room for n more elements of s, at least doubling its
// capacity when it must move.
func Grow[T any](s []T, n int) []T {
	if n <= cap(s)-len(s) {
		return s
	}
	return slices.Grow(s, max(n, cap(s)))
}

// AppendPlainBool appends vals (0 or 1 each) bit-packed.
func AppendPlainBool(dst []byte, vals []byte) []byte {
	start := len(dst)
	dst = append(dst, make([]byte, (len(vals)+7)/8)...)
	for i, v := range vals {
		if v != 0 {
			dst[start+i>>3] |= 1 << (i & 7)
		}
	}
	return dst
}

// AppendPlainBinary appends the values of b in PLAIN encoding.
func AppendPlainBinary(dst []byte, b Binary) []byte {
	for i := range b.Len() {
		v := b.Value(i)
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(v)))
		dst = append(dst, v...)
	}
	return dst
}

// DecodeByteStreamSplit decodes n values of width bytes from the
// BYTE_STREAM_SPLIT encoding (byte k of every value in stream k).
func DecodeByteStreamSplit(data []byte, n, width int) ([]byte, error) {
	if width <= 0 || n < 0 || n > len(data)/width {
		return nil, invalidf("BYTE_STREAM_SPLIT: %d values of %d bytes do not fit %d bytes", n, width, len(data))
	}
	if len(data) != n*width {
		return nil, invalidf("BYTE_STREAM_SPLIT: %d bytes are not %d values of %d bytes", len(data), n, width)
	}
	out := make([]byte, n*width)
	for k := range width {
		s := data[k*n : (k+1)*n]
		for i, b := range s {
			out[i*width+k] = b
		}
	}
	return out, nil
}

// AppendByteStreamSplit appends fixed-width values (width bytes each) in
// the BYTE_STREAM_SPLIT encoding.
func AppendByteStreamSplit(dst []byte, vals []byte, width int) []byte {
	n := len(vals) / width
	start := len(dst)
	dst = append(dst, make([]byte, n*width)...)
	out := dst[start:]
	for i := range n {
		for k := range width {
			out[k*n+i] = vals[i*width+k]
		}
	}
	return dst
}
