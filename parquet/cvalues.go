package parquet

// Decoding the values of a page in each encoding, and dictionary indices.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/alkaid-go/alkaid/memory"
	"github.com/alkaid-go/alkaid/parquet/internal/encoding"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// decodeValues decodes n values of the column's physical type and
// appends them to dst, whose width is the column's.
func (cr *columnReader) decodeValues(enc format.Encoding, data []byte, n int, dst *values) error {
	e := cr.leaf.elem
	width := physicalWidth(e)
	wrap := func(err error) error {
		if errors.Is(err, encoding.ErrLimit) {
			return fmt.Errorf("parquet: %w: %s: %v", ErrLimit, enc, err)
		}
		return fmt.Errorf("parquet: %w: %s: %v", ErrInvalid, enc, err)
	}
	typ := *e.Type
	if enc != format.PlainDictionary && enc != format.RLEDictionary {
		if err := cr.keepIndices(dst); err != nil {
			return err
		}
	}
	switch enc {
	case format.Plain:
		switch typ {
		case format.Boolean:
			start := len(dst.bools)
			dst.bools = encoding.Grow(dst.bools, n)[:start+n]
			if _, err := encoding.DecodePlainBool(dst.bools[start:], data); err != nil {
				return wrap(err)
			}
		case format.ByteArray:
			if _, err := encoding.DecodePlainBinaryTo(&dst.bin, data, n); err != nil {
				return wrap(err)
			}
		default:
			f, err := encoding.DecodePlainFixed(data, n, width)
			if err != nil {
				return wrap(err)
			}
			dst.fixed = append(dst.fixed, f...)
		}
	case format.PlainDictionary, format.RLEDictionary:
		if err := cr.decodeDictIndices(data, n, dst); err != nil {
			return err
		}
		dst.n += n
		return nil
	case format.RLE:
		if typ != format.Boolean {
			return unsupportedf("RLE values of type %s", typ)
		}
		idx := cr.indices(n)
		if _, err := encoding.DecodeLengthPrefixedRLE(idx, data, 1); err != nil {
			return wrap(err)
		}
		for _, x := range idx {
			dst.bools = append(dst.bools, byte(x))
		}
	case format.DeltaBinaryPacked:
		if typ != format.Int32 && typ != format.Int64 {
			return unsupportedf("DELTA_BINARY_PACKED values of type %s", typ)
		}
		ints, _, err := encoding.DecodeDeltaBinaryPacked(data, n)
		if err != nil {
			return wrap(err)
		}
		if len(ints) != n {
			return invalidf("DELTA_BINARY_PACKED: %d values where %d were expected", len(ints), n)
		}
		for _, x := range ints {
			if width == 4 {
				dst.fixed = binary.LittleEndian.AppendUint32(dst.fixed, uint32(x))
			} else {
				dst.fixed = binary.LittleEndian.AppendUint64(dst.fixed, uint64(x))
			}
		}
	case format.DeltaLengthByteArray, format.DeltaByteArray:
		if typ != format.ByteArray && typ != format.FixedLenByteArray {
			return unsupportedf("%s values of type %s", enc, typ)
		}
		var b encoding.Binary
		var err error
		if enc == format.DeltaByteArray {
			b, _, err = encoding.DecodeDeltaByteArray(data, n, int(cr.pageLimit()))
		} else {
			b, _, err = encoding.DecodeDeltaLengthByteArray(data, n)
		}
		if err != nil {
			return wrap(err)
		}
		if typ == format.ByteArray {
			dst.appendValues(&values{bin: b})
			break
		}
		if len(b.Data) != n*width {
			return invalidf("%s: %d bytes for %d values of %d bytes", enc, len(b.Data), n, width)
		}
		for i := range n {
			if b.Offsets[i+1]-b.Offsets[i] != int32(width) {
				return invalidf("%s: value %d is not %d bytes long", enc, i, width)
			}
		}
		dst.fixed = append(dst.fixed, b.Data...)
	case format.ByteStreamSplit:
		if width == 0 {
			return unsupportedf("BYTE_STREAM_SPLIT values of type %s", typ)
		}
		f, err := encoding.DecodeByteStreamSplit(data, n, width)
		if err != nil {
			return wrap(err)
		}
		dst.fixed = append(dst.fixed, f...)
	default:
		return unsupportedf("encoding %s", enc)
	}
	dst.n += n
	return nil
}

// indices returns the reader's scratch for n dictionary indices.
func (cr *columnReader) indices(n int) []int32 {
	if cap(cr.idx) < n {
		if cr.idx != nil {
			putPageBuffer(memory.BytesOf(cr.idx[:cap(cr.idx)]))
		}
		b := pageBuffer(4 * n)
		cr.idx = memory.ViewBytes[int32](b[:cap(b)])
	}
	return cr.idx[:n]
}

