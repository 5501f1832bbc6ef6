package bitutil

import (
	"encoding/binary"
	"sync"

	"github.com/alkaid-go/alkaid/internal/simd"
)

// op is a bitwise operation on words; src2 is ignored by the unary ones.
type op int

const (
	opCopy op = iota
	opNot
	opAnd
	opOr
	opXor
	opAndNot
)

func (o op) word(x, y uint64) uint64 {
	switch o {
	case opCopy:
		return x
	case opNot:
		return ^x
	case opAnd:
		return x & y
	case opOr:
		return x | y
	case opXor:
		return x ^ y
	default:
		return x &^ y
	}
}

// bytes applies o to whole, byte-aligned byte ranges with simd.
func (o op) bytes(dst, a, b []byte) {
	switch o {
	case opCopy:
		copy(dst, a)
	case opNot:
		simd.Not(dst, a)
	case opAnd:
		simd.And(dst, a, b)
	case opOr:
		simd.Or(dst, a, b)
	case opXor:
		simd.Xor(dst, a, b)
	default:
		simd.AndNot(dst, a, b)
	}
}

const (
	// chunk is the number of bytes realigned at a time: two such scratch
	// buffers and the destination chunk stay in L1.
	chunk = 4096
	// smallMid is the size below which misaligned middles run word by
	// word in Go rather than through scratch buffers.
	smallMid = 128
)

var scratchPool = sync.Pool{New: func() any { return new([2 * chunk]byte) }}

// apply computes dst[dOff+i] = o(a[aOff+i], b[bOff+i]) for i < n. Unary
// operations pass b == nil.
func apply(o op, dst []byte, dOff int, a []byte, aOff int, b []byte, bOff int, n int) {
	if n == 0 {
		return
	}
	// Head: bring the destination to a byte boundary.
	if h := (8 - dOff&7) & 7; h > 0 {
		h = min(h, n)
		storeBits(dst, dOff, h, o.word(loadBits(a, aOff, h), load2(b, bOff, h)))
		dOff, aOff, bOff, n = dOff+h, aOff+h, bOff+h, n-h
	}
	if nb := n >> 3; nb > 0 {
		mid := dst[dOff>>3 : dOff>>3+nb]
		switch {
		case aOff&7 == 0 && (b == nil || bOff&7 == 0):
			var bb []byte
			if b != nil {
				bb = b[bOff>>3 : bOff>>3+nb]
			}
			o.bytes(mid, a[aOff>>3:aOff>>3+nb], bb)
		case nb < smallMid:
			wordwise(o, mid, a, aOff, b, bOff)
		case b == nil:
			// Realign straight into dst, then finish in place.
			simd.ShiftBits(mid, a[aOff>>3:min(aOff>>3+nb+1, len(a))], uint(aOff&7))
			if o == opNot {
				simd.Not(mid, mid)
			}
		default:
			chunked(o, mid, a, aOff, b, bOff)
		}
		dOff, aOff, bOff, n = dOff+nb*8, aOff+nb*8, bOff+nb*8, n-nb*8
	}
	if n > 0 {
		storeBits(dst, dOff, n, o.word(loadBits(a, aOff, n), load2(b, bOff, n)))
	}
}

func load2(b []byte, off, m int) uint64 {
	if b == nil {
		return 0
	}
	return loadBits(b, off, m)
}

// wordwise fills the whole bytes of dst from bits starting at aOff and bOff.
func wordwise(o op, dst []byte, a []byte, aOff int, b []byte, bOff int) {
	i := 0
	for ; i+8 <= len(dst); i += 8 {
		binary.LittleEndian.PutUint64(dst[i:], o.word(loadBits(a, aOff+i*8, 64), load2(b, bOff+i*8, 64)))
	}
	for ; i < len(dst); i++ {
		dst[i] = byte(o.word(loadBits(a, aOff+i*8, 8), load2(b, bOff+i*8, 8)))
	}
}

// realign returns n bytes holding the bits of src from bit off: src itself
// when off is byte aligned, else buf filled by simd.ShiftBits.
func realign(buf, src []byte, off, n int) []byte {
	q := off >> 3
	if off&7 == 0 {
		return src[q : q+n]
	}
	buf = buf[:n]
	simd.ShiftBits(buf, src[q:min(q+n+1, len(src))], uint(off&7))
	return buf
}

