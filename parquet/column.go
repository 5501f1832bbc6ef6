package parquet

import (
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"
	"strings"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/memory"
	"github.com/alkaid-go/alkaid/parquet/internal/compress"
	"github.com/alkaid-go/alkaid/parquet/internal/encoding"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

// values holds decoded values of one physical type: fixed-width bytes
// (width bytes each), booleans (a byte each) or byte arrays.
type values struct {
	width int // fixed-width values; 0 otherwise
	fixed []byte
	bools []byte
	bin   encoding.Binary
	n     int
	// keepIdx: dictionary-encoded pages append their indices to idx
	// instead of the values they name (see keepIndices).
	keepIdx bool
	idx     []int32
}

func (v *values) appendValues(o *values) {
	v.fixed = append(v.fixed, o.fixed...)
	v.bools = append(v.bools, o.bools...)
	if o.bin.Len() > 0 {
		if len(v.bin.Offsets) == 0 {
			v.bin.Offsets = []int32{0}
		}
		// o's offsets need not start at zero (a slice of an array's).
		first, last := o.bin.Offsets[0], o.bin.Offsets[len(o.bin.Offsets)-1]
		base := int32(len(v.bin.Data)) - first
		v.bin.Data = append(v.bin.Data, o.bin.Data[first:last]...)
		for _, off := range o.bin.Offsets[1:] {
			v.bin.Offsets = append(v.bin.Offsets, base+off)
		}
	}
	v.n += o.n
}

// chunk is a decoded column chunk: levels of every entry and the values
// of the entries with def == maxDef. A reader with defBits keeps the
// definition levels (all 0 or 1) as the bitmap valid of slots entries
// instead, and def stays nil.
type chunk struct {
	def, rep []int16
	vals     values
	valid    []byte
	slots    int
	entries  int // levels, or values of a leaf with neither
}

// columnReader decodes the pages of one column chunk.
type columnReader struct {
	leaf     *node
	meta     *format.ColumnMetaData
	limits   Limits
	checkCRC bool // of pages that carry a CRC (WithPageCRC)
	dict     *values
	// dictMax is the length of the dictionary's longest byte array.
	dictMax int
	where   string
	// Scratch memory reused from page to page (bounded by the page size
	// limit): decompressed pages and dictionary indices.
	page []byte
	idx  []int32
	// defBits: a top-level leaf whose maximum definition level is 1 and
	// that does not repeat; its levels are decoded into a validity
	// bitmap (see chunk).
	defBits bool
	// spread (with defBits): a top-level optional fixed-width leaf whose
	// values are placed in their slots as each page is decoded, ready to
	// be the array's values buffer (see spreadLeaf); tmp is scratch for
	// values not PLAIN-encoded.
	spread bool
	tmp    values
	// keep, when set, says which data pages (by ordinal) are decoded;
	// the others are passed over. locs are their places in the file
	// (the offset index) and start the chunk's file offset.
	keep  []bool
	locs  []format.PageLocation
	start int64
	// The chunk read batch by batch (see next): its bytes, the next
	// page's position and ordinal among data pages, the values of the
	// pages read and of the metadata, and whether batches keep dictionary
	// indices (until a page of another encoding comes).
	data         []byte
	owned        []byte // data's pooled memory, when read from the file (see release)
	pos, ordinal int
	got, want    int64
	keepIdx      bool
	// spill holds the entries of a page decoded beyond a batch; those
	// before spillAt (values before spillVal) are in batches already.
	spill             *chunk
	spillAt, spillVal int
	budget            *budget // of the whole read, shared by its columns
	pageAt            int     // chunk byte of the page being read
	// lastPage and lastRows: the entries and records of the last data
	// page read, to size what the next batch holds.
	lastPage, lastRows int64
	dictArr            array.Array // the dictionary's values, built once
	// dictLent: the dictionary's fixed-width values are in pooled
	// memory, given back with the row group's unless dictArr holds them.
	dictLent bool
	// cut: the last batch ended before its rows, its byte arrays full
	// (see fitBytes).
	cut bool
	// scratch: the column's values are dropped after each batch (a
	// field read for the row filter alone); scratchIdx: its dictionary
	// indices are (a field read as indices under the row filter, whose
	// kept values are taken from the dictionary). Their memory is
	// pooled, lent until the row group is done (see buffer).
	scratch, scratchIdx bool
	lent                [][]byte
}

// open makes the reader read the column chunk whose bytes are data, a
// batch at a time (see next). With keepIdx, dictionary-encoded pages keep
// their indices (as long as no page of another encoding follows).
func (cr *columnReader) open(data []byte, keepIdx bool) error {
	cr.want = cr.meta.NumValues
	if cr.want < 0 {
		return invalidf("%s: %d values", cr.where, cr.want)
	}
	if cr.want > cr.limits.MaxChunkValues {
		return limitf("%s: %d values (limit %d)", cr.where, cr.want, cr.limits.MaxChunkValues)
	}
	cr.data, cr.keepIdx = data, keepIdx
	return nil
}

// readPage decodes the next page of the chunk: a data page into *out
// (made for rows rows if need be) when it is all part of the batch
// (direct: its entries are no more than need, the rows the batch still
// lacks, of a column that does not repeat), otherwise into a new spill.
func (cr *columnReader) readPage(out **chunk, need, rows int64) (direct bool, err error) {
	data := cr.data
	pos := cr.pos
	at := pos
	var h format.PageHeader
	n, err := thrift.Unmarshal(data[pos:], &h)
	if err != nil {
		return false, fmt.Errorf("parquet: %w: %s: page header at chunk byte %d: %v", ErrInvalid, cr.where, pos, err)
	}
	pos += n
	if h.CompressedPageSize < 0 || int(h.CompressedPageSize) > len(data)-pos {
		return false, invalidf("%s: page of %d bytes at chunk byte %d exceeds the chunk's %d bytes left", cr.where, h.CompressedPageSize, pos, len(data)-pos)
	}
	if h.UncompressedPageSize < 0 || int64(h.UncompressedPageSize) > cr.limits.MaxPageSize {
		return false, limitf("%s: page of %d uncompressed bytes (limit %d)", cr.where, h.UncompressedPageSize, cr.limits.MaxPageSize)
	}
	body := data[pos : pos+int(h.CompressedPageSize)]
	pos += int(h.CompressedPageSize)
	cr.pos, cr.pageAt = pos, at
	if h.CRC != nil && cr.checkCRC {
		if crc32.ChecksumIEEE(body) != uint32(*h.CRC) {
			return false, invalidf("%s: page at chunk byte %d: CRC mismatch", cr.where, pos-len(body))
		}
	}
	switch h.Type {
	case format.DictionaryPage:
		if err := cr.readDictionary(&h, body); err != nil {
			return false, err
		}
		return false, cr.charge(cr.dict.size())
	case format.DataPage, format.DataPageV2:
		k, skipped, err := cr.passOver(&h, cr.ordinal, at)
		cr.ordinal++
		if err != nil {
			return false, err
		}
		if !skipped {
			pagesDecoded.Add(1)
			entries := int64(pageEntries(&h))
			est := cr.estimate(entries)
			if err := cr.charge(est); err != nil {
				return false, err
			}
			var dst *chunk
			direct = cr.leaf.maxRep == 0 && entries <= need && !cr.mayOverflow(&h, *out, entries)
			if direct {
				if *out == nil {
					*out = cr.newChunk(rows)
				}
				dst = *out
			} else {
				dst = cr.newSpill(int(min(entries, cr.want-cr.got)), cr.keepIdx)
			}
			before := dst.size()
			k, err = cr.readDataPage(&h, body, dst)
			if err != nil {
				return false, err
			}
			dst.entries += k
			cr.lastPage = int64(k)
			if cr.leaf.maxRep > 0 {
				cr.lastRows = int64(countLevel(dst.rep[len(dst.rep)-k:], 0))
			}
			if !dst.vals.keepIdx && cr.keepIdx {
				// A page not dictionary-encoded: the batch and those
				// after it hold values.
				cr.keepIdx = false
				if *out != nil {
					if err := cr.keepIndices(&(*out).vals); err != nil {
						return false, err
					}
				}
			}
			if err := cr.charge(dst.size() - before - est); err != nil {
				return false, err
			}
		}
		cr.got += int64(k)
		if cr.got > cr.want {
			return false, invalidf("%s: pages hold more than the %d values of the metadata", cr.where, cr.want)
		}
	default:
		// Index pages and unknown page types carry no values.
	}
	cr.releaseScratch()
	return direct, nil
}

// releaseScratch gives the reader's scratch (see pageBuffer) back for
// reuse once a page is decoded (nothing read keeps a reference to it): a
// scan of many files reuses it instead of allocating it anew for each
// chunk.
func (cr *columnReader) releaseScratch() {
	if cr.page != nil {
		putPageBuffer(cr.page)
		cr.page = nil
	}
	if cr.idx != nil {
		putPageBuffer(memory.BytesOf(cr.idx[:cap(cr.idx)]))
		cr.idx = nil
	}
}

// pageEntries is the number of entries a data page header declares (0
// when it has none; readDataPage checks it).
func pageEntries(h *format.PageHeader) int32 {
	switch {
	case h.Type == format.DataPage && h.DataPageHeader != nil:
		return max(0, h.DataPageHeader.NumValues)
	case h.Type == format.DataPageV2 && h.DataPageHeaderV2 != nil:
		return max(0, h.DataPageHeaderV2.NumValues)
	}
	return 0
}

func physicalWidth(e *format.SchemaElement) int {
	switch *e.Type {
	case format.Int32, format.Float:
		return 4
	case format.Int64, format.Double:
		return 8
	case format.Int96:
		return 12
	case format.FixedLenByteArray:
		return typeLength(e)
	}
	return 0
}

// decompress decodes a page body into the reader's scratch memory: the
// result is valid until the next call.
func (cr *columnReader) decompress(body []byte, size int) ([]byte, error) {
	if cap(cr.page) < size && cr.meta.Codec != format.Uncompressed {
		if cr.page != nil {
			putPageBuffer(cr.page)
		}
		cr.page = pageBuffer(size)
	}
	out, err := cr.decompressInto(cr.page, body, size)
	if err == nil && len(out) > 0 && cap(out) > cap(cr.page) && (len(body) == 0 || &out[0] != &body[0]) {
		cr.page = out[:0]
	}
	return out, err
}

// plainInPlace reports whether the values of v1 data page h go straight
// to out's values as they are decompressed: PLAIN fixed-width values of
// a leaf without levels, filling the page exactly, in a compressed
// chunk.
func (cr *columnReader) plainInPlace(h *format.PageHeader, out *chunk) bool {
	dh, w := h.DataPageHeader, out.vals.width
	return cr.leaf.maxRep == 0 && cr.leaf.maxDef == 0 && !cr.defBits && dh.Encoding == format.Plain &&
		w > 0 && !out.vals.keepIdx && cr.meta.Codec != format.Uncompressed &&
		int64(h.UncompressedPageSize) == int64(dh.NumValues)*int64(w)
}

// decompressValues decompresses body, the n values of a page that
// plainInPlace accepts, of size bytes, onto the end of dst's values.
func (cr *columnReader) decompressValues(body []byte, size, n int, dst *values) error {
	start := len(dst.fixed)
	dst.fixed = encoding.Grow(dst.fixed, size)[:start+size]
	out, err := cr.decompressInto(dst.fixed[start:], body, size)
	if err != nil {
		dst.fixed = dst.fixed[:start]
		return err
	}
	if len(out) > 0 && &out[0] != &dst.fixed[start] {
		copy(dst.fixed[start:], out) // a codec that decodes elsewhere
	}
	dst.n += n
	return nil
}

// decompressInto decodes a page body of size bytes, uncompressed, into
// scratch when it has room.
func (cr *columnReader) decompressInto(scratch, body []byte, size int) ([]byte, error) {
	if cr.meta.Codec != format.Uncompressed {
		if err := cr.charge(int64(size)); err != nil {
			return nil, err
		}
	}
	out, err := compress.DecompressInto(cr.meta.Codec, scratch, body, size)
	if errors.Is(err, compress.ErrNotSupported) {
		return nil, unsupportedf("%s: codec %s", cr.where, cr.meta.Codec)
	}
	if err != nil {
		return nil, fmt.Errorf("parquet: %w: %s: %v", ErrInvalid, cr.where, err)
	}
	return out, nil
}

func (cr *columnReader) readDictionary(h *format.PageHeader, body []byte) error {
	dh := h.DictionaryPageHeader
	if dh == nil {
		return invalidf("%s: dictionary page without its header", cr.where)
	}
	if cr.dict != nil {
		return invalidf("%s: a second dictionary page", cr.where)
	}
	page, err := cr.decompress(body, int(h.UncompressedPageSize))
	if err != nil {
		return err
	}
	if dh.NumValues < 0 {
		return invalidf("%s: dictionary of %d values", cr.where, dh.NumValues)
	}
	if dh.Encoding != format.Plain && dh.Encoding != format.PlainDictionary {
		return unsupportedf("%s: dictionary page encoding %s", cr.where, dh.Encoding)
	}
	v := &values{width: physicalWidth(cr.leaf.elem)}
	if n := int64(dh.NumValues) * int64(v.width); n > 0 && n <= int64(len(page)) {
		// Lent until the row group is done, unless the dictionary
		// becomes an array of a batch (see dictArr and release).
		v.fixed, cr.dictLent = pageBuffer(int(n)), true
	}
	if err := cr.decodeValues(format.Plain, page, int(dh.NumValues), v); err != nil {
		return wrapf(err, "%s: dictionary page", cr.where)
	}
	cr.dict = v
	for i := 1; i < len(v.bin.Offsets); i++ {
		cr.dictMax = max(cr.dictMax, int(v.bin.Offsets[i]-v.bin.Offsets[i-1]))
	}
	return nil
}

// readDataPage decodes one data page into out and returns its number of
// entries.
func (cr *columnReader) readDataPage(h *format.PageHeader, body []byte, out *chunk) (int, error) {
	leaf := cr.leaf
	var n int
	var page []byte
	var enc format.Encoding
	var err error
	defStart, repStart := len(out.def), len(out.rep)
	if h.Type == format.DataPage {
		dh := h.DataPageHeader
		if dh == nil {
			return 0, invalidf("%s: data page without its header", cr.where)
		}
		n, enc = int(dh.NumValues), dh.Encoding
		if err := cr.checkCount(n); err != nil {
			return 0, err
		}
		if cr.plainInPlace(h, out) {
			return n, cr.decompressValues(body, int(h.UncompressedPageSize), n, &out.vals)
		}
		if page, err = cr.decompress(body, int(h.UncompressedPageSize)); err != nil {
			return 0, err
		}
		if page, err = cr.levelsV1(page, n, leaf.maxRep, dh.RepetitionLevelEncoding, "repetition", &out.rep); err != nil {
			return 0, err
		}
		if cr.defBits {
			page, err = cr.defBitsV1(page, n, dh.DefinitionLevelEncoding, out)
		} else {
			page, err = cr.levelsV1(page, n, leaf.maxDef, dh.DefinitionLevelEncoding, "definition", &out.def)
		}
		if err != nil {
			return 0, err
		}
	} else {
		dh := h.DataPageHeaderV2
		if dh == nil {
			return 0, invalidf("%s: data page v2 without its header", cr.where)
		}
		n, enc = int(dh.NumValues), dh.Encoding
		if err := cr.checkCount(n); err != nil {
			return 0, err
		}
		rl, dl := int(dh.RepetitionLevelsByteLength), int(dh.DefinitionLevelsByteLength)
		if rl < 0 || dl < 0 || rl+dl > len(body) || rl+dl > int(h.UncompressedPageSize) {
			return 0, invalidf("%s: v2 levels of %d+%d bytes in a page of %d", cr.where, rl, dl, len(body))
		}
		if err = cr.levelsV2(body[:rl], n, leaf.maxRep, "repetition", &out.rep); err != nil {
			return 0, err
		}
		switch {
		case dl == 0 && leaf.maxDef > 0 && dh.NumNulls == dh.NumValues:
			// No levels written for a page of nulls only (other
			// writers' empty pages): every level is 0.
			if cr.defBits {
				growBits(&out.valid, out.slots+n)
			} else {
				clear(growLevels(&out.def, n))
			}
		case cr.defBits:
			err = cr.defBitsV2(body[rl:rl+dl], n, out)
		default:
			err = cr.levelsV2(body[rl:rl+dl], n, leaf.maxDef, "definition", &out.def)
		}
		if err != nil {
			return 0, err
		}
		page = body[rl+dl:]
		if len(page) == 0 && int(h.UncompressedPageSize) == rl+dl {
			// No values: nothing was given to the codec.
		} else if dh.IsCompressed == nil || *dh.IsCompressed {
			if page, err = cr.decompress(page, int(h.UncompressedPageSize)-rl-dl); err != nil {
				return 0, err
			}
		}
	}
	if leaf.maxRep > 0 && len(out.rep) > repStart && out.rep[repStart] != 0 {
		// Pages that follow skipped ones must start a record: files with
		// an offset index begin every page at a record boundary.
		if cr.ordinal == 1 { // the chunk's first data page
			return 0, invalidf("%s: the first entry has repetition level %d", cr.where, out.rep[repStart])
		}
		if cr.keep != nil {
			return 0, invalidf("%s: a data page starts inside a record (repetition level %d), though the file has an offset index", cr.where, out.rep[repStart])
		}
	}
	present := n
	slot := out.slots
	if cr.defBits {
		present = bitutil.CountSetBits(out.valid, slot, n)
		out.slots += n
	} else if leaf.maxDef > 0 {
		present = countLevel(out.def[defStart:], leaf.maxDef)
	}
	if cr.spread && present < n {
		raw, err := cr.spreadSource(enc, page, present, out.vals.width)
		if err != nil {
			return 0, wrapf(err, "%s: data page", cr.where)
		}
		spreadInto(&out.vals, out.valid, slot, n, raw)
		out.vals.n += present
		return n, nil
	}
	// A spread page without nulls has its values in their slots as
	// decoded: they go to out directly, not through the scratch.
	if err := cr.decodeValues(enc, page, present, &out.vals); err != nil {
		return 0, wrapf(err, "%s: data page", cr.where)
	}
	return n, nil
}

// spreadSource returns the present values of a page of a spread leaf:
// PLAIN values are read in place, others decoded into the reader's
// scratch.
func (cr *columnReader) spreadSource(enc format.Encoding, page []byte, present, width int) ([]byte, error) {
	if enc == format.Plain {
		raw, err := encoding.DecodePlainFixed(page, present, width)
		if err != nil {
			return nil, fmt.Errorf("parquet: %w: %s: %v", ErrInvalid, enc, err)
		}
		return raw, nil
	}
	t := &cr.tmp
	t.width, t.n, t.fixed = width, 0, t.fixed[:0]
	if err := cr.decodeValues(enc, page, present, t); err != nil {
		return nil, err
	}
	return t.fixed, nil
}

// countLevel returns how many levels equal max, four at a time and
// without a branch per level (levels of nested data follow no pattern a
// predictor learns). Levels are never negative.
func countLevel(lv []int16, max int16) int {
	const low15 = 0x7fff_7fff_7fff_7fff
	const high = 0x8000_8000_8000_8000
	m := uint64(uint16(max)) * 0x0001_0001_0001_0001
	n := 0
	i := 0
	for ; i+4 <= len(lv); i += 4 {
		q := lv[i : i+4 : i+4]
		w := uint64(uint16(q[0])) | uint64(uint16(q[1]))<<16 | uint64(uint16(q[2]))<<32 | uint64(uint16(q[3]))<<48
		x := w ^ m
		// A lane's high bit ends up set when the lane is not zero.
		nz := ((x & low15) + low15 | x) & high
		n += 4 - bits.OnesCount64(nz)
	}
	for ; i < len(lv); i++ {
		n += int((uint32(int32(lv[i])^int32(max)) - 1) >> 31)
	}
	return n
}

// spreadInto appends n slots to dst.fixed, one per bit of valid from
// bit off: the next value of raw (which holds one per set bit) where the
// bit is set, zeros elsewhere.
func spreadInto(dst *values, valid []byte, off, n int, raw []byte) {
	w := dst.width
	start := len(dst.fixed)
	dst.fixed = encoding.Grow(dst.fixed, n*w)[:start+n*w]
	out := dst.fixed[start:]
	k := 0
	for r := range bitutil.Runs(valid, off, n) {
		s, e := r.Start*w, (r.Start+r.Len)*w
		if !r.Set {
			clear(out[s:e])
			continue
		}
		copy(out[s:e], raw[k:])
		k += e - s
	}
}

func (cr *columnReader) checkCount(n int) error {
	if n < 0 {
		return invalidf("%s: page of %d values", cr.where, n)
	}
	if int64(n) > cr.limits.MaxPageValues {
		return limitf("%s: page of %d values (limit %d)", cr.where, n, cr.limits.MaxPageValues)
	}
	return nil
}

// levelsV1 decodes the n levels at the start of a v1 page, appends them
// to dst and returns the rest of the page.
func (cr *columnReader) levelsV1(page []byte, n int, max int16, enc format.Encoding, what string, dst *[]int16) ([]byte, error) {
	if max == 0 {
		return page, nil
	}
	bw := encoding.BitWidth(uint64(max))
	tmp := growLevels(dst, n)
	var used int
	var err error
	switch enc {
	case format.RLE:
		used, err = encoding.DecodeLengthPrefixedRLE(tmp, page, bw)
	case format.BitPacked:
		used, err = encoding.DecodeBitPacked(tmp, page, bw)
	default:
		return nil, unsupportedf("%s: %s levels in encoding %s", cr.where, what, enc)
	}
	if err != nil {
		return nil, fmt.Errorf("parquet: %w: %s: %s levels: %v", ErrInvalid, cr.where, what, err)
	}
	return page[used:], cr.narrow(tmp, max, what)
}

// defBitsV1 decodes the n definition levels (maximum 1) at the start of a
// v1 page into out's bitmap and returns the rest of the page.
func (cr *columnReader) defBitsV1(page []byte, n int, enc format.Encoding, out *chunk) ([]byte, error) {
	growBits(&out.valid, out.slots+n)
	if enc != format.RLE {
		// The legacy BIT_PACKED levels go through level values.
		var lv []int16
		rest, err := cr.levelsV1(page, n, 1, enc, "definition", &lv)
		if err != nil {
			return nil, err
		}
		setLevelBits(out.valid, out.slots, lv)
		return rest, nil
	}
	used, err := encoding.DecodeLengthPrefixedRLEBits(out.valid, out.slots, n, page)
	if err != nil {
		return nil, fmt.Errorf("parquet: %w: %s: definition levels: %v", ErrInvalid, cr.where, err)
	}
	return page[used:], nil
}

// defBitsV2 decodes the n definition levels (maximum 1) of a v2 page
// into out's bitmap.
func (cr *columnReader) defBitsV2(data []byte, n int, out *chunk) error {
	growBits(&out.valid, out.slots+n)
	if _, err := encoding.DecodeRLEBits(out.valid, out.slots, n, data); err != nil {
		return fmt.Errorf("parquet: %w: %s: definition levels: %v", ErrInvalid, cr.where, err)
	}
	return nil
}

// growBits makes *b hold at least nbits bits, the new ones clear.
func growBits(b *[]byte, nbits int) {
	need := (nbits + 7) / 8
	if need <= len(*b) {
		return
	}
	if need <= cap(*b) {
		old := len(*b)
		*b = (*b)[:need]
		clear((*b)[old:])
		return
	}
	nb := make([]byte, need, max(need, 2*cap(*b)))
	copy(nb, *b)
	*b = nb
}

// setLevelBits sets bit off+i of b where lv[i] is 1.
func setLevelBits(b []byte, off int, lv []int16) {
	for i, d := range lv {
		b[(off+i)>>3] |= byte(d&1) << ((off + i) & 7)
	}
}

// levelsV2 decodes n levels of a v2 page and appends them to dst.
func (cr *columnReader) levelsV2(data []byte, n int, max int16, what string, dst *[]int16) error {
	if max == 0 {
		return nil
	}
	tmp := growLevels(dst, n)
	if _, err := encoding.DecodeRLE(tmp, data, encoding.BitWidth(uint64(max))); err != nil {
		return fmt.Errorf("parquet: %w: %s: %s levels: %v", ErrInvalid, cr.where, what, err)
	}
	return cr.narrow(tmp, max, what)
}

// growLevels extends *dst by n levels and returns them.
func growLevels(dst *[]int16, n int) []int16 {
	start := len(*dst)
	*dst = encoding.Grow(*dst, n)[:start+n]
	return (*dst)[start:]
}

// narrow checks decoded levels against their maximum (unless their bit
// width cannot exceed it).
func (cr *columnReader) narrow(lv []int16, max int16, what string) error {
	if int(max) == 1<<encoding.BitWidth(uint64(max))-1 {
		return nil
	}
	for i, v := range lv {
		if v > max || v < 0 {
			return invalidf("%s: %s level %d above the maximum %d at entry %d", cr.where, what, v, max, i)
		}
	}
	return nil
}

func pathString(p []string) string { return strings.Join(p, ".") }
