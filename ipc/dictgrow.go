package ipc

import (
	"encoding/binary"
	"math"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/memory"
)

// grownDict is a dictionary that delta batches extend in place: values
// go into buffers with spare capacity, so that n deltas cost time in
// proportion to the values they bring, not n times the dictionary (as a
// concatenation per delta does). Every dictionary handed out is a view of
// a prefix, and appending writes only past every prefix handed out, so
// batches already returned (and read on other goroutines) never see a
// byte change.
//
// It holds dictionaries without nulls of fixed-width types (bool aside)
// and of binary and string types; the others, and any delta with nulls,
// are concatenated.
type grownDict struct {
	typ    datatype.DataType
	width  int    // bytes per value; 0 for binary and string types
	wide   bool   // binary and string: 64-bit offsets
	n      int    // values
	values []byte // fixed width: n values; binary: the value bytes
	offs   []byte // binary: n+1 offsets, from 0
}

// newGrownDict starts growing d, or returns nil when d is not of a kind
// it holds.
func newGrownDict(d *array.Data) *grownDict {
	if d.NullCount != 0 {
		return nil
	}
	s := datatype.StorageOf(d.Type)
	g := &grownDict{typ: d.Type}
	switch k := s.Kind(); {
	case k != datatype.KindBool && datatype.IsFixedWidth(s):
		g.width = datatype.ByteWidth(s)
	case k == datatype.KindBinary || k == datatype.KindString:
		g.offs = make([]byte, 4)
	case k == datatype.KindLargeBinary || k == datatype.KindLargeString:
		g.wide, g.offs = true, make([]byte, 8)
	default:
		return nil
	}
	if !g.append(d) {
		return nil
	}
	return g
}

// append adds d's values; false (with g unchanged) when d has nulls or
// its values would overflow 32-bit offsets.
func (g *grownDict) append(d *array.Data) bool {
	if d.NullCount != 0 || d.Length == 0 {
		return d.NullCount == 0
	}
	if g.width > 0 {
		g.values = appendGrowing(g.values, d.Buffers[1].Bytes()[d.Offset*g.width:(d.Offset+d.Length)*g.width])
		g.n += d.Length
		return true
	}
	ow := 4
	if g.wide {
		ow = 8
	}
	src := d.Buffers[1].Bytes()[d.Offset*ow : (d.Offset+d.Length+1)*ow]
	first, last := offsetAt(src, 0, g.wide), offsetAt(src, d.Length, g.wide)
	base := int64(len(g.values))
	if first < 0 || first > last || last > int64(d.Buffers[2].Len()) || // unvalidated input
		!g.wide && base+last-first > math.MaxInt32 {
		return false
	}
	g.values = appendGrowing(g.values, d.Buffers[2].Bytes()[first:last])
	add := make([]byte, d.Length*ow)
	for i := range d.Length {
		v := base + offsetAt(src, i+1, g.wide) - first
		if g.wide {
			binary.LittleEndian.PutUint64(add[i*8:], uint64(v))
		} else {
			binary.LittleEndian.PutUint32(add[i*4:], uint32(v))
		}
	}
	g.offs = appendGrowing(g.offs, add)
	g.n += d.Length
	return true
}

// data is the dictionary so far, sharing g's buffers.
func (g *grownDict) data() *array.Data {
	if g.width > 0 {
		return array.NewData(g.typ, g.n, []*memory.Buffer{nil, memory.NewBuffer(g.values)}, nil, 0, 0)
	}
	return array.NewData(g.typ, g.n, []*memory.Buffer{nil, memory.NewBuffer(g.offs), memory.NewBuffer(g.values)}, nil, 0, 0)
}

func offsetAt(b []byte, i int, wide bool) int64 {
	if wide {
		return int64(binary.LittleEndian.Uint64(b[i*8:]))
	}
	return int64(int32(binary.LittleEndian.Uint32(b[i*4:])))
}

// appendGrowing appends add to b, doubling the capacity when it runs
// out; the bytes of b itself are never written.
func appendGrowing(b, add []byte) []byte {
	n := len(b) + len(add)
	if n > cap(b) {
		nb := rawmem.Aligned(max(2*cap(b), n, 64))
		copy(nb, b)
		b = nb[:len(b)]
	}
	b = b[:n]
	copy(b[n-len(add):], add)
	return b
}
