package parquet

import (
	"encoding/binary"

	"github.com/alkaid-go/alkaid/parquet/internal/encoding"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

// Files laid out by hand, page by page, as other writers make them.

// handPage is one page: its header and its (already compressed) body.
type handPage struct {
	h    format.PageHeader
	body []byte
}

// handColumn is the one column chunk of a leaf in a one-row-group file.
type handColumn struct {
	typ       format.Type
	path      []string
	codec     format.Codec
	numValues int64
	pages     []handPage
}

// handFile lays out a Parquet file of one row group of rows rows.
func handFile(schema []format.SchemaElement, rows int64, cols []handColumn) []byte {
	out := []byte("PAR1")
	rg := format.RowGroup{NumRows: rows}
	for _, c := range cols {
		start := int64(len(out))
		var unc int64
		for _, p := range c.pages {
			h := thrift.Marshal(nil, &p.h)
			out = append(append(out, h...), p.body...)
			unc += int64(len(h)) + int64(p.h.UncompressedPageSize)
		}
		md := &format.ColumnMetaData{Type: c.typ, Encodings: []format.Encoding{format.Plain, format.RLE},
			PathInSchema: c.path, Codec: c.codec, NumValues: c.numValues, TotalUncompressedSize: unc,
			TotalCompressedSize: int64(len(out)) - start, DataPageOffset: start}
		rg.Columns = append(rg.Columns, format.ColumnChunk{FileOffset: start, MetaData: md})
		rg.TotalByteSize += unc
	}
	meta := format.FileMetaData{Version: 2, Schema: schema, NumRows: rows, RowGroups: []format.RowGroup{rg}}
	footer := thrift.Marshal(nil, &meta)
	out = append(out, footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	return append(out, "PAR1"...)
}

// patchFooter rewrites the file metadata of a file laid out by handFile
// (or anything with a plain footer) through fn.
func patchFooter(data []byte, fn func(*format.FileMetaData)) []byte {
	n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	body := data[:len(data)-8-n]
	var meta format.FileMetaData
	if _, err := thrift.Unmarshal(data[len(body):len(data)-8], &meta); err != nil {
		panic(err)
	}
	fn(&meta)
	footer := thrift.Marshal(nil, &meta)
	out := append(append([]byte(nil), body...), footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	return append(out, "PAR1"...)
}

// v2Page lays out an uncompressed v2 data page of INT32 values with the
// given levels (nil when the column has none of that kind).
func v2Page(rep, def []int16, maxRep, maxDef int, vals []int32) handPage {
	var rl, dl []byte
	if rep != nil {
		rl = encoding.AppendRLE(nil, rep, encoding.BitWidth(uint64(maxRep)))
	}
	if def != nil {
		dl = encoding.AppendRLE(nil, def, encoding.BitWidth(uint64(maxDef)))
	}
	body := append(append([]byte(nil), rl...), dl...)
	for _, v := range vals {
		body = binary.LittleEndian.AppendUint32(body, uint32(v))
	}
	n := max(len(rep), len(def), len(vals))
	rows := n
	if rep != nil {
		rows = 0
		for _, r := range rep {
			if r == 0 {
				rows++
			}
		}
	}
	nulls := n - len(vals)
	return handPage{h: format.PageHeader{Type: format.DataPageV2, UncompressedPageSize: int32(len(body)), CompressedPageSize: int32(len(body)),
		DataPageHeaderV2: &format.DataPageHeaderV2{NumValues: int32(n), NumNulls: int32(nulls), NumRows: int32(rows), Encoding: format.Plain,
			DefinitionLevelsByteLength: int32(len(dl)), RepetitionLevelsByteLength: int32(len(rl)), IsCompressed: ptr(false)}}, body: body}
}