// decodeDictIndices decodes n dictionary indices and appends the values
// they name to dst (without counting them in dst.n).
func (cr *columnReader) decodeDictIndices(data []byte, n int, dst *values) error {
	if cr.dict == nil {
		return invalidf("dictionary-encoded page without a dictionary page")
	}
	if len(data) < 1 {
		if n == 0 {
			return nil
		}
		return invalidf("dictionary indices: missing bit width")
	}
	idx := cr.indices(n)
	if dst.keepIdx {
		start := len(dst.idx)
		dst.idx = encoding.Grow(dst.idx, n)[:start+n]
		idx = dst.idx[start:]
	}
	if _, err := encoding.DecodeRLE(idx, data[1:], int(data[0])); err != nil {
		return fmt.Errorf("parquet: %w: dictionary indices: %v", ErrInvalid, err)
	}
	d := cr.dict
	if !dst.keepIdx && d.bools == nil && (d.width == 4 || d.width == 8) {
		return cr.gather(idx, dst) // checks the indices as it gathers
	}
	for i, x := range idx {
		if uint32(x) >= uint32(d.n) {
			return invalidf("dictionary index %d at value %d out of range [0, %d)", x, i, d.n)
		}
	}
	if dst.keepIdx {
		return nil
	}
	return cr.gather(idx, dst)
}

// keepIndices turns a chunk that kept dictionary indices into one of
// values: a page that is not dictionary-encoded follows (the writer fell
// back to PLAIN).
func (cr *columnReader) keepIndices(dst *values) error {
	if !dst.keepIdx {
		return nil
	}
	dst.keepIdx = false
	if len(dst.idx) == 0 {
		return nil
	}
	idx := dst.idx
	dst.idx = nil
	for start := 0; start < len(idx); {
		// Gather in slices of at most one page's worth of values so the
		// per-page size limit still applies.
		end := min(len(idx), start+int(max(1, cr.limits.MaxPageValues)))
		if err := cr.gather(idx[start:end], dst); err != nil {
			return err
		}
		start = end
	}
	return nil
}

// gatherWords sets out[i] to dict[idx[i]] (out as long as idx) and
// returns the first i whose index is out of range (or -1), where it
// stops. Words are moved as they are, in memory order: the values stay
// little-endian.
func gatherWords[T uint32 | uint64](out, dict []T, idx []int32) int {
	out = out[:len(idx)]
	for i, x := range idx {
		if uint32(x) >= uint32(len(dict)) {
			return i
		}
		out[i] = dict[x]
	}
	return -1
}

// firstN is the first n elements of s, or all of s when it has fewer.
func firstN[T any](s []T, n int) []T { return s[:max(0, min(n, len(s)))] }

// gather appends the dictionary values named by idx to dst: all in
// range, but for 4- and 8-byte values, whose indices it checks.
func (cr *columnReader) gather(idx []int32, dst *values) error {
	d := cr.dict
	n := len(idx)
	switch {
	case d.bools != nil:
		for _, x := range idx {
			dst.bools = append(dst.bools, d.bools[x])
		}
	case d.width > 0:
		w := d.width
		if lim := cr.pageLimit(); int64(n)*int64(w) > lim {
			return limitf("%d dictionary-encoded values of %d bytes exceed %d bytes (%s)", n, w, lim, cr.pageLimitName())
		}
		start := len(dst.fixed)
		dst.fixed = encoding.Grow(dst.fixed, n*w)[:start+n*w]
		out := dst.fixed[start:]
		// Whole-word loads and stores: a copy per value would call
		// memmove for every one.
		bad := -1
		switch w {
		case 4:
			bad = gatherWords(memory.ViewBytes[uint32](out), firstN(memory.ViewBytes[uint32](d.fixed), d.n), idx)
		case 8:
			bad = gatherWords(memory.ViewBytes[uint64](out), firstN(memory.ViewBytes[uint64](d.fixed), d.n), idx)
		default:
			for i, x := range idx {
				copy(out[i*w:(i+1)*w], d.fixed[int(x)*w:int(x+1)*w])
			}
		}
		if bad >= 0 {
			dst.fixed = dst.fixed[:start]
			return invalidf("dictionary index %d at value %d out of range [0, %d)", idx[bad], bad, d.n)
		}
	default:
		total := 0
		lim := cr.pageLimit()
		for _, x := range idx {
			total += int(d.bin.Offsets[x+1] - d.bin.Offsets[x])
			if int64(total) > lim {
				return limitf("dictionary-encoded byte arrays exceed %d bytes (%s)", lim, cr.pageLimitName())
			}
		}
		if len(dst.bin.Data)+total > math.MaxInt32 {
			return limitf("byte arrays of the chunk exceed %d bytes", math.MaxInt32)
		}
		if len(dst.bin.Offsets) == 0 {
			dst.bin.Offsets = make([]int32, 1, n+1)
		}
		offs := encoding.Grow(dst.bin.Offsets, n)
		// Values are written into data's capacity at w, short ones with
		// Copy32 (total leaves room for every value).
		data := encoding.Grow(dst.bin.Data, total)
		w := len(data)
		data = data[:cap(data)]
		src, so := d.bin.Data, d.bin.Offsets
		for _, x := range idx {
			lo, hi := int(so[x]), int(so[x+1])
			if hi-lo <= 32 && len(src)-lo >= 32 && len(data)-w >= 32 {
				encoding.Copy32(data[w:], src[lo:])
			} else {
				copy(data[w:], src[lo:hi])
			}
			w += hi - lo
			offs = append(offs, int32(w))
		}
		dst.bin.Offsets, dst.bin.Data = offs, data[:w]
	}
	return nil
}
