// Package simd holds the vectorised kernels of the library: bitmap logic
// and popcount, bit realignment, UTF-8 validation, substring search,
// sums, minima and maxima with or without a validity bitmap, elementwise
// arithmetic, comparisons into bitmaps, byte swapping and square roots.
//
// Every kernel is one small Go function that checks its preconditions and
// handles the tails; behind it sit up to three implementations (levels):
//
//   - generic: pure Go, the reference every other level is tested against;
//   - avx2: hand-written AVX2 assembly (amd64);
//   - avx512: hand-written AVX-512 assembly (amd64; needs F, BW, DQ, VL
//     and VPOPCNTDQ).
//
// The best level the CPU supports is chosen once at start-up with
// golang.org/x/sys/cpu; [Level] reports it. The environment variable
// ALKAID_SIMD=generic|avx2|avx512 selects a lower level (for tests and
// benchmarks), and the build tag noasm leaves only the generic level.
//
// What is in assembly (both vector levels unless noted):
//
//   - And, Or, Xor, AndNot, Not, PopCount (VPOPCNTQ on avx512, a nibble
//     lookup on avx2), ShiftBits; the binary bitmap operations store with
//     non-temporal hints when the output is 4 MiB or more;
//   - sums of every integer width and of float32 and float64, with and
//     without a validity bitmap;
//   - Min and Max of int32, int64, float32 and float64, with and without a
//     validity bitmap; Min and Max of 8- and 16-bit integers and of every
//     unsigned type use the generic Go loop at every level;
//   - Add, Sub, Mul (array–array and array–scalar) of int32, int64,
//     float32 and float64, except int64 Mul on avx2 (no 64-bit vector
//     multiply there; plain Go);
//   - Eq, Ne, Lt, Le, Gt, Ge of the same four types into a bitmap;
//   - ByteSwap16/32/64;
//   - Sqrt64 (VSQRTPD, avx2 code at both levels; exactly rounded, so
//     math.Sqrt bit for bit);
//   - Concat (the string bytes of a variable-size layout, avx2 code at
//     both levels): values of up to 32 bytes move with one 32-byte load
//     and store, never loading across a page end past the value;
//   - CopyValid of 4- and 8-byte elements: masked loads under the
//     validity bits (avx2: lane masks from the broadcast bits), with
//     non-temporal stores for large outputs.
//   - Index of needles of two bytes or more (avx2 code at both levels):
//     32 positions per step where the first and last bytes both match,
//     the bytes between compared in Go;
//   - ValidUTF8 (avx2 code at both levels): 32 bytes per step, each
//     byte classified with the one before it by three nibble lookups,
//     blocks of ASCII only checked for a character left open before them.
//
// Each vector kernel handles whole vectors; the Go glue runs the generic
// code on heads (to reach a byte-aligned validity bit) and tails, so every
// length and alignment is accepted.
//
// Semantics shared by all levels: integer sums wrap (signed into int64,
// unsigned into uint64), float sums accumulate in float64 but in an order
// that depends on the level, so they may differ in the last bits; Min and
// Max ignore NaN unless every (valid) value is NaN, order -0 before +0, and
// report ok == false when there is no valid value. Bitmaps use LSB bit
// numbering: element i is bit i%8 of byte i/8 (after the bit offset).
package simd
