package ipc

import (
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/pierrec/lz4/v4"
)

// The LZ4 frame format (lz4_Frame_format.md) around the block codec of
// github.com/pierrec/lz4: framing it here lets the writer compress each
// block straight from the source buffer into the output and the reader
// decompress each block straight into the final buffer, with no staging
// copies.
const (
	lz4Magic         = 0x184D2204
	lz4BlockMax      = 4 << 20 // block maximum size written (BD code 7)
	lz4Uncompressed  = 1 << 31 // block size flag: the block is stored raw
	lz4FlagVersion   = 0x40    // FLG bits 7-6: version 01
	lz4FlagIndep     = 0x20
	lz4FlagBlockSum  = 0x10
	lz4FlagSize      = 0x08
	lz4FlagContent   = 0x04
	lz4FlagDictID    = 0x01
	lz4FlagsReserved = 0x02
)

var lz4Compressors = sync.Pool{New: func() any { return new(lz4.Compressor) }}

// appendLZ4Frame appends to dst one LZ4 frame holding src: independent
// blocks of up to 4 MiB, no checksums (as Apache Arrow's writers), each
// block stored raw when compression does not shrink it. level > 0 selects
// the high-compression block codec at that depth.
func appendLZ4Frame(dst, src []byte, level int) ([]byte, error) {
	dst = appendLZ4Header(dst)
	for len(src) > 0 {
		block := src[:min(len(src), lz4BlockMax)]
		src = src[len(block):]
		dst = appendLZ4Block(dst, block, level)
	}
	return appendLZ4End(dst), nil
}

// appendLZ4Header appends the frame header appendLZ4Frame writes.
func appendLZ4Header(dst []byte) []byte {
	desc := [2]byte{lz4FlagVersion | lz4FlagIndep, 7 << 4}
	dst = binary.LittleEndian.AppendUint32(dst, lz4Magic)
	return append(dst, desc[0], desc[1], byte(xxh32(desc[:])>>8))
}

// appendLZ4End appends the end mark of a frame.
func appendLZ4End(dst []byte) []byte { return append(dst, lz4EndMark...) }

// lz4EndMark is a frame's end mark (a zero block size), shared as a piece.
var lz4EndMark = []byte{0, 0, 0, 0}

// appendLZ4Block appends one block of at most lz4BlockMax bytes in its
// wire form: its size, then the compressed bytes, or the block itself with
// the size's high bit set when compression does not shrink it.
func appendLZ4Block(dst, block []byte, level int) []byte {
	at := len(dst)
	dst = growLen(dst, 4+len(block))
	// An output buffer one byte short of the block makes the codec give
	// up (0) as soon as the block cannot shrink.
	out := dst[at+4 : at+4+len(block)-1]
	var n int
	var err error
	if level > 0 {
		hc := lz4.CompressorHC{Level: lz4.CompressionLevel(1 << (8 + min(level, 9)))}
		n, err = hc.CompressBlock(block, out)
	} else {
		c := lz4Compressors.Get().(*lz4.Compressor)
		n, err = c.CompressBlock(block, out)
		lz4Compressors.Put(c)
	}
	if err != nil || n == 0 {
		binary.LittleEndian.PutUint32(dst[at:], uint32(len(block))|lz4Uncompressed)
		copy(dst[at+4:], block)
		return dst
	}
	binary.LittleEndian.PutUint32(dst[at:], uint32(n))
	return dst[:at+4+n]
}

// growLen extends b by n bytes, reallocating only when its capacity is short.
func growLen(b []byte, n int) []byte {
	if cap(b)-len(b) < n {
		nb := make([]byte, len(b), 2*cap(b)+n)
		copy(nb, b)
		b = nb
	}
	return b[:len(b)+n]
}

// readLZ4Frames decompresses one or more concatenated LZ4 frames from src
// into dst, which they must fill exactly. Checksums present in a frame are
// verified; blocks are decoded in place, linked blocks with the preceding
// 64 KiB of dst as their dictionary.
func readLZ4Frames(dst, src []byte) error {
	pos := 0
	for len(src) > 0 {
		var err error
		if src, pos, err = readLZ4Frame(dst, src, pos); err != nil {
			return err
		}
	}
	if pos != len(dst) {
		return fmt.Errorf("lz4 frame holds %d bytes, stated %d", pos, len(dst))
	}
	return nil
}

