package parquet

import (
	"encoding/binary"

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
