package parquet

// Facts about a file read from its footer alone, for tools that describe
// a file (row groups, codecs, the writer's name) without decoding pages.

import (
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// CreatedBy is the writer the footer names, or "" when it names none.
func (f *File) CreatedBy() string {
	if f.meta.CreatedBy == nil {
		return ""
	}
	return *f.meta.CreatedBy
}

// RowGroupInfo describes one row group as its footer entry does.
type RowGroupInfo struct {
	Rows int64 // rows in the row group
	// Bytes is the uncompressed size of its column data.
	Bytes int64
	// Codecs counts the row group's column chunks per codec.
	Codecs map[Codec]int
	// Compressed and Uncompressed are the footer's sizes of the column
	// chunks the File reads of the row group: those its options select
	// (WithColumns, and the columns a row filter reads), every column
	// without them. Compressed is the size as stored (encrypted, if so).
	// A chunk counts for at most the file's size stored and 1 TiB
	// uncompressed, whatever a (hostile) footer states.
	Compressed, Uncompressed int64
	// Working estimates from the footer the memory Records takes to
	// decode the row group beyond the arrays of the records it returns:
	// the column chunks, read whole and held until the row group's last
	// batch is decoded (Compressed, in buffers up to 1/8 larger; nothing
	// for an unencrypted File of NewFileBytes, which decodes the caller's
	// bytes; a chunk more while one is decrypted), and for compressed chunks a
	// decompressed page for each column decoded at once (WithConcurrency),
	// at most the largest chunk's uncompressed size each. The dictionaries
	// of dictionary-encoded chunks, held while their chunk is decoded, are
	// not counted: the footer does not state their decoded size.
	Working int64
	// Decoded estimates from the footer the size of the arrays Records
	// returns for the row group: for each leaf column read, its values
	// times their width as read (one bit for booleans) plus a validity
	// bit each; for variable-width values the uncompressed chunk size
	// plus an offset each. Dictionary-encoded byte arrays may decode to
	// more than that; a filter (WithRowFilter) to less.
	Decoded int64
}

// maxStatedChunk is the most RowGroup counts of a column chunk's stated
// sizes.
const maxStatedChunk = 1 << 40

// RowGroup describes row group i; i must be in [0, NumRowGroups()).
// NewFile checked every column chunk's metadata is present.
func (f *File) RowGroup(i int) RowGroupInfo {
	rg := &f.meta.RowGroups[i]
	info := RowGroupInfo{Rows: rg.NumRows, Bytes: rg.TotalByteSize, Codecs: map[Codec]int{}}
	for _, cc := range rg.Columns {
		if cc.MetaData != nil {
			info.Codecs[Codec(cc.MetaData.Codec)]++
		}
	}
	var chunks, largest, largestRaw int64 // buffers; the largest chunk, stored and uncompressed
	leaves, compressed := 0, false
	f.readLeaves(func(l *node, vt datatype.DataType) {
		md := rg.Columns[l.column].MetaData
		if md == nil {
			return
		}
		leaves++
		// A size stated beyond reason (a chunk lies within the file) is
		// cut, so that the sums cannot overflow.
		n := min(max(0, md.TotalCompressedSize), f.size, maxStatedChunk)
		raw := min(max(0, md.TotalUncompressedSize), maxStatedChunk)
		info.Compressed += n
		info.Uncompressed += raw
		info.Decoded += decodedSize(vt, md.NumValues, raw)
		if _, size, ok := pageClass(int(n)); ok {
			chunks += int64(size)
		} else {
			chunks += n
		}
		largest, largestRaw = max(largest, n), max(largestRaw, raw)
		compressed = compressed || md.Codec != format.Uncompressed
	})
	if f.data == nil || f.dec != nil {
		info.Working += chunks
	}
	if f.dec != nil {
		info.Working += largest
	}
	if compressed {
		info.Working += int64(min(leaves, workers(f.cfg.concurrency))) * largestRaw
	}
	return info
}

// readLeaves calls fn with each leaf column the File reads, in the order
// it reads them, and the type its values are read as, without making the
// plan when it is not made yet.
func (f *File) readLeaves(fn func(l *node, vt datatype.DataType)) {
	if f.planLater() {
		for _, l := range f.leaves {
			if vt, err := leafType(l.elem); err == nil { // opening checked it
				fn(l, vt)
			}
		}
		return
	}
	p, err := f.planned()
	if err != nil {
		return // made when the File was, without error
	}
	for _, fp := range p.fields {
		for _, lp := range fp.leaves {
			fn(lp.leaf, lp.vt)
		}
	}
}

// decodedSize estimates the bytes of the arrays a leaf column chunk of
// values values (stated) and raw uncompressed bytes decodes to, values
// read as type vt.
func decodedSize(vt datatype.DataType, values, raw int64) int64 {
	values = min(max(0, values), maxStatedChunk)
	bitmap := (values + 7) / 8
	if d, ok := vt.(*datatype.DictionaryType); ok {
		vt = d.Index
	}
	switch {
	case vt.Kind() == datatype.KindBool:
		return 2 * bitmap
	case datatype.IsFixedWidth(vt):
		return values*int64(datatype.ByteWidth(vt)) + bitmap
	default:
		return raw + 4*values + bitmap
	}
}
