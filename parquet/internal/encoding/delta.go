package encoding

import (
	"encoding/binary"
	"fmt"
)

// DecodeDeltaBinaryPacked decodes a DELTA_BINARY_PACKED stream holding at
// most max values and returns them with the bytes used. Arithmetic wraps,
// so INT32 columns read correctly when truncated.
func DecodeDeltaBinaryPacked(data []byte, max int) ([]int64, int, error) {
	pos := 0
	next := func(what string) (uint64, error) {
		v, n := binary.Uvarint(data[pos:])
		if n <= 0 {
			return 0, invalidf("DELTA_BINARY_PACKED: bad %s at byte %d", what, pos)
		}
		pos += n
		return v, nil
	}
	blockSize, err := next("block size")
	if err != nil {
		return nil, 0, err
	}
	miniblocks, err := next("miniblock count")
	if err != nil {
		return nil, 0, err
	}
	total, err := next("value count")
	if err != nil {
		return nil, 0, err
	}
	first, err := next("first value")
	if err != nil {
		return nil, 0, err
	}
	if blockSize == 0 || blockSize%128 != 0 || blockSize > 1<<20 || miniblocks == 0 || blockSize%miniblocks != 0 || (blockSize/miniblocks)%8 != 0 {
		return nil, 0, invalidf("DELTA_BINARY_PACKED: block of %d values in %d miniblocks", blockSize, miniblocks)
	}
	if total > uint64(max) {
		return nil, 0, invalidf("DELTA_BINARY_PACKED: %d values where at most %d are expected", total, max)
	}
	perMini := int(blockSize / miniblocks)
	out := make([]int64, 0, total)
	if total == 0 {
		return out, pos, nil
	}
	v := int64(first>>1) ^ -int64(first&1)
	out = append(out, v)
	for uint64(len(out)) < total {
		md, err := next("min delta")
		if err != nil {
			return nil, 0, err
		}
		minDelta := int64(md>>1) ^ -int64(md&1)
		if uint64(len(data)-pos) < miniblocks {
			return nil, 0, invalidf("DELTA_BINARY_PACKED: truncated bit widths at byte %d", pos)
		}
		widths := data[pos : pos+int(miniblocks)]
		pos += int(miniblocks)
		for _, w := range widths {
			if uint64(len(out)) >= total {
				break
			}
			if w > 64 {
				return nil, 0, invalidf("DELTA_BINARY_PACKED: bit width %d at byte %d", w, pos)
			}
			nbytes := perMini * int(w) / 8
			if nbytes > len(data)-pos {
				return nil, 0, invalidf("DELTA_BINARY_PACKED: miniblock of %d bytes at byte %d exceeds the %d bytes left", nbytes, pos, len(data)-pos)
			}
			mb := data[pos : pos+nbytes]
			pos += nbytes
			for i := 0; i < perMini && uint64(len(out)) < total; i++ {
				d := readBits(mb, i*int(w), int(w))
				v += minDelta + int64(d)
				out = append(out, v)
			}
		}
	}
	return out, pos, nil
}

// readBits reads w bits (w <= 64) at bit offset off, least significant
// first.
func readBits(b []byte, off, w int) uint64 {
	var v uint64
	got := 0
	for got < w {
		byteIdx, shift := (off+got)>>3, (off+got)&7
		take := min(8-shift, w-got)
		v |= uint64(b[byteIdx]>>shift&(1<<take-1)) << got
		got += take
	}
	return v
}

// AppendDeltaBinaryPacked appends vals in DELTA_BINARY_PACKED encoding
// with blocks of 128 values in four miniblocks (INT64 arithmetic).
func AppendDeltaBinaryPacked(dst []byte, vals []int64) []byte {
	return appendDeltaBinaryPacked(dst, vals, false)
}

// AppendDeltaBinaryPacked32 appends vals, the values of an INT32 column,
// like AppendDeltaBinaryPacked but with the deltas wrapping at 32 bits, as
// the format asks of INT32: the minimum delta fits an int32 and no
// miniblock is wider than 32 bits.
func AppendDeltaBinaryPacked32(dst []byte, vals []int64) []byte {
	return appendDeltaBinaryPacked(dst, vals, true)
}

func appendDeltaBinaryPacked(dst []byte, vals []int64, wrap32 bool) []byte {
	const blockSize, miniblocks, perMini = 128, 4, 32
	dst = binary.AppendUvarint(dst, blockSize)
	dst = binary.AppendUvarint(dst, miniblocks)
	dst = binary.AppendUvarint(dst, uint64(len(vals)))
	if len(vals) == 0 {
		return binary.AppendVarint(dst, 0)
	}
	dst = binary.AppendVarint(dst, vals[0])
	deltas := make([]int64, 0, blockSize)
	for start := 1; start < len(vals); start += blockSize {
		end := min(start+blockSize, len(vals))
		deltas = deltas[:0]
		minDelta := int64(0)
		for i := start; i < end; i++ {
			d := vals[i] - vals[i-1]
			if wrap32 {
				d = int64(int32(d))
			}
			if i == start || d < minDelta {
				minDelta = d
			}
			deltas = append(deltas, d)
		}
		dst = binary.AppendVarint(dst, minDelta)
		wpos := len(dst)
		dst = append(dst, make([]byte, miniblocks)...)
		for m := 0; m < miniblocks && m*perMini < len(deltas); m++ {
			mini := deltas[m*perMini : min((m+1)*perMini, len(deltas))]
			var maxd uint64
			for _, d := range mini {
				maxd = max(maxd, uint64(d-minDelta))
			}
			w := BitWidth(maxd)
			dst[wpos+m] = byte(w)
			start := len(dst)
			dst = append(dst, make([]byte, perMini*w/8)...)
			out := dst[start:]
			for i, d := range mini {
				writeBits(out, i*w, w, uint64(d-minDelta))
			}
		}
	}
	return dst
}

