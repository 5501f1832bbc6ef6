package parquet

// Split-block bloom filters: written for the columns asked, after each
// row group's chunks; read to skip row groups for Eq predicates.

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/alkaid-go/alkaid/parquet/internal/bloom"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

// bloomFPP is the false-positive rate the filters are sized for.
const bloomFPP = 0.01

// bloomFilter returns the header and bitset of the filter of values v,
// or nil for booleans.
func bloomFilter(v *values) []byte {
	if v.bools != nil {
		return nil
	}
	hashes := make(map[uint64]struct{})
	for i := range v.n {
		var b []byte
		if v.width > 0 {
			b = v.fixed[i*v.width : (i+1)*v.width]
		} else {
			b = v.bin.Value(i)
		}
		hashes[bloom.Hash(b)] = struct{}{}
	}
	f := bloom.New(bloom.Bytes(len(hashes), bloomFPP))
	for h := range hashes {
		f.Insert(h)
	}
	one := format.BloomUnion{First: &format.Empty{}}
	h := format.BloomFilterHeader{NumBytes: int32(len(f)), Algorithm: one, Hash: one, Compression: one}
	return append(thrift.Marshal(nil, &h), f...)
}

// bloomValue is the PLAIN encoding of predicate value x for leaf l, or
// nil when it has no single encoding the filter can be asked about.
func bloomValue(l *node, x any) []byte {
	e := l.elem
	signed := e.LogicalType == nil || e.LogicalType.Integer == nil || e.LogicalType.Integer.IsSigned
	if e.ConvertedType != nil && *e.ConvertedType >= format.Uint8 && *e.ConvertedType <= format.Uint64 {
		signed = false
	}
	switch *e.Type {
	case format.Int32:
		v, ok := x.(int64)
		if !ok || !signed || v != int64(int32(v)) {
			return nil
		}
		return binary.LittleEndian.AppendUint32(nil, uint32(v))
	case format.Int64:
		v, ok := x.(int64)
		if !ok || !signed {
			return nil
		}
		return binary.LittleEndian.AppendUint64(nil, uint64(v))
	case format.Float:
		v, ok := x.(float64)
		if !ok || v == 0 || v != float64(float32(v)) {
			return nil // zero has two encodings; NaN never equals
		}
		return binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(v)))
	case format.Double:
		v, ok := x.(float64)
		if !ok || v == 0 || v != v {
			return nil
		}
		return binary.LittleEndian.AppendUint64(nil, math.Float64bits(v))
	case format.ByteArray:
		v, ok := x.(string)
		if !ok {
			return nil
		}
		return []byte(v)
	}
	return nil
}

// readBloom reads the bloom filter of chunk cc; nil when it has none or
// one of a kind this reader does not know.
func (f *File) readBloom(cc *format.ColumnChunk, where string) (bloom.Filter, error) {
	m := cc.MetaData
	if m == nil || m.BloomFilterOffset == nil {
		return nil, nil
	}
	off, end := *m.BloomFilterOffset, f.size-8
	if off < 4 || off >= end {
		return nil, invalidf("%s: bloom filter at %d outside the file's data [4, %d)", where, off, end)
	}
	avail := end - off
	if l := m.BloomFilterLength; l != nil {
		if *l < 0 || int64(*l) > avail {
			return nil, invalidf("%s: bloom filter of %d bytes at %d outside the file's data [4, %d)", where, *l, off, end)
		}
		avail = int64(*l)
	}
	head := min(avail, 256)
	hb, err := f.readIndexBytes(&off, ptr(int32(head)), where+": bloom filter header")
	if err != nil {
		return nil, err
	}
	var h format.BloomFilterHeader
	n, err := thrift.Unmarshal(hb, &h)
	if err != nil {
		return nil, fmt.Errorf("parquet: %w: %s: bloom filter header: %v", ErrInvalid, where, err)
	}
	if h.Algorithm.First == nil || h.Hash.First == nil || h.Compression.First == nil {
		return nil, nil
	}
	if h.NumBytes <= 0 || h.NumBytes%bloom.BlockBytes != 0 || h.NumBytes > bloom.MaxBytes || int64(n)+int64(h.NumBytes) > avail {
		return nil, invalidf("%s: bloom filter of %d bytes (%d bytes there, at most %d, a multiple of %d)", where,
			h.NumBytes, avail-int64(n), bloom.MaxBytes, bloom.BlockBytes)
	}
	at := off + int64(n)
	b, err := f.readIndexBytes(&at, &h.NumBytes, where+": bloom filter")
	if err != nil {
		return nil, err
	}
	return bloom.Filter(b), nil
}

// bloomMayMatch is false only when the bloom filter of column leaf of
// row group g proves the Eq predicate p matches no row.
func (f *File) bloomMayMatch(g, leaf int, p Predicate) (bool, error) {
	if p.Op != Eq {
		return true, nil
	}
	cc := &f.meta.RowGroups[g].Columns[leaf]
	if cc.MetaData == nil || cc.MetaData.BloomFilterOffset == nil {
		return true, nil
	}
	v := bloomValue(f.leaves[leaf], p.Value)
	if v == nil {
		return true, nil
	}
	flt, err := f.readBloom(cc, fmt.Sprintf("row group %d column %q", g, pathString(f.leaves[leaf].path)))
	if err != nil || flt == nil {
		return true, err
	}
	return flt.Check(bloom.Hash(v)), nil
}