// chunked runs a binary operation whose inputs are not both byte aligned:
// each input is realigned chunk by chunk into an in-cache scratch buffer.
func chunked(o op, dst []byte, a []byte, aOff int, b []byte, bOff int) {
	s := scratchPool.Get().(*[2 * chunk]byte)
	for i := 0; i < len(dst); i += chunk {
		c := min(chunk, len(dst)-i)
		pa := realign(s[:chunk], a, aOff+i*8, c)
		pb := realign(s[chunk:], b, bOff+i*8, c)
		o.bytes(dst[i:i+c], pa, pb)
	}
	scratchPool.Put(s)
}

func check3(what string, dst []byte, dOff int, a []byte, aOff int, b []byte, bOff int, n int) {
	checkRange(what, dst, dOff, n)
	checkRange(what, a, aOff, n)
	checkRange(what, b, bOff, n)
}

// CopyBits copies bits [srcOff, srcOff+n) of src to [dstOff, dstOff+n) of
// dst; the other bits of dst are untouched. dst and src must not overlap
// unless dstOff == srcOff on the same memory. It panics if either range is
// not inside its slice.
func CopyBits(dst []byte, dstOff int, src []byte, srcOff int, n int) {
	checkRange("CopyBits", dst, dstOff, n)
	checkRange("CopyBits", src, srcOff, n)
	apply(opCopy, dst, dstOff, src, srcOff, nil, 0, n)
}

// Not sets bit dstOff+i of dst to the inverse of bit srcOff+i of src for
// i < n; the other bits of dst are untouched. Aliasing and panics are as
// for [CopyBits].
func Not(dst []byte, dstOff int, src []byte, srcOff int, n int) {
	checkRange("Not", dst, dstOff, n)
	checkRange("Not", src, srcOff, n)
	apply(opNot, dst, dstOff, src, srcOff, nil, 0, n)
}

// And sets bit dstOff+i of dst to bit aOff+i of a AND bit bOff+i of b, for
// i < n; the other bits of dst are untouched. dst may share memory with an
// input only at that input's offset (in place). It panics if any range is
// not inside its slice.
func And(dst []byte, dstOff int, a []byte, aOff int, b []byte, bOff int, n int) {
	check3("And", dst, dstOff, a, aOff, b, bOff, n)
	apply(opAnd, dst, dstOff, a, aOff, b, bOff, n)
}

// Or is [And] with OR.
func Or(dst []byte, dstOff int, a []byte, aOff int, b []byte, bOff int, n int) {
	check3("Or", dst, dstOff, a, aOff, b, bOff, n)
	apply(opOr, dst, dstOff, a, aOff, b, bOff, n)
}

// Xor is [And] with XOR.
func Xor(dst []byte, dstOff int, a []byte, aOff int, b []byte, bOff int, n int) {
	check3("Xor", dst, dstOff, a, aOff, b, bOff, n)
	apply(opXor, dst, dstOff, a, aOff, b, bOff, n)
}

// AndNot is [And] with a AND NOT b.
func AndNot(dst []byte, dstOff int, a []byte, aOff int, b []byte, bOff int, n int) {
	check3("AndNot", dst, dstOff, a, aOff, b, bOff, n)
	apply(opAndNot, dst, dstOff, a, aOff, b, bOff, n)
}

// AndAlloc returns a new bitmap of [BytesForBits](n) bytes holding, from
// bit 0, a AND b over n bits (trailing bits zero). It panics like [And].
func AndAlloc(a []byte, aOff int, b []byte, bOff int, n int) []byte {
	dst := make([]byte, BytesForBits(n))
	And(dst, 0, a, aOff, b, bOff, n)
	return dst
}

// OrAlloc is [AndAlloc] with OR.
func OrAlloc(a []byte, aOff int, b []byte, bOff int, n int) []byte {
	dst := make([]byte, BytesForBits(n))
	Or(dst, 0, a, aOff, b, bOff, n)
	return dst
}

// XorAlloc is [AndAlloc] with XOR.
func XorAlloc(a []byte, aOff int, b []byte, bOff int, n int) []byte {
	dst := make([]byte, BytesForBits(n))
	Xor(dst, 0, a, aOff, b, bOff, n)
	return dst
}

// AndNotAlloc is [AndAlloc] with a AND NOT b.
func AndNotAlloc(a []byte, aOff int, b []byte, bOff int, n int) []byte {
	dst := make([]byte, BytesForBits(n))
	AndNot(dst, 0, a, aOff, b, bOff, n)
	return dst
}

// NotAlloc returns a new bitmap of [BytesForBits](n) bytes holding, from
// bit 0, the inverse of n bits of src from srcOff (trailing bits zero).
func NotAlloc(src []byte, srcOff int, n int) []byte {
	dst := make([]byte, BytesForBits(n))
	Not(dst, 0, src, srcOff, n)
	return dst
}
