package parquet

import (
	"encoding/binary"
	"math"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// julianUnixEpoch is the Julian day number of 1970-01-01.
const julianUnixEpoch = 2440588

// int96Nanos is the INT96 timestamp of Julian day day and nanos into it
// as nanoseconds since the Unix epoch, and false when that does not fit
// an int64: wrapping around (as some readers do) would show a date in
// another century.
func int96Nanos(day, nanos int64) (int64, bool) {
	const perDay = int64(86400e9)
	d := day - julianUnixEpoch
	if d > math.MaxInt64/perDay || d < math.MinInt64/perDay {
		return 0, false
	}
	base := d * perDay
	ns := base + nanos
	if (nanos > 0 && ns < base) || (nanos < 0 && ns > base) {
		return 0, false
	}
	return ns, true
}

// valueArray builds an array of type t without nulls from the decoded
// values of a column of physical type phys.
func valueArray(t datatype.DataType, phys format.Type, v *values, where string) (array.Array, error) {
	n := v.n
	var buf []byte
	switch t.Kind() {
	case datatype.KindBool:
		return makeArray(t, n, nil, memory.NewBuffer(packBools(v.bools)))
	case datatype.KindString, datatype.KindBinary:
		offs := v.bin.Offsets
		if len(offs) == 0 {
			offs = []int32{0}
		}
		return makeArray(t, n, nil, memory.FromSlice(offs), memory.NewBuffer(v.bin.Data))
	case datatype.KindInt8, datatype.KindUint8, datatype.KindInt16, datatype.KindUint16:
		w := 1
		if k := t.Kind(); k == datatype.KindInt16 || k == datatype.KindUint16 {
			w = 2
		}
		buf = make([]byte, n*w)
		for i := range n {
			x := v.fixed[4*i:]
			copy(buf[i*w:], x[:w])
		}
	case datatype.KindTimestamp:
		if phys == format.Int96 {
			buf = make([]byte, n*8)
			for i := range n {
				x := v.fixed[12*i:]
				nanos := int64(binary.LittleEndian.Uint64(x))
				day := int64(binary.LittleEndian.Uint32(x[8:]))
				ns, ok := int96Nanos(day, nanos)
				if !ok {
					return nil, unsupportedf("%s: INT96 timestamp %d (Julian day %d, %d ns) is outside timestamp[ns]'s range (years 1677 to 2262)", where, i, day, nanos)
				}
				binary.LittleEndian.PutUint64(buf[8*i:], uint64(ns))
			}
			break
		}
		buf = v.fixed
	case datatype.KindDecimal128, datatype.KindDecimal256:
		if phys == format.Int32 || phys == format.Int64 {
			buf = v.fixed
			break
		}
		w := 16
		if t.Kind() == datatype.KindDecimal256 {
			w = 32
		}
		buf = make([]byte, n*w)
		for i := range n {
			var be []byte
			if phys == format.ByteArray {
				be = v.bin.Value(i)
			} else {
				be = v.fixed[i*v.width : (i+1)*v.width]
			}
			if len(be) > w {
				return nil, invalidf("%s: decimal of %d bytes does not fit %d", where, len(be), w)
			}
			bigEndianToLE(buf[i*w:(i+1)*w], be)
		}
	default:
		buf = v.fixed
	}
	return makeArray(t, n, nil, memory.NewBuffer(buf))
}

// bigEndianToLE writes the big-endian two's complement integer be into
// dst, little-endian and sign-extended.
func bigEndianToLE(dst, be []byte) {
	var fill byte
	if len(be) > 0 && be[0]&0x80 != 0 {
		fill = 0xff
	}
	for i := range dst {
		dst[i] = fill
	}
	for i, b := range be {
		dst[len(be)-1-i] = b
	}
}

func makeArray(t datatype.DataType, n int, bufs ...*memory.Buffer) (array.Array, error) {
	a, err := array.Make(array.NewData(t, n, bufs, nil, 0, 0))
	if err != nil {
		return nil, invalidf("%v", err)
	}
	return a, nil
}

// packBools packs booleans of a byte each (0 or 1) into a bitmap, eight
// at a time.
func packBools(b []byte) []byte {
	bits := make([]byte, (len(b)+7)/8)
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := b[i : i+8 : i+8]
		bits[i>>3] = x[0]&1 | x[1]&1<<1 | x[2]&1<<2 | x[3]&1<<3 | x[4]&1<<4 | x[5]&1<<5 | x[6]&1<<6 | x[7]&1<<7
	}
	for ; i < len(b); i++ {
		bits[i>>3] |= b[i] & 1 << (i & 7)
	}
	return bits
}
