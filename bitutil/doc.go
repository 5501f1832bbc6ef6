// Package bitutil reads and writes validity bitmaps: bit strings in LSB bit
// numbering (bit i is bit i%8 of byte i/8) addressed at any bit offset, as
// the Alkaid format stores them.
//
// Every operation is exact at every offset and length: bits of a
// destination outside the addressed range are never modified. Ranges whose
// offsets are byte aligned run on the vector kernels of internal/simd
// directly; ranges whose offsets differ are first realigned in small
// in-cache chunks and then handed to the same kernels. Scans take uniform
// 64-bit words at once: [AllSet] and [NoneSet] stop at the first
// difference, [SetIndices] skips clear words and [Runs] crosses all-set and
// all-clear words without looking at single bits.
//
// Functions panic only on programmer errors: a negative offset or length,
// or a slice too short to hold the addressed bits.
package bitutil
