package parquet

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet/internal/encoding"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// physicalOf turns the leaf values of a shredded column (no nulls) into
// Parquet physical values.
func physicalOf(l *wleaf, a array.Array) (*values, error) {
	n := a.Len()
	v := &values{n: n, width: l.width}
	if l.vtype.Kind() == datatype.KindNull {
		// Every slot is null: no value to write.
		return &values{width: l.width}, nil
	}
	switch l.phys {
	case format.Boolean:
		b, ok := a.(*array.Boolean)
		if !ok {
			return nil, unsupportedf("booleans of %T", a)
		}
		v.bools = make([]byte, n)
		for i := range n {
			if b.Value(i) {
				v.bools[i] = 1
			}
		}
		return v, nil
	case format.ByteArray:
		if b, ok := a.(*array.Binary[int32]); ok && len(b.Offsets()) == n+1 {
			// The array's own offsets and bytes: byte arrays are only
			// read from here on (offsets need not start at zero).
			v.bin = encoding.Binary{Offsets: b.Offsets(), Data: b.ValueBytes()}
			return v, nil
		}
		v.bin.Offsets = make([]int32, 1, n+1)
		switch b := a.(type) {
		case *array.Binary[int32]:
			if offs := b.Offsets(); len(offs) > n {
				v.bin.Data = make([]byte, 0, int(offs[n]-offs[0]))
			}
		case *array.Binary[int64]:
			if offs := b.Offsets(); len(offs) > n && offs[n]-offs[0] <= math.MaxInt32 {
				v.bin.Data = make([]byte, 0, int(offs[n]-offs[0]))
			}
		}
		for i := range n {
			var s []byte
			switch b := a.(type) {
			case *array.Binary[int32]:
				s = b.Value(i)
			case *array.Binary[int64]:
				s = b.Value(i)
			case *array.BinaryView:
				s = b.Value(i)
			default:
				return nil, unsupportedf("byte arrays of %T", a)
			}
			if len(v.bin.Data)+len(s) > math.MaxInt32 {
				return nil, limitf("byte arrays of a column chunk exceed 2 GiB")
			}
			v.bin.Data = append(v.bin.Data, s...)
			v.bin.Offsets = append(v.bin.Offsets, int32(len(v.bin.Data)))
		}
		return v, nil
	}
	raw, w, ok := array.FixedWidthBytes(a)
	if !ok {
		return nil, unsupportedf("values of %T", a)
	}
	k := l.vtype.Kind()
	if f := secondsFactor(l.vtype); f != 0 {
		return scaled(v, raw, w, l.width, f)
	}
	switch {
	case w < 4 && l.phys == format.Int32:
		v.fixed = make([]byte, 4*n)
		for i := range n {
			var x uint32
			switch {
			case w == 1 && l.signed:
				x = uint32(int32(int8(raw[i])))
			case w == 1:
				x = uint32(raw[i])
			case l.signed:
				x = uint32(int32(int16(binary.LittleEndian.Uint16(raw[2*i:]))))
			default:
				x = uint32(binary.LittleEndian.Uint16(raw[2*i:]))
			}
			binary.LittleEndian.PutUint32(v.fixed[4*i:], x)
		}
	case (k == datatype.KindDecimal128 || k == datatype.KindDecimal256) && l.phys == format.FixedLenByteArray:
		v.fixed = make([]byte, len(raw))
		for i := range n {
			src, dst := raw[i*w:(i+1)*w], v.fixed[i*w:(i+1)*w]
			for j := range w {
				dst[j] = src[w-1-j]
			}
		}
	default:
		if w != l.width {
			return nil, unsupportedf("values of %d bytes for a column of %d", w, l.width)
		}
		v.fixed = raw
	}
	return v, nil
}

