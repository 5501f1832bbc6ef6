package simd

import (
	"os"
	"unsafe"
)

// Signed is the set of signed integer element types the aggregate kernels accept.
type Signed interface {
	~int8 | ~int16 | ~int32 | ~int64
}

// Unsigned is the set of unsigned integer element types the aggregate kernels accept.
type Unsigned interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Float is the set of floating-point element types the kernels accept.
type Float interface {
	~float32 | ~float64
}

// Elem is the set of element types of the elementwise arithmetic and
// comparison kernels.
type Elem interface {
	~int32 | ~int64 | ~float32 | ~float64
}

// number is every element type of the aggregate kernels.
type number interface {
	Signed | Unsigned | Float
}

// aggKernels holds the aggregates of one element type T accumulating in S.
// bits == nil means every element is valid; otherwise element i is valid
// when bit off+i of bits is set. min and max report found == false when no
// valid value (for floats: no valid non-NaN value) was seen.
type aggKernels[T number, S int64 | uint64 | float64] struct {
	sum      func(x []T, bits []byte, off int) S
	min, max func(x []T, bits []byte, off int) (v T, found bool)
}

// Comparison predicates, the index into elemKernels.cmp.
const (
	cmpEq = iota
	cmpNe
	cmpLt
	cmpLe
	cmpGt
	cmpGe
	numCmp
)

// elemKernels holds the elementwise kernels of one element type. All slices
// have the same length (dst of cmp: at least BytesForBits of it). The
// scalar forms take s in place of b.
type elemKernels[T Elem] struct {
	add, sub, mul    func(dst, a, b []T)
	addS, subS, mulS func(dst, a []T, s T)
	cmp              [numCmp]func(dst []byte, a, b []T)
	cmpS             [numCmp]func(dst []byte, a []T, s T)
}

// kernels is one complete implementation level. Wrappers check the
// preconditions, so every function here may assume them.
type kernels struct {
	level string

	and, or, xor, andNot func(dst, a, b []byte) // len(a), len(b) == len(dst)
	not                  func(dst, src []byte)  // len(src) == len(dst)
	popCount             func(b []byte) int
	shiftBits            func(dst, src []byte, shift uint) // len(src) >= len(dst), 0 < shift < 8

	i8  aggKernels[int8, int64]
	i16 aggKernels[int16, int64]
	i32 aggKernels[int32, int64]
	i64 aggKernels[int64, int64]
	u8  aggKernels[uint8, uint64]
	u16 aggKernels[uint16, uint64]
	u32 aggKernels[uint32, uint64]
	u64 aggKernels[uint64, uint64]
	f32 aggKernels[float32, float64]
	f64 aggKernels[float64, float64]

	ei32 elemKernels[int32]
	ei64 elemKernels[int64]
	ef32 elemKernels[float32]
	ef64 elemKernels[float64]

	bswap16 func(dst, src []uint16)
	bswap32 func(dst, src []uint32)
	bswap64 func(dst, src []uint64)

	// sqrt64 is Sqrt64 (len(src) == len(dst)).
	sqrt64 func(dst, src []float64)

	// ordered32/64 return how many of the n leading pairs of int32/int64
	// elements at p are known not to decrease (see orderedGeneric).
	ordered32, ordered64 func(p unsafe.Pointer, n int) int

	// concat holds the Concat kernels, indexed by concatIndex; nil entries
	// (all of them at the generic level) use concatGeneric.
	concat [4]concatKernel

	// copyValid32/64 are CopyValid for 4- and 8-byte elements.
	copyValid32 func(dst, src []uint32, bits []byte, off int)
	copyValid64 func(dst, src []uint64, bits []byte, off int)

	// validUTF8 is ValidUTF8.
	validUTF8 func(b []byte) bool

	// index is Index.
	index func(s, needle []byte) int

	// unpack32 is UnpackBits32 over whole groups, their reach in src.
	unpack32 func(dst []uint32, src []byte, bw int)
}

// levels lists the implementations usable on this machine, slowest first;
// levels[0] is always the pure-Go reference. The amd64 init adds more.
var levels = []*kernels{&generic}

// active is the implementation the exported functions use. It is chosen
// once, at start-up; only tests switch it.
var active = &generic

func init() {
	addArchLevels()
	active = pickLevel(os.Getenv("ALKAID_SIMD"))
}

// pickLevel returns the level named want, or the best one when want is
// empty, unknown or not supported here.
func pickLevel(want string) *kernels {
	for _, k := range levels {
		if k.level == want {
			return k
		}
	}
	return levels[len(levels)-1]
}

// Level reports the implementation in use: "generic" (pure Go), "avx2" or
// "avx512". The best level the CPU supports is chosen at start-up; the
// environment variable ALKAID_SIMD=generic|avx2|avx512 picks a lower one
// (an unknown or unsupported value is ignored).
func Level() string { return active.level }

// cast reinterprets a slice of T as a slice of U of the same element size.
func cast[U, T any](x []T) []U {
	return unsafe.Slice((*U)(unsafe.Pointer(unsafe.SliceData(x))), len(x))
}
