package compute

import (
	"sync"

	"math"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// castNumbers converts between the integer, float and boolean types.
func castNumbers(a array.Array, to datatype.DataType, c *config) (array.Array, error) {
	if datatype.Equal(a.DataType(), to) {
		return a, nil
	}
	f := kernelsOf(a.DataType()).cast
	if f == nil {
		return nil, c.unsupported(a.DataType(), to)
	}
	return f(a, to, c)
}

// castHalf converts float16 values, through float32.
func castHalf(a array.Array, to datatype.DataType, c *config) (array.Array, error) {
	v := a.(*array.Float16).Values()
	f := make([]float32, len(v))
	for i, x := range v {
		f[i] = x.Float32()
	}
	d := a.Data()
	valid, off := bitmapOf(d)
	return numSlice(f, valid, off, d.NullCount, a.DataType(), to, c)
}

// castBool converts booleans as the numbers 0 and 1.
func castBool(a array.Array, to datatype.DataType, c *config) (array.Array, error) {
	b := a.(*array.Boolean)
	u := make([]uint8, b.Len())
	for i := range u {
		if b.Value(i) {
			u[i] = 1
		}
	}
	d := a.Data()
	valid, off := bitmapOf(d)
	return numSlice[uint8](u, valid, off, d.NullCount, a.DataType(), to, c)
}

func castFrom[S Number](a array.Array, to datatype.DataType, c *config) (array.Array, error) {
	d := a.Data()
	valid, off := bitmapOf(d)
	return numSlice(a.(*array.Primitive[S]).Values(), valid, off, d.NullCount, a.DataType(), to, c)
}

// numSlice converts v (whose nulls the bitmap valid marks) to to.
func numSlice[S Number](v []S, valid []byte, off, nulls int, from, to datatype.DataType, c *config) (array.Array, error) {
	switch to.Kind() {
	case datatype.KindInt8:
		return castTo[S, int8](v, valid, off, nulls, from, to, c)
	case datatype.KindInt16:
		return castTo[S, int16](v, valid, off, nulls, from, to, c)
	case datatype.KindInt32:
		return castTo[S, int32](v, valid, off, nulls, from, to, c)
	case datatype.KindInt64:
		return castTo[S, int64](v, valid, off, nulls, from, to, c)
	case datatype.KindUint8:
		return castTo[S, uint8](v, valid, off, nulls, from, to, c)
	case datatype.KindUint16:
		return castTo[S, uint16](v, valid, off, nulls, from, to, c)
	case datatype.KindUint32:
		return castTo[S, uint32](v, valid, off, nulls, from, to, c)
	case datatype.KindUint64:
		return castTo[S, uint64](v, valid, off, nulls, from, to, c)
	case datatype.KindFloat32:
		return castTo[S, float32](v, valid, off, nulls, from, to, c)
	case datatype.KindFloat64:
		return castTo[S, float64](v, valid, off, nulls, from, to, c)
	case datatype.KindFloat16:
		f, err := castTo[S, float32](v, valid, off, nulls, from, datatype.Float32, c)
		if err != nil {
			return nil, err
		}
		src := f.(*array.Float32).Values()
		buf, h := newValues[datatype.Float16](len(src))
		for i, x := range src {
			h[i] = datatype.Float16From(x)
		}
		return primitiveOut(to, len(src), f.Data().ValidityBuffer(), nulls, buf), nil
	case datatype.KindBool:
		n := len(v)
		vals := memory.Allocate(nil, bitutil.BytesForBits(n))
		vb := vals.Bytes()
		for i, x := range v {
			if x != 0 {
				bitutil.SetBit(vb, i)
			}
		}
		return boolOut(n, vals, copyValidity(valid, off, n, nulls), nulls), nil
	}
	return nil, errf(ErrNotSupported, "cast %s to %s", from, to)
}

// copyValidity returns the bitmap of n slots from bit off of valid, from
// bit 0 (nil when there are no nulls).
// The bitmap is shared, not copied, when off is a whole number of bytes.
func copyValidity(valid []byte, off, n, nulls int) *memory.Buffer {
	if valid == nil || nulls == 0 {
		return nil
	}
	if off%8 == 0 {
		return memory.NewBuffer(valid[off/8:])
	}
	buf := memory.Allocate(nil, bitutil.BytesForBits(n))
	bitutil.CopyBits(buf.Bytes(), 0, valid, off, n)
	return buf
}

func isFloat[T Number]() bool {
	var x T = 1
	x /= 2
	return x != 0
}

// castTo converts every slot, then checks the valid ones unless the
// options allow every result.
func castTo[S, D Number](v []S, valid []byte, off, nulls int, from, to datatype.DataType, c *config) (array.Array, error) {
	n := len(v)
	buf, out := newValues[D](n)
	if c.parallel(n) {
		// Memory-bound: two cores move more bytes than one.
		m := n / 2
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			convert(out[m:], v[m:])
		}()
		convert(out[:m], v[:m])
		wg.Wait()
	} else {
		convert(out, v)
	}
	fromFloat, toFloat := isFloat[S](), isFloat[D]()
	switch {
	case toFloat:
	case fromFloat:
		lo, hi := intRange[D]()
		for i, x := range v {
			if valid != nil && !bitutil.GetBit(valid, off+i) {
				continue
			}
			f := float64(x)
			if !(f >= lo && f < hi) {
				if c.overflow {
					continue
				}
				return nil, castFailure(ErrOverflow, from, to, i, x)
			}
			if !c.truncate && f != math.Trunc(f) {
				return nil, castFailure(ErrTruncation, from, to, i, x)
			}
		}
	case !c.overflow && !fits[S, D]():
		for i, x := range v {
			if S(out[i]) != x || (x < 0) != (out[i] < 0) {
				if valid != nil && !bitutil.GetBit(valid, off+i) {
					continue
				}
				return nil, castFailure(ErrOverflow, from, to, i, x)
			}
		}
	}
	return primitiveOut(to, n, copyValidity(valid, off, n, nulls), nulls, buf), nil
}

// fits reports whether every integer of S is one of D.
func fits[S, D Number]() bool {
	var s S
	var d D
	sSigned, dSigned := S(0)-1 < 0, D(0)-1 < 0
	sBits, dBits := sizeOf(s), sizeOf(d)
	switch {
	case sSigned == dSigned:
		return sBits <= dBits
	case !sSigned:
		return sBits < dBits
	}
	return false
}

func sizeOf[T Number](T) int {
	var x T
	switch any(x).(type) {
	case int8, uint8:
		return 1
	case int16, uint16:
		return 2
	case int32, uint32, float32:
		return 4
	}
	return 8
}

// intRange is [lo, hi) of the integer type D as floats.
func intRange[D Number]() (lo, hi float64) {
	var d D
	bits := float64(8 * sizeOf(d))
	if D(0)-1 < 0 {
		return -math.Exp2(bits - 1), math.Exp2(bits - 1)
	}
	return 0, math.Exp2(bits)
}

// convert sets dst[i] = D(src[i]), four at a time.
func convert[S, D Number](dst []D, src []S) {
	dst = dst[:len(src)]
	i := 0
	for ; i+4 <= len(src); i += 4 {
		s := src[i : i+4 : i+4]
		d := dst[i : i+4 : i+4]
		d[0], d[1], d[2], d[3] = D(s[0]), D(s[1]), D(s[2]), D(s[3])
	}
	for ; i < len(src); i++ {
		dst[i] = D(src[i])
	}
}
