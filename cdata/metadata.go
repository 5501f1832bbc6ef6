package cdata

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/alkaid-go/alkaid/datatype"
)

// encodeMetadata serializes m as the C Data Interface lays metadata out:
// an int32 pair count, then for each pair an int32 length and the bytes of
// the key, then of the value, in native (little-endian) byte order. Empty
// metadata gives nil (a NULL pointer).
func encodeMetadata(m datatype.Metadata) ([]byte, error) {
	if m.Len() == 0 {
		return nil, nil
	}
	n := 4
	for k, v := range m.All() {
		if len(k) > math.MaxInt32 || len(v) > math.MaxInt32 {
			return nil, fmt.Errorf("cdata: %w: metadata entry %q is too long for the C Data Interface", ErrNotSupported, k)
		}
		n += 8 + len(k) + len(v)
	}
	out := make([]byte, 0, n)
	out = binary.LittleEndian.AppendUint32(out, uint32(m.Len()))
	for k, v := range m.All() {
		out = binary.LittleEndian.AppendUint32(out, uint32(len(k)))
		out = append(out, k...)
		out = binary.LittleEndian.AppendUint32(out, uint32(len(v)))
		out = append(out, v...)
	}
	return out, nil
}

// byteReader returns n bytes at offset off of serialized metadata, or an
// error when they cannot be there.
type byteReader func(off, n int) ([]byte, error)

// maxMetadataSize bounds the serialized metadata of one imported schema
// node: the C pointer carries no length, so a producer's lengths are all
// there is, and they must not make us allocate without bound.
const maxMetadataSize = 64 << 20

// decodeMetadata reads metadata through read, which returns n bytes at
// offset off of the C string (or an error when they cannot be there).
// Every length is checked before it is used.
func decodeMetadata(read byteReader) (datatype.Metadata, error) {
	head, err := read(0, 4)
	if err != nil {
		return datatype.Metadata{}, err
	}
	count := int32(binary.LittleEndian.Uint32(head))
	if count < 0 {
		return datatype.Metadata{}, invalidf("metadata has %d pairs", count)
	}
	off := 4
	var keys, values []string
	field := func(what string, i int) (string, error) {
		b, err := read(off, 4)
		if err != nil {
			return "", err
		}
		n := int32(binary.LittleEndian.Uint32(b))
		if n < 0 {
			return "", invalidf("metadata %s %d has length %d", what, i, n)
		}
		off += 4
		s, err := read(off, int(n))
		if err != nil {
			return "", err
		}
		off += int(n)
		return string(s), nil
	}
	for i := range int(count) {
		k, err := field("key", i)
		if err != nil {
			return datatype.Metadata{}, err
		}
		v, err := field("value", i)
		if err != nil {
			return datatype.Metadata{}, err
		}
		keys, values = append(keys, k), append(values, v)
	}
	return datatype.NewMetadata(keys, values), nil
}