// stats computes the statistics of a column chunk's values.
func stats(l *wleaf, v *values, nulls int64) *format.Statistics {
	st := &format.Statistics{NullCount: ptr(nulls)}
	if v.n == 0 {
		return st
	}
	var lo, hi []byte
	switch l.phys {
	case format.Boolean:
		var seen [2]bool
		for _, b := range v.bools {
			seen[b&1] = true
		}
		lo, hi = []byte{1}, []byte{0}
		if seen[0] {
			lo = []byte{0}
		}
		if seen[1] {
			hi = []byte{1}
		}
	case format.Int32, format.Int64:
		w := l.width
		var lo64, hi64 int
		switch {
		case w == 4 && l.signed:
			lo64, hi64 = minMaxIndex(v.n, func(i int) int32 { return int32(binary.LittleEndian.Uint32(v.fixed[4*i:])) })
		case w == 4:
			lo64, hi64 = minMaxIndex(v.n, func(i int) uint32 { return binary.LittleEndian.Uint32(v.fixed[4*i:]) })
		case l.signed:
			lo64, hi64 = minMaxIndex(v.n, func(i int) int64 { return int64(binary.LittleEndian.Uint64(v.fixed[8*i:])) })
		default:
			lo64, hi64 = minMaxIndex(v.n, func(i int) uint64 { return binary.LittleEndian.Uint64(v.fixed[8*i:]) })
		}
		lo, hi = v.fixed[lo64*w:(lo64+1)*w], v.fixed[hi64*w:(hi64+1)*w]
	case format.Float, format.Double:
		w := l.width
		get := func(i int) float64 {
			if w == 4 {
				return float64(math.Float32frombits(binary.LittleEndian.Uint32(v.fixed[4*i:])))
			}
			return math.Float64frombits(binary.LittleEndian.Uint64(v.fixed[8*i:]))
		}
		mn, mx, any := math.Inf(1), math.Inf(-1), false
		for i := range v.n {
			x := get(i)
			if x != x {
				continue
			}
			any = true
			mn, mx = math.Min(mn, x), math.Max(mx, x)
		}
		if !any {
			return st
		}
		if mn == 0 {
			mn = math.Copysign(0, -1)
		}
		if mx == 0 {
			mx = 0
		}
		enc := func(x float64) []byte {
			if w == 4 {
				return binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(x)))
			}
			return binary.LittleEndian.AppendUint64(nil, math.Float64bits(x))
		}
		lo, hi = enc(mn), enc(mx)
	case format.ByteArray:
		lo, hi = v.bin.Value(0), v.bin.Value(0)
		for i := 1; i < v.n; i++ {
			x := v.bin.Value(i)
			if bytes.Compare(x, lo) < 0 {
				lo = x
			}
			if bytes.Compare(x, hi) > 0 {
				hi = x
			}
		}
	default:
		return st
	}
	st.MinValue, st.MaxValue = append([]byte{}, lo...), append([]byte{}, hi...)
	return st
}

// valueBytes estimates the encoded size of values [i, j).
func valueBytes(v *values, i, j int) int {
	switch {
	case v.bools != nil:
		return (j - i + 7) / 8
	case v.width > 0:
		return (j - i) * v.width
	case len(v.bin.Offsets) > 0:
		return int(v.bin.Offsets[j]-v.bin.Offsets[i]) + 4*(j-i)
	}
	return 0
}

// slice returns values [i, j).
func (v *values) slice(i, j int) *values {
	out := &values{width: v.width, n: j - i}
	switch {
	case v.bools != nil:
		out.bools = v.bools[i:j]
	case v.width > 0:
		out.fixed = v.fixed[i*v.width : j*v.width]
	default:
		out.bin = encoding.Binary{Offsets: v.bin.Offsets[i : j+1], Data: v.bin.Data}
	}
	return out
}

// scaled converts raw values of width w into physical values of width pw
// with the factor of secondsFactor; a date64 that is not a whole number
// of days is refused rather than truncated.
func scaled(v *values, raw []byte, w, pw int, f int64) (*values, error) {
	v.fixed = make([]byte, v.n*pw)
	for i := range v.n {
		var x int64
		if w == 4 {
			x = int64(int32(binary.LittleEndian.Uint32(raw[4*i:])))
		} else {
			x = int64(binary.LittleEndian.Uint64(raw[8*i:]))
		}
		if f > 0 {
			x *= f
		} else {
			if x%-f != 0 {
				return nil, unsupportedf("date64 value %d is not a whole number of days", x)
			}
			x /= -f
		}
		if pw == 4 {
			binary.LittleEndian.PutUint32(v.fixed[4*i:], uint32(x))
		} else {
			binary.LittleEndian.PutUint64(v.fixed[8*i:], uint64(x))
		}
	}
	return v, nil
}

// minMaxIndex returns the indices of the first smallest and first
// largest of n values (n > 0).
func minMaxIndex[T int32 | uint32 | int64 | uint64](n int, at func(int) T) (int, int) {
	lo, hi := 0, 0
	mn, mx := at(0), at(0)
	for i := 1; i < n; i++ {
		x := at(i)
		if x < mn {
			mn, lo = x, i
		}
		if x > mx {
			mx, hi = x, i
		}
	}
	return lo, hi
}