func readLZ4Frame(dst, src []byte, pos int) ([]byte, int, error) {
	if len(src) < 7 {
		return nil, 0, fmt.Errorf("lz4 frame header truncated (%d bytes)", len(src))
	}
	if m := binary.LittleEndian.Uint32(src); m != lz4Magic {
		return nil, 0, fmt.Errorf("lz4 frame magic %#x, want %#x", m, lz4Magic)
	}
	flg, bd := src[4], src[5]
	if flg&0xC0 != lz4FlagVersion || flg&lz4FlagsReserved != 0 || bd&0x8F != 0 {
		return nil, 0, fmt.Errorf("lz4 frame descriptor %#02x %#02x is not version 01 or sets reserved bits", flg, bd)
	}
	if bd>>4 < 4 {
		return nil, 0, fmt.Errorf("lz4 block maximum size code %d is invalid", bd>>4)
	}
	blockMax := 1 << (8 + 2*int(bd>>4))
	descLen := 2
	if flg&lz4FlagSize != 0 {
		descLen += 8
	}
	if flg&lz4FlagDictID != 0 {
		descLen += 4
	}
	if len(src) < 4+descLen+1 {
		return nil, 0, fmt.Errorf("lz4 frame header truncated (%d bytes)", len(src))
	}
	desc := src[4 : 4+descLen]
	if hc := byte(xxh32(desc) >> 8); hc != src[4+descLen] {
		return nil, 0, fmt.Errorf("lz4 frame header checksum %#02x, computed %#02x", src[4+descLen], hc)
	}
	if flg&lz4FlagDictID != 0 {
		return nil, 0, fmt.Errorf("lz4 frame needs a dictionary, which IPC buffers cannot have")
	}
	start := pos
	if flg&lz4FlagSize != 0 {
		if size := binary.LittleEndian.Uint64(desc[2:]); size > uint64(len(dst)-pos) {
			return nil, 0, fmt.Errorf("lz4 frame content size %d exceeds the %d bytes stated", size, len(dst)-pos)
		}
	}
	src = src[4+descLen+1:]
	for {
		if len(src) < 4 {
			return nil, 0, fmt.Errorf("lz4 frame truncated before its end mark")
		}
		size := binary.LittleEndian.Uint32(src)
		src = src[4:]
		if size == 0 {
			break
		}
		raw := size&lz4Uncompressed != 0
		n := int(size &^ lz4Uncompressed)
		if n > blockMax || n > len(src) {
			return nil, 0, fmt.Errorf("lz4 block of %d bytes exceeds the frame's block maximum %d or the %d bytes left", n, blockMax, len(src))
		}
		block := src[:n]
		src = src[n:]
		if flg&lz4FlagBlockSum != 0 {
			if len(src) < 4 {
				return nil, 0, fmt.Errorf("lz4 block checksum truncated")
			}
			if got, want := xxh32(block), binary.LittleEndian.Uint32(src); got != want {
				return nil, 0, fmt.Errorf("lz4 block checksum %#x, computed %#x", want, got)
			}
			src = src[4:]
		}
		out := dst[pos:min(len(dst), pos+blockMax)]
		if raw {
			if n > len(out) {
				return nil, 0, fmt.Errorf("lz4 frame holds more than the %d bytes stated", len(dst))
			}
			pos += copy(out, block)
			continue
		}
		var k int
		var err error
		if flg&lz4FlagIndep != 0 {
			k, err = lz4.UncompressBlock(block, out)
		} else {
			k, err = lz4.UncompressBlockWithDict(block, out, dst[max(start, pos-64<<10):pos])
		}
		if err != nil {
			return nil, 0, fmt.Errorf("lz4 block at output byte %d: %v", pos, err)
		}
		pos += k
	}
	if flg&lz4FlagSize != 0 {
		if size := binary.LittleEndian.Uint64(desc[2:]); size != uint64(pos-start) {
			return nil, 0, fmt.Errorf("lz4 frame states content size %d, holds %d", size, pos-start)
		}
	}
	if flg&lz4FlagContent != 0 {
		if len(src) < 4 {
			return nil, 0, fmt.Errorf("lz4 content checksum truncated")
		}
		if got, want := xxh32(dst[start:pos]), binary.LittleEndian.Uint32(src); got != want {
			return nil, 0, fmt.Errorf("lz4 content checksum %#x, computed %#x", want, got)
		}
		src = src[4:]
	}
	return src, pos, nil
}
