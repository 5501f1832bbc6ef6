package parquet

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet/internal/encoding"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

// Building files the writer would never write: a file of the schema of
// one field, written by the library, whose single column chunk is then
// replaced by pages made here.

// rlePrefixed is levels RLE-encoded at bit width bw with the 4-byte
// length prefix of v1 pages.
func rlePrefixed(levels []int32, bw int) []byte {
	body := encoding.AppendRLE(nil, levels, bw)
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(body))), body...)
}

// pageBytes is a page of header h (its sizes filled in) and body.
func pageBytes(h format.PageHeader, body []byte) []byte {
	h.CompressedPageSize = int32(len(body))
	if h.UncompressedPageSize == 0 {
		h.UncompressedPageSize = int32(len(body))
	}
	return append(thrift.Marshal(nil, &h), body...)
}

// dataPageV1 is an uncompressed v1 data page of n entries in encoding
// enc whose body is levels then values.
func dataPageV1(n int, enc format.Encoding, body []byte) []byte {
	return pageBytes(format.PageHeader{Type: format.DataPage, DataPageHeader: &format.DataPageHeader{
		NumValues: int32(n), Encoding: enc, DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE,
	}}, body)
}

// dictPage is an uncompressed PLAIN dictionary page of n values.
func dictPage(n int, body []byte) []byte {
	return pageBytes(format.PageHeader{Type: format.DictionaryPage, DictionaryPageHeader: &format.DictionaryPageHeader{
		NumValues: int32(n), Encoding: format.Plain,
	}}, body)
}

// chunkFile is a file of one field of type t whose row groups (one per
// element of rows) each hold the column chunk made of pages (the same
// bytes, written once and shared by every row group when shared, else
// written again for each), of values entries.
func chunkFile(t testing.TB, fld datatype.Field, rows []int64, values int64, pages []byte, shared bool) []byte {
	t.Helper()
	s := alkaid.NewSchema([]datatype.Field{fld}, datatype.Metadata{})
	b := array.NewBuilder(fld.Type)
	b.AppendEmptyValue()
	rec, err := alkaid.NewRecord(s, []array.Array{b.NewArray()}, 1)
	if err != nil {
		t.Fatal(err)
	}
	_, f := writeAndOpen(t, rec, WithCompression(Uncompressed, 0), WithoutStoredSchema())
	if len(f.meta.RowGroups) == 0 || len(f.meta.RowGroups[0].Columns) != 1 {
		t.Fatalf("template file of %d row groups", len(f.meta.RowGroups))
	}
	tmpl := f.meta.RowGroups[0].Columns[0]
	md := f.meta
	md.RowGroups = nil
	md.NumRows = 0
	out := append([]byte{}, magic...)
	for i, n := range rows {
		at := int64(len(out))
		if shared && i > 0 {
			at = 4
		} else {
			out = append(out, pages...)
		}
		cm := *tmpl.MetaData
		cm.Codec = format.Uncompressed
		cm.NumValues, cm.DataPageOffset, cm.DictionaryPageOffset = values, at, nil
		cm.TotalCompressedSize, cm.TotalUncompressedSize = int64(len(pages)), int64(len(pages))
		cm.Statistics, cm.EncodingStats, cm.BloomFilterOffset, cm.BloomFilterLength = nil, nil, nil, nil
		cc := format.ColumnChunk{FileOffset: at, MetaData: &cm}
		md.RowGroups = append(md.RowGroups, format.RowGroup{Columns: []format.ColumnChunk{cc}, NumRows: n, TotalByteSize: int64(len(pages))})
		md.NumRows += n
	}
	footer := thrift.Marshal(nil, &md)
	out = append(out, footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	return append(out, magic...)
}

// int32s is the PLAIN encoding of vs.
func int32s(vs ...int32) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	return b
}

// readErr opens data with default limits and reads every batch.
func readErr(data []byte, opts ...Option) error {
	f, err := NewFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	for _, err := range records(f, opts...) {
		if err != nil {
			return err
		}
	}
	return nil
}

// refooter replaces the footer of the file data by md.
func refooter(data []byte, md *format.FileMetaData) []byte {
	n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	out := append([]byte{}, data[:len(data)-8-n]...)
	footer := thrift.Marshal(nil, md)
	out = append(out, footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	return append(out, magic...)
}