func writeBits(b []byte, off, w int, v uint64) {
	for got := 0; got < w; {
		byteIdx, shift := (off+got)>>3, (off+got)&7
		take := min(8-shift, w-got)
		b[byteIdx] |= byte((v>>got)&(1<<take-1)) << shift
		got += take
	}
}

// DecodeDeltaLengthByteArray decodes n byte arrays of the
// DELTA_LENGTH_BYTE_ARRAY encoding and returns them with the bytes used.
func DecodeDeltaLengthByteArray(data []byte, n int) (Binary, int, error) {
	lens, pos, err := DecodeDeltaBinaryPacked(data, n)
	if err != nil {
		return Binary{}, 0, fmt.Errorf("lengths: %w", err)
	}
	if len(lens) != n {
		return Binary{}, 0, invalidf("DELTA_LENGTH_BYTE_ARRAY: %d lengths for %d values", len(lens), n)
	}
	out := Binary{Offsets: make([]int32, n+1)}
	total := 0
	for i, l := range lens {
		if l < 0 || l > int64(len(data)-pos-total) {
			return Binary{}, 0, invalidf("DELTA_LENGTH_BYTE_ARRAY: length %d of value %d exceeds the data", l, i)
		}
		total += int(l)
		out.Offsets[i+1] = int32(total)
	}
	out.Data = append([]byte(nil), data[pos:pos+total]...)
	return out, pos + total, nil
}

// AppendDeltaLengthByteArray appends b in DELTA_LENGTH_BYTE_ARRAY encoding.
func AppendDeltaLengthByteArray(dst []byte, b Binary) []byte {
	lens := make([]int64, b.Len())
	for i := range lens {
		lens[i] = int64(b.Offsets[i+1] - b.Offsets[i])
	}
	dst = AppendDeltaBinaryPacked(dst, lens)
	if b.Len() > 0 {
		dst = append(dst, b.Data[b.Offsets[0]:b.Offsets[b.Len()]]...)
	}
	return dst
}

// DecodeDeltaByteArray decodes n byte arrays of the DELTA_BYTE_ARRAY
// encoding (shared prefix lengths, then suffixes); the decoded bytes may
// not exceed maxBytes.
func DecodeDeltaByteArray(data []byte, n, maxBytes int) (Binary, int, error) {
	prefixes, pos, err := DecodeDeltaBinaryPacked(data, n)
	if err != nil {
		return Binary{}, 0, fmt.Errorf("prefix lengths: %w", err)
	}
	if len(prefixes) != n {
		return Binary{}, 0, invalidf("DELTA_BYTE_ARRAY: %d prefix lengths for %d values", len(prefixes), n)
	}
	suffixes, used, err := DecodeDeltaLengthByteArray(data[pos:], n)
	if err != nil {
		return Binary{}, 0, fmt.Errorf("suffixes: %w", err)
	}
	// The values' total size, known before any is copied: each value is
	// at most as long as the previous one plus its suffix.
	total, prevLen := int64(0), int64(0)
	for i, p := range prefixes {
		if p < 0 || p > prevLen {
			return Binary{}, 0, invalidf("DELTA_BYTE_ARRAY: prefix length %d of value %d exceeds the previous value's %d bytes", p, i, prevLen)
		}
		prevLen = p + int64(len(suffixes.Value(i)))
		if total += prevLen; total > int64(maxBytes) {
			return Binary{}, 0, fmt.Errorf("parquet encoding: %w: DELTA_BYTE_ARRAY: values exceed %d bytes", ErrLimit, maxBytes)
		}
	}
	out := Binary{Offsets: make([]int32, n+1), Data: make([]byte, 0, total)}
	var prev []byte
	for i, p := range prefixes {
		s := suffixes.Value(i)
		start := len(out.Data)
		out.Data = append(out.Data, prev[:p]...)
		out.Data = append(out.Data, s...)
		out.Offsets[i+1] = int32(len(out.Data))
		prev = out.Data[start:]
	}
	return out, pos + used, nil
}

// AppendDeltaByteArray appends b in DELTA_BYTE_ARRAY encoding.
func AppendDeltaByteArray(dst []byte, b Binary) []byte {
	prefixes := make([]int64, b.Len())
	var suffixes Binary
	suffixes.Offsets = append(suffixes.Offsets, 0)
	var prev []byte
	for i := range b.Len() {
		v := b.Value(i)
		p := 0
		for p < len(v) && p < len(prev) && v[p] == prev[p] {
			p++
		}
		prefixes[i] = int64(p)
		suffixes.Append(v[p:])
		prev = v
	}
	dst = AppendDeltaBinaryPacked(dst, prefixes)
	return AppendDeltaLengthByteArray(dst, suffixes)
}
