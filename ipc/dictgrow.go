package ipc

import (
	"encoding/binary"
	"math"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
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
// It holds dictionaries of fixed-width types (bool aside) and of binary
// and string types; the others are concatenated. Once a value is null,
// each dictionary handed out gets its own copy of the validity bitmap
// (whose last byte the next delta would change): n/8 bytes per delta
// rather than the whole dictionary.
type grownDict struct {
	typ    datatype.DataType
	width  int    // bytes per value; 0 for binary and string types
	wide   bool   // binary and string: 64-bit offsets
	n      int    // values
	values []byte // fixed width: n values; binary: the value bytes
	offs   []byte // binary: n+1 offsets, from 0
	valid  []byte // validity of the n values once one is null; never handed out
	nulls  int
}

// newGrownDict starts growing d, or returns nil when d is not of a kind
// it holds.
func newGrownDict(d *array.Data) *grownDict {
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

// append adds d's values; false (with g unchanged) when they would
// overflow 32-bit offsets or d is not as its type says.
func (g *grownDict) append(d *array.Data) bool {
	if d.Length == 0 {
		return true
	}
	if d.NullCount < 0 || d.NullCount > 0 && d.Buffers[0] == nil {
		return false
	}
	if g.width > 0 {
		g.values = appendGrowing(g.values, d.Buffers[1].Bytes()[d.Offset*g.width:(d.Offset+d.Length)*g.width])
		g.appendValidity(d)
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
	g.appendValidity(d)
	return true
}

// appendValidity adds d's validity bits (all set while no value is
// null) and counts d's values in.
func (g *grownDict) appendValidity(d *array.Data) {
	if d.NullCount > 0 && g.valid == nil {
		g.valid = make([]byte, bitutil.BytesForBits(g.n))
		bitutil.SetBitsTo(g.valid, 0, g.n, true)
	}
	if g.valid != nil {
		if need := bitutil.BytesForBits(g.n + d.Length); need > len(g.valid) {
			g.valid = append(g.valid, make([]byte, need-len(g.valid))...) // amortized, zeroed
		}
		if d.NullCount == 0 {
			bitutil.SetBitsTo(g.valid, g.n, d.Length, true)
		} else {
			bitutil.CopyBits(g.valid, g.n, d.Buffers[0].Bytes(), d.Offset, d.Length)
		}
	}
	g.n += d.Length
	g.nulls += d.NullCount
}

// data is the dictionary so far, sharing g's value buffers.
func (g *grownDict) data() *array.Data {
	var valid *memory.Buffer
	if g.nulls > 0 {
		valid = memory.NewBuffer(append([]byte(nil), g.valid...))
	}
	if g.width > 0 {
		return array.NewData(g.typ, g.n, []*memory.Buffer{valid, memory.NewBuffer(g.values)}, nil, g.nulls, 0)
	}
	return array.NewData(g.typ, g.n, []*memory.Buffer{valid, memory.NewBuffer(g.offs), memory.NewBuffer(g.values)}, nil, g.nulls, 0)
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
