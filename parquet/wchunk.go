package parquet

import (
	"encoding/binary"
	"slices"

	"github.com/alkaid-go/alkaid/parquet/internal/encoding"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// encodeChunk encodes the pages of one column chunk, giving each page's
// pieces to emit in order as soon as it is compressed, and returns the
// chunk's metadata, whose offsets count from the chunk's start (see
// placeChunk).
//
// With a bloom filter asked for the column, it is returned too (header
// and bitset).
func (w *Writer) encodeChunk(l *wleaf, segs []segment, emit func(pieces ...[]byte)) (format.ColumnChunk, *chunkIndex, []byte, error) {
	name := pathString(l.path)
	codec := w.cfg.codec
	if c, ok := w.cfg.colCodec[name]; ok {
		codec = c
	}
	maxDef, maxRep := segs[0].maxDef, segs[0].maxRep
	var def, rep []int16
	all := &values{width: l.width}
	entries := 0
	var dictPage []byte
	var indices []int32
	var dictN int
	var nulls int64
	var dictVals *values // the chunk's own dictionary, when all holds its used values only
	if w.dictChunk(l, segs, name) {
		// The field's own dictionary becomes the chunk's.
		s := segs[0]
		def, entries, indices, dictN = s.def, s.n, s.idx, s.dict.n
		dictPage = encodeValues(nil, format.Plain, l, s.dict)
		all = usedValues(s.dict, s.idx)
		dictVals = s.dict
		nulls = int64(entries - len(indices))
		segs = nil
	} else if len(segs) == 1 {
		// One record: its values need no second copy.
		s := segs[0]
		def, rep, entries, all = s.def, s.rep, s.n, s.vals
		segs = nil
	}
	presize(segs, all, &def, &rep)
	for k, s := range segs {
		if maxDef > 0 {
			def = append(def, s.def...)
		}
		if maxRep > 0 {
			rep = append(rep, s.rep...)
		}
		all.appendValues(s.vals)
		entries += s.n
		segs[k] = segment{} // its values are in all now
	}
	if l.phys == format.ByteArray && len(all.bin.Offsets) == 0 {
		all.bin.Offsets = []int32{0}
	}
	if indices == nil {
		nulls = int64(entries - all.n)
	}

	enc := format.Plain
	if e, ok := w.cfg.colEncoding[name]; ok {
		enc = format.Encoding(e)
		if err := checkEncoding(enc, l.phys); err != nil {
			return format.ColumnChunk{}, nil, nil, unsupportedf("column %q: %v", name, err)
		}
	}
	// Entries before dictEnd (a row boundary) are dictionary-encoded:
	// when the dictionary outgrows its limit, the rest of the chunk falls
	// back to enc.
	dictEnd := 0
	plainEnc := enc
	if indices == nil && w.cfg.dict && l.phys != format.Boolean {
		dictPage, indices, dictN = buildDictionary(all, w.cfg.dictLimit)
		if indices != nil {
			var cut int
			var reps []int16
			if maxRep > 0 {
				reps = rep
			}
			dictEnd, cut = dictCut(def, reps, maxDef, entries, len(indices))
			if cut == 0 {
				// Not one value fits: no dictionary at all.
				dictEnd, dictPage, indices, dictN = 0, nil, nil, 0
			} else {
				indices = indices[:cut]
			}
		}
	} else if indices != nil {
		dictEnd = entries
	}
	meta := &format.ColumnMetaData{Type: l.phys, PathInSchema: l.path, Codec: format.Codec(codec),
		NumValues: int64(entries)}
	var index *chunkIndex
	if !w.cfg.noPageIndex {
		index = &chunkIndex{col: &format.ColumnIndex{}}
	}
	if index == nil || dictVals != nil {
		meta.Statistics = stats(l, all, nulls)
	}
	row := int64(0)   // the first row of the next page
	var stamp []int32 // page number (from 1) that last saw each dictionary entry
	var keep []int32  // a page's distinct dictionary entries
	pageNo := 0       // pages so far
	firstData := true
	onPage := func(p *queuedPage, at int64, size int) {
		if !p.data {
			return
		}
		if firstData {
			meta.DataPageOffset, firstData = at, false
		}
		if index != nil {
			index.addPage(l, at, size, p.row, p.vals, p.nulls)
		}
	}
	q := &pageQueue{codec: format.Codec(codec), level: w.cfg.level, crc: w.cfg.crc, slots: w.slots,
		onPage: onPage, emit: emit}
	if indices != nil {
		meta.DictionaryPageOffset = ptr(int64(0))
		h := &format.PageHeader{Type: format.DictionaryPage,
			DictionaryPageHeader: &format.DictionaryPageHeader{NumValues: int32(dictN), Encoding: format.Plain}}
		if err := q.add(&queuedPage{h: h}, dictPage); err != nil {
			return format.ColumnChunk{}, nil, nil, err
		}
		pageNo++
		enc = format.RLEDictionary
	}
	bw := encoding.BitWidth(uint64(max(dictN-1, 0)))
	// Pages end at row boundaries once their values reach the page size.
	vi := 0
	for e := 0; e < entries || (e == 0 && entries == 0); {
		end, vend := e, vi
		dictEncoded := e < dictEnd
		last := entries // the page's last possible end
		if dictEncoded {
			last = dictEnd
		}
		unchecked := 0 // entries since the size was last checked
		for end < last {
			if maxDef == 0 || def[end] == maxDef {
				vend++
			}
			end++
			unchecked++
			// The size is checked every 64 entries, at a row boundary.
			if unchecked >= 64 && end < last && (maxRep == 0 || rep[end] == 0) {
				unchecked = 0
				var size int
				if dictEncoded {
					size = (vend - vi) * max(bw, 1) / 8
				} else {
					size = valueBytes(all, vi, vend)
				}
				if size >= w.cfg.pageSize {
					break
				}
			}
		}
		rows := int64(end - e)
		if maxRep > 0 {
			rows = 0
			for _, r := range rep[e:end] {
				if r == 0 {
					rows++
				}
			}
		}
		// Each page's buffers belong to the queue once added. The body's
		// capacity: levels of at most 2 bytes an entry, then the values
		// (PLAIN size; dictionary indices of bw bits).
		var lv []byte
		hint := 16 + 2*(end-e)
		if dictEncoded {
			hint += (vend-vi)*bw/8 + 1
		} else {
			hint += valueBytes(all, vi, vend)
		}
		body := pageBuffer(hint)
		var rl, dl int // byte lengths of a v2 page's levels
		if w.cfg.pageV2 {
			if maxRep > 0 {
				lv = encoding.AppendRLE(lv, rep[e:end], encoding.BitWidth(uint64(maxRep)))
				rl = len(lv)
			}
			if maxDef > 0 {
				lv = encoding.AppendRLE(lv, def[e:end], encoding.BitWidth(uint64(maxDef)))
				dl = len(lv) - rl
			}
		} else {
			if maxRep > 0 {
				body = appendLevels(body, rep[e:end], maxRep)
			}
			if maxDef > 0 {
				body = appendLevels(body, def[e:end], maxDef)
			}
		}
		enc := plainEnc
		if dictEncoded {
			enc = format.RLEDictionary
			body = append(body, byte(bw))
			body = encoding.AppendRLE(body, indices[vi:vend], bw)
		} else {
			body = encodeValues(body, enc, l, all.slice(vi, vend))
		}
		h := &format.PageHeader{Type: format.DataPage, DataPageHeader: &format.DataPageHeader{
			NumValues: int32(end - e), Encoding: enc, DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE}}
		if w.cfg.pageV2 {
			h = &format.PageHeader{Type: format.DataPageV2, DataPageHeaderV2: &format.DataPageHeaderV2{
				NumValues: int32(end - e), NumNulls: int32(end - e - (vend - vi)), NumRows: int32(rows),
				Encoding: enc, DefinitionLevelsByteLength: int32(dl), RepetitionLevelsByteLength: int32(rl)}}
		}
		qp := &queuedPage{h: h, levels: lv, data: true, row: row, nulls: int64(end - e - (vend - vi))}
		pageNo++
		if index != nil {
			if dictVals != nil {
				// The page's distinct entries have its min and max.
				if stamp == nil {
					stamp = make([]int32, dictVals.n)
				}
				keep = keep[:0]
				for _, k := range indices[vi:vend] {
					if stamp[k] != int32(pageNo) {
						stamp[k] = int32(pageNo)
						keep = append(keep, k)
					}
				}
				qp.vals = gatherValues(dictVals, keep)
			} else {
				qp.vals = all.slice(vi, vend)
			}
			row += rows
		}
		if err := q.add(qp, body); err != nil {
			return format.ColumnChunk{}, nil, nil, err
		}
		e, vi = end, vend
		if entries == 0 {
			break
		}
	}
	if err := q.layout(true); err != nil {
		return format.ColumnChunk{}, nil, nil, err
	}
	if meta.Statistics == nil {
		// The chunk's min and max are those of its pages.
		meta.Statistics = &format.Statistics{NullCount: ptr(nulls), MinValue: index.lo, MaxValue: index.hi}
	}
	meta.TotalUncompressedSize, meta.TotalCompressedSize = q.uncompressed, q.compressed
	meta.Encodings = []format.Encoding{format.RLE, enc}
	if indices != nil {
		meta.Encodings = append(meta.Encodings, format.Plain)
		if dictEnd < entries && plainEnc != format.Plain {
			meta.Encodings = append(meta.Encodings, plainEnc)
		}
	}
	var bf []byte
	if w.cfg.bloom[name] {
		bf = bloomFilter(all)
	}
	return format.ColumnChunk{MetaData: meta}, index, bf, nil
}

// presize gives all, def and rep the capacity of the values and levels
// of segs, so that they are copied once, with no spare room.
func presize(segs []segment, all *values, def, rep *[]int16) {
	if len(segs) == 0 {
		return
	}
	var nd, nr, nf, nb, nbin, noff int
	for _, s := range segs {
		nd, nr = nd+len(s.def), nr+len(s.rep)
		if v := s.vals; v != nil {
			nf, nb = nf+len(v.fixed), nb+len(v.bools)
			if n := len(v.bin.Offsets); n > 1 {
				nbin += int(v.bin.Offsets[n-1] - v.bin.Offsets[0])
				noff += n - 1
			}
		}
	}
	// Nil stays nil where there is nothing (values tell their kind by
	// which of their slices is set).
	if nd > 0 {
		*def = make([]int16, 0, nd)
	}
	if nr > 0 {
		*rep = make([]int16, 0, nr)
	}
	if nf > 0 {
		all.fixed = make([]byte, 0, nf)
	}
	if nb > 0 {
		all.bools = make([]byte, 0, nb)
	}
	if noff > 0 {
		all.bin.Data, all.bin.Offsets = make([]byte, 0, nbin), make([]int32, 1, noff+1)
	}
}

// placeChunk moves the offsets of a chunk encoded by encodeChunk to the
// file position pos.
func placeChunk(cc *format.ColumnChunk, pos int64) {
	cc.FileOffset = pos
	cc.MetaData.DataPageOffset += pos
	if p := cc.MetaData.DictionaryPageOffset; p != nil {
		*p += pos
	}
}

func checkEncoding(e format.Encoding, p format.Type) error {
	ok := false
	switch e {
	case format.Plain:
		ok = true
	case format.DeltaBinaryPacked:
		ok = p == format.Int32 || p == format.Int64
	case format.DeltaLengthByteArray:
		ok = p == format.ByteArray
	case format.DeltaByteArray:
		ok = p == format.ByteArray || p == format.FixedLenByteArray
	case format.ByteStreamSplit:
		ok = p == format.Int32 || p == format.Int64 || p == format.Float || p == format.Double || p == format.FixedLenByteArray
	}
	if !ok {
		return unsupportedf("encoding %s for %s values", e, p)
	}
	return nil
}

// appendLevels appends levels RLE-encoded with a 4-byte length prefix.
func appendLevels(dst []byte, lv []int16, max int16) []byte {
	at := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	dst = encoding.AppendRLE(dst, lv, encoding.BitWidth(uint64(max)))
	binary.LittleEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	return dst
}

// encodeValues appends the values v in encoding enc.
func encodeValues(dst []byte, enc format.Encoding, l *wleaf, v *values) []byte {
	switch enc {
	case format.DeltaBinaryPacked:
		ints := make([]int64, v.n)
		for i := range ints {
			if v.width == 4 {
				ints[i] = int64(int32(binary.LittleEndian.Uint32(v.fixed[4*i:])))
			} else {
				ints[i] = int64(binary.LittleEndian.Uint64(v.fixed[8*i:]))
			}
		}
		if v.width == 4 {
			return encoding.AppendDeltaBinaryPacked32(dst, ints)
		}
		return encoding.AppendDeltaBinaryPacked(dst, ints)
	case format.DeltaLengthByteArray:
		return encoding.AppendDeltaLengthByteArray(dst, v.bin)
	case format.DeltaByteArray:
		if l.phys == format.FixedLenByteArray {
			var b encoding.Binary
			b.Offsets = []int32{0}
			for i := range v.n {
				b.Append(v.fixed[i*v.width : (i+1)*v.width])
			}
			return encoding.AppendDeltaByteArray(dst, b)
		}
		return encoding.AppendDeltaByteArray(dst, v.bin)
	case format.ByteStreamSplit:
		return encoding.AppendByteStreamSplit(dst, v.fixed, v.width)
	}
	switch {
	case v.bools != nil || l.phys == format.Boolean:
		return encoding.AppendPlainBool(dst, v.bools)
	case l.phys == format.ByteArray:
		return encoding.AppendPlainBinary(dst, v.bin)
	}
	return append(dst, v.fixed...)
}

// dictProbe is the number of values after which a dictionary whose
// values are nearly all distinct, and whose projected size exceeds the
// limit, is given up early instead of growing to the limit.
const dictProbe = 1 << 13

// hopelessDictionary reports whether a dictionary of distinct entries and
// pageBytes bytes after i of n values is not worth continuing.
func hopelessDictionary(i, n, distinct, pageBytes, limit int) bool {
	return i == dictProbe && distinct > dictProbe*7/8 && int64(pageBytes)*int64(n)/dictProbe > int64(limit)
}

// dictCut returns where a dictionary covering the first v values of a
// chunk (of the given levels and entries) must stop: the last row
// boundary with at most v values before it, and the number of those
// values.
func dictCut(def, rep []int16, maxDef int16, entries, v int) (cutEntry, cutValues int) {
	n := 0 // values before entry e
	for e := 0; e <= entries && n <= v; e++ {
		if e == entries || rep == nil || rep[e] == 0 {
			cutEntry, cutValues = e, n
		}
		if e < entries && (maxDef == 0 || def[e] == maxDef) {
			n++
		}
	}
	return cutEntry, cutValues
}

// buildDictionary returns the PLAIN dictionary page, the index of each
// value it covers and the dictionary size. When the dictionary would
// exceed limit bytes it covers the values before that point only (the
// rest of the chunk falls back to another encoding); indices are nil when
// the first values are nearly all distinct and the whole would exceed the
// limit at that rate.
func buildDictionary(v *values, limit int) ([]byte, []int32, int) {
	switch v.width {
	case 4:
		return dictFixed(v, limit, func(b []byte) uint32 { return binary.LittleEndian.Uint32(b) })
	case 8:
		return dictFixed(v, limit, func(b []byte) uint64 { return binary.LittleEndian.Uint64(b) })
	}
	idx := make([]int32, v.n)
	seen := make(map[string]int32)
	var page []byte
	for i := range v.n {
		if hopelessDictionary(i, v.n, len(seen), len(page), limit) {
			return nil, nil, 0
		}
		var key []byte
		if v.width > 0 {
			key = v.fixed[i*v.width : (i+1)*v.width]
		} else {
			key = v.bin.Value(i)
		}
		k, ok := seen[string(key)]
		if !ok {
			add := len(key)
			if v.width == 0 {
				add += 4
			}
			if len(page)+add > limit {
				return slices.Clip(page), idx[:i], len(seen)
			}
			k = int32(len(seen))
			seen[string(key)] = k
			if v.width == 0 {
				page = binary.LittleEndian.AppendUint32(page, uint32(len(key)))
			}
			page = append(page, key...)
		}
		idx[i] = k
	}
	return slices.Clip(page), idx, len(seen)
}

// dictFixed builds the dictionary of 4- or 8-byte values keyed by their
// bits, without a string per key.
func dictFixed[K uint32 | uint64](v *values, limit int, key func([]byte) K) ([]byte, []int32, int) {
	w := v.width
	idx := make([]int32, v.n)
	seen := make(map[K]int32)
	var page []byte
	for i := range v.n {
		if hopelessDictionary(i, v.n, len(seen), len(page), limit) {
			return nil, nil, 0
		}
		b := v.fixed[i*w : (i+1)*w]
		kb := key(b)
		k, ok := seen[kb]
		if !ok {
			if len(page)+w > limit {
				return slices.Clip(page), idx[:i], len(seen)
			}
			k = int32(len(seen))
			seen[kb] = k
			page = append(page, b...)
		}
		idx[i] = k
	}
	return slices.Clip(page), idx, len(seen)
}
